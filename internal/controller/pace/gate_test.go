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

package pace

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/clients/budget"
	"github.com/cloudkinds/provider-aws-services/internal/controller/relook"
)

var describe = budget.Operation{Service: "Firehose", Name: "DescribeDeliveryStream"}

// recorder is the reconciler behind the gate: it records whether it ran and
// whether its calls were marked urgent. With putOff it answers as
// --max-reconcile-rate does when it puts a reconcile off.
type recorder struct {
	runs, urgent int
	putOff       bool
}

func (r *recorder) Reconcile(ctx context.Context, _ reconcile.Request) (reconcile.Result, error) {
	r.runs++
	if budget.IsUrgent(ctx) {
		r.urgent++
	}
	if r.putOff {
		return reconcile.Result{RequeueAfter: time.Second}, nil
	}
	return reconcile.Result{}, nil
}

func stream(generation int64, cs ...xpv2.Condition) *v1alpha1.DeliveryStream {
	mg := &v1alpha1.DeliveryStream{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "s", UID: "uid-s", Generation: generation}}
	mg.SetConditions(cs...)
	return mg
}

var (
	settled  = []xpv2.Condition{xpv2.Available(), xpv2.ReconcileSuccess().WithObservedGeneration(1)}
	creating = []xpv2.Condition{xpv2.Creating(), xpv2.ReconcileSuccess().WithObservedGeneration(1)}
	failing  = []xpv2.Condition{xpv2.Creating(), xpv2.ReconcileError(errors.New("AccessDenied")).WithObservedGeneration(1)}
)

func gate(t *testing.T, c *clocktesting.FakeClock, b *budget.Budgets, inner reconcile.Reconciler, objs ...client.Object) *Gate[*v1alpha1.DeliveryStream] {
	t.Helper()
	s := runtime.NewScheme()
	if err := v1alpha1.SchemeBuilder.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	return NewGate(inner, GateOptions[*v1alpha1.DeliveryStream]{
		Kind: "DeliveryStream", Object: &v1alpha1.DeliveryStream{},
		Kube: fake.NewClientBuilder().WithScheme(s).WithObjects(objs...).Build(),
		Calls: func(context.Context, *v1alpha1.DeliveryStream) (string, string, []budget.Operation, error) {
			return "111122223333", "us-east-1", []budget.Operation{describe}, nil
		},
		Budgets: b, Relook: relook.New(c), Log: logging.NewNopLogger(), Clock: c, Deferred: NewDeferred(c),
	})
}

var req = reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "ns", Name: "s"}}

// spend reserves the budget's turns of class for the next d: the next
// turn of that class is d away (a turn every 250 ms at 4 per second).
func spend(b *budget.Budgets, d time.Duration, class budget.Class) {
	for wait := -time.Nanosecond; wait+250*time.Millisecond < d; {
		wait = b.Reserve("111122223333", "us-east-1", []budget.Operation{describe}, class)
	}
}

