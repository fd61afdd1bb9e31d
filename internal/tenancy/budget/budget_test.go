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

package budget

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	clocktesting "k8s.io/utils/clock/testing"

	"github.com/cloudkinds/provider-aws-services/internal/aws/quota"
)

var (
	describe = quota.Operation{Service: "Firehose", Name: "DescribeDeliveryStream"}
	create   = quota.Operation{Service: "Firehose", Name: "CreateDeliveryStream"}
)

func TestQuota(t *testing.T) {
	cases := map[string]struct {
		quotas Quotas
		op     quota.Operation
		want   float64
		source string
		rate   float64
	}{
		"FirehoseAnyOperation": {
			op: describe, want: 5, source: "published", rate: 4,
		},
		"EventBridgeWrite": {
			op: quota.Operation{Service: "EventBridge", Name: "UpdateEndpoint"}, want: 5, source: "published", rate: 4,
		},
		"EventBridgeOther": {
			op: quota.Operation{Service: "EventBridge", Name: "DescribeEndpoint"}, want: 50, source: "published", rate: 40,
		},
		"SNSSubscribe": {
			op: quota.Operation{Service: "SNS", Name: "Subscribe"}, want: 100, source: "published", rate: 80,
		},
		"SNSUnpublishedTakesItsLowest": {
			op: quota.Operation{Service: "SNS", Name: "GetSubscriptionAttributes"}, want: 30, source: "assumed", rate: 24,
		},
		"ServiceWithoutFigures": {
			op: quota.Operation{Service: "SageMaker", Name: "DescribeEndpointConfig"}, want: 10, source: "assumed", rate: 8,
		},
		"ServiceTheTableDoesNotKnow": {
			op: quota.Operation{Service: "SQS", Name: "CreateQueue"}, want: quota.Default, source: "unknown", rate: 8,
		},
		"OverrideOfOperation": {
			quotas: Quotas{Of: map[string]float64{"Firehose:DescribeDeliveryStream": 10}, Share: 0.5},
			op:     describe, want: 10, source: "override", rate: 5,
		},
		"OverrideOfServiceWinsOverPublishedOperation": {
			quotas: Quotas{Of: map[string]float64{"EventBridge:*": 20}},
			op:     quota.Operation{Service: "EventBridge", Name: "CreateEndpoint"}, want: 20, source: "override", rate: 16,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, source := tc.quotas.Quota(tc.op)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Quota(%s): -want, +got:\n%s", tc.op, diff)
			}
			if diff := cmp.Diff(tc.source, source); diff != "" {
				t.Errorf("Quota(%s) source: -want, +got:\n%s", tc.op, diff)
			}
			if diff := cmp.Diff(tc.rate, tc.quotas.Rate(tc.op), cmp.Comparer(func(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 })); diff != "" {
				t.Errorf("Rate(%s): -want, +got:\n%s", tc.op, diff)
			}
		})
	}
}

func TestParseOverrides(t *testing.T) {
	cases := map[string]struct {
		in      []string
		want    map[string]float64
		wantErr bool
	}{
		"OperationAndService": {
			in:   []string{"Firehose:DescribeDeliveryStream=10", "SageMaker:*=20"},
			want: map[string]float64{"Firehose:DescribeDeliveryStream": 10, "SageMaker:*": 20},
		},
		"NoOperation":  {in: []string{"Firehose=10"}, wantErr: true},
		"NotANumber":   {in: []string{"Firehose:*=ten"}, wantErr: true},
		"Zero":         {in: []string{"Firehose:*=0"}, wantErr: true},
		"Negative":     {in: []string{"Firehose:*=-1"}, wantErr: true},
		"NaN":          {in: []string{"Firehose:*=NaN"}, wantErr: true},
		"Infinity":     {in: []string{"Firehose:*=+Inf"}, wantErr: true},
		"NoEqualsSign": {in: []string{"Firehose:*"}, wantErr: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := ParseOverrides(tc.in)
			if (err != nil) != tc.wantErr {
				t.Fatalf("ParseOverrides(%v): error %v, want error %v", tc.in, err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got); !tc.wantErr && diff != "" {
				t.Errorf("ParseOverrides(%v): -want, +got:\n%s", tc.in, diff)
			}
		})
	}
}

