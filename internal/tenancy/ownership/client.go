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
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/aws/smithy-go"
	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/aws/awserrors"
	"github.com/cloudkinds/provider-aws-services/internal/aws/tags"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/sendonce"
)

const (
	errObserve = "AWS says that %s %q (%s) already exists, but it cannot be read"
	msgHidden  = "AWS says that %s %q (%s) already exists but does not show it yet; it is looked at again shortly and taken as created once it shows"
	errOwner   = "cannot read the object the owner tags name"
	// What failed after a create failed, added to its error (afterCreate).
	errDecideAfterLostAnswer = "then cannot tell whose the resource the look after the lost answer found is"
	errRecordMadeNothing     = "then cannot record in the claim that the create made nothing"

	msgNothingToAdopt = "the adoption asks for %s (annotation %s), but AWS has no %s %q (%s) in this object's account and region; nothing is created while an adoption is asked for: remove the annotation to create one, or set the ARN of a resource that exists"
)

// ReasonNotOwned is the reason of the Ready condition of an object refused a
// resource it does not own.
const ReasonNotOwned xpv2.ConditionReason = "NotOwned"

// A Kind is what ownership needs to know of a managed resource kind.
type Kind[MR Object[MR]] struct {
	GroupKind schema.GroupKind
	Terms     MessageTerms
	// Identity is the AWS identity an object asks for: the name it gives,
	// or what else AWS keeps unique (a subscription's topic, protocol and
	// endpoint).
	Identity func(MR) string
	// Metadata reads status.atProvider.ackResourceMetadata.
	Metadata func(MR) *common.ResourceMetadata
	// Where is where AWS keeps the identity unique, when that is not the
	// session's account and region (a subscription lives in its topic's);
	// nil otherwise.
	Where func(MR) (account, region string)
	// Tagged is true for the kinds AWS can tag with the owner tags.
	Tagged bool
	// Claims are the kind's ownership claims.
	Claims *Claims
	// Asking returns the cached objects of the kind that ask for an
	// identity (IndexField); nil when the kind is not indexed.
	Asking Asking
	// Objects reads objects of the kind from the cache.
	Objects client.Reader
	// New returns an empty object of the kind.
	New func() MR
	// PoliciesHonoured is true when spec.managementPolicies are honoured.
	PoliciesHonoured bool
	// CreateRefusedIfExists is true for the kinds whose create AWS refuses
	// when the identity exists: a new object creates before it looks
	// (CreatesFirst), and looks only if AWS answers that it exists.
	CreateRefusedIfExists bool
	// What reads of what objects made may be believed, under readsMu:
	// deleteAnswered are the objects whose own Delete AWS answered
	// (accepted, or not found), by UID, and when (goneAfterDelete);
	// notShown those whose reads do not find what they made, and since
	// when (ConsistencyWindow).
	readsMu        sync.Mutex
	deleteAnswered map[types.UID]time.Time
	notShown       map[types.UID]time.Time

	// PlaceOf tells where another object's calls go, from its config and
	// the session its config's reconciles built, building none: false when
	// it calls nowhere (its config is missing, does not admit its namespace
	// or refuses it, or AWS refused its credentials). The Place's Account is
	// "" while no reconcile of its config and region reached AWS since the
	// provider started. Only an object it may place where the asker calls
	// asks first (askedFirst); nil places none.
	PlaceOf func(ctx context.Context, mg MR) (Place, bool)
}

// CreatesFirst reports whether a reconcile of mg, whose calls go to account
// and region, creates before it looks: its kind's creates are refused when
// the identity exists, and mg is new to AWS as far as its records tell: it
// may create, is not being deleted, has made or tried no create
// (crossplane-runtime's create records), shows no ARN, asks to adopt nothing
// and was not refused before; and the cache shows the identity's claim held
// by no other object. A look would find nothing, and AWS's create tells the
// same at no extra call; if it answers that the identity exists, Create
// makes the look, and the ownership rules decide as they would have. The
// gate that paces a reconcile and the Client that makes it ask the same.
func (k *Kind[MR]) CreatesFirst(ctx context.Context, mg MR, at Place) bool {
	if !k.newToAWS(mg) {
		return false
	}
	holder, ok := k.Claims.Cached(ctx, k.identityIn(mg, at))
	return !ok || holder == mg.GetUID()
}

// newToAWS reports whether mg's records tell of nothing on AWS (CreatesFirst).
func (k *Kind[MR]) newToAWS(mg MR) bool {
	if !k.CreateRefusedIfExists || meta.WasDeleted(mg) || !MayCreate(mg, k.PoliciesHonoured) || WantsToAdopt(mg) {
		return false
	}
	if !meta.GetExternalCreatePending(mg).IsZero() || !meta.GetExternalCreateSucceeded(mg).IsZero() || !meta.GetExternalCreateFailed(mg).IsZero() {
		return false
	}
	if md := k.Metadata(mg); md != nil && md.ARN != nil {
		return false
	}
	return mg.GetCondition(xpv2.TypeReady).Reason != ReasonNotOwned
}

// Observed is what the kind's last Observe found of the resource, for
// telling whose it is. A kind's external client embeds it and sets it in
// Observe; the zero value is "nothing found".
type Observed struct {
	// Created is when AWS made it; zero when AWS does not say.
	Created time.Time
	// ARN is its ARN.
	ARN string
	// Tags reads and writes its tags; nil for a kind AWS cannot tag.
	Tags *tags.Service
	// Listed are all its tags, when the Observe listed them already (nil
	// otherwise): they are not listed again for ownership.
	Listed map[string]string
	// LetGo is true when the Observe found the resource, and answered
	// that it does not exist for the object's deletion to leave it: AWS
	// keeps it (a subscription pending confirmation), or it was never
	// the object's (a stream of another destination).
	LetGo bool
}

