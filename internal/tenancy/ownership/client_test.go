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
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	smithy "github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/google/go-cmp/cmp"
	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/aws/tags"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/sendonce"
)

// awsStream is a fake external client: a stream that exists in AWS with
// tags, and the calls made to it.
type awsStream struct {
	exists  bool
	tags    map[string]string
	created time.Time
	calls   []string
	// createErr is Create's answer.
	createErr error
	// untagged makes it a kind AWS cannot tag.
	untagged bool
	// observeErr is Observe's answer when set.
	observeErr error
	// sentOnce records, for each create, whether its calls were to be sent
	// once (sendonce).
	sentOnce []bool
	// makes makes the create make the resource before it answers
	// createErr, owner tags included for mg (when tagged).
	makes *v1alpha1.DeliveryStream
}

func (a *awsStream) Observe(_ context.Context, mg *v1alpha1.DeliveryStream) (managed.ExternalObservation, error) {
	a.calls = append(a.calls, "Observe")
	if a.observeErr != nil {
		return managed.ExternalObservation{}, a.observeErr
	}
	if !a.exists {
		return managed.ExternalObservation{}, nil
	}
	// What a kind's Observe does to the object: status and late-init.
	mg.Status.AtProvider.ACKResourceMetadata = &common.ResourceMetadata{ARN: new("arn:aws:firehose:us-east-1:000000000000:deliverystream/orders")}
	mg.SetConditions(xpv2.Available())
	return managed.ExternalObservation{ResourceExists: true, ResourceUpToDate: true}, nil
}

func (a *awsStream) Create(ctx context.Context, _ *v1alpha1.DeliveryStream) (managed.ExternalCreation, error) {
	a.calls = append(a.calls, "Create")
	a.sentOnce = append(a.sentOnce, sendonce.IsCreating(ctx))
	if a.makes != nil {
		a.exists, a.created = true, time.Now()
		if !a.untagged {
			a.tags = OwnerTags(streamKind, a.makes)
		}
	}
	return managed.ExternalCreation{}, a.createErr
}

func (a *awsStream) Update(context.Context, *v1alpha1.DeliveryStream) (managed.ExternalUpdate, error) {
	a.calls = append(a.calls, "Update")
	return managed.ExternalUpdate{}, nil
}

func (a *awsStream) Delete(context.Context, *v1alpha1.DeliveryStream) (managed.ExternalDelete, error) {
	a.calls = append(a.calls, "Delete")
	return managed.ExternalDelete{}, nil
}

func (a *awsStream) Disconnect(context.Context) error { return nil }

func (a *awsStream) LastObserved() Observed {
	if a.untagged {
		return Observed{Created: a.created}
	}
	return Observed{Created: a.created, Tags: &tags.Service{
		List: func(context.Context) (map[string]string, error) {
			a.calls = append(a.calls, "ListTags")
			return a.tags, nil
		},
		Set: func(_ context.Context, set map[string]string) error {
			a.calls = append(a.calls, "Tag")
			for k, v := range set {
				a.tags[k] = v
			}
			return nil
		},
	}}
}

// cluster is a fake API server holding objs, and the stream kind's ownership
// on it.
func cluster(t *testing.T, objs ...client.Object) (client.Client, *Kind[*v1alpha1.DeliveryStream]) {
	t.Helper()
	s := testScheme(t)
	newStream := func() *v1alpha1.DeliveryStream { return &v1alpha1.DeliveryStream{} }
	k := &Kind[*v1alpha1.DeliveryStream]{
		GroupKind: streamKind,
		Identity:  func(mg *v1alpha1.DeliveryStream) string { return mg.Spec.ForProvider.DeliveryStreamName },
		// Management policies are honoured.
		PoliciesHonoured: true,
	}
	kube := fake.NewClientBuilder().WithScheme(s).WithIndex(&v1alpha1.DeliveryStream{}, IndexField, k.Index).WithObjects(objs...).Build()
	return kube, &Kind[*v1alpha1.DeliveryStream]{
		Asking:    listAsking(kube),
		GroupKind: streamKind,
		Terms:     MessageTerms{Noun: "delivery stream", Field: "spec.forProvider.deliveryStreamName", Another: "another name"},
		Identity:  func(mg *v1alpha1.DeliveryStream) string { return mg.Spec.ForProvider.DeliveryStreamName },
		Metadata: func(mg *v1alpha1.DeliveryStream) *common.ResourceMetadata {
			return mg.Status.AtProvider.ACKResourceMetadata
		},
		Claims:           NewClaims("provider", streamKind.WithVersion("v1alpha1"), func() client.Object { return newStream() }, kube, kube, kube),
		Objects:          kube,
		New:              newStream,
		PoliciesHonoured: true,
		PlaceOf:          placeOf,
	}
}

// listAsking reads the objects asking for an identity through the fake
// client's copy of IndexField.
func listAsking(kube client.Reader) Asking {
	return func(ctx context.Context, id string) ([]client.Object, error) {
		l := &v1alpha1.DeliveryStreamList{}
		if err := kube.List(ctx, l, client.MatchingFields{IndexField: id}); err != nil {
			return nil, err
		}
		out := make([]client.Object, 0, len(l.Items))
		for i := range l.Items {
			out = append(out, &l.Items[i])
		}
		return out, nil
	}
}

// askerAt is where the objects the tests wrap call: ordersID's account and
// region, through the config "shared".
var askerAt = Place{Account: ordersID.Account, Region: ordersID.Region, Config: "shared"}

// placeOf places an object by its provider config's name: "missing" has no
// session (a config that does not exist or refuses it), "tenant-endpoint"
// calls an endpoint of its own, "not-built" calls through the asker's
// config, in ordersID's region, an account not known yet,
// "not-built-own-config" the same through a config of its own,
// "not-built-tenant-endpoint" the same at an endpoint of its own; every
// other calls where ordersID is, through the asker's config.
func placeOf(_ context.Context, mg *v1alpha1.DeliveryStream) (Place, bool) {
	aws := askerAt
	if ref := mg.GetProviderConfigReference(); ref != nil {
		switch ref.Name {
		case "missing":
			return Place{}, false
		case "tenant-endpoint":
			aws.Endpoint, aws.Config = "https://tenant.example", "tenant-endpoint"
		case "not-built":
			aws.Account = ""
		case "not-built-own-config":
			aws.Account, aws.Config = "", "own"
		case "not-built-tenant-endpoint":
			aws.Account, aws.Endpoint, aws.Config = "", "https://tenant.example", "not-built-tenant-endpoint"
		}
	}
	return aws, true
}

// configured sets the object's provider config.
func configured(name string) func(*v1alpha1.DeliveryStream) {
	return func(mg *v1alpha1.DeliveryStream) {
		mg.SetProviderConfigReference(&xpv2.ProviderConfigReference{Kind: "ProviderConfig", Name: name})
	}
}

