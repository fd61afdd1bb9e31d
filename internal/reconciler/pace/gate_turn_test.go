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
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	dto "github.com/prometheus/client_model/go"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/internal/aws/quota"
	"github.com/cloudkinds/provider-aws-services/internal/metrics"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/budget"
)

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
	newcomer := budget.Reservation{Scope: "111122223333", Region: "us-east-1", Namespace: "other", Name: "o", Ops: []quota.Operation{describe}, Class: budget.Change}
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
