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
	"testing"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/google/go-cmp/cmp"

	"github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
)

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

func TestDecideFailsWhenTheEvidenceCannotBeRead(t *testing.T) {
	boom := errors.New("throttled")
	if _, err := Decide(Facts{Self: ownerB}, func() (MakerEvidence, error) { return MakerEvidence{}, boom }); !errors.Is(err, boom) {
		t.Errorf("got %v, want %v", err, boom)
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