func named(ns, name string, opts ...func(*v1alpha1.DeliveryStream)) *v1alpha1.DeliveryStream {
	mg := stream(ns, name, opts...)
	mg.Spec.ForProvider.DeliveryStreamName = "orders"
	return mg
}

var ordersID = Identity{Account: "000000000000", Region: "us-east-1", Kind: streamKind, Fields: "orders"}

// holder is who holds the claim of "orders"; "" when no one does.
func holder(t *testing.T, kube client.Client) string {
	t.Helper()
	l := &coordinationv1.Lease{}
	err := kube.Get(context.Background(), client.ObjectKey{Namespace: "provider", Name: claimName(ordersID)}, l)
	if err != nil {
		return ""
	}
	return l.Labels[LabelHolder]
}

// purposeOf is what the claim of "orders" is for; "" when there is none.
func purposeOf(t *testing.T, kube client.Client) Purpose {
	t.Helper()
	l := &coordinationv1.Lease{}
	if err := kube.Get(context.Background(), client.ObjectKey{Namespace: "provider", Name: claimName(ordersID)}, l); err != nil {
		return ""
	}
	return claimOf(l).Purpose
}

func claimFor(t *testing.T, kube client.Client, mg *v1alpha1.DeliveryStream, p Purpose) {
	t.Helper()
	c := NewClaims("provider", streamKind.WithVersion("v1alpha1"), func() client.Object { return &v1alpha1.DeliveryStream{} }, kube, kube, kube)
	if _, err := c.Take(context.Background(), ordersID, OwnerFor(streamKind, mg), mg.GetUID(), p); err != nil {
		t.Fatal(err)
	}
}

// markEra records that the provider keeps claims since at.
func markEra(t *testing.T, kube client.Client, at time.Time) {
	t.Helper()
	l := &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Namespace: "provider", Name: EraLease, Labels: map[string]string{LabelClaim: "true"},
		Annotations: map[string]string{AnnotationClaimsSince: at.Format(time.RFC3339Nano)}}}
	if err := kube.Create(context.Background(), l); err != nil {
		t.Fatal(err)
	}
}

