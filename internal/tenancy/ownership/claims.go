/*
Copyright 2026 The provider-aws-services Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package ownership

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	coordinationv1 "k8s.io/api/coordination/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/internal/kube/intern"
	"github.com/cloudkinds/provider-aws-services/internal/kube/kubeclient"
)

// An ownership claim says "this AWS identity (account, region, kind and the
// fields AWS keeps unique) belongs to this object (its UID)". It is a Lease
// in the provider's own namespace, which tenants cannot write, named from a
// hash of the identity, so that the API server, which creates an object only
// if none of its name exists, picks exactly one of two objects that ask at
// once. Nothing a tenant can write to their own object makes it an owner:
// the claim does. (Not Crossplane's claims, the namespaced face of a
// composite.)
const (
	// LabelClaim marks the provider's ownership claims; the provider caches
	// only Leases of its namespace that carry it.
	LabelClaim = "ownership.services.k8s.aws/claim"
	// LabelHolder is the UID of the object that holds a claim.
	LabelHolder = "ownership.services.k8s.aws/holder-uid"
	// AnnotationHandedTo on a Retained claim hands the resource it keeps to
	// another namespace: an admin's act, since only admins write the
	// provider's namespace. That namespace's objects may then adopt it,
	// whatever its owner tags say.
	AnnotationHandedTo = "ownership.services.k8s.aws/handed-to"

	annotationHolder   = "ownership.services.k8s.aws/holder"
	annotationIdentity = "ownership.services.k8s.aws/identity"
	annotationPurpose  = "ownership.services.k8s.aws/purpose"
	// AnnotationClaimsSince on EraLease is when the provider began to
	// keep claims (RFC 3339).
	AnnotationClaimsSince = "ownership.services.k8s.aws/claims-since"

	claimPrefix = "aws-owner-"
	// EraLease is the Lease that says since when the provider keeps
	// claims: objects made before then were made by a release without
	// them, and only they may be carried over by their own records.
	EraLease = claimPrefix + "claims-since"
)

// A Purpose is why an object claimed an identity.
type Purpose string

// Purposes.
const (
	// ToCreate: the object is about to create the resource. Only the
	// owner tags its create carries (or, for a kind AWS cannot tag, a
	// creation after the claim) make an existing resource its own.
	ToCreate Purpose = "create"
	// Created: the object's create made the resource: AWS answered it, or
	// the evidence after a lost answer showed it (its owner tags, or for a
	// kind AWS cannot tag, when AWS made it). Only this, which the provider
	// alone writes, makes the resource the object's without a look at the
	// evidence: an ARN or a create record in the object, which its
	// namespace may write, never does.
	Created Purpose = "created"
	// Adopted: the object's user asked to adopt the resource that exists.
	Adopted Purpose = "adopt"
	// Carried: the object made the resource under a release of the
	// provider that kept no claims, and its records and owner tags say so.
	Carried Purpose = "carried"
	// Refused: AWS answered the object's create with an error that may
	// heal by itself (throttling), or found the identity taken, so nothing
	// it made exists; whatever appears before its next create is not its
	// work. The object keeps its place: the claim is still its own.
	Refused Purpose = "create-refused"
	// Denied: AWS refused the object's create for good (invalid input,
	// access denied, a count quota: awserrors.RefusedForGood), so nothing
	// it made exists, and the same create will not succeed until someone
	// changes something. A name is held only while AWS may still accept
	// its create: the claim records the refusal, but holds nothing, and
	// any object may take it (Take). Its holder takes it again for its
	// next create, if no other object took it meanwhile.
	Denied Purpose = "create-denied"
	// Retained: the object was deleted and let its resource go (deletion
	// policy retain, management policies without Delete). The object is
	// gone, but its namespace keeps the resource: only an object of that
	// namespace may take the claim, until the resource is gone from AWS or
	// an admin deletes the claim to hand it over.
	Retained Purpose = "retained"
)

const (
	errGetClaim     = "cannot read the ownership claim"
	errCreateClaim  = "cannot record the ownership claim"
	errReleaseClaim = "cannot release the ownership claim"
	errHolder       = "cannot read the object that holds the ownership claim"
)

// An Identity is what a claim is for.
type Identity struct {
	// Endpoint is the endpoint override the calls go to; empty for AWS's
	// own. An account an endpoint of someone's choosing answers is that
	// endpoint's, and its names are not AWS's.
	Endpoint        string
	Account, Region string
	Kind            schema.GroupKind
	// Fields are what AWS keeps unique: a name, or a subscription's
	// topic, protocol and endpoint.
	Fields string
}

func (id Identity) String() string {
	return strings.Join(id.parts(), " ")
}

// parts are what tell identities apart; AWS's own endpoint adds none, so
// that the claims of AWS's identities keep the names they always had.
func (id Identity) parts() []string {
	p := []string{id.Account, id.Region, id.Kind.String(), id.Fields}
	if id.Endpoint != "" {
		p = append(p, "at "+id.Endpoint)
	}
	return p
}

// claimName is the name of id's claim: a hash, since identities are longer
// than names may be and hold characters names may not.
func claimName(id Identity) string {
	sum := sha256.Sum256([]byte(strings.Join(id.parts(), "\x00")))
	return claimPrefix + hex.EncodeToString(sum[:20])
}

// ClaimName is the name of the Lease that holds id's claim.
func ClaimName(id Identity) string { return claimName(id) }

// ListClaims returns the ownership claims kept in namespace, by the name of
// their Lease (ClaimName), read from r a page at a time: the records of which AWS identities
// the cluster's objects hold, for a reader outside the provider (the import
// command) that must not guess.
func ListClaims(ctx context.Context, r client.Reader, namespace string) (map[string]*Claim, error) {
	out := map[string]*Claim{}
	next := ""
	for {
		leases := &coordinationv1.LeaseList{}
		if err := r.List(ctx, leases, client.InNamespace(namespace), client.MatchingLabels{LabelClaim: "true"}, client.Limit(500), client.Continue(next)); err != nil {
			return nil, errors.Wrap(err, errGetClaim)
		}
		for i := range leases.Items {
			out[leases.Items[i].Name] = claimOf(&leases.Items[i])
		}
		if next = leases.Continue; next == "" {
			return out, nil
		}
	}
}

// A Claim is who holds an identity, and since when.
type Claim struct {
	Holder  types.UID
	Owner   Owner // the holder's kind, namespace and name, for messages
	Purpose Purpose
	// Since is when the API server recorded the claim: a resource of a
	// kind without tags created before it was not made by its holder.
	Since time.Time
	// HandedTo is the namespace an admin handed a Retained claim's
	// resource to (AnnotationHandedTo); "" when none.
	HandedTo string

	// lease is the claim as the API server last answered it (never the
	// cache's, which keeps only part of it), so that its holder changes
	// its purpose without reading it again.
	lease *coordinationv1.Lease
	// taken is true for a claim Take created just now.
	taken bool
}

// Claims reads and writes the ownership claims of one kind.
type Claims struct {
	namespace string
	kind      schema.GroupKind
	version   string
	// cached reads claims and objects from the manager's cache; live
	// reads them from the API server when the cache may be behind.
	cached, live client.Reader
	write        client.Writer
	// object is an empty object of the kind, for reading a holder.
	object func() client.Object
}

// NewClaims returns the claims of kind k, kept in namespace.
func NewClaims(namespace string, k schema.GroupVersionKind, object func() client.Object, cached, live client.Reader, write client.Writer) *Claims {
	return &Claims{namespace: namespace, kind: k.GroupKind(), version: k.Version, cached: cached, live: live, write: write, object: object}
}

// CacheOptions are the manager's cache options for the claims: only the
// Leases of the provider's namespace that are claims, and of each only what
// a decision reads (who holds it, for what, since when).
func CacheOptions(namespace string) cache.ByObject {
	return cache.ByObject{
		Namespaces: map[string]cache.Config{namespace: {}},
		Label:      labels.SelectorFromSet(labels.Set{LabelClaim: "true"}),
		Transform:  leanClaim,
	}
}

func leanClaim(in any) (any, error) {
	if l, ok := in.(*coordinationv1.Lease); ok {
		l.Spec = coordinationv1.LeaseSpec{}
		l.ManagedFields = nil
		delete(l.Annotations, annotationIdentity)
		intern.Meta(l)
	}
	return in, nil
}

// Get returns the claim of id, if any. A claim the cache shows held by mg is
// taken from the cache; anything else is read from the API server, which
// the cache may be behind.
func (c *Claims) Get(ctx context.Context, id Identity, holder types.UID) (*Claim, error) {
	l := &coordinationv1.Lease{}
	key := types.NamespacedName{Namespace: c.namespace, Name: claimName(id)}
	if err := c.cached.Get(ctx, key, l); err == nil && claimOf(l).Holder == holder {
		return claimOf(l), nil
	}
	if err := c.live.Get(ctx, key, l); err != nil {
		if kerrors.IsNotFound(err) {
			return nil, nil
		}
		return nil, errors.Wrap(err, errGetClaim)
	}
	return claimOf(l), nil
}

// Cached returns the holder of id's claim as the cache shows it, with no
// call to the API server; false when the cache shows no claim. The cache may
// be behind: only Take decides.
func (c *Claims) Cached(ctx context.Context, id Identity) (types.UID, bool) {
	cl, ok := c.cachedClaim(ctx, id)
	if !ok {
		return "", false
	}
	return cl.Holder, true
}

// cachedClaim returns id's claim as the cache shows it; false when it shows
// none.
func (c *Claims) cachedClaim(ctx context.Context, id Identity) (*Claim, bool) {
	l := &coordinationv1.Lease{}
	if err := c.cached.Get(ctx, types.NamespacedName{Namespace: c.namespace, Name: claimName(id)}, l); err != nil {
		return nil, false
	}
	return claimOf(l), true
}

// Take claims id for holder, for purpose, unless another object holds it;
// it returns the claim that holds id. A claim whose holder no longer exists
// is released first: a newcomer of the same name does not inherit it.
func (c *Claims) Take(ctx context.Context, id Identity, holder Owner, uid types.UID, purpose Purpose) (*Claim, error) {
	cached := &coordinationv1.Lease{}
	if err := c.cached.Get(ctx, types.NamespacedName{Namespace: c.namespace, Name: claimName(id)}, cached); err == nil && claimOf(cached).Holder == uid {
		return claimOf(cached), nil
	}
	for range 2 {
		l := c.lease(id, holder, uid, purpose)
		err := c.write.Create(ctx, l)
		if err == nil {
			cl := claimAnswered(l)
			cl.taken = true
			return cl, nil
		}
		if !kerrors.IsAlreadyExists(err) {
			return nil, errors.Wrap(err, errCreateClaim)
		}
		existing := &coordinationv1.Lease{}
		if err := c.live.Get(ctx, client.ObjectKeyFromObject(l), existing); err != nil {
			if kerrors.IsNotFound(err) {
				continue
			}
			return nil, errors.Wrap(err, errGetClaim)
		}
		got := claimAnswered(existing)
		if got.Holder == uid {
			return got, nil
		}
		if got.KeptFrom(holder.Namespace) {
			return got, nil
		}
		// Held by nothing (Denied), or by an object that is gone: taken
		// over, unless it changed meanwhile (its holder took it again to
		// create), which the next turn of the loop decides on.
		still := sameHolder(got.Holder)
		if got.Holds() {
			alive, err := c.alive(ctx, got)
			if err != nil || alive {
				return got, err
			}
		} else {
			still = func(cl *Claim) bool { return cl.Holder == got.Holder && !cl.Holds() }
		}
		if err := c.delete(ctx, existing, still); err != nil {
			return nil, err
		}
	}
	return nil, errors.New(errCreateClaim)
}

// Repurpose records that holder, which holds id, now holds it for purpose.
// held is the claim as the holder last had it, or nil: a claim unchanged
// since is written at once, one the cache was behind on or that changed
// meanwhile is read from the API server first.
func (c *Claims) Repurpose(ctx context.Context, id Identity, uid types.UID, purpose Purpose, held *Claim) error {
	if held != nil && held.lease != nil && held.Holder == uid {
		l := held.lease.DeepCopy()
		if l.Annotations == nil {
			l.Annotations = map[string]string{}
		}
		l.Annotations[annotationPurpose] = string(purpose)
		err := c.write.Update(ctx, l)
		if err == nil {
			held.lease, held.Purpose = l, purpose
			return nil
		}
		if !kerrors.IsConflict(err) {
			return errors.Wrap(err, errCreateClaim)
		}
	}
	l := &coordinationv1.Lease{}
	if err := c.live.Get(ctx, types.NamespacedName{Namespace: c.namespace, Name: claimName(id)}, l); err != nil {
		return errors.Wrap(err, errGetClaim)
	}
	if claimOf(l).Holder != uid {
		return errors.New(errCreateClaim)
	}
	if l.Annotations == nil {
		l.Annotations = map[string]string{}
	}
	l.Annotations[annotationPurpose] = string(purpose)
	return errors.Wrap(c.write.Update(ctx, l), errCreateClaim)
}

// Release releases id's claim if uid holds it.
func (c *Claims) Release(ctx context.Context, id Identity, uid types.UID) error {
	l := &coordinationv1.Lease{}
	if err := c.live.Get(ctx, types.NamespacedName{Namespace: c.namespace, Name: claimName(id)}, l); err != nil {
		return errors.Wrap(client.IgnoreNotFound(err), errGetClaim)
	}
	if claimOf(l).Holder != uid {
		return nil
	}
	return c.delete(ctx, l, sameHolder(uid))
}

// ReleaseAll releases every claim uid holds: its deletion finished.
func (c *Claims) ReleaseAll(ctx context.Context, uid types.UID) error {
	held, err := c.heldBy(ctx, uid)
	for i := range held {
		if err := c.delete(ctx, &held[i], sameHolder(uid)); err != nil {
			return err
		}
	}
	return err
}

// RetainAll keeps every claim uid holds for its namespace (Retained): it
// is deleted, and lets its resources go. No object holds them any more
// (their holder UID is cleared); the holder's kind, namespace and name stay,
// for the namespace and for messages.
func (c *Claims) RetainAll(ctx context.Context, uid types.UID) error {
	held, err := c.heldBy(ctx, uid)
	for i := range held {
		l := &held[i]
		l.Annotations[annotationPurpose] = string(Retained)
		l.Labels[LabelHolder] = ""
		if err := c.write.Update(ctx, l); err != nil && !kerrors.IsNotFound(err) {
			return errors.Wrap(err, errCreateClaim)
		}
	}
	return err
}

// heldBy lists the claims uid holds, from the API server: a claim taken
// moments ago may not be cached.
func (c *Claims) heldBy(ctx context.Context, uid types.UID) ([]coordinationv1.Lease, error) {
	l := &coordinationv1.LeaseList{}
	if err := c.live.List(ctx, l, client.InNamespace(c.namespace), client.MatchingLabels{LabelClaim: "true", LabelHolder: string(uid)}); err != nil {
		return nil, errors.Wrap(err, errReleaseClaim)
	}
	for i := range l.Items {
		if l.Items[i].Annotations == nil {
			l.Items[i].Annotations = map[string]string{}
		}
	}
	return l.Items, nil
}

// Sweep releases the claims of this kind whose holder is gone: one that
// went without letting go (its finalizer removed by someone else, or
// deleted before its first create wrote a finalizer). A claim kept for a
// namespace (Retained) stays while its namespace exists. It returns how many
// it released.
func (c *Claims) Sweep(ctx context.Context) (int, error) {
	l := &coordinationv1.LeaseList{}
	if err := c.cached.List(ctx, l, client.InNamespace(c.namespace), client.MatchingLabels{LabelClaim: "true"}); err != nil {
		return 0, errors.Wrap(err, errGetClaim)
	}
	kind := strings.ToLower(c.kind.String())
	present := kubeclient.NewPresence(c.cached, c.live)
	released := 0
	for i := range l.Items {
		lease := &l.Items[i]
		cl := claimOf(lease)
		if lease.Name == EraLease || !strings.EqualFold(cl.Owner.Kind, kind) {
			continue
		}
		gone, err := c.gone(ctx, cl, present)
		if err != nil {
			return released, err
		}
		if !gone {
			continue
		}
		if err := c.delete(ctx, lease, sameHolder(cl.Holder)); err != nil {
			return released, err
		}
		released++
	}
	return released, nil
}

// gone reports whether what keeps a claim is gone: its holder, or, for a
// Retained claim, the namespace it keeps the resource for.
func (c *Claims) gone(ctx context.Context, cl *Claim, present *kubeclient.Presence) (bool, error) {
	if cl.Purpose != Retained {
		if cl.Owner.Name == "" {
			// A claim that does not say who holds it holds nothing.
			return true, nil
		}
		key := types.NamespacedName{Namespace: cl.Owner.Namespace, Name: cl.Owner.Name}
		alive, err := present.Exists(ctx, c.kind.WithVersion(c.version), key, cl.Holder, c.object())
		if err != nil {
			return false, errors.Wrap(err, errHolder)
		}
		return !alive, nil
	}
	ns := &metav1.PartialObjectMetadata{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Namespace"}}
	// A namespace that cannot be read (the provider may not read
	// namespaces) keeps what it kept.
	return kerrors.IsNotFound(c.live.Get(ctx, types.NamespacedName{Name: cl.Owner.Namespace}, ns)), nil
}

// HoldsAny reports whether the object holder (its kind, namespace, name and
// UID) holds any ownership claim, of any kind, as the cache shows the claims
// of namespace. A claim that names another object is not its: a UID is no
// secret, and the answer must tell nothing of another object, of its
// namespace or another.
func HoldsAny(ctx context.Context, cached client.Reader, namespace string, holder Owner) (bool, error) {
	l := &coordinationv1.LeaseList{}
	if err := cached.List(ctx, l, client.InNamespace(namespace), client.MatchingLabels{LabelClaim: "true", LabelHolder: string(holder.UID)}); err != nil {
		return false, errors.Wrap(err, errGetClaim)
	}
	for i := range l.Items {
		if claimOf(&l.Items[i]).Owner.Names(holder) {
			return true, nil
		}
	}
	return false, nil
}

// Holds reports whether the claim keeps its identity from other objects:
// every claim does but one whose create AWS refused for good (Denied).
func (cl *Claim) Holds() bool {
	return cl != nil && cl.Purpose != Denied
}

// HeldByAnother reports whether the claim keeps its identity from the
// object of uid: another object holds it (Holds).
func (cl *Claim) HeldByAnother(uid types.UID) bool {
	return cl.Holds() && cl.Holder != uid
}

// KeptFrom reports whether the claim keeps its resource from objects of
// namespace: a deleted object of another namespace retained it, and no
// admin handed it to namespace.
func (cl *Claim) KeptFrom(namespace string) bool {
	return cl.Purpose == Retained && cl.Owner.Namespace != namespace && !cl.HandedOverTo(namespace)
}

// HandedOverTo reports whether an admin handed the resource a Retained
// claim keeps to namespace.
func (cl *Claim) HandedOverTo(namespace string) bool {
	return cl != nil && cl.Purpose == Retained && cl.HandedTo != "" && cl.HandedTo == namespace
}

// Lease names the Lease that records id's claim, for an admin to delete.
func (c *Claims) Lease(id Identity) string {
	return c.namespace + "/" + claimName(id)
}

// Alive reports whether the object that holds cl still exists.
func (c *Claims) alive(ctx context.Context, cl *Claim) (bool, error) {
	if cl.Owner.Name == "" {
		// A claim that does not say who holds it holds nothing.
		return false, nil
	}
	key := types.NamespacedName{Namespace: cl.Owner.Namespace, Name: cl.Owner.Name}
	o := c.object()
	if err := c.cached.Get(ctx, key, o); err == nil && o.GetUID() == cl.Holder {
		return true, nil
	}
	// The cache may not have seen it yet.
	if err := c.live.Get(ctx, key, o); err != nil {
		if kerrors.IsNotFound(err) {
			return false, nil
		}
		return false, errors.Wrap(err, errHolder)
	}
	return o.GetUID() == cl.Holder, nil
}

// sameHolder is the condition of a claim held by uid.
func sameHolder(uid types.UID) func(*Claim) bool {
	return func(cl *Claim) bool { return cl.Holder == uid }
}

// delete deletes a claim as it was read, or, if it changed meanwhile, as
// long as still holds of it: a claim taken again meanwhile, by another or
// by its holder for another purpose, is kept.
func (c *Claims) delete(ctx context.Context, l *coordinationv1.Lease, still func(*Claim) bool) error {
	for range 3 {
		uid, rv := l.GetUID(), l.GetResourceVersion()
		err := c.write.Delete(ctx, l, client.Preconditions{UID: &uid, ResourceVersion: &rv})
		if err == nil || kerrors.IsNotFound(err) {
			return nil
		}
		if !kerrors.IsConflict(err) {
			return errors.Wrap(err, errReleaseClaim)
		}
		// Read from a cache that was behind, or changed meanwhile.
		if err := c.live.Get(ctx, client.ObjectKeyFromObject(l), l); err != nil {
			return errors.Wrap(client.IgnoreNotFound(err), errReleaseClaim)
		}
		if !still(claimOf(l)) {
			return nil
		}
	}
	return errors.New(errReleaseClaim)
}

func (c *Claims) lease(id Identity, holder Owner, uid types.UID, purpose Purpose) *coordinationv1.Lease {
	h := string(uid)
	return &coordinationv1.Lease{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: c.namespace,
			Name:      claimName(id),
			Labels:    map[string]string{LabelClaim: "true", LabelHolder: h},
			Annotations: map[string]string{
				annotationHolder:   holder.Kind + " " + holder.String(),
				annotationIdentity: id.String(),
				annotationPurpose:  string(purpose),
			},
		},
		Spec: coordinationv1.LeaseSpec{HolderIdentity: &h},
	}
}

func claimOf(l *coordinationv1.Lease) *Claim {
	cl := &Claim{Holder: types.UID(l.Labels[LabelHolder]), Purpose: Purpose(l.Annotations[annotationPurpose]), Since: l.CreationTimestamp.Time, HandedTo: l.Annotations[AnnotationHandedTo]}
	if kind, nn, ok := strings.Cut(l.Annotations[annotationHolder], " "); ok {
		ns, name, _ := strings.Cut(nn, "/")
		cl.Owner = Owner{Kind: kind, Namespace: ns, Name: name}
	}
	return cl
}

// claimAnswered is the claim of a Lease the API server answered with, whole.
func claimAnswered(l *coordinationv1.Lease) *Claim {
	cl := claimOf(l)
	cl.lease = l
	return cl
}