// reserve reserves a turn of the calls ops in account 111's us-east-1 for
// a reconcile of name in namespace ns (anonymous when name is empty), taking
// it when it is now.
func reserve(b *Budgets, ns, name string, class Class, ops []quota.Operation, behind ...quota.Operation) time.Duration {
	return b.Reserve(Reservation{Scope: "111", Region: "us-east-1", Namespace: ns, Name: name, Ops: ops, Class: class, Behind: behind}, time.Nanosecond)
}

func ms(n ...int) []time.Duration {
	out := make([]time.Duration, 0, len(n))
	for _, v := range n {
		out = append(out, time.Duration(v)*time.Millisecond)
	}
	return out
}

// TestReserveSpreadsCalls: reconciles take slots at the budget's rate, per
// account, region and operation.
func TestReserveSpreadsCalls(t *testing.T) {
	c := clocktesting.NewFakeClock(time.Unix(0, 0))
	b := New(Quotas{}, WithClock(c))
	var got []time.Duration
	for range 6 {
		got = append(got, reserve(b, "ns", "", Poll, []quota.Operation{describe}))
	}
	// 4 calls per second: a slot every 250 ms.
	if diff := cmp.Diff(ms(0, 250, 500, 750, 1000, 1250), got); diff != "" {
		t.Errorf("Reserve: -want, +got:\n%s", diff)
	}
	others := map[string]Reservation{
		"AnotherRegion":    {Scope: "111", Region: "eu-west-1", Namespace: "ns", Ops: []quota.Operation{describe}},
		"AnotherAccount":   {Scope: "222", Region: "us-east-1", Namespace: "ns", Ops: []quota.Operation{describe}},
		"AnotherOperation": {Scope: "111", Region: "us-east-1", Namespace: "ns", Ops: []quota.Operation{{Service: "SNS", Name: "GetSubscriptionAttributes"}}},
	}
	for name, r := range others {
		if d := b.Reserve(r, time.Nanosecond); d != 0 {
			t.Errorf("%s: Reserve: got %v, want 0", name, d)
		}
	}
	// A reconcile of two operations takes its turn in one budget (the
	// first of the lowest rate, ListTags here) and waits there; of the
	// other it waits for the next free slot, not behind what queues there:
	// queued in both, two reconciles could each wait for the other.
	if d := reserve(b, "ns", "", Poll, []quota.Operation{{Service: "Firehose", Name: "ListTagsForDeliveryStream"}, describe}); d != 250*time.Millisecond {
		t.Errorf("Reserve of two operations: got %v, want 250ms (Describe's next free slot)", d)
	}
}

// TestReserveAgain: a reservation made again before its turn keeps its
// place; at its turn it takes its slot, and the next reservation is after it.
func TestReserveAgain(t *testing.T) {
	c := clocktesting.NewFakeClock(time.Unix(0, 0))
	b := New(Quotas{}, WithClock(c))
	ops := []quota.Operation{describe}
	var got []time.Duration
	for _, name := range []string{"a", "b", "c", "b", "c"} {
		got = append(got, reserve(b, "ns", name, Poll, ops))
	}
	if diff := cmp.Diff(ms(0, 250, 500, 250, 500), got); diff != "" {
		t.Errorf("a, b, c, then b and c again: -want, +got:\n%s", diff)
	}
	c.Step(250 * time.Millisecond)
	got = []time.Duration{reserve(b, "ns", "b", Poll, ops), reserve(b, "ns", "c", Poll, ops), reserve(b, "ns", "d", Poll, ops)}
	if diff := cmp.Diff(ms(0, 250, 500), got); diff != "" {
		t.Errorf("b at its turn, then c again and a new d: -want, +got:\n%s", diff)
	}
	b.Cancel(Reservation{Scope: "111", Region: "us-east-1", Namespace: "ns", Name: "c", Ops: ops, Class: Poll})
	if d := reserve(b, "ns", "d", Poll, ops); d != 250*time.Millisecond {
		t.Errorf("d once c gave up its turn: got %v, want 250ms", d)
	}
}