func TestClientObserve(t *testing.T) {
	observeOnly := func(mg *v1alpha1.DeliveryStream) {
		mg.SetManagementPolicies(xpv2.ManagementPolicies{xpv2.ManagementActionObserve})
	}
	recorded := func(mg *v1alpha1.DeliveryStream) { meta.SetExternalCreateSucceeded(mg, t0) }
	createdAt := func(at time.Time) func(*v1alpha1.DeliveryStream) {
		return func(mg *v1alpha1.DeliveryStream) { mg.CreationTimestamp = metav1.NewTime(at) }
	}
	teamA := named("team-a", "orders", createdAt(t0))
	tagsOf := func(mg *v1alpha1.DeliveryStream) map[string]string { return OwnerTags(streamKind, mg) }
	oldTagsOf := func(mg *v1alpha1.DeliveryStream) map[string]string {
		t := OwnerTags(streamKind, mg)
		delete(t, TagKeyUID)
		return t
	}

	type want struct {
		err      string // a part of the error; "" for none
		exists   bool
		holder   string
		calls    []string
		notOwned bool
		purpose  Purpose // the claim's purpose after the Observe; checked when set
	}
	cases := map[string]struct {
		reason string
		self   *v1alpha1.DeliveryStream
		// objects are in the cluster beside self; claimedBy holds the
		// claim of "orders" for purpose, when set.
		objects   []client.Object
		claimedBy *v1alpha1.DeliveryStream
		purpose   Purpose
		// era is since when the provider keeps claims; zero for never
		// recorded.
		era  time.Time
		aws  *awsStream
		want want
	}{
		"NothingYetClaimsForTheCreate": {
			reason: "The first Observe that finds nothing claims the identity for the create that follows.",
			self:   named("team-b", "orders"), aws: &awsStream{},
			want: want{holder: "uid-team-b-orders", calls: []string{"Observe"}},
		},
		"ObserveOnlyNothingYetClaimsNothing": {
			reason: "An object that may not create claims nothing.",
			self: named("team-b", "orders", func(mg *v1alpha1.DeliveryStream) {
				mg.SetManagementPolicies(xpv2.ManagementPolicies{xpv2.ManagementActionObserve, xpv2.ManagementActionUpdate})
			}), aws: &awsStream{},
			want: want{calls: []string{"Observe"}},
		},
		"NothingYetAskedForFirstByAnother": {
			reason: "An older object of the cluster asks to create the identity: this one waits, refused, and claims nothing.",
			self:   named("team-b", "orders", createdAt(t0.Add(time.Hour))), objects: []client.Object{teamA}, aws: &awsStream{},
			want: want{err: "was asked for first by an object of another namespace of this cluster", calls: []string{"Observe"}, notOwned: true},
		},
		"NothingYetAskedForFirstByTheOldest": {
			reason: "Of the older objects asking, the refusal names the oldest, which is the one that creates.",
			self:   named("team-c", "orders", createdAt(t0.Add(2*time.Hour))), aws: &awsStream{},
			objects: []client.Object{named("team-a", "orders", createdAt(t0.Add(time.Hour))), named("team-b", "orders", createdAt(t0))},
			want:    want{err: "was asked for first by an object of another namespace of this cluster", calls: []string{"Observe"}, notOwned: true},
		},
		"NothingYetAskedForFirstByARefusedObject": {
			reason: "An older object that was refused does not hold this one back.",
			self:   named("team-b", "orders", createdAt(t0.Add(time.Hour))), aws: &awsStream{},
			objects: []client.Object{named("team-a", "orders", createdAt(t0), func(mg *v1alpha1.DeliveryStream) {
				mg.SetConditions(xpv2.Condition{Type: xpv2.TypeReady, Status: "False", Reason: ReasonNotOwned})
			})},
			want: want{holder: "uid-team-b-orders", calls: []string{"Observe"}},
		},
		"NothingYetAskedForFirstByADeniedObject": {
			reason: "An older object whose create AWS refused for good, as its claim records, holds no name: this one takes the claim.",
			self:   named("team-b", "orders", createdAt(t0.Add(time.Hour))), objects: []client.Object{teamA}, claimedBy: teamA, purpose: Denied, aws: &awsStream{},
			want: want{holder: "uid-team-b-orders", calls: []string{"Observe"}, purpose: ToCreate},
		},
		"NothingYetDeniedItselfAskedForFirstByAnother": {
			reason: "An object whose own create AWS refused for good holds nothing against an older object asking.",
			self:   named("team-b", "orders", createdAt(t0.Add(time.Hour))), objects: []client.Object{teamA}, claimedBy: named("team-b", "orders", createdAt(t0.Add(time.Hour))), purpose: Denied, aws: &awsStream{},
			want: want{err: "was asked for first by an object of another namespace", holder: "uid-team-b-orders", calls: []string{"Observe"}, notOwned: true, purpose: Denied},
		},
		"DeniedTakesItsNameAgain": {
			reason: "An object whose create AWS refused for good takes its name again for its next create when no other object took it.",
			self:   named("team-b", "orders"), claimedBy: named("team-b", "orders"), purpose: Denied, aws: &awsStream{},
			want: want{holder: "uid-team-b-orders", calls: []string{"Observe"}, purpose: ToCreate},
		},
		"ExistsDeniedToAnother": {
			reason: "What AWS has under an identity whose claim records another object's refused create is not that object's: it is decided by the evidence, as if no claim were there.",
			self:   named("team-b", "orders", adopting), objects: []client.Object{teamA}, claimedBy: teamA, purpose: Denied,
			aws:  &awsStream{exists: true, tags: map[string]string{}},
			want: want{exists: true, holder: "uid-team-b-orders", calls: []string{"Observe", "ListTags"}, purpose: Adopted},
		},
		"NothingYetAskedForFirstThroughAMissingConfig": {
			reason: "An older object whose config is missing or refuses it never reaches AWS, and holds no name.",
			self:   named("team-b", "orders", createdAt(t0.Add(time.Hour))), aws: &awsStream{},
			objects: []client.Object{named("team-a", "orders", createdAt(t0), configured("missing"))},
			want:    want{holder: "uid-team-b-orders", calls: []string{"Observe"}},
		},
		"NothingYetAskedForFirstAtAnotherEndpoint": {
			reason: "An older object whose config calls an endpoint of its own asks for another resource, whatever account that endpoint answers.",
			self:   named("team-b", "orders", createdAt(t0.Add(time.Hour))), aws: &awsStream{},
			objects: []client.Object{named("team-a", "orders", createdAt(t0), configured("tenant-endpoint"))},
			want:    want{holder: "uid-team-b-orders", calls: []string{"Observe"}},
		},
		"NothingYetAskedForFirstThroughAConfigNotBuiltYet": {
			reason: "An older object whose account is not known yet (a provider restarted, its reconcile not come yet) may ask for this very resource: this one waits for it.",
			self:   named("team-b", "orders", createdAt(t0.Add(time.Hour))), aws: &awsStream{},
			objects: []client.Object{named("team-a", "orders", createdAt(t0), configured("not-built"))},
			want:    want{err: "was asked for first by an object of another namespace of this cluster", calls: []string{"Observe"}, notOwned: true},
		},
		"NothingYetAskedForFirstThroughAnotherConfigNotBuiltYet": {
			reason: "An older object whose account is not known yet, through a config other than this one's, which its namespace may keep from ever being built, asks for nothing.",
			self:   named("team-b", "orders", createdAt(t0.Add(time.Hour))), aws: &awsStream{},
			objects: []client.Object{named("team-a", "orders", createdAt(t0), configured("not-built-own-config"))},
			want:    want{holder: "uid-team-b-orders", calls: []string{"Observe"}},
		},
		"NothingYetAskedForFirstThroughAnotherConfigNotBuiltYetByANewObject": {
			reason: "A new older object whose account is not known yet, through another config (the provider restarted a moment ago), may ask for this very resource: this one waits for it, for a minute at most.",
			self:   named("team-b", "orders", createdAt(time.Now())), aws: &awsStream{},
			objects: []client.Object{named("team-a", "orders", createdAt(time.Now().Add(-2*time.Second)), configured("not-built-own-config"))},
			want:    want{err: "was asked for first by an object of another namespace of this cluster", calls: []string{"Observe"}, notOwned: true},
		},
		"NothingYetAskedForFirstThroughAConfigNotBuiltYetAtAnotherEndpoint": {
			reason: "An older object whose account is not known yet but whose endpoint is another asks for another resource.",
			self:   named("team-b", "orders", createdAt(t0.Add(time.Hour))), aws: &awsStream{},
			objects: []client.Object{named("team-a", "orders", createdAt(t0), configured("not-built-tenant-endpoint"))},
			want:    want{holder: "uid-team-b-orders", calls: []string{"Observe"}},
		},
		"NothingYetAskedForFirstByAPausedObject": {
			reason: "An older object that is paused makes no call, and holds no name.",
			self:   named("team-b", "orders", createdAt(t0.Add(time.Hour))), aws: &awsStream{},
			objects: []client.Object{named("team-a", "orders", createdAt(t0), func(mg *v1alpha1.DeliveryStream) {
				meta.AddAnnotations(mg, map[string]string{meta.AnnotationKeyReconciliationPaused: "true"})
			})},
			want: want{holder: "uid-team-b-orders", calls: []string{"Observe"}},
		},
		"NothingYetHeldByItselfAskedForFirstByAnother": {
			reason: "An object that holds the claim keeps it against an older object asking: the claim, which only the provider writes, decides.",
			self:   named("team-b", "orders", createdAt(t0.Add(time.Hour))), objects: []client.Object{teamA}, claimedBy: named("team-b", "orders", createdAt(t0.Add(time.Hour))), purpose: ToCreate, aws: &awsStream{},
			want: want{holder: "uid-team-b-orders", calls: []string{"Observe"}},
		},
		"NothingYetHeldByAnother": {
			reason: "Another object holds the identity: refused before any create, naming it.",
			self:   named("team-b", "orders", createdAt(t0.Add(-time.Hour))), objects: []client.Object{teamA}, claimedBy: teamA, purpose: ToCreate, aws: &awsStream{},
			want: want{err: "belongs to an object of another namespace of this cluster", holder: "uid-team-a-orders", calls: []string{"Observe"}, notOwned: true},
		},
		"NothingYetHeldByAGoneObject": {
			reason: "A claim whose holder is gone is released, not inherited by a newcomer of the same name.",
			self:   named("team-a", "orders"), claimedBy: named("team-a", "orders", func(mg *v1alpha1.DeliveryStream) { mg.UID = "uid-of-a-gone-object" }), purpose: ToCreate, aws: &awsStream{},
			want: want{holder: "uid-team-a-orders", calls: []string{"Observe"}},
		},
		"ObserveOnlyClaimsNothing": {
			reason: "Observe-only objects read without owning.",
			self:   named("team-b", "orders", observeOnly), aws: &awsStream{},
			want: want{calls: []string{"Observe"}},
		},
		"ObserveOnlyOfAHeldResource": {
			reason: "Observe-only reads only what it could own: not a resource another object holds; it shows nothing of it.",
			self:   named("team-b", "orders", observeOnly), objects: []client.Object{teamA}, claimedBy: teamA, purpose: ToCreate,
			aws:  &awsStream{exists: true, tags: tagsOf(teamA)},
			want: want{err: "belongs to an object of another namespace of this cluster", holder: "uid-team-a-orders", calls: []string{"Observe"}, notOwned: true},
		},
		"ObserveOnlyTaggedForAnotherNamespace": {
			reason: "Observe-only reads nothing whose owner tags name another namespace, its object gone or not.",
			self:   named("team-b", "orders", observeOnly),
			aws:    &awsStream{exists: true, tags: tagsOf(teamA)},
			want:   want{err: "tagged for another namespace", calls: []string{"Observe", "ListTags"}, notOwned: true},
		},
		"ObserveOnlyTaggedForItsNamespace": {
			reason: "Observe-only reads what a gone object of its own namespace made.",
			self:   named("team-b", "orders-reader", observeOnly),
			aws:    &awsStream{exists: true, tags: tagsOf(named("team-b", "orders"))},
			want:   want{exists: true, calls: []string{"Observe", "ListTags"}},
		},
		"ObserveOnlyMadeOutside": {
			reason: "Observe-only reads what no object of the cluster made or holds.",
			self:   named("team-b", "orders", observeOnly),
			aws:    &awsStream{exists: true, tags: map[string]string{}},
			want:   want{exists: true, calls: []string{"Observe", "ListTags"}},
		},
		"RetainedByAnotherNamespace": {
			reason: "What a gone object of another namespace retained stays its namespace's: no adoption from here, and the message names the claim an admin removes to hand it over.",
			self:   named("team-b", "orders", adopting), claimedBy: teamA, purpose: Retained,
			aws:  &awsStream{exists: true, tags: tagsOf(teamA)},
			want: want{err: "was kept on AWS for its namespace by an object of another namespace", holder: "uid-team-a-orders", calls: []string{"Observe"}, notOwned: true},
		},
		"RetainedAdoptedByItsNamespace": {
			reason: "What a gone object retained, an object of its namespace may adopt.",
			self:   named("team-a", "orders-v2", adopting), claimedBy: teamA, purpose: Retained,
			aws:  &awsStream{exists: true, tags: tagsOf(teamA)},
			want: want{exists: true, holder: "uid-team-a-orders-v2", calls: []string{"Observe", "ListTags"}},
		},
		"RetainedButGoneFromAWS": {
			reason: "A namespace keeps what it retained only while AWS has it: once gone, anyone may create the name.",
			self:   named("team-b", "orders"), claimedBy: teamA, purpose: Retained, aws: &awsStream{},
			want: want{holder: "uid-team-b-orders", calls: []string{"Observe"}},
		},
		"AdoptionOfWhatAnotherNamespaceMade": {
			reason: "A resource whose owner tags name another namespace, whose object is gone, is not adopted from this one.",
			self:   named("team-b", "orders", adopting),
			aws:    &awsStream{exists: true, tags: tagsOf(teamA)},
			want:   want{err: "tagged for another namespace", calls: []string{"Observe", "ListTags"}, notOwned: true},
		},
		"ForgedRecord": {
			reason: "A create-succeeded record its tenant wrote does not take what another object holds.",
			self:   named("team-b", "orders", recorded), objects: []client.Object{teamA}, claimedBy: teamA, purpose: ToCreate,
			aws:  &awsStream{exists: true, tags: tagsOf(teamA)},
			want: want{err: "belongs to an object of another namespace of this cluster", holder: "uid-team-a-orders", calls: []string{"Observe"}, notOwned: true},
		},
		"HeldAndCreated": {
			reason: "Its claim records that its create made the resource: owned, with no tag read.",
			self:   named("team-a", "orders", recorded), claimedBy: teamA, purpose: Created,
			aws:  &awsStream{exists: true, tags: tagsOf(teamA)},
			want: want{exists: true, holder: "uid-team-a-orders", calls: []string{"Observe"}},
		},
		"HeldToCreateAndRecorded": {
			reason: "A claim held to create and a create record: the owner tags decide, once (the claim then records the create).",
			self:   named("team-a", "orders", recorded), claimedBy: teamA, purpose: ToCreate,
			aws:  &awsStream{exists: true, tags: tagsOf(teamA)},
			want: want{exists: true, holder: "uid-team-a-orders", calls: []string{"Observe", "ListTags"}, purpose: Created},
		},
		"HeldToCreateWithAnARNItWrote": {
			reason: "A claim held for a create that never succeeded, and an ARN its namespace wrote in its status: not ownership of what another made.",
			self: named("team-a", "orders", recorded, func(mg *v1alpha1.DeliveryStream) {
				mg.Status.AtProvider.ACKResourceMetadata = &common.ResourceMetadata{ARN: new("arn:aws:firehose:us-east-1:000000000000:deliverystream/orders")}
			}), claimedBy: teamA, purpose: ToCreate,
			aws:  &awsStream{exists: true, tags: tagsOf(named("team-x", "orders"))},
			want: want{err: "does not manage it", calls: []string{"Observe", "ListTags"}, notOwned: true},
		},
		"LostAnswer": {
			reason: "Held for a create, no record, and the owner tags name its UID: its create's work.",
			self:   named("team-a", "orders"), claimedBy: teamA, purpose: ToCreate,
			aws:  &awsStream{exists: true, tags: tagsOf(teamA)},
			want: want{exists: true, holder: "uid-team-a-orders", calls: []string{"Observe", "ListTags"}},
		},
		"TagsOfAnEarlierObjectOfTheSameName": {
			reason: "The tags name the same namespace and name with another UID: made elsewhere; the claim is let go.",
			self:   named("team-a", "orders"), claimedBy: teamA, purpose: ToCreate,
			aws:  &awsStream{exists: true, tags: tagsOf(named("team-a", "orders", func(mg *v1alpha1.DeliveryStream) { mg.UID = "earlier" }))},
			want: want{err: "of another cluster or by an earlier object of that name", calls: []string{"Observe", "ListTags"}, notOwned: true},
		},
		"CarriedOver": {
			reason: "Made by a release without claims: recorded, tagged by it without a UID; it takes the claim, writing nothing to AWS.",
			self:   named("team-a", "orders", recorded), era: t0.Add(time.Hour),
			aws:  &awsStream{exists: true, tags: oldTagsOf(teamA)},
			want: want{exists: true, holder: "uid-team-a-orders", calls: []string{"Observe", "ListTags"}},
		},
		"RecordedSinceClaims": {
			reason: "An object made since the provider keeps claims is not carried over by its records, which its tenant can write.",
			self:   named("team-a", "orders", recorded, func(mg *v1alpha1.DeliveryStream) { mg.CreationTimestamp = metav1.NewTime(t0.Add(2 * time.Hour)) }),
			era:    t0.Add(time.Hour),
			aws:    &awsStream{exists: true, tags: oldTagsOf(teamA)},
			want:   want{err: "this object does not manage it", calls: []string{"Observe", "ListTags"}, notOwned: true},
		},
		"ItsOwnUIDWithoutAClaim": {
			reason: "Tagged with its UID by its own create, whose claim a failed retry let go: taken back.",
			self:   named("team-a", "orders"),
			aws:    &awsStream{exists: true, tags: tagsOf(teamA)},
			want:   want{exists: true, holder: "uid-team-a-orders", calls: []string{"Observe", "ListTags"}},
		},
		"MadeOutside": {
			reason: "Made outside the cluster: refused, and nothing claimed.",
			self:   named("team-a", "orders"),
			aws:    &awsStream{exists: true, tags: map[string]string{}},
			want:   want{err: "made outside this cluster", calls: []string{"Observe", "ListTags"}, notOwned: true},
		},
		"Adopted": {
			reason: "Made outside, adoption asked: claimed for the adoption, and the owner tags set with the update.",
			self:   named("team-b", "orders", adopting),
			aws:    &awsStream{exists: true, tags: map[string]string{}},
			want:   want{exists: true, holder: "uid-team-b-orders", calls: []string{"Observe", "ListTags"}},
		},
		"AdoptionOfWhatAnObjectHereMade": {
			reason: "The tags name an object of this cluster (made before claims): not adopted.",
			self:   named("team-b", "orders", adopting), objects: []client.Object{teamA},
			aws:  &awsStream{exists: true, tags: oldTagsOf(teamA)},
			want: want{err: "cannot adopt it while that object exists", calls: []string{"Observe", "ListTags"}, notOwned: true},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			kube, k := cluster(t, append(tc.objects, tc.self)...)
			if tc.claimedBy != nil {
				claimFor(t, kube, tc.claimedBy, tc.purpose)
			}
			if !tc.era.IsZero() {
				markEra(t, kube, tc.era)
			}
			c := Wrap(ExternalClient[*v1alpha1.DeliveryStream](tc.aws), k, askerAt)
			mg := tc.self.DeepCopy()
			o, err := c.Observe(context.Background(), mg)
			got := want{exists: o.ResourceExists, holder: holder(t, kube), calls: tc.aws.calls, notOwned: mg.GetCondition(xpv2.TypeReady).Reason == ReasonNotOwned}
			if tc.want.purpose != "" {
				got.purpose = purposeOf(t, kube)
			}
			if err != nil {
				got.err = tc.want.err
				if !strings.Contains(err.Error(), tc.want.err) || tc.want.err == "" {
					got.err = err.Error()
				}
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("%s\n-want, +got:\n%s", tc.reason, diff)
			}
			if got.notOwned && mg.Status.AtProvider.ACKResourceMetadata != nil && tc.self.Status.AtProvider.ACKResourceMetadata == nil {
				t.Errorf("a refused object keeps what the Observe read: %+v", mg.Status.AtProvider.ACKResourceMetadata)
			}
		})
	}
}

