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
	t0     = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	kindA  = "deliverystream.streaming.services.k8s.aws"
	ownerA = Owner{Kind: kindA, Namespace: "team-a", Name: "orders", UID: "uid-team-a-orders"}
	ownerB = Owner{Kind: kindA, Namespace: "team-b", Name: "orders", UID: "uid-team-b-orders"}
)

func TestOwnerTags(t *testing.T) {
	got := OwnerTags(streamKind, stream("team-b", "orders"))
	want := map[string]string{
		"crossplane-kind": kindA, "crossplane-namespace": "team-b", "crossplane-name": "orders",
		"crossplane-providerconfig": "default", "crossplane-providerconfig-kind": "ClusterProviderConfig",
		"crossplane-uid": "uid-team-b-orders",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("-want, +got:\n%s", diff)
	}
	if len(got) != OwnerTagCount {
		t.Errorf("%d owner tags, OwnerTagCount says %d", len(got), OwnerTagCount)
	}
	o, ok := OwnerOf(got)
	if !ok || o != ownerB {
		t.Errorf("the owner tags do not name their object: %+v", o)
	}
	if _, ok := OwnerOf(map[string]string{"crossplane-name": "orders"}); ok {
		t.Error("a name alone names an owner")
	}
}

func TestDecide(t *testing.T) {
	claimedAt := t0.Add(time.Hour)
	mine := func(p Purpose) *Claim { return &Claim{Holder: ownerB.UID, Owner: ownerB, Purpose: p, Since: claimedAt} }
	theirs := &Claim{Holder: ownerA.UID, Owner: ownerA, Purpose: ToCreate, Since: t0}
	oldTags := ownerB
	oldTags.UID = ""
	otherCluster := ownerB
	otherCluster.UID = "uid-of-another-cluster"
	tagged := func(o Owner) MakerEvidence { return MakerEvidence{Tagged: true, Owner: &o} }

	type want struct {
		d        Decision
		evidence bool // the evidence was read
	}
	cases := map[string]struct {
		reason   string
		f        Facts
		evidence MakerEvidence
		want     want
	}{
		"ForgedRecordAgainstAnotherHolder": {
			reason: "Records a tenant can write do not beat another object's claim.",
			f:      Facts{Self: ownerB, Claim: theirs, SaysItOwns: true},
			want:   want{d: Decision{Verdict: NotOwned, HeldBy: &ownerA}},
		},
		"AdoptionAgainstAnotherHolder": {
			reason: "Asking to adopt does not beat another object's claim.",
			f:      Facts{Self: ownerB, Claim: theirs, Adopt: true},
			want:   want{d: Decision{Verdict: NotOwned, HeldBy: &ownerA}},
		},
		"HeldAndCreated": {
			reason: "Its claim records that its create made the resource: owned, without reading AWS's tags.",
			f:      Facts{Self: ownerB, Claim: mine(Created), SaysItOwns: true},
			want:   want{d: Decision{Verdict: Owned, Holds: true}},
		},
		"HeldToCreateWithARecordItWrote": {
			reason: "A claim held to create, beside an ARN or create record its namespace may write, is not ownership of what someone else made: the evidence decides.",
			f:      Facts{Self: ownerB, Claim: mine(ToCreate), SaysItOwns: true, CreateSucceeded: claimedAt}, evidence: tagged(otherCluster),
			want: want{d: Decision{Verdict: NotOwned, Holds: true, Evidence: tagged(otherCluster)}, evidence: true},
		},
		"HeldToCreateAndItsWork": {
			reason: "A claim held to create whose create's work the evidence shows: owned, and the claim is to record it.",
			f:      Facts{Self: ownerB, Claim: mine(ToCreate), SaysItOwns: true, CreateSucceeded: claimedAt}, evidence: tagged(ownerB),
			want: want{d: Decision{Verdict: Owned, Holds: true, Evidence: tagged(ownerB), Confirm: true}, evidence: true},
		},
		"HeldForAnAdoption": {
			reason: "An adoption the claim recorded stays owned, whatever the annotations say now.",
			f:      Facts{Self: ownerB, Claim: mine(Adopted)},
			want:   want{d: Decision{Verdict: Owned, Holds: true}},
		},
		"LostAnswerTaggedWithItsUID": {
			reason: "Its create's owner tags: the create's answer was lost.",
			f:      Facts{Self: ownerB, Claim: mine(ToCreate)}, evidence: tagged(ownerB),
			want: want{d: Decision{Verdict: Owned, Holds: true, Evidence: tagged(ownerB), Confirm: true}, evidence: true},
		},
		"TagsOfAnotherCluster": {
			reason: "The same kind, namespace and name with another UID: made elsewhere.",
			f:      Facts{Self: ownerB, Claim: mine(ToCreate)}, evidence: tagged(otherCluster),
			want: want{d: Decision{Verdict: NotOwned, Holds: true, Evidence: tagged(otherCluster)}, evidence: true},
		},
		"TagsOfAnotherClusterAdopted": {
			reason: "Made elsewhere, and its user asks to adopt it.",
			f:      Facts{Self: ownerB, Claim: mine(ToCreate), Adopt: true}, evidence: tagged(otherCluster),
			want: want{d: Decision{Verdict: Adopt, Holds: true, Evidence: tagged(otherCluster)}, evidence: true},
		},
		"UntaggedMadeAfterTheClaim": {
			reason: "A kind AWS cannot tag, made after the claim, and the object was about to create: its create's work.",
			f:      Facts{Self: ownerB, Claim: mine(ToCreate), CreateAttempted: true}, evidence: MakerEvidence{Created: claimedAt.Add(time.Second)},
			want: want{d: Decision{Verdict: Owned, Holds: true, Evidence: MakerEvidence{Created: claimedAt.Add(time.Second)}, Confirm: true}, evidence: true},
		},
		"UntaggedAfterARefusedCreate": {
			reason: "A kind AWS cannot tag whose create AWS refused: what appeared since is not its work.",
			f:      Facts{Self: ownerB, Claim: mine(Refused), CreateAttempted: true, SaysItOwns: true}, evidence: MakerEvidence{Created: claimedAt.Add(time.Second)},
			want: want{d: Decision{Verdict: NotOwned, Holds: true, Evidence: MakerEvidence{Created: claimedAt.Add(time.Second)}}, evidence: true},
		},
		"UntaggedClaimedButNeverCreated": {
			reason: "A kind AWS cannot tag, claimed, but the object never went on to create: what appeared is not its work.",
			f:      Facts{Self: ownerB, Claim: mine(ToCreate)}, evidence: MakerEvidence{Created: claimedAt.Add(time.Second)},
			want: want{d: Decision{Verdict: NotOwned, Holds: true, Evidence: MakerEvidence{Created: claimedAt.Add(time.Second)}}, evidence: true},
		},
		"UntaggedMadeBeforeTheClaim": {
			reason: "A kind AWS cannot tag, made well before the claim: someone else's.",
			f:      Facts{Self: ownerB, Claim: mine(ToCreate), CreateAttempted: true}, evidence: MakerEvidence{Created: t0},
			want: want{d: Decision{Verdict: NotOwned, Holds: true, Evidence: MakerEvidence{Created: t0}}, evidence: true},
		},
		"UntaggedLostAnswer": {
			reason: "A kind AWS cannot tag whose create failed with no answer of AWS's doing nothing (a server error, a reset): made after the claim and before the failure, its create's work.",
			f:      Facts{Self: ownerB, Claim: mine(ToCreate), CreateAttempted: true, CreateEnded: claimedAt.Add(time.Second)}, evidence: MakerEvidence{Created: claimedAt.Add(time.Second)},
			want: want{d: Decision{Verdict: Owned, Holds: true, Evidence: MakerEvidence{Created: claimedAt.Add(time.Second)}, Confirm: true}, evidence: true},
		},
		"UntaggedLostAnswerMadeBeforeTheClaim": {
			reason: "A kind AWS cannot tag whose create's answer was lost, made well before the claim: someone else's, as if the create had been answered that it exists.",
			f:      Facts{Self: ownerB, Claim: mine(ToCreate), CreateAttempted: true, CreateEnded: claimedAt.Add(time.Second)}, evidence: MakerEvidence{Created: t0},
			want: want{d: Decision{Verdict: NotOwned, Holds: true, Evidence: MakerEvidence{Created: t0}}, evidence: true},
		},
		"UntaggedMadeWellAfterTheCreateFailed": {
			reason: "A kind AWS cannot tag, made well after its create failed: not that create's work, whatever its answer was.",
			f:      Facts{Self: ownerB, Claim: mine(ToCreate), CreateAttempted: true, CreateEnded: claimedAt.Add(time.Second)}, evidence: MakerEvidence{Created: claimedAt.Add(time.Hour)},
			want: want{d: Decision{Verdict: NotOwned, Holds: true, Evidence: MakerEvidence{Created: claimedAt.Add(time.Hour)}}, evidence: true},
		},
		"UntaggedMadeAfterAnEarlierSuccessAndALaterFailure": {
			reason: "Made again by the object after its first resource went, with the answer lost: the last create ended after the recorded success, and bounds what it made.",
			f: Facts{
				Self: ownerB, Claim: mine(ToCreate), SaysItOwns: true, CreateAttempted: true,
				CreateSucceeded: claimedAt, Created: claimedAt.Add(time.Hour), CreateEnded: claimedAt.Add(time.Hour),
			},
			evidence: MakerEvidence{Created: claimedAt.Add(time.Hour)},
			want:     want{d: Decision{Verdict: Owned, Holds: true, Evidence: MakerEvidence{Created: claimedAt.Add(time.Hour)}, Confirm: true}, evidence: true},
		},
		"FailedCallLeavesNoClaim": {
			reason: "A create AWS refused released the claim; a create-pending record proves nothing.",
			f:      Facts{Self: ownerB}, evidence: MakerEvidence{Created: claimedAt.Add(time.Minute)},
			want: want{d: Decision{Verdict: NotOwned, Evidence: MakerEvidence{Created: claimedAt.Add(time.Minute)}}, evidence: true},
		},
		"CarriedFromTheReleaseWithoutClaims": {
			reason: "Recorded, with the owner tags that release put (no UID) naming it: it takes the claim.",
			f:      Facts{Self: ownerB, SaysItOwns: true, MadeBefore: true}, evidence: tagged(oldTags),
			want: want{d: Decision{Verdict: Carry, Evidence: tagged(oldTags)}, evidence: true},
		},
		"RecordedSinceClaims": {
			reason: "An object made since the provider keeps claims: its records (a tenant can write them) carry nothing over.",
			f:      Facts{Self: ownerB, SaysItOwns: true}, evidence: tagged(oldTags),
			want: want{d: Decision{Verdict: NotOwned, Evidence: tagged(oldTags)}, evidence: true},
		},
		"UntaggedCarriedOver": {
			reason: "A kind AWS cannot tag, made before claims and recorded: carried over.",
			f:      Facts{Self: ownerB, SaysItOwns: true, MadeBefore: true}, evidence: MakerEvidence{},
			want: want{d: Decision{Verdict: Carry}, evidence: true},
		},
		"UntaggedCarryWhileAnotherOldObjectRecordsIt": {
			reason: "Another object of the previous release records the same untaggable identity: neither a record nor an adoption takes it.",
			f:      Facts{Self: ownerB, SaysItOwns: true, MadeBefore: true, Adopt: true}, evidence: MakerEvidence{InCluster: true},
			want: want{d: Decision{Verdict: NotOwned, Evidence: MakerEvidence{InCluster: true}}, evidence: true},
		},
		"ItsOwnUIDWithoutAClaim": {
			reason: "Tagged with its UID by its own create, whose claim a failed retry let go.",
			f:      Facts{Self: ownerB}, evidence: tagged(ownerB),
			want: want{d: Decision{Verdict: Carry, Evidence: tagged(ownerB)}, evidence: true},
		},
		"RemadeAfterTheRecord": {
			reason: "Held and recorded, but AWS made the resource well after the record: someone made it again; the tags decide.",
			f:      Facts{Self: ownerB, Claim: mine(ToCreate), SaysItOwns: true, CreateSucceeded: claimedAt, Created: claimedAt.Add(time.Hour)}, evidence: tagged(otherCluster),
			want: want{d: Decision{Verdict: NotOwned, Holds: true, Evidence: tagged(otherCluster)}, evidence: true},
		},
		"UntaggedRemadeAfterTheRecord": {
			reason: "A kind AWS cannot tag, made again well after the recorded create.",
			f:      Facts{Self: ownerB, Claim: mine(ToCreate), SaysItOwns: true, CreateSucceeded: claimedAt, Created: claimedAt.Add(time.Hour)}, evidence: MakerEvidence{Created: claimedAt.Add(time.Hour)},
			want: want{d: Decision{Verdict: NotOwned, Holds: true, Evidence: MakerEvidence{Created: claimedAt.Add(time.Hour)}}, evidence: true},
		},
		"ForgedRecordOfAResourceTaggedForAnother": {
			reason: "Recorded, but the tags name another object: not carried.",
			f:      Facts{Self: ownerB, SaysItOwns: true}, evidence: tagged(ownerA),
			want: want{d: Decision{Verdict: NotOwned, Evidence: tagged(ownerA)}, evidence: true},
		},
		"ForgedRecordOfAnEarlierObjectsResource": {
			reason: "Recorded, but the tags name an earlier object of the same name (another UID).",
			f:      Facts{Self: ownerB, SaysItOwns: true}, evidence: tagged(otherCluster),
			want: want{d: Decision{Verdict: NotOwned, Evidence: tagged(otherCluster)}, evidence: true},
		},
		"AdoptWhatNoOneHolds": {
			reason: "Made outside, and its user asks to adopt it.",
			f:      Facts{Self: ownerB, Adopt: true}, evidence: MakerEvidence{Tagged: true},
			want: want{d: Decision{Verdict: Adopt, Evidence: MakerEvidence{Tagged: true}}, evidence: true},
		},
		"AdoptByItsARN": {
			reason:   "The adoption names the ARN of what AWS has under the identity.",
			f:        Facts{Self: ownerB, Adopt: true, AdoptARN: "arn:aws:firehose:us-east-1:000000000000:deliverystream/orders"},
			evidence: MakerEvidence{Tagged: true, ARN: "arn:aws:firehose:us-east-1:000000000000:deliverystream/orders"},
			want:     want{d: Decision{Verdict: Adopt, Evidence: MakerEvidence{Tagged: true, ARN: "arn:aws:firehose:us-east-1:000000000000:deliverystream/orders"}}, evidence: true},
		},
		"AdoptByAnotherARN": {
			reason:   "The adoption names another ARN (another account, region or name): refused.",
			f:        Facts{Self: ownerB, Adopt: true, AdoptARN: "arn:aws:firehose:us-east-1:111122223333:deliverystream/orders"},
			evidence: MakerEvidence{Tagged: true, ARN: "arn:aws:firehose:us-east-1:000000000000:deliverystream/orders"},
			want: want{d: Decision{Verdict: NotOwned, AdoptARN: "arn:aws:firehose:us-east-1:111122223333:deliverystream/orders",
				Evidence: MakerEvidence{Tagged: true, ARN: "arn:aws:firehose:us-east-1:000000000000:deliverystream/orders"}}, evidence: true},
		},
		"AdoptWhatAnObjectOfTheClusterMade": {
			reason: "Its tags name an object that exists here (made before claims): not adopted.",
			f:      Facts{Self: ownerB, Adopt: true}, evidence: MakerEvidence{Tagged: true, Owner: &ownerA, InCluster: true},
			want: want{d: Decision{Verdict: NotOwned, Evidence: MakerEvidence{Tagged: true, Owner: &ownerA, InCluster: true}}, evidence: true},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			read := false
			d, err := Decide(tc.f, func() (MakerEvidence, error) { read = true; return tc.evidence, nil })
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, want{d: d, evidence: read}, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("%s\n-want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestAdoptionARN(t *testing.T) {
	const arn = "arn:aws:firehose:us-east-1:000000000000:deliverystream/orders"
	cases := map[string]struct {
		annotations map[string]string
		want        string
		wantErr     bool
	}{
		"NoAdoption":          {annotations: map[string]string{AnnotationAdoptionFields: `{"arn": "` + arn + `"}`}},
		"AdoptionWithoutARN":  {annotations: map[string]string{AnnotationAdoptionPolicy: AdoptionPolicyAdopt}},
		"AdoptionOfAnARN":     {annotations: map[string]string{AnnotationAdoptionPolicy: AdoptionPolicyAdopt, AnnotationAdoptionFields: `{"arn": "` + arn + `"}`}, want: arn},
		"NotJSON":             {annotations: map[string]string{AnnotationAdoptionPolicy: AdoptionPolicyAdopt, AnnotationAdoptionFields: arn}, wantErr: true},
		"NotAnARN":            {annotations: map[string]string{AnnotationAdoptionPolicy: AdoptionPolicyAdopt, AnnotationAdoptionFields: `{"arn": "orders"}`}, wantErr: true},
		"FieldsWithoutAnyARN": {annotations: map[string]string{AnnotationAdoptionPolicy: AdoptionPolicyAdopt, AnnotationAdoptionFields: `{"name": "orders"}`}, wantErr: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mg := stream("team-a", "orders")
			mg.SetAnnotations(tc.annotations)
			got, err := AdoptionARN(mg)
			if (err != nil) != tc.wantErr || got != tc.want {
				t.Errorf("AdoptionARN: got %q, %v; want %q, error %v", got, err, tc.want, tc.wantErr)
			}
			if err != nil && !strings.Contains(err.Error(), AnnotationAdoptionFields) {
				t.Errorf("the error does not name the annotation: %v", err)
			}
		})
	}
}

func TestDecideFailsWhenTheEvidenceCannotBeRead(t *testing.T) {
	boom := errors.New("throttled")
	if _, err := Decide(Facts{Self: ownerB}, func() (MakerEvidence, error) { return MakerEvidence{}, boom }); !errors.Is(err, boom) {
		t.Errorf("got %v, want %v", err, boom)
	}
}

func TestMessage(t *testing.T) {
	w := MessageTerms{Noun: "delivery stream", Field: "spec.forProvider.deliveryStreamName", Another: "another name"}
	cases := map[string]struct {
		d Decision
		// reader is the namespace of the object refused; team-b when "".
		reader string
		want   []string
		not    []string
	}{
		"Held": {d: Decision{HeldBy: &ownerA, Lease: "crossplane-system/aws-owner-1"},
			want: []string{`delivery stream "orders" (spec.forProvider.deliveryStreamName) belongs to an object of another namespace of this cluster`, "cannot adopt it while", "choose another name", "An admin sees which object in the ownership claim, the Lease crossplane-system/aws-owner-1"},
			not:  []string{"adopt it with", "team-a"}},
		"HeldInItsNamespace": {d: Decision{HeldBy: &ownerA}, reader: "team-a",
			want: []string{`delivery stream "orders" (spec.forProvider.deliveryStreamName) belongs to team-a/orders of this cluster`}},
		"AskedFirst": {d: Decision{AskedFirst: &ownerA},
			want: []string{"was asked for first by an object of another namespace of this cluster", "choose another name"}, not: []string{"team-a"}},
		"AskedFirstInItsNamespace": {d: Decision{AskedFirst: &ownerA}, reader: "team-a",
			want: []string{"was asked for first by team-a/orders of this cluster"}},
		"TaggedByAnObjectStillHere": {d: Decision{Evidence: MakerEvidence{Owner: &ownerA, InCluster: true}},
			want: []string{"created by an object of another namespace (its crossplane-namespace and crossplane-name tags)", "cannot adopt it while that object exists"}, not: []string{"adopt it with", "team-a"}},
		"TaggedByAnObjectOfItsNamespace": {d: Decision{Evidence: MakerEvidence{Owner: &ownerA, InCluster: true}}, reader: "team-a",
			want: []string{"created by team-a/orders (its crossplane-namespace and crossplane-name tags)"}},
		"TaggedElsewhere": {d: Decision{Evidence: MakerEvidence{Owner: &ownerA}},
			want: []string{"created by an object of another namespace of another cluster or by an earlier object of that name", "choose another name", "can tell whether it is still managed; only then adopt it (annotation services.k8s.aws/adoption-policy=adopt)"},
			not:  []string{"if no other object manages it", "team-a"}},
		"MadeOutside": {d: Decision{}, want: []string{"made outside this cluster", "choose another name", "only once they hand it over, adopt it (annotation services.k8s.aws/adoption-policy=adopt)"},
			not: []string{"if no other object manages it"}},
		"RetainedByAnotherNamespace": {d: Decision{HeldBy: &ownerA, Retained: true, Lease: "crossplane-system/aws-owner-1"},
			want: []string{`delivery stream "orders" (spec.forProvider.deliveryStreamName) was kept on AWS for its namespace by an object of another namespace`, "cannot adopt it", "choose another name", "annotating the claim, the Lease crossplane-system/aws-owner-1, with ownership.services.k8s.aws/handed-to: <namespace>"},
			not:  []string{"adopt it with", "belongs to", "team-a"}},
		"TaggedForAnotherNamespace": {d: Decision{Evidence: MakerEvidence{Owner: &ownerA}, OtherNamespace: "team-a"},
			want: []string{"tagged for another namespace", "an object of another namespace cannot adopt it", "choose another name"}, not: []string{"adopt it with", "team-a"}},
		"AdoptionOfAnotherARN": {d: Decision{AdoptARN: "arn:want", Evidence: MakerEvidence{ARN: "arn:found"}},
			want: []string{"the adoption asks for arn:want (annotation services.k8s.aws/adoption-fields)", "is arn:found", "this object does not manage it"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			reader := tc.reader
			if reader == "" {
				reader = "team-b"
			}
			m := tc.d.Message(w, "orders", reader)
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

func TestMayWrite(t *testing.T) {
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
			if got := MayWrite(mg, tc.honoured); got != tc.want {
				t.Errorf("Writes: got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestLastCreateFailed(t *testing.T) {
	at := func(pending, failed time.Time) *v1alpha1.DeliveryStream {
		return stream("team-b", "orders", func(mg *v1alpha1.DeliveryStream) {
			if !pending.IsZero() {
				meta.SetExternalCreatePending(mg, pending)
			}
			if !failed.IsZero() {
				meta.SetExternalCreateFailed(mg, failed)
			}
		})
	}
	cases := map[string]struct {
		reason string
		mg     *v1alpha1.DeliveryStream
		want   time.Time
	}{
		"NoCreate":         {reason: "No create, none failed.", mg: at(time.Time{}, time.Time{})},
		"Pending":          {reason: "A create may be under way.", mg: at(t0, time.Time{})},
		"Failed":           {reason: "The create failed then.", mg: at(t0, t0.Add(time.Second)), want: t0.Add(time.Second)},
		"FailedAtOnce":     {reason: "Failed within the second it began: records are to the second.", mg: at(t0, t0), want: t0},
		"PendingAgain":     {reason: "A create recorded since the failure may be under way.", mg: at(t0.Add(time.Minute), t0.Add(time.Second))},
		"FailedUnrecorded": {reason: "A failure without a create recorded before it still ended then.", mg: at(time.Time{}, t0), want: t0},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, LastCreateFailed(tc.mg)); diff != "" {
				t.Errorf("%s\n-want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestShowsConfiguration(t *testing.T) {
	cases := map[string]struct {
		reason   string
		policies xpv2.ManagementPolicies
		adopts   bool
		want     bool
	}{
		"Default":          {reason: "An object that manages its resource has its configuration in its spec.", policies: xpv2.ManagementPolicies{xpv2.ManagementActionAll}},
		"NoPolicies":       {reason: "No policies are the CRD's default, all of them."},
		"ObserveOnly":      {reason: "An import shows what its user copies into its spec.", policies: xpv2.ManagementPolicies{xpv2.ManagementActionObserve}, want: true},
		"ObserveAndDelete": {reason: "Without Update the spec does not manage the configuration.", policies: xpv2.ManagementPolicies{xpv2.ManagementActionObserve, xpv2.ManagementActionDelete}, want: true},
		"ObserveAndUpdate": {reason: "An object that updates manages the configuration.", policies: xpv2.ManagementPolicies{xpv2.ManagementActionObserve, xpv2.ManagementActionUpdate}},
		"Adopting":         {reason: "An object that adopts shows what it adopts.", policies: xpv2.ManagementPolicies{xpv2.ManagementActionAll}, adopts: true, want: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mg := stream("team-a", "orders")
			mg.SetManagementPolicies(tc.policies)
			if tc.adopts {
				meta.AddAnnotations(mg, map[string]string{AnnotationAdoptionPolicy: AdoptionPolicyAdopt})
			}
			if diff := cmp.Diff(tc.want, ShowsConfiguration(mg)); diff != "" {
				t.Errorf("%s\nShowsConfiguration(): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
