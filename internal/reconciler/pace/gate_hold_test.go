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
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/aws/quota"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/budget"
)

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
	next := budget.Reservation{Scope: "111122223333", Region: "us-east-1", Namespace: "ns", Name: "next", Ops: []quota.Operation{describe}, Class: budget.Change}
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