func TestClientUpdateSetsTheOwnerTagsOfAnAdoption(t *testing.T) {
	kube, k := cluster(t)
	aws := &awsStream{exists: true, tags: map[string]string{"team": "outside"}}
	c := Wrap(ExternalClient[*v1alpha1.DeliveryStream](aws), k, askerAt)
	mg := named("team-b", "orders", adopting)
	if _, err := c.Observe(context.Background(), mg); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Update(context.Background(), mg); err != nil {
		t.Fatal(err)
	}
	if o, ok := OwnerOf(aws.tags); !ok || o.UID != mg.UID {
		t.Errorf("the adopted stream's owner tags: %v", aws.tags)
	}
	if got := holder(t, kube); got != string(mg.UID) {
		t.Errorf("claim held by %q", got)
	}
}

// answered is an error AWS answered with.
func answered(code int) error {
	return answeredWith(code, "ServiceUnavailableException")
}

// answeredWith is AWS's answer to a create with an HTTP status and code.
func answeredWith(code int, apiCode string) error {
	return &smithy.OperationError{ServiceID: "Firehose", OperationName: "CreateDeliveryStream", Err: &smithyhttp.ResponseError{
		Response: &smithyhttp.Response{Response: &http.Response{StatusCode: code}}, Err: &smithy.GenericAPIError{Code: apiCode},
	}}
}

