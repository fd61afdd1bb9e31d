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
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/internal/aws/diff"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/ownership"
	"github.com/cloudkinds/provider-aws-services/test/emulator"
)

// TestSubscriptionMadeOutsideWhileItsSubscribeFailsIsNotTaken: team B's
// Subscription cannot subscribe (SNS answers HTTP 500), and meanwhile
// someone outside the cluster subscribes the same topic, protocol and
// endpoint with a filter policy of their own: between two of B's creates,
// or while a Subscribe of B's is on its way, which SNS then refuses for the
// attributes it sends, or answers with a server error. Either way the
// subscription is someone else's: B is refused, the outsider's filter
// policy stays, no write reaches their subscription, and deleting B deletes
// only B. (An outsider after B's create failed and before it tried again:
// TestAFailedCreateProvesNothing.) Faults are global to the emulator: the
// test runs alone.
func TestSubscriptionMadeOutsideWhileItsSubscribeFailsIsNotTaken(t *testing.T) {
	s := provider(t)
	ctx := context.Background()
	outsider := sns.NewFromConfig(outsiderConfig(s))
	theirFilter := `{"team": ["outsider"]}`

	cases := map[string]struct {
		// held is the fault that holds a Subscribe of B's on its way
		// while the outsider subscribes; nil: the outsider subscribes
		// between two of B's creates.
		held *emulator.Fault
		// refusedForAttributes is true when SNS answers B's held
		// Subscribe, and refuses it for the attributes it sends.
		refusedForAttributes bool
	}{
		"BetweenTwoCreates":       {},
		"DuringASubscribe":        {held: &emulator.Fault{Latency: 3 * time.Second}, refusedForAttributes: true},
		"DuringAFailingSubscribe": {held: &emulator.Fault{ErrorRate: 1, Latency: 3 * time.Second}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			ns := namespace(t)
			topicARN := topic(t, s, "outsider-"+ns[len(ns)-5:])
			b := newSubscription(ns, "team-b", topicARN)
			defer s.aws.ClearFaults()
			s.aws.InjectFault("sns:Subscribe", emulator.Fault{ErrorRate: 1})
			create(t, b)
			subscribes := func() int { return s.aws.CallsFor(topicARN)["sns:Subscribe"] }
			eventually(t, 60*time.Second, "team B's subscribes failing", func() error {
				if n := subscribes(); n < 3 {
					return fmt.Errorf("%d failed subscribes", n)
				}
				return nil
			})
			if tc.held != nil {
				// B's next Subscribe is held on its way, after B
				// looked and found nothing.
				s.aws.InjectFault("sns:Subscribe", *tc.held)
				sent := subscribes()
				eventually(t, 60*time.Second, "a subscribe of team B's on its way", func() error {
					if n := subscribes(); n == sent {
						return fmt.Errorf("no subscribe since the %d that failed", n)
					}
					return nil
				})
			}
			out, err := outsider.Subscribe(ctx, &sns.SubscribeInput{TopicArn: aws.String(topicARN), Protocol: aws.String("sqs"),
				Endpoint: b.Spec.ForProvider.Endpoint, ReturnSubscriptionArn: true, Attributes: map[string]string{"FilterPolicy": theirFilter}})
			if err != nil {
				t.Fatal(err)
			}
			theirs := aws.ToString(out.SubscriptionArn)
			attributes := func() map[string]string {
				t.Helper()
				got, err := outsider.GetSubscriptionAttributes(ctx, &sns.GetSubscriptionAttributesInput{SubscriptionArn: aws.String(theirs)})
				if err != nil {
					t.Fatalf("the outsider's subscription: %v", err)
				}
				return got.Attributes
			}
			before := attributes()
			if tc.held == nil {
				// The failures go on for a while after the outsider
				// subscribed.
				time.Sleep(3 * testPoll)
			} else {
				// The held Subscribe is answered.
				time.Sleep(tc.held.Latency)
			}
			s.aws.ClearFaults()

			eventually(t, 60*time.Second, "team B refused", func() error {
				r, err := conditionOf(t, b, xpv2.TypeReady)
				if err != nil {
					return err
				}
				if r.Status != corev1.ConditionFalse || r.Reason != ownership.ReasonNotOwned {
					return fmt.Errorf("Ready=%s (%s: %s)", r.Status, r.Reason, r.Message)
				}
				return nil
			})
			refused(t, b, "made outside this cluster", ownership.AnnotationAdoptionPolicy)
			if err := warned(ns, b.Name, "with attributes other than those this object sent"); tc.refusedForAttributes && err != nil {
				// SNS refused the Subscribe for its attributes, and
				// B said so.
				t.Errorf("the refused Subscribe: %v", err)
			}
			if name := meta.GetExternalName(b); name != "" {
				t.Errorf("team B recorded %q as its subscription", name)
			}
			if h := claimHolder(t, b); h != "" {
				t.Errorf("team B still holds the claim: %s", h)
			}
			time.Sleep(2 * testPoll)
			if d := cmp.Diff(before, attributes()); d != "" {
				t.Errorf("the outsider's subscription changed: -before, +now:\n%s", d)
			}
			if got := attributes()["FilterPolicy"]; !diff.JSONEqual(got, theirFilter) {
				t.Errorf("the outsider's filter policy is now %s", got)
			}

			remove(t, b)
			time.Sleep(testPoll)
			if d := cmp.Diff(before, attributes()); d != "" {
				t.Errorf("the outsider's subscription changed with team B's deletion: -before, +now:\n%s", d)
			}
			if w := writes(s.aws.CallsFor(theirs), "sns"); len(w) != 0 {
				t.Errorf("the provider wrote to the outsider's subscription: %v", w)
			}
		})
	}
}

