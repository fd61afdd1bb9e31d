//go:build integration

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

package integration

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	corev1 "k8s.io/api/core/v1"

	streamingv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	fh "github.com/cloudkinds/provider-aws-services/internal/aws/firehose"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/ownership"
	"github.com/cloudkinds/provider-aws-services/test/emulator"
)

// TestAForgedRecordTakesNothing is the forgery of issue 30 for every kind:
// team B makes an observe-only object for a name that does not exist yet,
// team A later creates it, and B switches to full management and writes
// crossplane-runtime's create-succeeded record (and, for a Subscription,
// A's ARN as its external name) itself. B is refused, naming A; AWS is not
// changed on B's behalf; A stays Ready; deleting B deletes nothing of A's.
func TestAForgedRecordTakesNothing(t *testing.T) {
	s := provider(t)
	ctx := context.Background()
	for _, k := range ownedKinds(t, s) {
		t.Run(k.name, func(t *testing.T) {
			t.Parallel()
			teamA, teamB := namespace(t), namespace(t)
			name := short("forged")

			b := k.object(t, teamB, name)
			k.vary(b)
			b.SetManagementPolicies(xpv2.ManagementPolicies{xpv2.ManagementActionObserve})
			create(t, b)

			a := k.object(t, teamA, name)
			create(t, a)
			eventually(t, 30*time.Second, "team A Ready", func() error { return isReady(t, a) })
			state, err := k.state(ctx, a)
			if err != nil {
				t.Fatal(err)
			}
			before := providerWritesNow(s, k.counted(a))

			change(t, b, func(mg resource.Managed) {
				mg.SetManagementPolicies(xpv2.ManagementPolicies{xpv2.ManagementActionAll})
				meta.SetExternalCreateSucceeded(mg, time.Now())
				if ext := meta.GetExternalName(a); strings.HasPrefix(ext, "arn:") {
					meta.SetExternalName(mg, ext)
				}
			})
			refused(t, b, "belongs to an object of another namespace")
			tellsNothingOf(t, b, teamA)
			time.Sleep(2 * testPoll)
			if w := subtract(providerWritesNow(s, k.counted(a)), before); len(w) != 0 {
				t.Errorf("writes to team A's resource on behalf of the forging object: %v", w)
			}
			if now, err := k.state(ctx, a); err != nil || now != state {
				t.Errorf("team A's resource changed on AWS (%v):\nbefore %s\nnow    %s", err, state, now)
			}
			if err := isReady(t, a); err != nil {
				t.Errorf("team A: %v", err)
			}
			remove(t, b)
			time.Sleep(2 * testPoll)
			if now, err := k.state(ctx, a); err != nil || now != state {
				t.Errorf("team A's resource changed on AWS after the forging object was deleted (%v)", err)
			}
			if err := isReady(t, a); err != nil {
				t.Errorf("team A after the forging object was deleted: %v", err)
			}
			remove(t, a)
		})
	}
}