// tagsOn returns the resource's tags: those the Observe listed, else a list.
func (o Observed) tagsOn(ctx context.Context) (map[string]string, error) {
	if o.Listed != nil {
		return o.Listed, nil
	}
	return o.Tags.List(ctx)
}

// LastObserved returns what the last Observe found.
func (o *Observed) LastObserved() Observed { return *o }

// ReportsObserved is a kind's external client that tells what its last
// Observe found: one that embeds Observed.
type ReportsObserved interface {
	LastObserved() Observed
}

// An Object is a managed resource that copies itself into another of its
// type, as generated types do: what ownership puts back when an Observe
// found what the object may not keep.
type Object[MR any] interface {
	resource.Managed
	DeepCopyInto(MR)
}

// An ExternalClient is a kind's own external client: the AWS calls, and
// what its last Observe found, which ownership decides on.
type ExternalClient[MR resource.Managed] interface {
	managed.TypedExternalClient[MR]
	ReportsObserved
}

// A Place is where a session's calls go: its endpoint override (empty for
// AWS's own), account and region. A claim is for an identity there.
type Place struct {
	Endpoint, Account, Region string
	// Config names the provider config whose session calls there; it is
	// no part of the identity, only of telling whether two objects whose
	// accounts are not known yet may call the same one.
	Config string
}

// Client wraps a kind's external client so that it changes and deletes only
// what its object owns, and adopts only on request.
type Client[MR Object[MR]] struct {
	managed.TypedExternalClient[MR]
	// observed is the same client, telling what its last Observe found.
	observed ReportsObserved
	kind     *Kind[MR]
	at       Place

	// claimed is true once this reconcile's Observe claimed the identity;
	// lookSkipped when it created first (CreatesFirst) and made no look.
	claimed, lookSkipped bool
	// held is the claim this reconcile took or found its own, as written.
	held *Claim
	// earlierCreate is true when the claim was held to create before this
	// reconcile: an earlier create under it, whose answer was lost, may
	// have made the resource.
	earlierCreate bool
	adopting      *tags.Service
}

// Wrap returns c, an external client working at a place, made to respect
// ownership.
func Wrap[MR Object[MR]](c ExternalClient[MR], k *Kind[MR], at Place) *Client[MR] {
	return &Client[MR]{TypedExternalClient: c, observed: c, kind: k, at: at}
}

// Observe observes the resource and decides whether the object may manage
// what exists; before a create, it claims the identity. One it may not
// manage is reported and left alone: the object's status is as before the
// Observe, and an object being deleted is let go without deleting it.
func (c *Client[MR]) Observe(ctx context.Context, mg MR) (managed.ExternalObservation, error) {
	before := mg.DeepCopyObject().(MR) //nolint:forcetypeassert // a copy of its own type
	if !MayWrite(mg, c.kind.PoliciesHonoured) {
		return c.observeOnly(ctx, mg, before)
	}
	if c.kind.CreatesFirst(ctx, mg, c.at) {
		// Nothing to look at yet: the create that follows is the look.
		c.lookSkipped = true
		return c.beforeCreate(ctx, mg, before, managed.ExternalObservation{})
	}
	o, err := c.TypedExternalClient.Observe(ctx, mg)
	if err != nil && !SaysItOwns(before, c.kind.Metadata(before)) {
		// An Observe that failed half-way (a throttled tag read, say) at a
		// resource the object has no record of keeps nothing: not a Ready
		// condition set before the failure.
		restore(mg, before)
		return o, err
	}
	if err != nil {
		return o, err
	}
	if !o.ResourceExists && c.mayStillExist(ctx, mg) {
		// A read's not-found proves nothing of what this object made (AWS
		// may not show it for a moment after a write): the object's own
		// Delete, whose answer is the evidence that it is gone, is made.
		return managed.ExternalObservation{ResourceExists: true, ResourceUpToDate: true}, nil
	}
	if !o.ResourceExists && c.mayShowYet(ctx, mg) {
		// A create whose answer was lost may have made what the look did
		// not find, and without its ARN no Delete can name it: the look
		// is made again until AWS's reads have caught up.
		restore(mg, before)
		w := c.kind.Terms
		return managed.ExternalObservation{}, errors.Errorf(msgMayShowYet, w.Noun, c.kind.Identity(mg), ConsistencyWindow)
	}
	if err := c.notShownYet(ctx, mg, o.ResourceExists); err != nil {
		restore(mg, before)
		return managed.ExternalObservation{}, err
	}
	if !o.ResourceExists {
		return c.beforeCreate(ctx, mg, before, o)
	}
	d, err := c.decide(ctx, before)
	if err != nil {
		restore(mg, before)
		return managed.ExternalObservation{}, err
	}
	if d, err = c.act(ctx, mg, d, &o); err != nil {
		restore(mg, before)
		return managed.ExternalObservation{}, err
	}
	switch {
	case d.Verdict == Owned:
		return o, nil
	case meta.WasDeleted(mg):
		// Deleting an object that does not own its resource deletes
		// only the object.
		restore(mg, before)
		return managed.ExternalObservation{ResourceExists: false}, nil
	default:
		return managed.ExternalObservation{}, c.refuse(mg, before, d)
	}
}