// TestChangesGoBeforePolls: a change takes the next slot no other change
// has, ahead of polls reserved before it; a poll reserved after changes
// comes after them; and a poll whose slot changes have taken since learns
// its new slot when it comes for it.
func TestChangesGoBeforePolls(t *testing.T) {
	c := clocktesting.NewFakeClock(time.Unix(0, 0))
	b := New(Quotas{}, WithClock(c))
	ops := []quota.Operation{describe}
	var polls []time.Duration
	for _, name := range []string{"p1", "p2", "p3"} {
		polls = append(polls, reserve(b, "ns", name, Poll, ops))
	}
	if diff := cmp.Diff(ms(0, 250, 500), polls); diff != "" {
		t.Errorf("three polls: -want, +got:\n%s", diff)
	}
	var changes []time.Duration
	for _, name := range []string{"c1", "c2", "c3"} {
		changes = append(changes, reserve(b, "ns", name, Change, ops))
	}
	// p1 took the slot at 0: the changes come after it, before p2 and p3.
	if diff := cmp.Diff(ms(250, 500, 750), changes); diff != "" {
		t.Errorf("three changes after three polls: -want, +got (they go ahead of the polls waiting):\n%s", diff)
	}
	c.Step(250 * time.Millisecond)
	if d := reserve(b, "ns", "p2", Poll, ops); d != 750*time.Millisecond {
		t.Errorf("p2 at its turn, three changes waiting: got %v, want 750ms (after them)", d)
	}
	if d := reserve(b, "ns", "p4", Poll, ops); d != 1250*time.Millisecond {
		t.Errorf("a new poll: got %v, want 1.25s (after the changes and the polls waiting)", d)
	}
}

// TestPollsWaitBehindCreates: while creates of a kind AWS creates
// asynchronously are queued, a poll that waits behind them takes a slot
// after the last of them, so that the looks each create needs soon after it
// find the poll's budget free; a change's look and a poll that waits behind
// nothing do not wait for them.
func TestPollsWaitBehindCreates(t *testing.T) {
	c := clocktesting.NewFakeClock(time.Unix(0, 0))
	b := New(Quotas{}, WithClock(c))
	ops := []quota.Operation{describe}
	for range 10 {
		// Ten creates at 4 per second: the last one's slot is 2.25 s away.
		reserve(b, "ns", "", Change, []quota.Operation{create})
	}
	cases := []struct {
		name   string
		class  Class
		scope  string
		behind []quota.Operation
		want   time.Duration
	}{
		{"PollBehindTheCreates", Poll, "111", []quota.Operation{create}, 2500 * time.Millisecond},
		{"NextPollBehindTheFirst", Poll, "111", []quota.Operation{create}, 2750 * time.Millisecond},
		{"ChangeGoesFirst", Change, "111", []quota.Operation{create}, 0},
		{"PollOfAnotherAccount", Poll, "222", nil, 0},
	}
	for _, tc := range cases {
		r := Reservation{Scope: tc.scope, Region: "us-east-1", Namespace: "ns", Ops: ops, Class: tc.class, Behind: tc.behind}
		if got := b.Reserve(r, time.Nanosecond); got != tc.want {
			t.Errorf("%s: Reserve: got %v, want %v", tc.name, got, tc.want)
		}
	}
	c.Step(3 * time.Second)
	if got := reserve(b, "ns", "", Poll, []quota.Operation{{Service: "Firehose", Name: "ListTagsForDeliveryStream"}}, create); got != 0 {
		t.Errorf("a poll once the creates had their slots: got %v, want 0", got)
	}
}

func TestWaitKeepsToTheRate(t *testing.T) {
	c := clocktesting.NewFakeClock(time.Unix(0, 0))
	b := New(Quotas{}, WithClock(c))
	ctx := context.Background()
	taken := 0
	for taken < 4 {
		if err := b.Wait(ctx, "111", "us-east-1", describe); err != nil {
			t.Fatal(err)
		}
		taken++
	}
	done := make(chan struct{})
	go func() {
		_ = b.Wait(ctx, "111", "us-east-1", describe)
		close(done)
	}()
	select {
	case <-done:
		t.Fatal("a fifth call within the first instant went: the budget is 4 per second with a burst of 4")
	case <-time.After(50 * time.Millisecond):
	}
	waitForWaiters(t, c)
	c.Step(250 * time.Millisecond)
	select {
	case <-done:
	case <-time.After(time.Second):
		t.Fatal("the fifth call did not go once a token refilled")
	}
}