// TestFiveNamespacesAskingAtOnce: five objects of five namespaces ask for one
// AWS identity in the same second. The API server, not a cache, picks one
// claim: exactly one create reaches AWS, one object is Ready, and the other
// four are refused, naming it.
func TestFiveNamespacesAskingAtOnce(t *testing.T) {
	s := provider(t)
	for _, k := range ownedKinds(t, s) {
		t.Run(k.name, func(t *testing.T) {
			t.Parallel()
			name := short("race")
			objects := make([]resource.Managed, 5)
			for i := range objects {
				objects[i] = k.object(t, namespace(t), name)
			}
			creates := s.aws.CallCount(k.creates)
			var wg sync.WaitGroup
			for _, mg := range objects {
				wg.Go(func() { create(t, mg) })
			}
			wg.Wait()
			var winner resource.Managed
			eventually(t, 45*time.Second, "one Ready and four refused", func() error {
				ready, refusedN := 0, 0
				for _, mg := range objects {
					synced, err := conditionOf(t, mg, xpv2.TypeSynced)
					if err != nil {
						return err
					}
					switch {
					case isReady(t, mg) == nil:
						ready++
						winner = mg
					case synced.Status == corev1.ConditionFalse && strings.Contains(synced.Message, "this object does not manage it"):
						refusedN++
					}
				}
				if ready != 1 || refusedN != 4 {
					return fmt.Errorf("%d Ready, %d refused", ready, refusedN)
				}
				return nil
			})
			if n := s.aws.CallCount(k.creates) - creates; n != 1 {
				t.Errorf("%d creates on AWS, want exactly 1", n)
			}
			if got := claimHolder(t, winner); got != string(winner.GetUID()) {
				t.Errorf("the claim is held by %q, not by the Ready object %s", got, winner.GetUID())
			}
			// A refusal made before the winner's claim, while another
			// loser still looked oldest, says that one asked first until
			// its next retry: each comes to name the holder's claim, and
			// none names the holder's namespace.
			lease := claimLease(t, winner)
			eventually(t, 45*time.Second, "every refusal names the holder's claim", func() error {
				for _, mg := range objects {
					if mg == winner {
						continue
					}
					synced, err := conditionOf(t, mg, xpv2.TypeSynced)
					if err != nil {
						return err
					}
					if !strings.Contains(synced.Message, "belongs to an object of another namespace") || !strings.Contains(synced.Message, lease.Namespace+"/"+lease.Name) {
						return fmt.Errorf("the refusal does not name the holder's claim %s/%s: %s", lease.Namespace, lease.Name, synced.Message)
					}
					if strings.Contains(synced.Message, winner.GetNamespace()) {
						return fmt.Errorf("the refusal names the holder's namespace %s: %s", winner.GetNamespace(), synced.Message)
					}
				}
				return nil
			})
			for _, mg := range objects {
				if mg != winner {
					remove(t, mg)
				}
			}
			if err := isReady(t, winner); err != nil {
				t.Errorf("the holder after the others were deleted: %v", err)
			}
			remove(t, winner)
			if got := claimHolder(t, winner); got != "" {
				t.Errorf("the claim is still held by %q after its holder's deletion finished", got)
			}
		})
	}
}

// TestARefusedCreateProvesNothing: a Subscription or an Endpoint whose create
// AWS refused (throttled it: AWS did nothing) does not take a resource of its
// identity that appears afterwards (made by another tool, another cluster, a
// person): it is refused, the outside resource is not changed, and it is
// still there after the object's deletion. AWS cannot tag these kinds, so
// only the claim taken before the call could have made it the object's, and
// AWS's refusal is recorded in it. (A server error is no refusal: AWS may
// have done the work, and what shows next is taken for it,
// TestALostCreateAnswerIsStillItsOwn.) Answers are the emulator's: the
// test runs alone.
func TestARefusedCreateProvesNothing(t *testing.T) {
	s := provider(t)
	ctx := context.Background()
	throttled := map[string]emulator.Answer{
		"sns:Subscribe":         {Code: "Throttling", Status: 400, Message: "Rate exceeded"},
		"events:CreateEndpoint": {Code: "ThrottlingException", Status: 429, Message: "Rate exceeded"},
	}
	for _, k := range ownedKinds(t, s) {
		if k.tags != nil {
			continue
		}
		t.Run(k.name, func(t *testing.T) {
			defer s.aws.ClearAnswers()
			a := throttled[k.creates]
			a.Operation, a.Count = k.creates, 1000
			s.aws.InjectAnswer(a)
			mg := k.object(t, namespace(t), short("failed"))
			create(t, mg)
			eventually(t, 30*time.Second, "the create refused by AWS", func() error {
				synced, err := conditionOf(t, mg, xpv2.TypeSynced)
				if err != nil {
					return err
				}
				if !strings.Contains(synced.Message, "create failed") {
					return fmt.Errorf("Synced: %s", synced.Message)
				}
				if p := claimPurpose(t, mg); p != ownership.Refused {
					return fmt.Errorf("the claim is for %q, not marked as a create AWS refused", p)
				}
				return nil
			})
			if err := k.outside(ctx, mg); err != nil {
				t.Fatal(err)
			}
			outside, err := k.state(ctx, mg)
			if err != nil {
				t.Fatal(err)
			}
			s.aws.ClearAnswers()
			refused(t, mg, "made outside this cluster", ownership.AnnotationAdoptionPolicy)
			time.Sleep(2 * testPoll)
			if now, err := k.state(ctx, mg); err != nil || now != outside {
				t.Errorf("the outside resource changed on AWS (%v):\nbefore %s\nnow    %s", err, outside, now)
			}
			if h := claimHolder(t, mg); h != "" {
				t.Errorf("a refused object still holds the claim: %s", h)
			}
			remove(t, mg)
			time.Sleep(testPoll)
			if now, err := k.state(ctx, mg); err != nil || now != outside {
				t.Errorf("the outside resource is not as it was after the object's deletion (%v)", err)
			}
		})
	}
}