// observeOnly reads without owning and claims nothing, but reads only what
// the object could own: not a resource another object holds or its
// namespace kept, nor one whose owner tags name another namespace. One it
// may not read is refused, and the object shows nothing of it (status,
// connection details).
func (c *Client[MR]) observeOnly(ctx context.Context, mg, before MR) (managed.ExternalObservation, error) {
	o, err := c.TypedExternalClient.Observe(ctx, mg)
	if err != nil {
		// What an Observe that failed half-way wrote is not shown: it may
		// be of a resource another object holds, which is decided below
		// only for an Observe that succeeded.
		restore(mg, before)
		return o, err
	}
	if !o.ResourceExists || c.kind.Identity(mg) == "" {
		return o, nil
	}
	// The cache's view of the claim: an observe-only poll reads no claim
	// from the API server.
	cl, ok := c.kind.Claims.cachedClaim(ctx, c.identity(mg))
	if ok && cl.HeldByAnother(mg.GetUID()) {
		alive, err := c.kind.Claims.alive(ctx, cl)
		if err != nil {
			restore(mg, before)
			return managed.ExternalObservation{}, err
		}
		if alive || cl.KeptFrom(mg.GetNamespace()) {
			return managed.ExternalObservation{}, c.refuse(mg, before, Decision{Verdict: NotOwned, HeldBy: &cl.Owner, Retained: cl.Purpose == Retained})
		}
	}
	if f := c.lastObserved(); f.Tags != nil {
		observed, err := f.tagsOn(ctx)
		if err != nil {
			restore(mg, before)
			return managed.ExternalObservation{}, err
		}
		if owner, ok := OwnerOf(observed); ok && owner.Namespace != mg.GetNamespace() && !cl.HandedOverTo(mg.GetNamespace()) {
			return managed.ExternalObservation{}, c.refuse(mg, before, Decision{Verdict: NotOwned, Evidence: MakerEvidence{Tagged: true, Owner: &owner}, OtherNamespace: owner.Namespace})
		}
	}
	return o, nil
}

// beforeCreate claims the identity for the create that follows an Observe that
// found nothing, unless another object goes first.
func (c *Client[MR]) beforeCreate(ctx context.Context, mg, before MR, o managed.ExternalObservation) (managed.ExternalObservation, error) {
	if meta.WasDeleted(mg) || !MayCreate(mg, c.kind.PoliciesHonoured) {
		return o, nil
	}
	// A namespace kept what it retained only while it exists: AWS shows
	// nothing under the identity now (a look found nothing, or, creating
	// first, the cache shows no claim at all).
	if cl, ok := c.kind.Claims.cachedClaim(ctx, c.identity(mg)); ok && cl.Purpose == Retained && !c.lookSkipped {
		if err := c.kind.Claims.Release(ctx, c.identity(mg), cl.Holder); err != nil {
			return o, err
		}
	}
	adoptARN, err := AdoptionARN(mg)
	if err != nil {
		restore(mg, before)
		return managed.ExternalObservation{}, err
	}
	if adoptARN != "" {
		// An adoption of a named resource never creates one.
		restore(mg, before)
		msg := fmt.Sprintf(msgNothingToAdopt, adoptARN, AnnotationAdoptionFields, c.kind.Terms.Noun, c.kind.Identity(mg), c.kind.Terms.Field)
		mg.SetConditions(xpv2.Condition{Type: xpv2.TypeReady, Status: corev1.ConditionFalse, Reason: ReasonNotOwned, Message: msg, LastTransitionTime: metav1.Now()})
		return managed.ExternalObservation{}, errors.New(msg)
	}
	// Of objects of this cluster asking for the identity, the oldest
	// creates it; the others wait, refused. An object that holds the claim
	// already keeps it: the claim, which only the provider writes, decides.
	first, err := c.askedFirst(ctx, mg)
	if err != nil {
		return o, err
	}
	if first != nil {
		// Once another object holds the claim, the refusal names that
		// holder, whoever asked first: the cache that tells who asks may
		// not show yet that the oldest was refused too.
		cl, err := c.kind.Claims.Get(ctx, c.identity(mg), mg.GetUID())
		if err != nil {
			return o, err
		}
		switch {
		case cl.HeldByAnother(mg.GetUID()):
			return managed.ExternalObservation{}, c.refuse(mg, before, Decision{Verdict: NotOwned, HeldBy: &cl.Owner})
		case !cl.Holds():
			// No claim, or one that holds nothing (Denied, this
			// object's own included): the older object goes first.
			return managed.ExternalObservation{}, c.refuse(mg, before, Decision{Verdict: NotOwned, AskedFirst: first})
		}
	}
	// The first Observe that finds nothing claims the identity for the
	// create that follows; of two objects asking at once, the API server
	// picks one, and the other is refused now.
	held, err := c.claim(ctx, mg, ToCreate)
	if err != nil || held == nil {
		return o, err
	}
	return managed.ExternalObservation{}, c.refuse(mg, before, Decision{Verdict: NotOwned, HeldBy: held})
}

// act records what the decision needs: a claim taken for an adoption or a
// carried-over object (Owned, unless another took it first), the owner tags
// an adoption sets with the update, a claim let go by an object that does
// not own what exists.
func (c *Client[MR]) act(ctx context.Context, mg MR, d Decision, o *managed.ExternalObservation) (Decision, error) {
	switch d.Verdict {
	case Owned:
		return d, c.confirmed(ctx, mg, d)
	case Carry:
		return c.takeFor(ctx, mg, Carried, d)
	case Adopt:
		d, err := c.takeFor(ctx, mg, Adopted, d)
		if err != nil || d.Verdict != Owned {
			return d, err
		}
		if f := c.lastObserved(); f.Tags != nil {
			// The owner tags become this object's with the update.
			c.adopting = f.Tags
			o.ResourceUpToDate = false
			o.Diff = strings.TrimPrefix(o.Diff+", owner tags", ", ")
		}
		return d, nil
	case NotOwned:
		if d.Holds {
			// A claim taken for a create that did not make this
			// resource is let go.
			return d, c.kind.Claims.Release(ctx, c.identity(mg), mg.GetUID())
		}
	}
	return d, nil
}

