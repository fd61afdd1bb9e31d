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
	"github.com/cloudkinds/provider-aws-services/internal/aws/quota"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/relook"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/budget"
)

var describe = quota.Operation{Service: "Firehose", Name: "DescribeDeliveryStream"}

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
			return budget.Reservation{Scope: "111122223333", Region: "us-east-1", Ops: []quota.Operation{describe}}, nil
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
	r := budget.Reservation{Scope: "111122223333", Region: "us-east-1", Namespace: ns, Ops: []quota.Operation{describe}, Class: class}
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
			if remaining := b.Reserve(budget.Reservation{Scope: "111122223333", Region: "us-east-1", Namespace: "ns", Name: "s", Ops: []quota.Operation{describe}, Class: budget.Change}, 0); tc.held && remaining > tc.changes {
				t.Errorf("a held deletion reserved a turn: the next is %v away, want %v", remaining, tc.changes)
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("%s\n-want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
