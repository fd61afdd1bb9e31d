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
	"reflect"
	"strings"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	corev1 "k8s.io/api/core/v1"
	kmeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/clients/awserrors"
	"github.com/cloudkinds/provider-aws-services/internal/clients/tags"
)

const (
	errObserve = "AWS says that %s %q (%s) already exists, but it cannot be read"
	msgHidden  = "AWS says that %s %q (%s) already exists but does not show it yet; it is looked at again shortly and taken as created once it shows"
	errClaims  = "cannot list the objects that ask for the same AWS resource"
)

// ReasonNotOwned is the reason of the Ready condition of an object refused a
// resource it does not own.
const ReasonNotOwned xpv2.ConditionReason = "NotOwned"

// A Kind is what ownership needs to know of a managed resource kind.
type Kind[MR resource.Managed] struct {
	GroupKind schema.GroupKind
	Words     Words
	// Identity is the AWS identity an object asks for: the name it gives,
	// or what else AWS keeps unique (a subscription's topic, protocol and
	// endpoint).
	Identity func(MR) string
	// Metadata reads status.atProvider.ackResourceMetadata.
	Metadata func(MR) *common.ResourceMetadata
	// AlreadyExists are the kind's own wordings of AWS's "already exists"
	// answer to a create, each "Code: message prefix", beside the codes
	// every service uses.
	AlreadyExists []string
	// List is an empty list of the kind.
	List client.ObjectList
	// PoliciesHonoured is true when spec.managementPolicies are honoured.
	PoliciesHonoured bool
}

// A Finding is what the kind's last Observe found of the resource, for
// telling whose it is.
type Finding struct {
	// Created is when AWS made it; zero when AWS does not say.
	Created time.Time
	// Tags reads and writes its tags; nil for a kind AWS cannot tag.
	Tags *tags.Service
}

// A Finder is a kind's external client that tells what its last Observe
// found.
type Finder interface {
	Found() Finding
}

// Index returns the index function of IndexField: the identity an object
// asks for, when it may change AWS.
func (k *Kind[MR]) Index(o client.Object) []string {
	mg, ok := o.(MR)
	if !ok || !Writes(mg, k.PoliciesHonoured) {
		return nil
	}
	if id := k.Identity(mg); id != "" {
		return []string{id}
	}
	return nil
}

// Client wraps a kind's external client so that it changes and deletes only
// what its object owns, and adopts only on request.
type Client[MR resource.Managed] struct {
	managed.TypedExternalClient[MR]
	kind *Kind[MR]
	kube client.Reader
	// The session's account and region: objects elsewhere ask for
	// another resource.
	account, region string

	adopting *tags.Service
}

// Wrap returns c, an external client working in account and region, made to
// respect ownership; kube reads the objects of the kind from the cache.
func Wrap[MR resource.Managed](c managed.TypedExternalClient[MR], k *Kind[MR], kube client.Reader, account, region string) *Client[MR] {
	return &Client[MR]{TypedExternalClient: c, kind: k, kube: kube, account: account, region: region}
}

// Observe observes the resource and, when one exists that the object has no
// record of, decides whether it may manage it. One it may not is reported
// and left alone: the object's status is as before the look, and an object
// being deleted is let go without deleting it.
func (c *Client[MR]) Observe(ctx context.Context, mg MR) (managed.ExternalObservation, error) {
	if !Writes(mg, c.kind.PoliciesHonoured) {
		// Observe-only reads without owning.
		return c.TypedExternalClient.Observe(ctx, mg)
	}
	before := mg.DeepCopyObject().(MR) //nolint:forcetypeassert // a copy of its own type
	o, err := c.TypedExternalClient.Observe(ctx, mg)
	if err != nil && !Recorded(before, c.kind.Metadata(before)) {
		// A look that failed half-way (a throttled tag read, say) at a
		// resource the object has no record of keeps nothing: not a Ready
		// condition set before the failure.
		restore(mg, before)
		return o, err
	}
	if err != nil || !o.ResourceExists {
		return o, err
	}
	d, err := c.decide(ctx, before)
	if err != nil {
		restore(mg, before)
		return managed.ExternalObservation{}, err
	}
	switch d.Verdict {
	case Owned:
		return o, nil
	case Adopt:
		if f := c.found(); f.Tags != nil {
			// The owner tags become this object's with the update.
			c.adopting = f.Tags
			o.ResourceUpToDate = false
			o.Diff = strings.TrimPrefix(o.Diff+", owner tags", ", ")
		}
		return o, nil
	case NotOwned:
	}
	restore(mg, before)
	if meta.WasDeleted(mg) {
		// Deleting an object that does not own its resource deletes
		// only the object.
		return managed.ExternalObservation{ResourceExists: false}, nil
	}
	msg := d.Message(c.kind.Words, c.kind.Identity(mg))
	mg.SetConditions(xpv2.Condition{Type: xpv2.TypeReady, Status: corev1.ConditionFalse, Reason: ReasonNotOwned, Message: msg, LastTransitionTime: metav1.Now()})
	return managed.ExternalObservation{}, errors.New(msg)
}