// Create creates the resource under the object's claim. When AWS answers
// that it exists already, what exists is looked at: the work of an earlier
// create of this object whose answer was lost is taken as created; anything
// else is refused. When AWS refuses it otherwise, nothing was made, and the
// claim says so. When the create's outcome is unknown (a server error, no
// answer), what exists is looked at at once (afterLostAnswer).
//
// The create is sent once (sendonce): the SDK's retryer sends it again only
// when AWS certainly did nothing with it. A retry of a create that AWS had
// made is answered "already exists" within this one call, as a create of
// anyone's resource is: for a kind AWS cannot tag, the object's own work was
// refused for good. Resolving such an answer by what AWS shows (made within
// the call, holding what the create sent) would be a second rule, kind by
// kind, beside the one every lost answer takes: a look, with this create
// recorded, decided by the ownership rules (the owner tags, or for a kind
// AWS cannot tag the time AWS made it).
func (c *Client[MR]) Create(ctx context.Context, mg MR) (managed.ExternalCreation, error) {
	if !c.claimed {
		// Its Observe could not claim (the identity was not known yet).
		held, err := c.claim(ctx, mg, ToCreate)
		if err != nil {
			return managed.ExternalCreation{}, err
		}
		if held != nil {
			return managed.ExternalCreation{}, errors.New(c.message(mg, Decision{Verdict: NotOwned, HeldBy: held}))
		}
	}
	created, err := c.TypedExternalClient.Create(sendonce.Creating(ctx), mg)
	if err == nil {
		// AWS answered: the claim records that this create made it. A
		// record that fails is made up for by the next Observe, which
		// finds the create's work by the evidence and confirms it.
		_ = c.confirm(ctx, mg)
		return created, nil
	}
	switch {
	case awserrors.IsAlreadyExists(err):
	case awserrors.Answered(err):
		// AWS refused the create: what may appear under this identity
		// before the next create is not this object's work.
		return created, c.madeNothing(ctx, mg, err)
	default:
		return c.afterLostAnswer(ctx, mg, err)
	}
	// AWS's own words of the name taken, quoted beside the provider's
	// reading of them.
	said := awsSaid(err)
	id, w := c.kind.Identity(mg), c.kind.Terms
	if c.lookSkipped {
		// This create stood for the look, the object had made or tried
		// no create before it, and it was sent once: what exists was
		// there before it, and is not its work. The claim says so
		// before anything else can fail, so that no later reconcile
		// takes what exists for the work of the create this object has
		// now recorded.
		if err := c.kind.Claims.Repurpose(ctx, c.identity(mg), mg.GetUID(), Refused, c.held); err != nil {
			return managed.ExternalCreation{}, err
		}
	}
	probe := mg.DeepCopyObject().(MR) //nolint:forcetypeassert // a copy of its own type
	o, oerr := c.TypedExternalClient.Observe(ctx, probe)
	switch {
	case oerr != nil:
		return managed.ExternalCreation{}, errors.Wrapf(oerr, errObserve, w.Noun, id, w.Field)
	case !o.ResourceExists:
		return managed.ExternalCreation{}, errors.New(fmt.Sprintf(msgHidden, w.Noun, id, w.Field) + said)
	}
	asked := mg
	if c.lookSkipped {
		// Decided as the look this create stood for would have been,
		// before any create.
		asked = mg.DeepCopyObject().(MR) //nolint:forcetypeassert // a copy of its own type
		meta.RemoveAnnotations(asked, meta.AnnotationKeyExternalCreatePending)
	}
	d, err := c.decide(ctx, asked)
	if err != nil {
		return managed.ExternalCreation{}, err
	}
	if d.Verdict == Owned {
		// An earlier create of this object made it, and its answer was
		// lost: the object shows what the Observe found, as an Observe would.
		if err := c.confirmed(ctx, mg, d); err != nil {
			return managed.ExternalCreation{}, err
		}
		restore(mg, probe)
		return managed.ExternalCreation{ConnectionDetails: o.ConnectionDetails}, nil
	}
	if d.Holds {
		if err := c.kind.Claims.Release(ctx, c.identity(mg), mg.GetUID()); err != nil {
			return managed.ExternalCreation{}, err
		}
	}
	return managed.ExternalCreation{}, errors.New(c.message(mg, d) + said)
}

// awsSaid is AWS's own code and message of err, as a refusal quotes them
// beside the provider's reading; "" when err carries none.
func awsSaid(err error) string {
	var ae smithy.APIError
	if !errors.As(err, &ae) {
		return ""
	}
	return fmt.Sprintf(" (AWS answered the create: %s: %s)", ae.ErrorCode(), ae.ErrorMessage())
}