// TestSubscriptionWhoseSubscribeAnswerWasLostIsItsOwn: SNS made the
// subscription, and the answer never reached the provider (the connection
// broke). Whether the SDK sends the call again, the next Observe finds the
// subscription, or the next create subscribes again (a subscription waiting
// for confirmation, which no look shows by its ARN), SNS shows the
// subscription with exactly what was sent, or answers the Subscribe sent
// again with it: it is the object's own, Ready, made once.
func TestSubscriptionWhoseSubscribeAnswerWasLostIsItsOwn(t *testing.T) {
	s := provider(t)

	t.Run("Confirmed", func(t *testing.T) {
		ns := namespace(t)
		topicARN := topic(t, s, "lost-"+ns[len(ns)-5:])
		mg := newSubscription(ns, "queue", topicARN)
		var made atomic.Pointer[emulator.Creation]
		defer s.aws.SetCreationHook(nil)
		s.aws.SetCreationHook(func(c emulator.Creation) {
			if c.TopicARN == topicARN && made.CompareAndSwap(nil, &c) {
				// The subscription is made; its answer is lost with
				// the connection.
				panic(http.ErrAbortHandler)
			}
		})
		create(t, mg)
		eventually(t, 60*time.Second, "Ready", func() error { return isReady(t, mg) })
		if made.Load() == nil {
			t.Fatal("no answer was lost")
		}
		lost := made.Load().ARN
		if got := meta.GetExternalName(mg); got != lost {
			t.Errorf("external name %q, want the subscription made, %s", got, lost)
		}
		ownsWhatWasMade(t, s, mg, lost, topicARN)
		remove(t, mg)
		if n := s.aws.CallsFor(lost)["sns:Unsubscribe"]; n != 1 {
			t.Errorf("Unsubscribe calls: %d", n)
		}
	})

	t.Run("WaitingForConfirmation", func(t *testing.T) {
		ns := namespace(t)
		topicARN := topic(t, s, "lost-"+ns[len(ns)-5:])
		mg := newSubscription(ns, "hook", topicARN)
		mg.Spec.ForProvider.Protocol = "https"
		mg.Spec.ForProvider.Endpoint = aws.String("https://hooks.example.com/" + ns)
		mg.Spec.ForProvider.RawMessageDelivery = nil
		// The answer of the Subscribe that makes the subscription is
		// lost; the one sent again, by the SDK or by the next create,
		// is answered with it. The call hook cannot tell whose call it
		// is, but this test runs alone.
		var answered atomic.Int32
		defer s.aws.SetCallHook(nil)
		s.aws.SetCallHook(func(service, operation string) {
			if service == "sns" && operation == "Subscribe" && answered.Add(1) == 1 {
				panic(http.ErrAbortHandler)
			}
		})
		create(t, mg)
		eventually(t, 90*time.Second, "subscribed, waiting for confirmation", func() error {
			if err := cp.Client.Get(context.Background(), client.ObjectKeyFromObject(mg), mg); err != nil {
				return err
			}
			if meta.GetExternalName(mg) == "" || aws.ToString(mg.Status.AtProvider.PendingConfirmation) != "true" {
				return fmt.Errorf("external name %q, pendingConfirmation %v", meta.GetExternalName(mg), aws.ToString(mg.Status.AtProvider.PendingConfirmation))
			}
			return nil
		})
		if n := answered.Load(); n < 2 {
			t.Fatalf("%d Subscribes in all: none after the one whose answer was lost", n)
		}
		arn := meta.GetExternalName(mg)
		if !s.aws.ConfirmSubscription(arn) {
			t.Fatal("cannot confirm")
		}
		eventually(t, 60*time.Second, "Ready once confirmed", func() error { return isReady(t, mg) })
		ownsWhatWasMade(t, s, mg, arn, topicARN)
		remove(t, mg)
	})
}

// ownsWhatWasMade checks that mg recorded the one subscription SNS made of
// its topic, arn, holds its claim, and never took it for another's.
func ownsWhatWasMade(t *testing.T, s *stack, mg resource.Managed, arn, topicARN string) {
	t.Helper()
	var made []string
	for _, c := range s.aws.Creations() {
		if c.TopicARN == topicARN {
			made = append(made, c.ARN)
		}
	}
	if d := cmp.Diff([]string{arn}, made); d != "" {
		t.Errorf("subscriptions made of the topic: -want, +got:\n%s", d)
	}
	if h := claimHolder(t, mg); h != string(mg.GetUID()) {
		t.Errorf("the claim is held by %q, not by the object", h)
	}
	if err := warned(mg.GetNamespace(), mg.GetName(), "this object did not make it"); err == nil {
		t.Errorf("the object took its own subscription for another's")
	}
}

// warned reports whether the object name of ns has a Warning event that
// says says.
func warned(ns, name, says string) error {
	events := &corev1.EventList{}
	if err := cp.Client.List(context.Background(), events, client.InNamespace(ns)); err != nil {
		return err
	}
	for _, e := range events.Items {
		if e.InvolvedObject.Name == name && e.Type == corev1.EventTypeWarning && strings.Contains(e.Message, says) {
			return nil
		}
	}
	return fmt.Errorf("no Warning event of %s says %q", name, says)
}
