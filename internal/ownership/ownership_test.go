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
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
)

var streamKind = schema.GroupKind{Group: "streaming.services.k8s.aws", Kind: "DeliveryStream"}

func stream(ns, name string, opts ...func(*v1alpha1.DeliveryStream)) *v1alpha1.DeliveryStream {
	mg := &v1alpha1.DeliveryStream{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID("uid-" + ns + "-" + name)}}
	mg.Spec.ProviderConfigReference = &xpv2.ProviderConfigReference{Kind: "ClusterProviderConfig", Name: "default"}
	// The CRD's default.
	mg.SetManagementPolicies(xpv2.ManagementPolicies{xpv2.ManagementActionAll})
	for _, o := range opts {
		o(mg)
	}
	return mg
}

func adopting(mg *v1alpha1.DeliveryStream) {
	mg.SetAnnotations(map[string]string{AnnotationAdoptionPolicy: AdoptionPolicyAdopt})
}

var (
	t0      = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	teamA   = Claimant{UID: "a", Namespace: "team-a", Name: "orders", Created: t0, Recorded: true}
	teamAUn = Claimant{UID: "a", Namespace: "team-a", Name: "orders", Created: t0}
	ownerA  = &Owner{Kind: "deliverystream.streaming.services.k8s.aws", Namespace: "team-a", Name: "orders"}
	ownerB  = &Owner{Kind: "deliverystream.streaming.services.k8s.aws", Namespace: "team-b", Name: "orders"}
)

func TestOwnerTags(t *testing.T) {
	got := OwnerTags(streamKind, stream("team-b", "orders"))
	want := map[string]string{
		"crossplane-kind": "deliverystream.streaming.services.k8s.aws", "crossplane-namespace": "team-b", "crossplane-name": "orders",
		"crossplane-providerconfig": "default", "crossplane-providerconfig-kind": "ClusterProviderConfig",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("-want, +got:\n%s", diff)
	}
	o, ok := OwnerOf(got)
	if !ok || !o.Is(streamKind, stream("team-b", "orders")) || o.Is(streamKind, stream("team-a", "orders")) {
		t.Errorf("the owner tags do not name their object: %+v", o)
	}
	if _, ok := OwnerOf(map[string]string{"crossplane-name": "orders"}); ok {
		t.Error("a name alone names an owner")
	}
}