// afterLostAnswer looks at once for what a create whose outcome is unknown
// made: AWS failed (a server error, which AWS can send after the work) or
// no answer came (a broken connection, a timeout). What it finds is decided
// as the work of this create, which the object recorded (create-pending):
// owned, and taken as created, when the ownership rules say so (the owner
// tags name the object, or for a kind AWS cannot tag, AWS made it after the
// claim); refused otherwise. When it finds nothing, or cannot look, the
// create's error stands and the claim stays as it is, held for this
// create: AWS may have made the resource and not show it yet (its reads can
// lag a write), and the next reconcile looks again, taking what it then
// finds for this create's work.
func (c *Client[MR]) afterLostAnswer(ctx context.Context, mg MR, createErr error) (managed.ExternalCreation, error) {
	probe := mg.DeepCopyObject().(MR) //nolint:forcetypeassert // a copy of its own type
	o, err := c.TypedExternalClient.Observe(ctx, probe)
	if err != nil || !o.ResourceExists {
		return managed.ExternalCreation{}, createErr
	}
	d, err := c.decide(ctx, mg)
	if err != nil {
		return managed.ExternalCreation{}, afterCreate(createErr, errors.Wrap(err, errDecideAfterLostAnswer))
	}
	if d.Verdict == Owned {
		// Its answer was lost: the object shows what the look found, as
		// an Observe would.
		restore(mg, probe)
		return managed.ExternalCreation{ConnectionDetails: o.ConnectionDetails}, nil
	}
	if d.Holds {
		if err := c.kind.Claims.Release(ctx, c.identity(mg), mg.GetUID()); err != nil {
			return managed.ExternalCreation{}, err
		}
	}
	return managed.ExternalCreation{}, errors.New(c.message(mg, d))
}

// madeNothing records in the claim that the object's create made nothing.
// A create AWS refused for good (awserrors.RefusedForGood) holds no name
// (Denied): the same create will not succeed until someone changes
// something, and meanwhile other objects may take the identity. A transient
// refusal keeps the object's place; for a kind AWS cannot tag, the claim
// records it (Refused), so that what appears under the identity before the
// next create is not taken for its work, which the owner tags tell of a
// kind AWS tags. It returns createErr.
func (c *Client[MR]) madeNothing(ctx context.Context, mg MR, createErr error) error {
	purpose := Refused
	switch {
	case awserrors.RefusedForGood(createErr) && (c.kind.Tagged || !c.earlierCreate):
		purpose = Denied
	case c.kind.Tagged:
		return createErr
	}
	// For a kind AWS cannot tag, an earlier create under the claim whose
	// answer was lost may have made the resource (a count quota its work
	// used up may be what refuses this one): only the claim, kept, tells
	// its work from what appears later (Refused).
	if err := c.kind.Claims.Repurpose(ctx, c.identity(mg), mg.GetUID(), purpose, c.held); err != nil {
		return afterCreate(createErr, errors.Wrap(err, errRecordMadeNothing))
	}
	return createErr
}

// afterCreate is a failed create's error with what failed after it: both
// stay errors of their own (errors.Is and As find either), the create's
// first, so that what it says of AWS's answer still decides.
func afterCreate(createErr, then error) error {
	return fmt.Errorf("%w; %w", createErr, then)
}

// Delete deletes the resource; once AWS answered it (accepted, or not
// found), a read that does not find the resource is believed.
func (c *Client[MR]) Delete(ctx context.Context, mg MR) (managed.ExternalDelete, error) {
	d, err := c.TypedExternalClient.Delete(ctx, mg)
	if err == nil {
		c.kind.deleteWasAnswered(mg.GetUID())
	}
	return d, err
}

// mayStillExist reports whether a resource this object is being deleted
// with, which a read did not find, may still exist for all that: the object
// holds its identity's claim for a resource it made, adopted or carried over,
// or for a create it made whose answer was lost, its external name addresses
// it, and no Delete of its own was answered since.
func (c *Client[MR]) mayStillExist(ctx context.Context, mg MR) bool {
	if !meta.WasDeleted(mg) || c.lastObserved().LetGo || meta.GetExternalName(mg) == "" || c.kind.Identity(mg) == "" || c.kind.deleteAnsweredFor(mg.GetUID()) {
		return false
	}
	cl, ok := c.kind.Claims.cachedClaim(ctx, c.identity(mg))
	if !ok || cl.Holder != mg.GetUID() {
		return false
	}
	switch cl.Purpose {
	case Created, Adopted, Carried:
		return true
	case ToCreate:
		return !meta.GetExternalCreatePending(mg).IsZero()
	case Refused, Denied, Retained:
	}
	return false
}

const msgMayShowYet = "this object's last create of %s %q may have made it, and its answer was lost; AWS does not show it yet, and the deletion looks for it again until %s after that create"

// mayShowYet reports whether an object being deleted that knows no ARN of
// its resource (a Subscription, whose create's answer carried it) may have
// made one that a look did not find: it holds its identity's claim for a
// create it made (create-pending) that ended less than ConsistencyWindow
// ago. Objects named by their spec have an external name, and mayStillExist
// makes their Delete instead.
func (c *Client[MR]) mayShowYet(ctx context.Context, mg MR) bool {
	if !meta.WasDeleted(mg) || c.lastObserved().LetGo || meta.GetExternalName(mg) != "" || c.kind.Identity(mg) == "" {
		return false
	}
	pending := meta.GetExternalCreatePending(mg)
	if pending.IsZero() {
		return false
	}
	cl, ok := c.kind.Claims.cachedClaim(ctx, c.identity(mg))
	if !ok || cl.Holder != mg.GetUID() || cl.Purpose != ToCreate {
		return false
	}
	ended := pending
	if failed := meta.GetExternalCreateFailed(mg); failed.After(ended) {
		ended = failed
	}
	// The records are the object's annotations, which its namespace may
	// write: one dated in the future holds the deletion for nothing.
	since := time.Since(ended)
	return since >= 0 && since < ConsistencyWindow
}