func TestGate(t *testing.T) {
	type want struct {
		runs, urgent int
		requeue      time.Duration
	}
	cases := map[string]struct {
		reason       string
		obj          *v1alpha1.DeliveryStream
		polls        time.Duration // poll turns reserved ahead
		changes      time.Duration // change turns reserved ahead
		createdSince time.Duration // the create was this long ago; 0 for none remembered
		want         want
	}{
		"PollWithinBudgetGoesNow": {
			reason: "A settled resource's poll whose turn is now runs at once, its calls holding their slot.",
			obj:    stream(1, settled...),
			want:   want{runs: 1, urgent: 1},
		},
		"PollOverBudgetIsRequeuedForItsTurn": {
			reason: "A settled resource's poll whose turn is 10 s away is requeued for then, without running.",
			obj:    stream(1, settled...), polls: 10 * time.Second,
			want: want{requeue: 10 * time.Second},
		},
		"PollGoesBehindChanges": {
			reason: "A poll takes its turn after every change reserved.",
			obj:    stream(1, settled...), changes: 5 * time.Second,
			want: want{requeue: 5 * time.Second},
		},
		"ChangedSpecGoesBeforePolls": {
			reason: "A spec change (generation 2, Synced at 1) goes ahead of the polls reserved.",
			obj:    stream(2, settled...), polls: 10 * time.Second,
			want: want{runs: 1, urgent: 1},
		},
		"ChangedSpecWaitsForItsTurn": {
			reason: "Changes reserved for 10 s: a spec change waits its turn behind them, holding no worker.",
			obj:    stream(2, settled...), changes: 10 * time.Second,
			want: want{requeue: 10 * time.Second},
		},
		"NewObjectGoesBeforePolls": {
			reason: "A new object goes ahead of the polls reserved.",
			obj:    stream(1), polls: 10 * time.Second,
			want: want{runs: 1, urgent: 1},
		},
		"FailingObjectIsPacedAsAPoll": {
			reason: "An object failing at the spec it has does not go before every settled resource's poll.",
			obj:    stream(1, failing...), polls: 10 * time.Second,
			want: want{requeue: 10 * time.Second},
		},
		"FirstLookAfterACreateWaitsForAWS": {
			reason: "A stream created 200 ms ago is looked at once AWS has likely created it (relook.Shortest after the create), not now.",
			obj:    stream(1, creating...), createdSince: 200 * time.Millisecond,
			want: want{requeue: relook.Shortest - 200*time.Millisecond},
		},
		"FirstLookAfterACreateWhenDue": {
			reason: "A stream created longer ago than AWS needs is looked at now.",
			obj:    stream(1, creating...), createdSince: 2 * relook.Shortest,
			want: want{runs: 1, urgent: 1},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := clocktesting.NewFakeClock(time.Unix(0, 0))
			b := budget.New(budget.Quotas{}, budget.WithClock(c))
			r := &recorder{}
			g := gate(t, c, b, r, tc.obj)
			if tc.createdSince > 0 {
				g.Relook.Created(tc.obj.GetUID(), "111122223333")
				c.Step(tc.createdSince)
			}
			spend(b, tc.polls, budget.Poll)
			spend(b, tc.changes, budget.Change)
			res, err := g.Reconcile(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			got := want{runs: r.runs, urgent: r.urgent, requeue: res.RequeueAfter.Round(100 * time.Millisecond)}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("%s\n-want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestGateTurn: a deferred poll runs when its turn comes, without
// taking another; woken early by nothing to act on, it keeps its turn; put
// off once more after its turn came (by a --max-reconcile-rate a user set,
// behind the gate), it still keeps it until the poll is made.
func TestGateTurn(t *testing.T) {
	c := clocktesting.NewFakeClock(time.Unix(0, 0))
	b := budget.New(budget.Quotas{}, budget.WithClock(c))
	spend(b, 10*time.Second, budget.Poll)
	r := &recorder{putOff: true}
	g := gate(t, c, b, r, stream(1, settled...))
	ctx := context.Background()

	first, _ := g.Reconcile(ctx, req)
	c.Step(4 * time.Second)
	early, _ := g.Reconcile(ctx, req)
	if r.runs != 0 {
		t.Fatalf("a poll woken before its turn ran")
	}
	if diff := cmp.Diff(first.RequeueAfter-4*time.Second, early.RequeueAfter); diff != "" {
		t.Errorf("a poll woken early: its turn moved: -want, +got:\n%s", diff)
	}
	c.Step(early.RequeueAfter)
	for range 2 {
		// The reconciler behind the gate ran twice without polling: the
		// rate limiter put it off, while other polls spent the budget.
		if _, err := g.Reconcile(ctx, req); err != nil {
			t.Fatal(err)
		}
		c.Step(time.Second)
		spend(b, 10*time.Second, budget.Poll)
	}
	if r.runs != 2 {
		t.Errorf("the poll at its turn, put off once more: runs %d, want 2 (no new turn)", r.runs)
	}
	// The poll is made: the turn is used up, and the next poll, with the
	// budget spent again, waits for a new one.
	g.Deferred.Polled(req.NamespacedName)
	spend(b, 10*time.Second, budget.Poll)
	res, err := g.Reconcile(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if r.runs != 2 || res.RequeueAfter < 10*time.Second {
		t.Errorf("after the poll was made: runs %d, requeued after %v; want 2 and a new turn 10 s away", r.runs, res.RequeueAfter)
	}
}

// TestGateDisplacedPoll: a poll whose turn comes after changes have taken
// the budget's next slots yields to them, and takes a new turn behind them;
// once, so that changes cannot put it off for ever.
func TestGateDisplacedPoll(t *testing.T) {
	c := clocktesting.NewFakeClock(time.Unix(0, 0))
	b := budget.New(budget.Quotas{}, budget.WithClock(c))
	spend(b, 2*time.Second, budget.Poll)
	r := &recorder{}
	g := gate(t, c, b, r, stream(1, settled...))
	ctx := context.Background()
	first, _ := g.Reconcile(ctx, req)
	c.Step(first.RequeueAfter)
	spend(b, 5*time.Second, budget.Change)
	res, err := g.Reconcile(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if r.runs != 0 || res.RequeueAfter < 5*time.Second {
		t.Errorf("a poll at its turn, displaced by 5 s of changes: runs %d, requeued after %v; want 0 and a turn at least 5 s away", r.runs, res.RequeueAfter)
	}
	// At its new turn, changes have taken the next slots again: it yields
	// only once, and goes.
	c.Step(res.RequeueAfter)
	spend(b, 5*time.Second, budget.Change)
	if _, err := g.Reconcile(ctx, req); err != nil {
		t.Fatal(err)
	}
	if r.runs != 1 {
		t.Errorf("a poll displaced once, at its new turn with changes queued again: runs %d, want 1", r.runs)
	}
}

// TestGateChangeOverridesAPollTurn: a spec change made while a poll waits
// for its turn goes first, not at the poll's turn.
func TestGateChangeOverridesAPollTurn(t *testing.T) {
	c := clocktesting.NewFakeClock(time.Unix(0, 0))
	b := budget.New(budget.Quotas{}, budget.WithClock(c))
	spend(b, 10*time.Second, budget.Poll)
	r := &recorder{}
	mg := stream(1, settled...)
	g := gate(t, c, b, r, mg)
	ctx := context.Background()
	if res, _ := g.Reconcile(ctx, req); res.RequeueAfter == 0 {
		t.Fatal("the poll was not deferred")
	}
	mg.Generation = 2
	if err := g.Kube.(client.Client).Update(ctx, mg); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Reconcile(ctx, req); err != nil {
		t.Fatal(err)
	}
	if r.runs != 1 {
		t.Errorf("a change while a poll waited: runs %d, want 1 at once", r.runs)
	}
}

// recordingLog keeps what was logged.
type recordingLog struct {
	logging.Logger
	said []string
}

func (l *recordingLog) Info(msg string, _ ...any) { l.said = append(l.said, msg) }

// TestGateLogsOncePerChangeOfPace: a kind whose polls are deferred on and
// off says so once, and says it is back only when none was deferred for
// backWithin.
func TestGateLogsOncePerChangeOfPace(t *testing.T) {
	c := clocktesting.NewFakeClock(time.Unix(0, 0))
	b := budget.New(budget.Quotas{}, budget.WithClock(c))
	log := &recordingLog{Logger: logging.NewNopLogger()}
	g := gate(t, c, b, &recorder{})
	g.Log = log
	ops := []budget.Operation{describe}
	for range 10 {
		g.logPacing(true, ops, time.Second)
		c.Step(time.Second)
		g.logPacing(false, ops, 0)
	}
	if len(log.said) != 1 {
		t.Fatalf("polls deferred on and off for 10 s: logged %q, want one line", log.said)
	}
	c.Step(backWithin)
	g.logPacing(false, ops, 0)
	g.logPacing(false, ops, 0)
	if len(log.said) != 2 {
		t.Errorf("no poll deferred for %s: logged %q, want a second line saying so", backWithin, log.said)
	}
}