// Create creates the resource unless another object of the cluster holds
// its identity. When AWS answers that it exists already, what exists is
// looked at: the work of an earlier create of this object whose answer was
// lost is taken as created; anything else is refused.
func (c *Client[MR]) Create(ctx context.Context, mg MR) (managed.ExternalCreation, error) {
	self, others, err := c.claims(ctx, mg)
	if err != nil {
		return managed.ExternalCreation{}, err
	}
	if h, held := Holder(self, others); held {
		return managed.ExternalCreation{}, errors.New(Decision{Verdict: NotOwned, HeldBy: &h}.Message(c.kind.Words, c.kind.Identity(mg)))
	}
	created, err := c.TypedExternalClient.Create(ctx, mg)
	if !awserrors.IsAlreadyExists(err, c.kind.AlreadyExists...) {
		return created, err
	}
	id, w := c.kind.Identity(mg), c.kind.Words
	probe := mg.DeepCopyObject().(MR) //nolint:forcetypeassert // a copy of its own type
	o, oerr := c.TypedExternalClient.Observe(ctx, probe)
	switch {
	case oerr != nil:
		return managed.ExternalCreation{}, errors.Wrapf(oerr, errObserve, w.Noun, id, w.Field)
	case !o.ResourceExists:
		return managed.ExternalCreation{}, errors.Errorf(msgHidden, w.Noun, id, w.Field)
	}
	d, err := c.decide(ctx, mg)
	if err != nil {
		return managed.ExternalCreation{}, err
	}
	if d.Verdict == Owned {
		// An earlier create of this object made it, and its answer was
		// lost.
		return managed.ExternalCreation{ConnectionDetails: o.ConnectionDetails}, nil
	}
	return managed.ExternalCreation{}, errors.New(d.Message(w, id))
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

// decide decides whose the resource the last Observe found is.
func (c *Client[MR]) decide(ctx context.Context, mg MR) (Decision, error) {
	self, others, err := c.claims(ctx, mg)
	if err != nil {
		return Decision{}, err
	}
	return Decide(c.kind.GroupKind, mg, self, others, func() (Evidence, error) {
		f := c.found()
		ev := Evidence{Tagged: f.Tags != nil, Created: f.Created}
		if f.Tags == nil {
			return ev, nil
		}
		observed, err := f.Tags.List(ctx)
		if err != nil {
			return Evidence{}, err
		}
		if o, ok := OwnerOf(observed); ok {
			ev.Owner = &o
		}
		return ev, nil
	})
}

func (c *Client[MR]) found() Finding {
	if f, ok := c.TypedExternalClient.(Finder); ok {
		return f.Found()
	}
	return Finding{}
}

// claims returns mg as a claimant, and the other objects of the kind that
// ask for the same identity and are not known to be in another account or
// region, read from the cache's index.
func (c *Client[MR]) claims(ctx context.Context, mg MR) (Claimant, []Claimant, error) {
	self := c.claimant(mg)
	id := c.kind.Identity(mg)
	if id == "" {
		return self, nil, nil
	}
	l, ok := c.kind.List.DeepCopyObject().(client.ObjectList)
	if !ok {
		return self, nil, errors.New(errClaims)
	}
	if err := c.kube.List(ctx, l, client.MatchingFields{IndexField: id}); err != nil {
		return self, nil, errors.Wrap(err, errClaims)
	}
	items, err := kmeta.ExtractList(l)
	if err != nil {
		return self, nil, errors.Wrap(err, errClaims)
	}
	others := make([]Claimant, 0, len(items))
	for _, it := range items {
		other, ok := it.(MR)
		if !ok || other.GetUID() == mg.GetUID() || !Writes(other, c.kind.PoliciesHonoured) || c.elsewhere(other) {
			continue
		}
		others = append(others, c.claimant(other))
	}
	return self, others, nil
}

func (c *Client[MR]) claimant(mg MR) Claimant {
	return Claimant{
		UID: mg.GetUID(), Namespace: mg.GetNamespace(), Name: mg.GetName(),
		Created: mg.GetCreationTimestamp().Time, Recorded: Recorded(mg, c.kind.Metadata(mg)),
		Refused:  mg.GetCondition(xpv2.TypeReady).Reason == ReasonNotOwned,
		Deleting: meta.WasDeleted(mg),
	}
}

// elsewhere reports whether other is known to work in another account or
// region than this client, and so asks for another resource.
func (c *Client[MR]) elsewhere(other MR) bool {
	md := c.kind.Metadata(other)
	if md == nil {
		return false
	}
	return (md.OwnerAccountID != "" && c.account != "" && md.OwnerAccountID != c.account) ||
		(md.Region != "" && c.region != "" && md.Region != c.region)
}

// restore puts mg back as it was before an Observe, so that nothing read of a
// resource the object does not own is kept.
func restore[MR resource.Managed](mg, before MR) {
	reflect.ValueOf(mg).Elem().Set(reflect.ValueOf(before).Elem())
}