// ConsistencyWindow is how long a read may not find what an object made
// before it is taken as gone and created again: AWS's reads can answer
// not-found for a moment after a write, and a create made meanwhile would
// make a second resource, or be refused as another's.
var ConsistencyWindow = time.Minute

const msgNotShown = "AWS does not show %s %q (%s), which this object made, since %s; it is looked at again, and created again only if AWS still does not show it after %s"

// notShownYet returns an error while a read has not found what the object
// made (it holds its identity's claim for it, and its external name
// addresses it) for less than ConsistencyWindow, so that it is not created
// again; nil once found, or after the window.
func (c *Client[MR]) notShownYet(ctx context.Context, mg MR, found bool) error {
	uid := mg.GetUID()
	if found || meta.WasDeleted(mg) || meta.GetExternalName(mg) == "" || c.kind.Identity(mg) == "" {
		c.kind.shown(uid)
		return nil
	}
	cl, ok := c.kind.Claims.cachedClaim(ctx, c.identity(mg))
	if !ok || cl.Holder != uid || (cl.Purpose != Created && cl.Purpose != Adopted && cl.Purpose != Carried) {
		c.kind.shown(uid)
		return nil
	}
	since := c.kind.notShownSince(uid)
	if time.Since(since) >= ConsistencyWindow {
		c.kind.shown(uid)
		return nil
	}
	w := c.kind.Terms
	return errors.Errorf(msgNotShown, w.Noun, c.kind.Identity(mg), w.Field, since.UTC().Format(time.RFC3339), ConsistencyWindow)
}

// notShownSince returns since when reads do not find uid's resource,
// remembering now if this is the first, and forgets the objects not heard
// of for several windows.
func (k *Kind[MR]) notShownSince(uid types.UID) time.Time {
	k.readsMu.Lock()
	defer k.readsMu.Unlock()
	now := time.Now()
	if k.notShown == nil {
		k.notShown = map[types.UID]time.Time{}
	}
	for u, at := range k.notShown {
		if now.Sub(at) > 10*ConsistencyWindow {
			delete(k.notShown, u)
		}
	}
	if at, ok := k.notShown[uid]; ok {
		return at
	}
	k.notShown[uid] = now
	return now
}

// shown forgets that reads did not find uid's resource.
func (k *Kind[MR]) shown(uid types.UID) {
	k.readsMu.Lock()
	defer k.readsMu.Unlock()
	delete(k.notShown, uid)
}

// goneAfterDelete is how long an answered Delete is remembered: the reads
// of a deletion that follow come within seconds.
const goneAfterDelete = 10 * time.Minute

// deleteWasAnswered remembers that AWS answered uid's Delete, and forgets
// the answers older than goneAfterDelete.
func (k *Kind[MR]) deleteWasAnswered(uid types.UID) {
	k.readsMu.Lock()
	defer k.readsMu.Unlock()
	now := time.Now()
	if k.deleteAnswered == nil {
		k.deleteAnswered = map[types.UID]time.Time{}
	}
	for u, at := range k.deleteAnswered {
		if now.Sub(at) > goneAfterDelete {
			delete(k.deleteAnswered, u)
		}
	}
	k.deleteAnswered[uid] = now
}

// deleteAnsweredFor reports whether AWS answered uid's Delete lately.
func (k *Kind[MR]) deleteAnsweredFor(uid types.UID) bool {
	k.readsMu.Lock()
	defer k.readsMu.Unlock()
	at, ok := k.deleteAnswered[uid]
	return ok && time.Since(at) <= goneAfterDelete
}

// Update marks an adopted resource as this object's, then makes it match the
// spec.
func (c *Client[MR]) Update(ctx context.Context, mg MR) (managed.ExternalUpdate, error) {
	if c.adopting != nil {
		if err := c.adopting.Set(ctx, OwnerTags(c.kind.GroupKind, mg)); err != nil {
			return managed.ExternalUpdate{}, err
		}
	}
	return c.TypedExternalClient.Update(ctx, mg)
}

// refuse restores mg to what it was before the Observe and says why it may not
// manage the resource.
func (c *Client[MR]) refuse(mg, before MR, d Decision) error {
	restore(mg, before)
	msg := c.message(mg, d)
	mg.SetConditions(xpv2.Condition{Type: xpv2.TypeReady, Status: corev1.ConditionFalse, Reason: ReasonNotOwned, Message: msg, LastTransitionTime: metav1.Now()})
	return errors.New(msg)
}

// message is the refusal d, as mg's namespace may read it.
func (c *Client[MR]) message(mg MR, d Decision) string {
	if d.Retained || d.HeldBy != nil {
		d.Lease = c.kind.Claims.Lease(c.identity(mg))
	}
	return d.Message(c.kind.Terms, c.kind.Identity(mg), mg.GetNamespace())
}

// claim claims mg's identity for purpose; it returns the object that holds
// it when that is another.
func (c *Client[MR]) claim(ctx context.Context, mg MR, purpose Purpose) (*Owner, error) {
	if c.kind.Identity(mg) == "" {
		return nil, nil
	}
	self := OwnerFor(c.kind.GroupKind, mg)
	cl, err := c.kind.Claims.Take(ctx, c.identity(mg), self, mg.GetUID(), purpose)
	if err != nil {
		return nil, err
	}
	if cl.Holder != mg.GetUID() {
		return &cl.Owner, nil
	}
	c.claimed, c.held = true, cl
	c.earlierCreate = !cl.taken && cl.Purpose == ToCreate
	if cl.Purpose != purpose && (cl.Purpose == ToCreate || cl.Purpose == Refused || cl.Purpose == Denied || cl.Purpose == Created) {
		// Held for a create that did not make what exists, after a
		// create AWS refused, or for a resource that is gone: for the
		// create that follows now.
		return nil, c.kind.Claims.Repurpose(ctx, c.identity(mg), mg.GetUID(), purpose, cl)
	}
	return nil, nil
}

