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
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	coordinationv1 "k8s.io/api/coordination/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	notificationv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/notification/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/ownership"
	"github.com/cloudkinds/provider-aws-services/test/emulator"
)

// TestALostCreateAnswerIsStillItsOwn: AWS makes the resource, and the answer
// to the create never reaches the provider: a server error sent after the
// work, or a connection reset. The SDK does not send the create again (its
// retry would be answered "already exists"); the provider looks at once,
// with the create recorded, and the object ends owning what its own create
// made, for every kind, tagged by AWS or not: Ready, its ARN shown, its
// claim held, with exactly one resource on AWS, made by one create. When AWS
// does not show the new resource yet, the next reconcile creates again and
// is answered "already exists": the object still ends owning it.
func TestALostCreateAnswerIsStillItsOwn(t *testing.T) {
	s := provider(t)
	type lostAnswer struct {
		how   string
		fault emulator.Fault
		// hidden is how long AWS's reads do not show a new resource.
		hidden time.Duration
	}
	lost := []lostAnswer{
		{how: "ServerErrorAfterTheWork", fault: emulator.Fault{DropAnswer: 1}},
		{how: "ConnectionReset", fault: emulator.Fault{DropConnection: 1}},
		{how: "NotShownYetThenExists", fault: emulator.Fault{DropConnection: 1}, hidden: 3 * time.Second},
	}
	for kind, tc := range interruptedCreates() {
		t.Run(kind, func(t *testing.T) {
			// Each kind's fault is on its own create operation and
			// service, and its calls are counted per resource.
			t.Parallel()
			service, _, _ := strings.Cut(tc.creates, ":")
			for _, l := range lost {
				if l.hidden > 0 && kind == "Subscription" {
					// SNS answers a Subscribe of what exists with it,
					// never "already exists"; its lookup lists what it
					// hides from other reads.
					continue
				}
				mg := tc.object(t, s, namespace(t))
				// Some kinds' objects ask for the same name in each
				// namespace: the calls made before are not this one's.
				before := createCalls(s, mg, tc.creates)
				// The next create of the kind is made, and its answer lost.
				s.aws.InjectFault(tc.creates, l.fault)
				t.Cleanup(func() { s.aws.RemoveFault(tc.creates) })
				s.aws.SetEventualConsistency(service, l.hidden)
				t.Cleanup(func() { s.aws.SetEventualConsistency(service, 0) })
				create(t, mg)
				eventually(t, 60*time.Second, kind+" Ready after its create's answer was lost ("+l.how+")", func() error { return isReady(t, mg) })

				if _, left := s.aws.Faults()[tc.creates]; left {
					t.Fatalf("%s: the fault on %s was not met", l.how, tc.creates)
				}
				if l.hidden > 0 && meta.GetExternalCreateFailed(mg).IsZero() {
					t.Errorf("%s: the object did not record its create as failed, though AWS did not show what it made", l.how)
				}
				if r := mg.GetCondition(xpv2.TypeReady); r.Reason == ownership.ReasonNotOwned {
					t.Errorf("%s: refused: %s", l.how, r.Message)
				}
				// The ARN is shown once the resource is verified as the
				// object's: for a kind whose create records what it sent
				// (a key's fingerprint), after the update that sends it
				// again, as after any create whose answer was lost.
				eventually(t, 10*testPoll, l.how+": status.atProvider.ackResourceMetadata.arn", func() error {
					if arn, err := ackARN(mg); err != nil || arn == "" {
						return fmt.Errorf("%q (%w), want the resource's ARN", arn, err)
					}
					return nil
				})
				if n := claimsHeldBy(t, mg); n != 1 {
					t.Errorf("%s: the object holds %d claims, want 1", l.how, n)
				}
				creates := createCalls(s, mg, tc.creates) - before
				switch {
				case l.hidden == 0 && creates != 1:
					// The one whose answer was lost: no retry of it, blind
					// or not, was needed.
					t.Errorf("%s: %d create calls, want 1", l.how, creates)
				case l.hidden > 0 && creates < 2:
					t.Errorf("%s: %d create calls, want the lost one and one answered that it exists", l.how, creates)
				}
				if n := tc.count(s.aws.Inventory(), mg); n != 1 {
					t.Errorf("%s: %d AWS resources for the object, want exactly 1", l.how, n)
				}
				s.aws.SetEventualConsistency(service, 0)
				remove(t, mg)
				eventually(t, 30*time.Second, "AWS resource of a deleted "+kind, func() error {
					if n := tc.count(s.aws.Inventory(), mg); n != 0 {
						return fmt.Errorf("%d left", n)
					}
					return nil
				})
			}
		})
	}
}

