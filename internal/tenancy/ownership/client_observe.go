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

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

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