// confirm records in the claim that the object's create made its resource.
func (c *Client[MR]) confirm(ctx context.Context, mg MR) error {
	if c.kind.Identity(mg) == "" {
		return nil
	}
	return c.kind.Claims.Repurpose(ctx, c.identity(mg), mg.GetUID(), Created, c.held)
}

// confirmed confirms the create the decision found the work of.
func (c *Client[MR]) confirmed(ctx context.Context, mg MR, d Decision) error {
	if !d.Confirm {
		return nil
	}
	return c.confirm(ctx, mg)
}

// takeFor takes the claim for purpose; the decision becomes Owned, or
// NotOwned when another object took it first.
func (c *Client[MR]) takeFor(ctx context.Context, mg MR, purpose Purpose, d Decision) (Decision, error) {
	held, err := c.claim(ctx, mg, purpose)
	if err != nil {
		return d, err
	}
	if held != nil {
		return Decision{Verdict: NotOwned, HeldBy: held}, nil
	}
	d.Verdict = Owned
	return d, nil
}

func (c *Client[MR]) identity(mg MR) Identity {
	return c.kind.identityIn(mg, c.at)
}

// identityIn is mg's identity when its calls go to at.
func (k *Kind[MR]) identityIn(mg MR, at Place) Identity {
	id := Identity{Endpoint: at.Endpoint, Account: at.Account, Region: at.Region, Kind: k.GroupKind, Fields: k.Identity(mg)}
	if k.Where != nil {
		if a, r := k.Where(mg); a != "" && r != "" {
			id.Account, id.Region = a, r
		}
	}
	return id
}

// askedFirst returns the oldest object of the cluster, older than mg, that asks to create
// the same identity where mg would and is neither refused, being deleted
// nor paused: it creates, and mg waits. The order is the API server's creation stamps (no
// tenant sets them), read from the cache's index, with no call to the API
// server; the claim stays what decides ownership. Where another object
// calls comes from its config and the session its config's reconciles
// built (PlaceOf), never from its status, which its namespace may write: an
// object whose config is missing or refuses it holds no name.
func (c *Client[MR]) askedFirst(ctx context.Context, mg MR) (*Owner, error) {
	others, err := c.othersAskingFor(ctx, mg)
	if err != nil {
		return nil, err
	}
	var oldest MR
	found := false
	for _, other := range others {
		// A refusal in the other's status is trusted, although its
		// namespace may write it: it gives up that object's own turn only.
		if meta.WasDeleted(other) || meta.IsPaused(other) || other.GetCondition(xpv2.TypeReady).Reason == ReasonNotOwned || !olderThan(other, mg) || !c.asksHere(ctx, other) || c.denied(ctx, other) {
			continue
		}
		if !found || olderThan(other, oldest) {
			oldest, found = other, true
		}
	}
	if !found {
		return nil, nil
	}
	first := OwnerFor(c.kind.GroupKind, oldest)
	return &first, nil
}

// othersAskingFor returns the other objects of the cluster that may create
// mg's identity, from the cache's index: no call to the API server.
func (c *Client[MR]) othersAskingFor(ctx context.Context, mg MR) ([]MR, error) {
	id := c.kind.Identity(mg)
	if id == "" || c.kind.Asking == nil {
		return nil, nil
	}
	items, err := c.kind.Asking(ctx, id)
	if err != nil {
		return nil, errors.Wrap(err, errOwner)
	}
	others := make([]MR, 0, len(items))
	for _, it := range items {
		if other, ok := it.(MR); ok && other.GetUID() != mg.GetUID() && MayCreate(other, c.kind.PoliciesHonoured) {
			others = append(others, other)
		}
	}
	return others, nil
}

// denied reports whether AWS refused other's create for good, as its claim,
// which only the provider writes, records (Denied): it asks for nothing until
// its next create takes the claim again.
func (c *Client[MR]) denied(ctx context.Context, other MR) bool {
	cl, ok := c.kind.Claims.cachedClaim(ctx, c.identity(other))
	return ok && cl.Holder == other.GetUID() && cl.Purpose == Denied
}

// olderThan orders objects by creation, then by namespace and name, so that
// two objects agree on which came first.
func olderThan(a, b metav1.Object) bool {
	ta, tb := a.GetCreationTimestamp().Time, b.GetCreationTimestamp().Time
	if !ta.Equal(tb) {
		return ta.Before(tb)
	}
	return a.GetNamespace()+"/"+a.GetName() < b.GetNamespace()+"/"+b.GetName()
}

