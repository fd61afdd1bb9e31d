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
	"strings"
	"testing"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
)

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