func TestDecide(t *testing.T) {
	pendingAt := t0.Add(time.Hour)
	pending := func(mg *v1alpha1.DeliveryStream) { meta.SetExternalCreatePending(mg, pendingAt) }
	succeeded := func(mg *v1alpha1.DeliveryStream) { meta.SetExternalCreateSucceeded(mg, pendingAt) }
	verified := func(mg *v1alpha1.DeliveryStream) {
		mg.Status.AtProvider.ACKResourceMetadata = &common.ResourceMetadata{ARN: new("arn:aws:firehose:us-east-1:000000000000:deliverystream/orders")}
	}
	later := func(mg *v1alpha1.DeliveryStream) { mg.CreationTimestamp = metav1.NewTime(t0.Add(time.Minute)) }
	tagged := func(o *Owner) Evidence { return Evidence{Tagged: true, Owner: o} }
	untagged := func(created time.Time) Evidence { return Evidence{Created: created} }
	type want struct {
		verdict   Verdict
		heldBy    string
		taggedBy  string
		inCluster bool
		read      bool
	}
	cases := map[string]struct {
		mg       *v1alpha1.DeliveryStream
		others   []Claimant
		evidence Evidence
		want     want
	}{
		"CreatedByThisObject":             {mg: stream("team-b", "orders", succeeded), want: want{verdict: Owned}},
		"VerifiedBefore":                  {mg: stream("team-b", "orders", verified), want: want{verdict: Owned}},
		"HeldByAnotherObjectOfTheCluster": {mg: stream("team-b", "orders"), others: []Claimant{teamA}, want: want{verdict: NotOwned, heldBy: "team-a/orders"}},
		"HeldByAnotherEvenWhenAdopting":   {mg: stream("team-b", "orders", adopting), others: []Claimant{teamA}, want: want{verdict: NotOwned, heldBy: "team-a/orders"}},
		"TwoRecordsTheOlderHolds": {mg: stream("team-b", "orders", succeeded, func(mg *v1alpha1.DeliveryStream) { mg.CreationTimestamp = metav1.NewTime(t0.Add(time.Minute)) }),
			others: []Claimant{teamA}, want: want{verdict: NotOwned, heldBy: "team-a/orders"}},
		"TwoRecordsThisIsOlder": {mg: stream("team-b", "orders", succeeded, func(mg *v1alpha1.DeliveryStream) { mg.CreationTimestamp = metav1.NewTime(t0.Add(-time.Minute)) }),
			others: []Claimant{teamA}, want: want{verdict: Owned}},
		"AnotherWithoutRecordHoldsNothing": {mg: stream("team-b", "orders", succeeded), others: []Claimant{teamAUn}, want: want{verdict: Owned}},
		"AnOlderClaimantAskingFirstHolds": {mg: stream("team-b", "orders", later), others: []Claimant{teamAUn},
			want: want{verdict: NotOwned, heldBy: "team-a/orders"}},
		"AnOlderRefusedClaimantHoldsNothing": {mg: stream("team-b", "orders", later, adopting), others: []Claimant{{UID: "a", Namespace: "team-a", Name: "orders", Created: t0, Refused: true}},
			evidence: tagged(nil), want: want{verdict: Adopt, read: true}},
		"AnOlderClaimantBeingDeletedHoldsNothing": {mg: stream("team-b", "orders", later, adopting), others: []Claimant{{UID: "a", Namespace: "team-a", Name: "orders", Created: t0, Deleting: true}},
			evidence: tagged(nil), want: want{verdict: Adopt, read: true}},
		"AYoungerClaimantHoldsNothing": {mg: stream("team-b", "orders", func(mg *v1alpha1.DeliveryStream) { mg.CreationTimestamp = metav1.NewTime(t0.Add(-time.Minute)) }),
			others: []Claimant{teamAUn}, evidence: tagged(nil), want: want{verdict: NotOwned, read: true}},
		"LostCreateFoundByItsOwnTags":  {mg: stream("team-b", "orders", pending), evidence: tagged(ownerB), want: want{verdict: Owned, read: true}},
		"TaggedByAnObjectNoLongerHere": {mg: stream("team-b", "orders"), evidence: tagged(ownerA), want: want{verdict: NotOwned, taggedBy: "team-a/orders", read: true}},
		"TaggedByAnObjectStillHere": {mg: stream("team-b", "orders", adopting), others: []Claimant{teamAUn}, evidence: tagged(ownerA),
			want: want{verdict: NotOwned, taggedBy: "team-a/orders", inCluster: true, read: true}},
		"AdoptedOnceItsTaggedOwnerIsGone": {mg: stream("team-b", "orders", adopting), evidence: tagged(ownerA), want: want{verdict: Adopt, taggedBy: "team-a/orders", read: true}},
		"MadeOutsideTheCluster":           {mg: stream("team-b", "orders"), evidence: tagged(nil), want: want{verdict: NotOwned, read: true}},
		"MadeOutsideTheClusterAdopted":    {mg: stream("team-b", "orders", adopting), evidence: tagged(nil), want: want{verdict: Adopt, read: true}},
		"PendingDoesNotProveATaggedKind":  {mg: stream("team-b", "orders", pending), evidence: tagged(nil), want: want{verdict: NotOwned, read: true}},
		"UntaggedMadeAfterThisCreate":     {mg: stream("team-b", "orders", pending), evidence: untagged(pendingAt.Add(time.Second)), want: want{verdict: Owned, read: true}},
		"UntaggedMadeWithinTheMargin":     {mg: stream("team-b", "orders", pending), evidence: untagged(pendingAt.Add(-time.Minute)), want: want{verdict: Owned, read: true}},
		"UntaggedMadeLongBefore":          {mg: stream("team-b", "orders", pending), evidence: untagged(pendingAt.Add(-time.Hour)), want: want{verdict: NotOwned, read: true}},
		"UntaggedNoCreateAttempted":       {mg: stream("team-b", "orders"), evidence: untagged(t0), want: want{verdict: NotOwned, read: true}},
		"UntaggedWithoutTimeAfterPending": {mg: stream("team-b", "orders", pending), evidence: untagged(time.Time{}), want: want{verdict: Owned, read: true}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			read := false
			self := Claimant{UID: tc.mg.UID, Namespace: tc.mg.Namespace, Name: tc.mg.Name, Created: tc.mg.CreationTimestamp.Time,
				Recorded: Recorded(tc.mg, tc.mg.Status.AtProvider.ACKResourceMetadata)}
			d, err := Decide(streamKind, tc.mg, self, tc.others, func() (Evidence, error) { read = true; return tc.evidence, nil })
			if err != nil {
				t.Fatal(err)
			}
			got := want{verdict: d.Verdict, inCluster: d.InCluster, read: read}
			if d.HeldBy != nil {
				got.heldBy = d.HeldBy.String()
			}
			if d.TaggedBy != nil {
				got.taggedBy = d.TaggedBy.String()
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("-want, +got:\n%s", diff)
			}
		})
	}
}

