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
	"slices"
	"testing"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/google/go-cmp/cmp"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	dto "github.com/prometheus/client_model/go"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/metrics"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/relook"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/budget"
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

// deleted is mg, deleted.
func deleted(mg *v1alpha1.DeliveryStream) *v1alpha1.DeliveryStream {
	now := metav1.Now()
	mg.SetDeletionTimestamp(&now)
	mg.SetFinalizers([]string{"finalizer.managedresource.crossplane.io"})
	return mg
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
		Calls: func(context.Context, *v1alpha1.DeliveryStream) (budget.Reservation, error) {
			return budget.Reservation{Scope: "111122223333", Region: "us-east-1", Ops: []budget.Operation{describe}}, nil
		},
		Budgets: b, Relook: relook.New(c), Log: logging.NewNopLogger(), Clock: c, Deferred: NewDeferred(c),
	})
}

var req = reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "ns", Name: "s"}}

// spend reserves the budget's turns of class for the next d by reconciles
// of namespace ns, which wait for them: the next turn of that class of ns is
// d away (a turn every 250 ms at 4 per second).
func spend(b *budget.Budgets, ns string, d time.Duration, class budget.Class) {
	reserveFor(b, ns, d, class, 0)
}

// take has reconciles of namespace ns and class take the budget's slots for
// the next d: they went, and their calls take those slots.
func take(b *budget.Budgets, ns string, d time.Duration, class budget.Class) {
	reserveFor(b, ns, d, class, d+time.Second)
}