func TestClientCreate(t *testing.T) {
	teamA := named("team-a", "orders")
	cases := map[string]struct {
		reason    string
		claimedBy *v1alpha1.DeliveryStream
		tagged    bool
		aws       *awsStream
		wantErr   string
		holder    string
		purpose   Purpose
	}{
		"Created": {
			reason: "The create is made under the object's claim, which then records that the create made it.",
			aws:    &awsStream{}, holder: "uid-team-b-orders", purpose: Created,
		},
		"RefusedByAWS": {
			reason: "A create AWS refused for good made nothing and will not succeed as it is: the claim says so, and holds the name no longer.",
			aws:    &awsStream{createErr: answeredWith(http.StatusBadRequest, "ValidationException")}, wantErr: "ValidationException",
			holder: "uid-team-b-orders", purpose: Denied,
		},
		"RefusedByAWSTagged": {
			reason: "A kind AWS tags holds no name after a refusal for good either.",
			tagged: true, aws: &awsStream{createErr: answeredWith(http.StatusForbidden, "AccessDeniedException")}, wantErr: "AccessDeniedException",
			holder: "uid-team-b-orders", purpose: Denied,
		},
		"RefusedByAWSAfterAnEarlierCreate": {
			reason:    "For a kind AWS cannot tag, a create refused for good after an earlier one under the same claim, whose answer was lost and may have made the resource, keeps the claim: only it tells that work from what appears later.",
			claimedBy: named("team-b", "orders"), aws: &awsStream{createErr: answeredWith(http.StatusBadRequest, "ResourceLimitExceededException")}, wantErr: "ResourceLimitExceededException",
			holder: "uid-team-b-orders", purpose: Refused,
		},
		"RefusedByAWSAfterAnEarlierCreateTagged": {
			reason: "For a kind AWS tags, the owner tags tell an earlier create's work: the claim holds nothing after a refusal for good.",
			tagged: true, claimedBy: named("team-b", "orders"), aws: &awsStream{createErr: answeredWith(http.StatusBadRequest, "ResourceLimitExceededException")}, wantErr: "ResourceLimitExceededException",
			holder: "uid-team-b-orders", purpose: Denied,
		},
		"Throttled": {
			reason: "A throttled create made nothing, and keeps its place: the claim says so, so that nothing appearing before the next create is taken for its work.",
			aws:    &awsStream{createErr: answeredWith(http.StatusBadRequest, "ThrottlingException")}, wantErr: "ThrottlingException",
			holder: "uid-team-b-orders", purpose: Refused,
		},
		"ThrottledTagged": {
			reason: "For a kind AWS tags, the owner tags tell its work from anyone's: the claim stays as it was.",
			tagged: true, aws: &awsStream{createErr: answeredWith(http.StatusTooManyRequests, "ThrottlingException")}, wantErr: "ThrottlingException",
			holder: "uid-team-b-orders", purpose: ToCreate,
		},
		"ServerErrorNothingShows": {
			reason: "AWS failed, and the look that follows at once finds nothing: AWS may have made it and not show it yet, as after a lost answer, and the claim is kept.",
			aws:    &awsStream{createErr: answered(http.StatusInternalServerError)}, wantErr: "ServiceUnavailableException",
			holder: "uid-team-b-orders", purpose: ToCreate,
		},
		"AnswerLost": {
			reason: "A create whose answer was lost may have made the resource, which AWS may not show yet: the claim is kept.",
			aws:    &awsStream{createErr: errors.New("connection reset by peer")}, wantErr: "connection reset", holder: "uid-team-b-orders", purpose: ToCreate,
		},
		"HeldByAGoneObject": {
			reason:    "A claim whose holder is gone is released, not inherited by a newcomer of the same name.",
			claimedBy: named("team-b", "orders", func(mg *v1alpha1.DeliveryStream) { mg.UID = "uid-of-a-gone-object" }), aws: &awsStream{}, holder: "uid-team-b-orders", purpose: Created,
		},
		"HeldByAnother": {
			reason:    "Another object holds the identity: no create.",
			claimedBy: teamA, aws: &awsStream{}, wantErr: "belongs to an object of another namespace", holder: "uid-team-a-orders", purpose: ToCreate,
		},
		"AlreadyExistsQuotesAWS": {
			reason: "A name taken says AWS's own code and message beside the provider's reading of them.",
			aws: &awsStream{exists: true, tags: OwnerTags(streamKind, named("team-x", "orders")),
				createErr: streamCreateAnswer("Firehose orders under account 000000000000 already exists")},
			wantErr: "(AWS answered the create: ResourceInUseException: Firehose orders under account 000000000000 already exists)",
		},
		"AlreadyExistsMadeElsewhere": {
			reason: "AWS has it, tagged by another object: refused, and the claim let go.",
			aws: &awsStream{exists: true, tags: OwnerTags(streamKind, named("team-x", "orders")),
				createErr: streamCreateAnswer("already exists")},
			wantErr: "created by an object of another namespace",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			kube, k := cluster(t, teamA)
			k.Tagged = tc.tagged
			if tc.claimedBy != nil {
				claimFor(t, kube, tc.claimedBy, ToCreate)
			}
			c := Wrap(ExternalClient[*v1alpha1.DeliveryStream](tc.aws), k, askerAt)
			_, err := c.Create(context.Background(), named("team-b", "orders"))
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if (tc.wantErr == "") != (gotErr == "") || !strings.Contains(gotErr, tc.wantErr) {
				t.Errorf("%s\nerror %q, want one saying %q", tc.reason, gotErr, tc.wantErr)
			}
			if got := holder(t, kube); got != tc.holder {
				t.Errorf("%s\nclaim held by %q, want %q", tc.reason, got, tc.holder)
			}
			if got := purposeOf(t, kube); got != tc.purpose {
				t.Errorf("%s\nclaim for %q, want %q", tc.reason, got, tc.purpose)
			}
		})
	}
}