// TestOwnerTagsOfAnotherClusterAreNotOurs: a stream tagged by an object of the
// same kind, namespace and name in another cluster (another UID), or by an
// earlier object of this name whose resource was left behind, is refused
// unless adopted.
func TestOwnerTagsOfAnotherClusterAreNotOurs(t *testing.T) {
	s := provider(t)
	ctx := context.Background()
	ns := namespace(t)
	mg := newStream(t, ns, short("elsewhere"))
	twin := mg.DeepCopy()
	twin.SetUID("uid-of-the-same-object-in-another-cluster")
	fhc := firehose.NewFromConfig(outsiderConfig(s))
	if _, err := fhc.CreateDeliveryStream(ctx, fh.CreateInput(&mg.Spec.ForProvider, aws.String("their-key"), createTags(mg, ownership.OwnerTags(streamingv1alpha1.DeliveryStreamGroupVersionKind.GroupKind(), twin)))); err != nil {
		t.Fatal(err)
	}
	create(t, mg)
	refused(t, mg, "of another cluster or by an earlier object of that name", ownership.AnnotationAdoptionPolicy)
	if h := claimHolder(t, mg); h != "" {
		t.Errorf("a refused object holds the claim: %s", h)
	}
	change(t, mg, func(o *streamingv1alpha1.DeliveryStream) {
		meta.AddAnnotations(o, map[string]string{ownership.AnnotationAdoptionPolicy: ownership.AdoptionPolicyAdopt})
	})
	eventually(t, 30*time.Second, "adopted once asked", func() error { return isReady(t, mg) })
	out, err := fhc.ListTagsForDeliveryStream(ctx, &firehose.ListTagsForDeliveryStreamInput{DeliveryStreamName: aws.String(mg.Spec.ForProvider.DeliveryStreamName)})
	if err != nil {
		t.Fatal(err)
	}
	if o, ok := ownership.OwnerOf(fh.TagMap(out.Tags)); !ok || o.UID != mg.GetUID() {
		t.Errorf("the adopted stream's owner tags do not name the adopter's UID: %v", fh.TagMap(out.Tags))
	}
	remove(t, mg)
}

// TestAnObjectOfTheReleaseWithoutClaimsCarriesOver: an object made by the
// previous release (its create-succeeded record, and for a stream the owner
// tags that release put, without a UID) gets its claim at its first look
// after the upgrade, with no write to AWS.
func TestAnObjectOfTheReleaseWithoutClaimsCarriesOver(t *testing.T) {
	s := provider(t)
	ctx := context.Background()
	for _, k := range ownedKinds(t, s) {
		if k.name != "DeliveryStream" && k.name != "Endpoint" {
			continue
		}
		t.Run(k.name, func(t *testing.T) {
			mg := k.object(t, namespace(t), short("carried"))
			if st, ok := mg.(*streamingv1alpha1.DeliveryStream); ok {
				// The previous release recorded the fingerprint of the
				// access key it sent; a stream without one needs no record.
				st.Spec.ForProvider.HTTPEndpointDestinationConfiguration.EndpointConfiguration.AccessKey = nil
			}
			meta.SetExternalCreateSucceeded(mg, time.Now().Add(-time.Hour))
			meta.SetExternalName(mg, nameOf(mg))
			paused(t, mg)
			if st, ok := mg.(*streamingv1alpha1.DeliveryStream); ok {
				tags := ownership.OwnerTags(streamingv1alpha1.DeliveryStreamGroupVersionKind.GroupKind(), st)
				delete(tags, ownership.TagKeyUID)
				if _, err := firehose.NewFromConfig(setupConfig(s)).CreateDeliveryStream(ctx, fh.CreateInput(&st.Spec.ForProvider, nil, createTags(st, tags))); err != nil {
					t.Fatal(err)
				}
			} else if err := k.outside(ctx, mg); err != nil {
				t.Fatal(err)
			}
			eventually(t, 10*time.Second, "the resource ready on AWS", func() error { _, err := k.state(ctx, mg); return err })
			time.Sleep(3 * time.Second) // past CREATING on the emulator
			before := providerWritesNow(s, k.counted(mg))
			upgradeNow(t)
			resume(t, mg)
			eventually(t, 30*time.Second, "Ready after the upgrade", func() error { return isReady(t, mg) })
			if got := claimHolder(t, mg); got != string(mg.GetUID()) {
				t.Errorf("the claim is held by %q, want the object's UID", got)
			}
			if w := subtract(providerWritesNow(s, k.counted(mg)), before); len(w) != 0 {
				t.Errorf("AWS writes for an object carried over: %v", w)
			}
			remove(t, mg)
		})
	}
}