func reserveFor(b *budget.Budgets, ns string, d time.Duration, class budget.Class, soon time.Duration) {
	r := budget.Reservation{Scope: "111122223333", Region: "us-east-1", Namespace: ns, Ops: []budget.Operation{describe}, Class: class}
	for wait := -time.Nanosecond; wait+250*time.Millisecond < d; {
		wait = b.Reserve(r, soon)
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
		polls        time.Duration // poll turns reserved ahead by the object's namespace
		changes      time.Duration // change turns reserved ahead by the object's namespace
		others       time.Duration // change turns reserved ahead by another namespace
		createdSince time.Duration // the create was this long ago; 0 for none remembered
		held         bool          // its deletion policy holds its deletion
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
		"ChangeTakesTurnsWithAnotherNamespacesFlood": {
			reason: "Another namespace's changes reserved for 10 s: a spec change waits one slot, not 10 s.",
			obj:    stream(2, settled...), others: 10 * time.Second,
			want: want{requeue: 300 * time.Millisecond},
		},
		"PollTakesTurnsWithAnotherNamespacesPolls": {
			reason: "Another namespace's polls reserved for 10 s: a poll waits one slot, not 10 s.",
			obj:    stream(1, settled...), polls: -1, others: 10 * time.Second,
			want: want{requeue: 300 * time.Millisecond},
		},
		"HeldDeletionReservesNothing": {
			reason: "A deletion its deletion policy holds makes no AWS call: it runs now, unmarked, whatever its namespace reserved.",
			obj:    deleted(stream(1, settled...)), changes: 10 * time.Second, held: true,
			want: want{runs: 1},
		},
		"DeletionWaitsForItsTurn": {
			reason: "A deletion whose policy decides waits for its turn as any change does.",
			obj:    deleted(stream(1, settled...)), changes: 10 * time.Second,
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
			spend(b, "ns", tc.polls, budget.Poll)
			spend(b, "ns", tc.changes, budget.Change)
			class := budget.Change
			if tc.polls < 0 {
				class = budget.Poll
			}
			spend(b, "other", tc.others, class)
			if tc.held {
				g.Held = func(context.Context, *v1alpha1.DeliveryStream) bool { return true }
			}
			res, err := g.Reconcile(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			got := want{runs: r.runs, urgent: r.urgent, requeue: res.RequeueAfter.Round(100 * time.Millisecond)}
			if remaining := b.Reserve(budget.Reservation{Scope: "111122223333", Region: "us-east-1", Namespace: "ns", Name: "s", Ops: []budget.Operation{describe}, Class: budget.Change}, 0); tc.held && remaining > tc.changes {
				t.Errorf("a held deletion reserved a turn: the next is %v away, want %v", remaining, tc.changes)
			}
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
	take(b, "ns", 10*time.Second, budget.Poll)
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
		take(b, "ns", 10*time.Second, budget.Poll)
	}
	if r.runs != 2 {
		t.Errorf("the poll at its turn, put off once more: runs %d, want 2 (no new turn)", r.runs)
	}
	// The poll is made: the turn is used up, and the next poll, with the
	// budget spent again, waits for a new one.
	g.Deferred.Polled(req.NamespacedName)
	take(b, "ns", 10*time.Second, budget.Poll)
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
	spend(b, "ns", 2*time.Second, budget.Poll)
	r := &recorder{}
	g := gate(t, c, b, r, stream(1, settled...))
	ctx := context.Background()
	first, _ := g.Reconcile(ctx, req)
	c.Step(first.RequeueAfter)
	spend(b, "ns", 5*time.Second, budget.Change)
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
	spend(b, "ns", 5*time.Second, budget.Change)
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
	spend(b, "ns", 10*time.Second, budget.Poll)
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

// events records the Events a gate records.
type events struct{ recorded []event.Event }

func (e *events) Event(_ runtime.Object, ev event.Event)   { e.recorded = append(e.recorded, ev) }
func (e *events) WithAnnotations(...string) event.Recorder { return e }

// turnWaits is how many turns of namespace ns and class were taken after a
// wait.
func turnWaits(t *testing.T, ns string, class budget.Class) uint64 {
	t.Helper()
	m := &dto.Metric{}
	if err := metrics.NamespaceTurnWait.WithLabelValues(ns, class.String()).(prometheus.Histogram).Write(m); err != nil {
		t.Fatal(err)
	}
	return m.GetHistogram().GetSampleCount()
}

// TestGateTurnPromisedAnew: a change of a namespace whose changes have
// taken the next 10 s comes back at its turn and finds that another
// namespace's change, come since and whose turn is in the round being
// served, took that slot: it is requeued for the next slot, holding no
// worker, and goes then. Its namespace's deferrals and wait are counted.
func TestGateTurnPromisedAnew(t *testing.T) {
	c := clocktesting.NewFakeClock(time.Unix(0, 0))
	b := budget.New(budget.Quotas{}, budget.WithClock(c))
	take(b, "ns", 10*time.Second, budget.Change)
	r := &recorder{}
	g := gate(t, c, b, r, stream(2, settled...))
	ctx := context.Background()
	deferred := testutil.ToFloat64(metrics.NamespaceDeferred.WithLabelValues("ns", "change"))
	waits := turnWaits(t, "ns", budget.Change)

	first, _ := g.Reconcile(ctx, req)
	if first.RequeueAfter != 10*time.Second {
		t.Fatalf("a change behind 10 s of its namespace's slots: requeued after %v, want 10s", first.RequeueAfter)
	}
	newcomer := budget.Reservation{Scope: "111122223333", Region: "us-east-1", Namespace: "other", Name: "o", Ops: []budget.Operation{describe}, Class: budget.Change}
	c.Step(9900 * time.Millisecond)
	b.Reserve(newcomer, 0)
	c.Step(100 * time.Millisecond)
	if wait := b.Reserve(newcomer, 250*time.Millisecond); wait != 0 {
		t.Fatalf("the newcomer at its turn: %v away, want 0", wait)
	}
	again, _ := g.Reconcile(ctx, req)
	if r.runs != 0 || again.RequeueAfter != 250*time.Millisecond {
		t.Errorf("at its turn, taken by another namespace's change: runs %d, requeued after %v; want 0 and the next slot (250ms)", r.runs, again.RequeueAfter)
	}
	c.Step(again.RequeueAfter)
	if _, err := g.Reconcile(ctx, req); err != nil {
		t.Fatal(err)
	}
	if r.runs != 1 {
		t.Errorf("at its next slot: runs %d, want 1", r.runs)
	}
	if n := testutil.ToFloat64(metrics.NamespaceDeferred.WithLabelValues("ns", "change")) - deferred; n != 2 {
		t.Errorf("provider_aws_services_namespace_deferred_total{namespace=ns,class=change} rose by %v, want 2 (deferred, then promised anew)", n)
	}
	if n := turnWaits(t, "ns", budget.Change) - waits; n != 1 {
		t.Errorf("provider_aws_services_namespace_turn_wait_seconds{namespace=ns,class=change} has %d more samples, want 1", n)
	}
}

// TestGateSaysItWaitsLong: a change whose turn is more than LongWait away
// says so in one Normal Event, not again when its turn is promised anew,
// and again in a later wait.
func TestGateSaysItWaitsLong(t *testing.T) {
	c := clocktesting.NewFakeClock(time.Unix(0, 0))
	b := budget.New(budget.Quotas{}, budget.WithClock(c))
	take(b, "ns", 40*time.Second, budget.Change)
	r := &recorder{}
	rec := &events{}
	g := gate(t, c, b, r, stream(2, settled...))
	g.Record = rec
	ctx := context.Background()

	first, _ := g.Reconcile(ctx, req)
	if len(rec.recorded) != 1 {
		t.Fatalf("a change 40 s from its turn: %d Events, want 1", len(rec.recorded))
	}
	if ev := rec.recorded[0]; ev.Type != event.TypeNormal || ev.Reason != ReasonWaitingForTurn {
		t.Errorf("the Event: %s %s, want Normal %s", ev.Type, ev.Reason, ReasonWaitingForTurn)
	}
	// Another namespace's change takes its slot: promised anew, it says
	// nothing more.
	newcomer := budget.Reservation{Scope: "111122223333", Region: "us-east-1", Namespace: "other", Name: "o", Ops: []budget.Operation{describe}, Class: budget.Change}
	c.Step(first.RequeueAfter - 100*time.Millisecond)
	b.Reserve(newcomer, 0)
	c.Step(100 * time.Millisecond)
	b.Reserve(newcomer, 250*time.Millisecond)
	again, _ := g.Reconcile(ctx, req)
	if again.RequeueAfter == 0 || len(rec.recorded) != 1 {
		t.Errorf("promised anew: requeued after %v with %d Events; want a requeue and still 1 Event", again.RequeueAfter, len(rec.recorded))
	}
	c.Step(again.RequeueAfter)
	if _, err := g.Reconcile(ctx, req); err != nil {
		t.Fatal(err)
	}
	// It looked: the wait is over. A new one says so again.
	g.Deferred.Polled(req.NamespacedName)
	take(b, "ns", 40*time.Second, budget.Change)
	if _, err := g.Reconcile(ctx, req); err != nil {
		t.Fatal(err)
	}
	if len(rec.recorded) != 2 {
		t.Errorf("a second long wait: %d Events in all, want 2", len(rec.recorded))
	}
}

// TestGateHeldDeletionGivesUpItsTurn: a deletion waiting for its turn whose
// deletion policy becomes invalid gives its turn back: the next reconcile
// of its namespace takes it.
func TestGateHeldDeletionGivesUpItsTurn(t *testing.T) {
	c := clocktesting.NewFakeClock(time.Unix(0, 0))
	b := budget.New(budget.Quotas{}, budget.WithClock(c))
	take(b, "ns", 5*time.Second, budget.Change)
	r := &recorder{}
	g := gate(t, c, b, r, deleted(stream(1, settled...)))
	ctx := context.Background()
	if res, _ := g.Reconcile(ctx, req); res.RequeueAfter != 5*time.Second {
		t.Fatalf("a deletion behind 5 s of slots: requeued after %v, want 5s", res.RequeueAfter)
	}
	held := true
	g.Held = func(context.Context, *v1alpha1.DeliveryStream) bool { return held }
	if res, _ := g.Reconcile(ctx, req); r.runs != 1 || r.urgent != 0 || !res.IsZero() {
		t.Errorf("held: runs %d (urgent %d), result %+v; want it run at once, unmarked", r.runs, r.urgent, res)
	}
	next := budget.Reservation{Scope: "111122223333", Region: "us-east-1", Namespace: "ns", Name: "next", Ops: []budget.Operation{describe}, Class: budget.Change}
	if wait := b.Reserve(next, 0); wait != 5*time.Second {
		t.Errorf("the next change of the namespace: %v away, want 5s (the held deletion's turn)", wait)
	}
}

// TestGateHoldsNoWorkerWhileThePlaceIsFoundOut: while where a resource's
// calls go is being found out (its session built against a slow endpoint),
// the gate puts the reconcile off without running it; then it goes.
func TestGateHoldsNoWorkerWhileThePlaceIsFoundOut(t *testing.T) {
	c := clocktesting.NewFakeClock(time.Unix(0, 0))
	b := budget.New(budget.Quotas{}, budget.WithClock(c))
	r := &recorder{}
	g := gate(t, c, b, r, stream(1, creating...))
	building := true
	calls := g.Calls
	g.Calls = func(ctx context.Context, mg *v1alpha1.DeliveryStream) (budget.Reservation, error) {
		if building {
			return budget.Reservation{}, ErrNotYet
		}
		return calls(ctx, mg)
	}
	ctx := context.Background()
	if res, err := g.Reconcile(ctx, req); err != nil || r.runs != 0 || res.RequeueAfter != notYetFor {
		t.Errorf("while building: runs %d, result %+v, error %v; want none, put off %v", r.runs, res, err, notYetFor)
	}
	building = false
	if _, err := g.Reconcile(ctx, req); err != nil || r.runs != 1 {
		t.Errorf("once built: runs %d, error %v; want it run", r.runs, err)
	}
}

// TestGateServesOnlyItsShards: a replica runs the reconciles of the accounts
// whose shards it holds, and of the namespaces it holds for reconciles that
// call no account; it drops the others without requeueing them, and gives
// up a turn whose shard went to another replica while it waited.
func TestGateServesOnlyItsShards(t *testing.T) {
	const account = "111122223333"
	cases := map[string]struct {
		objects []client.Object
		served  []string
		held    bool // a deletion its policy holds: it calls no account
		wait    bool // the budget's next turn is 5 s away: the first reconcile waits for it
		// after the first reconcile, before the second, the served keys
		// become then (when wait)
		then     []string
		wantRuns []int // after each reconcile
		wantRes  []reconcile.Result
	}{
		"ItsAccount": {
			objects: []client.Object{stream(1, creating...)}, served: []string{account},
			wantRuns: []int{1}, wantRes: []reconcile.Result{{}},
		},
		"AnotherReplicasAccount": {
			objects: []client.Object{stream(1, creating...)}, served: []string{NamespaceKey("ns")},
			wantRuns: []int{0}, wantRes: []reconcile.Result{{}},
		},
		"AHeldDeletionOfItsNamespace": {
			objects: []client.Object{deleted(stream(1, settled...))}, served: []string{NamespaceKey("ns")}, held: true,
			wantRuns: []int{1}, wantRes: []reconcile.Result{{}},
		},
		"AHeldDeletionOfAnotherReplicasNamespace": {
			objects: []client.Object{deleted(stream(1, settled...))}, served: []string{account}, held: true,
			wantRuns: []int{0}, wantRes: []reconcile.Result{{RequeueAfter: notServedFor}},
		},
		"ATurnWhoseShardWentMeanwhile": {
			objects: []client.Object{stream(1, creating...)}, served: []string{account}, wait: true, then: []string{},
			wantRuns: []int{0, 0}, wantRes: []reconcile.Result{{RequeueAfter: 5 * time.Second}, {}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := clocktesting.NewFakeClock(time.Unix(0, 0))
			b := budget.New(budget.Quotas{}, budget.WithClock(c))
			if tc.wait {
				take(b, "other", 5*time.Second, budget.Change)
			}
			r := &recorder{}
			g := gate(t, c, b, r, tc.objects...)
			served := tc.served
			g.Serves = func(key string) (func(), bool) { return func() {}, slices.Contains(served, key) }
			if tc.held {
				g.Held = func(context.Context, *v1alpha1.DeliveryStream) bool { return true }
			}
			for i := range tc.wantRuns {
				if i > 0 {
					served = tc.then
					c.Step(5 * time.Second)
				}
				res, err := g.Reconcile(context.Background(), req)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tc.wantRes[i], res); diff != "" {
					t.Errorf("reconcile %d: -want, +got:\n%s", i, diff)
				}
				if diff := cmp.Diff(tc.wantRuns[i], r.runs); diff != "" {
					t.Errorf("reconcile %d: runs -want, +got:\n%s", i, diff)
				}
			}
			if _, ok := g.Deferred.turns.Peek(req.NamespacedName); ok {
				t.Error("a turn is still kept for the reconcile dropped")
			}
		})
	}
}