// asksHere reports whether other's calls go, or may go, where this
// client's do, so that it asks for the same resource. An object whose
// account is not known yet (a provider restarted, its reconcile not come
// yet) is taken to call this client's account only when it calls through
// this client's own config, endpoint and region: the asker waits for it to
// find out rather than take what may be its resource. Through another
// config, which its namespace may write and keep from ever being built (a
// Secret changed every second, credentials throttled on purpose), an
// account not known is no account: it asks for nothing until its session
// shows where it calls. An object whose config calls nowhere asks for
// nothing either.
func (c *Client[MR]) asksHere(ctx context.Context, other MR) bool {
	if c.kind.PlaceOf == nil {
		return false
	}
	at, ok := c.kind.PlaceOf(ctx, other)
	if !ok {
		return false
	}
	if at.Account == "" {
		// Its config's session has reached no AWS since the provider
		// started. Through the asker's own config it calls the asker's
		// account. Through another, it may: while it is new it is taken
		// to ask here, so that after a restart the order in Kubernetes,
		// not which config reaches AWS first, decides. After that it asks
		// for nothing, so that a config its namespace keeps from ever
		// being built holds no name for long.
		if (at.Config == "" || at.Config != c.at.Config) && time.Since(other.GetCreationTimestamp().Time) >= UnplacedWait {
			return false
		}
		at.Account = c.at.Account
	}
	return c.kind.identityIn(other, at) == c.identity(other)
}

// UnplacedWait is how long after its creation an object whose config has not
// reached AWS yet, through a config other than the asker's, is waited for.
const UnplacedWait = time.Minute

// HoldsCreateClaim reports whether mg holds the claim of its identity, at
// at, for a create AWS did not refuse: whether its Observe may take a
// resource AWS hides (a subscription waiting for confirmation) for the work
// of its own create. It reads the claim; a kind's client asks it only when
// that is the question (reconciler.Connection.HoldsClaim).
func (k *Kind[MR]) HoldsCreateClaim(ctx context.Context, mg MR, at Place) bool {
	if k.Identity(mg) == "" {
		return false
	}
	cl, err := k.Claims.Get(ctx, k.identityIn(mg, at), mg.GetUID())
	return err == nil && cl != nil && cl.Holder == mg.GetUID() && (cl.Purpose == ToCreate || cl.Purpose == Created)
}

// decide decides whose the resource the last Observe found is.
func (c *Client[MR]) decide(ctx context.Context, mg MR) (Decision, error) {
	var cl *Claim
	if c.kind.Identity(mg) != "" {
		var err error
		if cl, err = c.kind.Claims.Get(ctx, c.identity(mg), mg.GetUID()); err != nil {
			return Decision{}, err
		}
	}
	handedOver := cl.HandedOverTo(mg.GetNamespace())
	if cl != nil && !cl.Holds() && cl.Holder != mg.GetUID() {
		// Another object's create AWS refused for good: it made nothing,
		// and holds nothing.
		cl = nil
	}
	if cl != nil && cl.Holder != mg.GetUID() && !cl.KeptFrom(mg.GetNamespace()) {
		alive, err := c.kind.Claims.alive(ctx, cl)
		if err != nil {
			return Decision{}, err
		}
		if !alive {
			// Its holder is gone: the claim is released, not
			// inherited by a newcomer of the same name.
			if err := c.kind.Claims.Release(ctx, c.identity(mg), cl.Holder); err != nil {
				return Decision{}, err
			}
			cl = nil
		}
	}
	adoptARN, err := AdoptionARN(mg)
	if err != nil {
		return Decision{}, err
	}
	f := Facts{
		Self: OwnerFor(c.kind.GroupKind, mg), Claim: cl, SaysItOwns: SaysItOwns(mg, c.kind.Metadata(mg)),
		Adopt: WantsToAdopt(mg), AdoptARN: adoptARN, HandedOver: handedOver,
		CreateSucceeded: meta.GetExternalCreateSucceeded(mg), Created: c.lastObserved().Created,
		CreateAttempted: !meta.GetExternalCreatePending(mg).IsZero(), CreateEnded: LastCreateFailed(mg),
	}
	if cl == nil && f.SaysItOwns {
		f.MadeBefore = c.madeBeforeClaims(ctx, mg)
	}
	return Decide(f, func() (MakerEvidence, error) { return c.evidence(ctx, mg) })
}

// evidence reads what AWS shows of the resource the last Observe found.
func (c *Client[MR]) evidence(ctx context.Context, mg MR) (MakerEvidence, error) {
	f := c.lastObserved()
	ev := MakerEvidence{Tagged: f.Tags != nil, Created: f.Created, ARN: f.ARN}
	if f.Tags == nil {
		if WantsToAdopt(mg) || SaysItOwns(mg, c.kind.Metadata(mg)) {
			var err error
			ev.InCluster, err = c.madeBeforeClaimsByAnother(ctx, mg)
			return ev, err
		}
		return ev, nil
	}
	observed, err := f.tagsOn(ctx)
	if err != nil {
		return MakerEvidence{}, err
	}
	o, ok := OwnerOf(observed)
	if !ok {
		return ev, nil
	}
	ev.Owner = &o
	if o.Names(OwnerFor(c.kind.GroupKind, mg)) && (o.UID == "" || o.UID == mg.GetUID()) {
		return ev, nil
	}
	// Another object named by the tags: does it exist here?
	other := c.kind.New()
	err = c.kind.Objects.Get(ctx, types.NamespacedName{Namespace: o.Namespace, Name: o.Name}, other)
	switch {
	case kerrors.IsNotFound(err):
	case err != nil:
		return MakerEvidence{}, errors.Wrap(err, errOwner)
	default:
		ev.InCluster = other.GetUID() != mg.GetUID() && (o.UID == "" || o.UID == other.GetUID()) && strings.EqualFold(o.Kind, c.kind.GroupKind.String())
	}
	return ev, nil
}

func (c *Client[MR]) lastObserved() Observed { return c.observed.LastObserved() }

// restore puts mg back as it was before an Observe, so that nothing read of a
// resource the object does not own is kept.
func restore[MR Object[MR]](mg, before MR) {
	before.DeepCopyInto(mg)
}