// TestAdoptionByARN adopts, for every kind, a resource made outside the
// cluster by naming its ARN (ACK's services.k8s.aws/adoption-fields). An
// ARN of another account, another region or another resource is refused
// with a message naming both ARNs, with no write to AWS and no claim; the
// right one is adopted, and the object then manages and deletes it.
func TestAdoptionByARN(t *testing.T) {
	s := provider(t)
	ctx := context.Background()
	for _, k := range ownedKinds(t, s) {
		t.Run(k.name, func(t *testing.T) {
			t.Parallel()
			mg := k.object(t, namespace(t), short("adopted"))
			if err := k.outside(ctx, mg); err != nil {
				t.Fatal(err)
			}
			arn, err := k.arn(ctx, mg)
			if err != nil {
				t.Fatal(err)
			}
			state, err := k.state(ctx, mg)
			if err != nil {
				t.Fatal(err)
			}
			adoptARN := func(a string) map[string]string {
				return map[string]string{
					ownership.AnnotationAdoptionPolicy: ownership.AdoptionPolicyAdopt,
					ownership.AnnotationAdoptionFields: fmt.Sprintf(`{"arn": %q}`, a),
				}
			}
			wrong := []string{
				strings.Replace(arn, ":000000000000:", ":111122223333:", 1),
				strings.Replace(arn, ":us-east-1:", ":eu-west-1:", 1),
				arn + "-another",
			}
			before := providerWritesNow(s, k.counted(mg))
			for i, w := range wrong {
				if i == 0 {
					mg.SetAnnotations(adoptARN(w))
					create(t, mg)
				} else {
					change(t, mg, func(o resource.Managed) { meta.AddAnnotations(o, adoptARN(w)) })
				}
				refused(t, mg, w, arn)
			}
			time.Sleep(2 * testPoll)
			if w := subtract(providerWritesNow(s, k.counted(mg)), before); len(w) != 0 {
				t.Errorf("writes to AWS while the adoption named other ARNs: %v", w)
			}
			if now, err := k.state(ctx, mg); err != nil || now != state {
				t.Errorf("the resource changed on AWS (%v):\nbefore %s\nnow    %s", err, state, now)
			}
			if h := claimHolder(t, mg); h != "" {
				t.Errorf("a refused adoption holds the claim: %s", h)
			}
			change(t, mg, func(o resource.Managed) { meta.AddAnnotations(o, adoptARN(arn)) })
			eventually(t, 30*time.Second, "adopted by its ARN", func() error { return isReady(t, mg) })
			if h := claimHolder(t, mg); h != string(mg.GetUID()) {
				t.Errorf("the adopted resource's claim is held by %q", h)
			}
			remove(t, mg)
			eventually(t, 30*time.Second, "the adopted resource deleted with its adopter", func() error {
				if _, err := k.state(ctx, mg); err == nil {
					return fmt.Errorf("still there")
				}
				return nil
			})
		})
	}
}