// TestClientCreatesFirst: for a kind whose create AWS refuses when the
// identity exists, a new object claims the identity and creates with no
// look first; anything its records or the claims tell of an existing
// resource makes it look first, as before.
func TestClientCreatesFirst(t *testing.T) {
	refused := func(mg *v1alpha1.DeliveryStream) {
		mg.SetConditions(xpv2.Condition{Type: xpv2.TypeReady, Status: "False", Reason: ReasonNotOwned})
	}
	cases := map[string]struct {
		reason    string
		self      *v1alpha1.DeliveryStream
		claimedBy *v1alpha1.DeliveryStream
		refusedOn bool // the kind's creates are not refused when it exists
		wantCalls []string
		holder    string
	}{
		"NewObjectCreatesWithoutALook": {
			reason: "A new object makes no call before its create, and holds the claim for it.",
			self:   named("team-b", "orders"), holder: "uid-team-b-orders",
		},
		"KindWhoseCreateIsNotRefusedLooks": {
			reason: "A kind AWS lets create twice (as SNS Subscribe) looks first.",
			self:   named("team-b", "orders"), refusedOn: true, wantCalls: []string{"Observe"}, holder: "uid-team-b-orders",
		},
		"ClaimHeldByAnotherLooks": {
			reason: "The cache shows the identity claimed by another object: it looks, and the rules decide.",
			self:   named("team-b", "orders"), claimedBy: named("team-a", "orders"),
			wantCalls: []string{"Observe"}, holder: "uid-team-a-orders",
		},
		"CreateRecordedLooks": {
			reason:    "A create was made or tried (crossplane-runtime's create-pending record): it looks for what it made.",
			self:      named("team-b", "orders", func(mg *v1alpha1.DeliveryStream) { meta.SetExternalCreatePending(mg, t0) }),
			wantCalls: []string{"Observe"}, holder: "uid-team-b-orders",
		},
		"ARNShownLooks": {
			reason: "An object whose status shows an ARN looks at it.",
			self: named("team-b", "orders", func(mg *v1alpha1.DeliveryStream) {
				mg.Status.AtProvider.ACKResourceMetadata = &common.ResourceMetadata{ARN: new("arn:aws:firehose:us-east-1:000000000000:deliverystream/orders")}
			}),
			wantCalls: []string{"Observe"}, holder: "uid-team-b-orders",
		},
		"AdoptionLooks": {
			reason:    "An adoption looks for what it adopts.",
			self:      named("team-b", "orders", adopting),
			wantCalls: []string{"Observe"}, holder: "uid-team-b-orders",
		},
		"RefusedBeforeLooks": {
			reason:    "An object refused before looks again rather than trying a create AWS would refuse.",
			self:      named("team-b", "orders", refused),
			wantCalls: []string{"Observe"}, holder: "uid-team-b-orders",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var objs []client.Object
			if tc.claimedBy != nil {
				objs = append(objs, tc.claimedBy)
			}
			kube, k := cluster(t, objs...)
			k.CreateRefusedIfExists = !tc.refusedOn
			if tc.claimedBy != nil {
				claimFor(t, kube, tc.claimedBy, ToCreate)
			}
			aws := &awsStream{}
			c := Wrap(ExternalClient[*v1alpha1.DeliveryStream](aws), k, askerAt)
			_, _ = c.Observe(context.Background(), tc.self)
			if diff := cmp.Diff(tc.wantCalls, aws.calls); diff != "" {
				t.Errorf("%s\nAWS calls: -want, +got:\n%s", tc.reason, diff)
			}
			if got := holder(t, kube); got != tc.holder {
				t.Errorf("%s\nclaim held by %q, want %q", tc.reason, got, tc.holder)
			}
		})
	}
}

// TestClientCreateFirstRefusedAsExisting: a create made without a look,
// which AWS refuses because the name exists, proves that what exists is not
// its work, even for a kind AWS cannot tag whose resource was made moments
// before the claim: it is refused as the look would have refused it, and the
// claim let go.
func TestClientCreateFirstRefusedAsExisting(t *testing.T) {
	kube, k := cluster(t)
	k.CreateRefusedIfExists = true
	aws := &awsStream{exists: true, untagged: true, created: time.Now(), createErr: streamCreateAnswer("already exists")}
	c := Wrap(ExternalClient[*v1alpha1.DeliveryStream](aws), k, askerAt)
	mg := named("team-b", "orders")
	ctx := context.Background()
	if _, err := c.Observe(ctx, mg); err != nil {
		t.Fatal(err)
	}
	// As crossplane-runtime records before it creates.
	meta.SetExternalCreatePending(mg, time.Now())
	_, err := c.Create(ctx, mg)
	if err == nil || !strings.Contains(err.Error(), "does not manage it") {
		t.Errorf("create refused by AWS as existing: error %v, want a refusal", err)
	}
	if diff := cmp.Diff([]string{"Create", "Observe"}, aws.calls); diff != "" {
		t.Errorf("AWS calls: -want, +got:\n%s", diff)
	}
	if got := holder(t, kube); got != "" {
		t.Errorf("claim held by %q after the refusal, want none", got)
	}
}

