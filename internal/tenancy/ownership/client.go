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
	"sync"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/aws/tags"
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

// Owners is what ownership needs to know of a managed resource kind.
type Owners[MR Copyable[MR]] struct {
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
func (k *Owners[MR]) CreatesFirst(ctx context.Context, mg MR, at Place) bool {
	if !k.newToAWS(mg) {
		return false
	}
	holder, ok := k.Claims.Cached(ctx, k.identityIn(mg, at))
	return !ok || holder == mg.GetUID()
}

// newToAWS reports whether mg's records tell of nothing on AWS (CreatesFirst).
func (k *Owners[MR]) newToAWS(mg MR) bool {
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

// A Copyable is a managed resource that copies itself into another of its
// type, as generated types do: what ownership puts back when an Observe
// found what the object may not keep.
type Copyable[MR any] interface {
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
type Client[MR Copyable[MR]] struct {
	managed.TypedExternalClient[MR]
	// observed is the same client, telling what its last Observe found.
	observed ReportsObserved
	kind     *Owners[MR]
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
func Wrap[MR Copyable[MR]](c ExternalClient[MR], k *Owners[MR], at Place) *Client[MR] {
	return &Client[MR]{TypedExternalClient: c, observed: c, kind: k, at: at}
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

// restore puts mg back as it was before an Observe, so that nothing read of a
// resource the object does not own is kept.
func restore[MR Copyable[MR]](mg, before MR) {
	before.DeepCopyInto(mg)
}