// TestWritesGoFirst: while a write waits for a token, a periodic read
// does not take it.
func TestWritesGoFirst(t *testing.T) {
	c := clocktesting.NewFakeClock(time.Unix(0, 0))
	b := New(Quotas{Of: map[string]float64{"Firehose:*": 1}, Share: 1}, WithClock(c))
	ctx := context.Background()
	// Both the write and the read use one bucket only when they are the
	// same operation: a write-classed read stands in for it (Urgent).
	if err := b.Wait(ctx, "111", "us-east-1", describe); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var order []string
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		_ = b.Wait(Urgent(ctx), "111", "us-east-1", describe)
		mu.Lock()
		order = append(order, "urgent")
		mu.Unlock()
	}()
	waitForWaiters(t, c)
	wg.Add(1)
	go func() {
		defer wg.Done()
		_ = b.Wait(ctx, "111", "us-east-1", describe)
		mu.Lock()
		order = append(order, "poll")
		mu.Unlock()
	}()
	for c.Waiters() < 2 {
		time.Sleep(time.Millisecond)
	}
	for range 4 {
		c.Step(time.Second)
		time.Sleep(20 * time.Millisecond)
	}
	wg.Wait()
	if diff := cmp.Diff([]string{"urgent", "poll"}, order); diff != "" {
		t.Errorf("order of calls: -want, +got:\n%s", diff)
	}
}

func TestWaitEndsWithContext(t *testing.T) {
	c := clocktesting.NewFakeClock(time.Unix(0, 0))
	b := New(Quotas{Of: map[string]float64{"Firehose:*": 1}, Share: 1}, WithClock(c))
	if err := b.Wait(context.Background(), "111", "us-east-1", create); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := b.Wait(ctx, "111", "us-east-1", create); err == nil {
		t.Error("Wait with an ended context and no token: got no error")
	}
}

func waitForWaiters(t *testing.T, c *clocktesting.FakeClock) {
	t.Helper()
	deadline := time.Now().Add(time.Second)
	for !c.HasWaiters() {
		if time.Now().After(deadline) {
			t.Fatal("no call waits for a token")
		}
		time.Sleep(time.Millisecond)
	}
}

// TestNoTwoReservationsWaitForEachOther: a namespace's reservations of one
// budget and of two, beside another namespace's flood of two-budget
// reservations, all go in time. Queued in both budgets, a newcomer's
// two-budget reservation stood before the flood's head in one and behind it
// in the other, and neither ever went.
func TestNoTwoReservationsWaitForEachOther(t *testing.T) {
	list := quota.Operation{Service: "Firehose", Name: "ListTagsForDeliveryStream"}
	c := clocktesting.NewFakeClock(time.Unix(0, 0))
	b := New(Quotas{Share: 0.8}, WithClock(c))
	const soon = 250 * time.Millisecond
	res := func(ns, name string, ops ...quota.Operation) Reservation {
		return Reservation{Scope: "111", Region: "us-east-1", Namespace: ns, Name: name, Ops: ops, Class: Change}
	}
	waiting := map[string]Reservation{}
	for i := range 10 {
		r := res("noisy", fmt.Sprint("noisy-", i), describe, list)
		if b.Reserve(r, soon) >= soon {
			waiting[r.Name] = r
		}
	}
	c.Step(250 * time.Millisecond)
	for _, r := range []Reservation{res("quiet", "quiet-1", describe), res("quiet", "quiet-2", describe, list)} {
		if b.Reserve(r, soon) >= soon {
			waiting[r.Name] = r
		}
	}
	// Every holder asks again every 250 ms; 12 reservations at 4 a second
	// take 3 s, and all must have gone well within 10.
	for step := 0; step < 40 && len(waiting) > 0; step++ {
		c.Step(250 * time.Millisecond)
		for _, name := range slices.Sorted(maps.Keys(waiting)) {
			if b.Reserve(waiting[name], soon) < soon {
				delete(waiting, name)
			}
		}
	}
	if len(waiting) > 0 {
		t.Errorf("after 10 s, %d reservations still wait: %v", len(waiting), slices.Sorted(maps.Keys(waiting)))
	}
}