// TestWhatExistedBeforeTheCreateIsStillRefused: a create is sent again only
// when AWS did nothing with it, and a resource someone made before the
// object's create was sent is refused as before, for every kind. Here the
// create is throttled first, which AWS answers before doing anything: the
// SDK sends it again, and AWS answers that the name exists.
func TestWhatExistedBeforeTheCreateIsStillRefused(t *testing.T) {
	s := provider(t)
	ctx := context.Background()
	for _, k := range ownedKinds(t, s) {
		t.Run(k.name, func(t *testing.T) {
			t.Parallel()
			mg := k.object(t, namespace(t), short("before"))
			if err := k.outside(ctx, mg); err != nil {
				t.Fatal(err)
			}
			state, err := k.state(ctx, mg)
			if err != nil {
				t.Fatal(err)
			}
			s.aws.InjectFault(k.creates, emulator.Fault{Throttle: 1})
			// A kind that looks first (Subscription) never creates here.
			t.Cleanup(func() { s.aws.RemoveFault(k.creates) })
			create(t, mg)
			refused(t, mg, "made outside this cluster", ownership.AnnotationAdoptionPolicy)
			time.Sleep(2 * testPoll)
			if now, err := k.state(ctx, mg); err != nil || now != state {
				t.Errorf("the outsider's resource changed on AWS (%v):\nbefore %s\nnow    %s", err, state, now)
			}
			if n := claimsHeldBy(t, mg); n != 0 {
				t.Errorf("the refused object holds %d claims", n)
			}
			if arn, err := ackARN(mg); err != nil || arn != "" {
				t.Errorf("a refused object shows ARN %q (%v)", arn, err)
			}
			remove(t, mg)
			if _, err := k.state(ctx, mg); err != nil {
				t.Errorf("deleting the refused object deleted the outsider's resource: %v", err)
			}
		})
	}
}

// createCalls counts the calls of op made for mg's resource: by its name,
// or for a Subscription by its topic, which its namespace has alone.
func createCalls(s *stack, mg resource.Managed, op string) int {
	name := nameOf(mg)
	if sub, ok := mg.(*notificationv1alpha1.Subscription); ok {
		name = aws.ToString(sub.Spec.ForProvider.TopicARN)
	}
	return s.aws.CallsFor(name)[op]
}

// claimsHeldBy counts the claims mg holds, read from the API server.
func claimsHeldBy(t *testing.T, mg resource.Managed) int {
	t.Helper()
	l := &coordinationv1.LeaseList{}
	if err := cp.Client.List(context.Background(), l, client.InNamespace(claimsNamespace), client.MatchingLabels{ownership.LabelHolder: string(mg.GetUID())}); err != nil {
		t.Fatal(err)
	}
	return len(l.Items)
}

// ackARN reads status.atProvider.ackResourceMetadata.arn of mg, whatever its
// kind.
func ackARN(mg resource.Managed) (string, error) {
	if err := cp.Client.Get(context.Background(), client.ObjectKeyFromObject(mg), mg); err != nil {
		return "", err
	}
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(mg)
	if err != nil {
		return "", err
	}
	arn, _, err := unstructured.NestedString(u, "status", "atProvider", "ackResourceMetadata", "arn")
	return arn, err
}

// TestALostSubscribeThenADeleteLeavesNothing: SNS subscribes, the answer to
// the Subscribe is a server error, and SNS's reads do not show the new
// subscription yet; the object is deleted before it ever learned the ARN.
// The deletion looks again until AWS's reads catch up, finds what its
// create made, and unsubscribes it: nothing is left on AWS.
func TestALostSubscribeThenADeleteLeavesNothing(t *testing.T) {
	s := provider(t)
	ns := namespace(t)
	mg := newSubscription(ns, "lost", topic(t, s, "lost-"+ns[len(ns)-5:]))
	s.aws.InjectFault("sns:Subscribe", emulator.Fault{DropAnswer: 1})
	t.Cleanup(func() { s.aws.RemoveFault("sns:Subscribe") })
	s.aws.SetEventualConsistency("sns", 8*time.Second)
	t.Cleanup(func() { s.aws.SetEventualConsistency("sns", 0) })
	create(t, mg)
	eventually(t, 20*time.Second, "the create's answer lost", func() error {
		if err := cp.Client.Get(context.Background(), client.ObjectKeyFromObject(mg), mg); err != nil {
			return err
		}
		if meta.GetExternalCreateFailed(mg).IsZero() {
			return fmt.Errorf("no failed create recorded yet")
		}
		return nil
	})
	if n := subscribed(s.aws.Inventory(), mg); n != 1 {
		t.Fatalf("SNS has %d subscriptions of the object, want the one its lost create made", n)
	}
	if name := meta.GetExternalName(mg); name != "" {
		t.Fatalf("the object learned the ARN %q: the case needs it not to", name)
	}
	remove(t, mg)
	if n := subscribed(s.aws.Inventory(), mg); n != 0 {
		t.Errorf("the deleted object left %d subscriptions on SNS", n)
	}
}