// TestClientCreateFirstRefusedThenLookFails: a create made without a look,
// which AWS refuses because the name exists, marks the claim refused before
// it looks at what exists: when that look fails, the next reconcile, which
// sees the create this object recorded, still does not take what exists,
// made moments before the claim by someone else, for its own work.
func TestClientCreateFirstRefusedThenLookFails(t *testing.T) {
	kube, k := cluster(t)
	k.CreateRefusedIfExists = true
	aws := &awsStream{exists: true, untagged: true, created: time.Now(), createErr: streamCreateAnswer("already exists")}
	mg := named("team-b", "orders")
	ctx := context.Background()
	c := Wrap(ExternalClient[*v1alpha1.DeliveryStream](aws), k, askerAt)
	if _, err := c.Observe(ctx, mg); err != nil {
		t.Fatal(err)
	}
	meta.SetExternalCreatePending(mg, time.Now())
	aws.observeErr = &smithy.GenericAPIError{Code: "ThrottlingException", Message: "Rate exceeded"}
	if _, err := c.Create(ctx, mg); err == nil {
		t.Fatal("create refused as existing, then a failed look: no error")
	}
	if got := purposeOf(t, kube); got != Refused {
		t.Errorf("claim purpose after the refused create %q, want %q", got, Refused)
	}

	// The next reconcile, as crossplane-runtime makes it after a failed create.
	aws.observeErr = nil
	meta.SetExternalCreateFailed(mg, time.Now())
	c = Wrap(ExternalClient[*v1alpha1.DeliveryStream](aws), k, askerAt)
	_, err := c.Observe(ctx, mg)
	if err == nil || !strings.Contains(err.Error(), "does not manage it") {
		t.Errorf("next reconcile: error %v, want a refusal", err)
	}
	if got := holder(t, kube); got != "" {
		t.Errorf("claim held by %q after the refusal, want none", got)
	}
}