func TestDecideFailsWhenTheEvidenceCannotBeRead(t *testing.T) {
	_, err := Decide(streamKind, stream("team-b", "orders"), Claimant{UID: "b"}, nil, func() (Evidence, error) { return Evidence{}, errors.New("throttled") })
	if err == nil || err.Error() != "throttled" {
		t.Errorf("got %v", err)
	}
}

func TestMessage(t *testing.T) {
	w := Words{Noun: "delivery stream", Field: "spec.forProvider.deliveryStreamName", Another: "another name"}
	cases := map[string]struct {
		d    Decision
		want []string
		not  []string
	}{
		"AskedForFirstInTheCluster": {d: Decision{HeldBy: &teamAUn}, want: []string{"asked for first by team-a/orders of this cluster", "choose another name"}, not: []string{"adopt it with"}},
		"HeldInTheCluster":          {d: Decision{HeldBy: &teamA}, want: []string{`AWS already has delivery stream "orders" (spec.forProvider.deliveryStreamName), managed by team-a/orders`, "choose another name"}, not: []string{"adopt it with"}},
		"TaggedByAnObjectStillHere": {d: Decision{TaggedBy: ownerA, InCluster: true},
			want: []string{"created by team-a/orders (its crossplane-namespace and crossplane-name tags)", "cannot adopt it while that object exists"}, not: []string{"adopt it with"}},
		"TaggedByAnObjectGone": {d: Decision{TaggedBy: ownerA},
			want: []string{"created by team-a/orders (its crossplane-namespace and crossplane-name tags); this object does not manage it: choose another name, or adopt it with the annotation services.k8s.aws/adoption-policy=adopt if no other object manages it"}},
		"MadeOutside": {d: Decision{}, want: []string{"made outside this cluster", "services.k8s.aws/adoption-policy=adopt"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			m := tc.d.Message(w, "orders")
			for _, s := range tc.want {
				if !strings.Contains(m, s) {
					t.Errorf("%q does not say %q", m, s)
				}
			}
			for _, s := range tc.not {
				if strings.Contains(m, s) {
					t.Errorf("%q says %q", m, s)
				}
			}
			if strings.Contains(m, "delete") {
				t.Errorf("%q advises deleting", m)
			}
		})
	}
}

func TestWrites(t *testing.T) {
	cases := map[string]struct {
		policies xpv2.ManagementPolicies
		honoured bool
		want     bool
	}{
		"Default":                  {policies: xpv2.ManagementPolicies{xpv2.ManagementActionAll}, honoured: true, want: true},
		"ObserveOnly":              {policies: xpv2.ManagementPolicies{xpv2.ManagementActionObserve}, honoured: true, want: false},
		"ObserveAndDelete":         {policies: xpv2.ManagementPolicies{xpv2.ManagementActionObserve, xpv2.ManagementActionDelete}, honoured: true, want: true},
		"ObserveOnlyNotHonoured":   {policies: xpv2.ManagementPolicies{xpv2.ManagementActionObserve}, honoured: false, want: true},
		"ObserveAndLateInitialize": {policies: xpv2.ManagementPolicies{xpv2.ManagementActionObserve, xpv2.ManagementActionLateInitialize}, honoured: true, want: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mg := stream("team-a", "orders")
			mg.SetManagementPolicies(tc.policies)
			if got := Writes(mg, tc.honoured); got != tc.want {
				t.Errorf("Writes: got %v, want %v", got, tc.want)
			}
		})
	}
}
