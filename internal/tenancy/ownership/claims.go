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
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/internal/kube/intern"
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