// TestClientCreateAnswerLost: a new object creates without a look first, and
// its create's outcome is unknown: AWS failed (a server error, which it can
// send after the work) or no answer came. The create is sent once, so no
// retry of it is answered "already exists" inside the call: the create looks
// at once, and takes what its own create made as created, for a kind AWS
// tags and one it cannot tag. When the look finds nothing after a server
// error, nothing was made: what appears later is not the object's. When it
// finds nothing after no answer, AWS may still be at work: the next
// reconcile, which crossplane-runtime makes with the create recorded as
// pending and failed, takes what shows then. A create AWS refused
// (throttled) made nothing, and is not looked after.
func TestClientCreateAnswerLost(t *testing.T) {
	reset := errors.New("read tcp 127.0.0.1:4566: connection reset by peer")
	type want struct {
		createErr string
		calls     []string // of the create
		sentOnce  []bool
		purpose   Purpose // of the claim after the create
		err       string  // of the next reconcile's Observe; "" for none
		exists    bool
		holder    string
	}
	cases := map[string]struct {
		reason    string
		tagged    bool
		createErr error
		// made is true when the create made the resource; shows when AWS
		// shows it only to the next reconcile.
		made, shows bool
		want        want
	}{
		"ServerErrorAfterTheWorkUntagged": {
			reason:    "A kind AWS cannot tag: made after the claim, with its create pending: taken as created at once.",
			createErr: answered(http.StatusInternalServerError), made: true,
			want: want{calls: []string{"Create", "Observe"}, sentOnce: []bool{true}, purpose: ToCreate, exists: true, holder: "uid-team-b-orders"},
		},
		"ConnectionResetAfterTheWorkUntagged": {
			reason:    "No answer at all: the same.",
			createErr: reset, made: true,
			want: want{calls: []string{"Create", "Observe"}, sentOnce: []bool{true}, purpose: ToCreate, exists: true, holder: "uid-team-b-orders"},
		},
		"ServerErrorAfterTheWorkTagged": {
			reason:    "A kind AWS tags: the owner tags its create put name its UID.",
			tagged:    true,
			createErr: answered(http.StatusInternalServerError), made: true,
			want: want{calls: []string{"Create", "Observe", "ListTags"}, sentOnce: []bool{true}, purpose: ToCreate, exists: true, holder: "uid-team-b-orders"},
		},
		"ServerErrorNotShownYetUntagged": {
			reason:    "AWS failed, which it can after the work, and does not show the work yet (its reads lag a write): a server error proves nothing, and the next reconcile, with the create recorded, takes what shows.",
			createErr: answered(http.StatusInternalServerError), shows: true,
			want: want{
				createErr: "ServiceUnavailableException", calls: []string{"Create", "Observe"}, sentOnce: []bool{true}, purpose: ToCreate,
				exists: true, holder: "uid-team-b-orders",
			},
		},
		"ConnectionResetNotShownYetUntagged": {
			reason:    "No answer, and AWS does not show the create's work yet: the next reconcile, with the create recorded, takes it.",
			createErr: reset, shows: true,
			want: want{
				createErr: "connection reset", calls: []string{"Create", "Observe"}, sentOnce: []bool{true}, purpose: ToCreate,
				exists: true, holder: "uid-team-b-orders",
			},
		},
		"ThrottledUntagged": {
			reason:    "AWS refused the create and made nothing: no look; what appeared after it is not the object's, and the claim is let go.",
			createErr: answered(http.StatusTooManyRequests), shows: true,
			want: want{
				createErr: "ServiceUnavailableException", calls: []string{"Create"}, sentOnce: []bool{true}, purpose: Refused,
				err: "made outside this cluster",
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			kube, k := cluster(t)
			k.CreateRefusedIfExists, k.Tagged = true, tc.tagged
			aws := &awsStream{untagged: !tc.tagged, tags: map[string]string{}, createErr: tc.createErr}
			ctx := context.Background()
			mg := named("team-b", "orders")
			if tc.made {
				aws.makes = mg
			}
			c := Wrap(ExternalClient[*v1alpha1.DeliveryStream](aws), k, askerAt)
			if _, err := c.Observe(ctx, mg); err != nil {
				t.Fatal(err)
			}
			// As crossplane-runtime records before a create.
			meta.SetExternalCreatePending(mg, time.Now())
			_, err := c.Create(ctx, mg)
			got := want{calls: aws.calls, sentOnce: aws.sentOnce, purpose: purposeOf(t, kube)}
			if err != nil {
				got.createErr = tc.want.createErr
				if !strings.Contains(err.Error(), tc.want.createErr) || tc.want.createErr == "" {
					got.createErr = err.Error()
				}
				// As crossplane-runtime records after a create that failed.
				meta.SetExternalCreateFailed(mg, time.Now())
			}
			if tc.shows {
				// What AWS shows now: the create's work, or, after a
				// create that made nothing, what someone else made since.
				aws.exists, aws.created = true, time.Now()
			}
			c = Wrap(ExternalClient[*v1alpha1.DeliveryStream](aws), k, askerAt)
			o, err := c.Observe(ctx, mg)
			got.exists, got.holder = o.ResourceExists, holder(t, kube)
			if err != nil {
				got.err = tc.want.err
				if !strings.Contains(err.Error(), tc.want.err) || tc.want.err == "" {
					got.err = err.Error()
				}
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("%s\n-want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// testScheme knows the streams and Kubernetes' own kinds.
func testScheme(t *testing.T) *runtime.Scheme {
	t.Helper()
	s := runtime.NewScheme()
	if err := v1alpha1.SchemeBuilder.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	if err := clientgoscheme.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestClientDeleteBelievesOnlyItsOwnDelete: an object being deleted whose
// read does not find what it made calls its own Delete, whose answer is the
// evidence that it is gone; then the read is believed. One that made
// nothing is let go at once.
func TestClientDeleteBelievesOnlyItsOwnDelete(t *testing.T) {
	deleting := func(mg *v1alpha1.DeliveryStream) {
		now := metav1.Now()
		mg.DeletionTimestamp = &now
		mg.Finalizers = []string{"finalizer.managedresource.crossplane.io"}
		meta.SetExternalName(mg, "orders")
	}
	type want struct {
		exists []bool // each Observe's ResourceExists, a Delete after each that found it
		calls  []string
	}
	cases := map[string]struct {
		reason  string
		purpose Purpose // the claim self holds; "" for none
		want    want
	}{
		"MadeIt": {
			reason:  "What the object made is deleted by its own Delete, whatever a read says; after it, the read is believed.",
			purpose: Created,
			want:    want{exists: []bool{true, false}, calls: []string{"Observe", "Delete", "Observe"}},
		},
		"MadeNothing": {
			reason:  "An object whose create AWS refused for good made nothing: a read that finds nothing lets it go.",
			purpose: Denied,
			want:    want{exists: []bool{false}, calls: []string{"Observe"}},
		},
		"HoldsNothing": {
			reason: "An object that holds no claim made nothing the provider knows of.",
			want:   want{exists: []bool{false}, calls: []string{"Observe"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			self := named("team-a", "orders", deleting)
			kube, k := cluster(t, self)
			if tc.purpose != "" {
				claimFor(t, kube, self, tc.purpose)
			}
			aws := &awsStream{}
			got := want{}
			for range 3 {
				c := Wrap(ExternalClient[*v1alpha1.DeliveryStream](aws), k, askerAt)
				o, err := c.Observe(context.Background(), self)
				if err != nil {
					t.Fatal(err)
				}
				got.exists = append(got.exists, o.ResourceExists)
				if !o.ResourceExists {
					break
				}
				if _, err := c.Delete(context.Background(), self); err != nil {
					t.Fatal(err)
				}
			}
			got.calls = aws.calls
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("%s\n-want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestClientNotShownIsNotCreatedAgain: a read that does not find what the
// object made (AWS's reads can say not-found for a moment after a write)
// creates nothing for ConsistencyWindow; after it, the resource is taken as
// gone and created again.
func TestClientNotShownIsNotCreatedAgain(t *testing.T) {
	self := named("team-a", "orders", func(mg *v1alpha1.DeliveryStream) { meta.SetExternalName(mg, "orders") })
	kube, k := cluster(t, self)
	claimFor(t, kube, self, Created)
	aws := &awsStream{}
	observe := func() error {
		_, err := Wrap(ExternalClient[*v1alpha1.DeliveryStream](aws), k, askerAt).Observe(context.Background(), self)
		return err
	}
	for range 2 {
		if err := observe(); err == nil || !strings.Contains(err.Error(), "which this object made") {
			t.Fatalf("a read that does not find what the object made, within the window: %v", err)
		}
	}
	if diff := cmp.Diff(Created, purposeOf(t, kube)); diff != "" {
		t.Errorf("the claim within the window: -want, +got:\n%s", diff)
	}
	defer func(w time.Duration) { ConsistencyWindow = w }(ConsistencyWindow)
	ConsistencyWindow = 0
	if err := observe(); err != nil {
		t.Fatalf("after the window: %v", err)
	}
	if diff := cmp.Diff(ToCreate, purposeOf(t, kube)); diff != "" {
		t.Errorf("the claim after the window, for the create that follows: -want, +got:\n%s", diff)
	}
}

// streamCreateAnswer is Firehose's answer to a CreateDeliveryStream with
// ResourceInUseException, as the SDK returns it: what it means depends on
// the operation it answers (awserrors).
func streamCreateAnswer(message string) error {
	return &smithy.OperationError{ServiceID: "Firehose", OperationName: "CreateDeliveryStream", Err: &smithy.GenericAPIError{Code: "ResourceInUseException", Message: message}}
}

// halfObserved is a resource whose Observe fails after it has written what it
// read into the object, as a kind's Observe may (a Secret it cannot read, a
// tag list refused).
type halfObserved struct{ *awsStream }

func (h halfObserved) Observe(_ context.Context, mg *v1alpha1.DeliveryStream) (managed.ExternalObservation, error) {
	mg.Status.AtProvider.ForProvider = &v1alpha1.DeliveryStreamParameters{DeliveryStreamName: "what-another-holds"}
	mg.SetConditions(xpv2.Available())
	return managed.ExternalObservation{}, errors.New("cannot read the Secret")
}

// TestClientObserveOnlyFailedShowsNothing: an observe-only object whose
// Observe failed half-way shows nothing of what it read, which may be a
// resource another object holds (that is decided only for an Observe that
// succeeded).
func TestClientObserveOnlyFailedShowsNothing(t *testing.T) {
	_, k := cluster(t)
	c := Wrap(ExternalClient[*v1alpha1.DeliveryStream](halfObserved{&awsStream{}}), k, askerAt)
	mg := named("team-b", "orders", func(mg *v1alpha1.DeliveryStream) {
		mg.SetManagementPolicies(xpv2.ManagementPolicies{xpv2.ManagementActionObserve})
	})
	if _, err := c.Observe(context.Background(), mg); err == nil {
		t.Fatal("Observe: want its error")
	}
	if mg.Status.AtProvider.ForProvider != nil || mg.GetCondition(xpv2.TypeReady).Status == "True" {
		t.Errorf("a failed observe-only Observe shows what it read: %+v, Ready %s", mg.Status.AtProvider.ForProvider, mg.GetCondition(xpv2.TypeReady).Status)
	}
}
