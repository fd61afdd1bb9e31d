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

package shard

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	"github.com/google/go-cmp/cmp"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
)

var timing = Timing{Duration: 14 * time.Second, RenewDeadline: 10 * time.Second, RetryPeriod: time.Second}

// replica is one replica's Set, with the shards it was told it took.
type replica struct {
	*Set
	took []int
}

func newReplica(kube client.Client, name string, c *clocktesting.FakeClock) *replica {
	r := &replica{Set: New(kube, "provider", name, 12, timing, logging.NewNopLogger(), c)}
	r.OnAcquire(func(ns []int) { r.took = append(r.took, ns...) })
	return r
}

func TestShares(t *testing.T) {
	ctx := context.Background()
	type step struct {
		do   func(a, b *replica, c *clocktesting.FakeClock)
		want map[string][]int // the shards each replica holds after the step
	}
	round := func(rs ...func(a, b *replica) *replica) func(a, b *replica, c *clocktesting.FakeClock) {
		return func(a, b *replica, c *clocktesting.FakeClock) {
			for _, r := range rs {
				r(a, b).round(ctx, t)
			}
			c.Step(timing.RetryPeriod)
		}
	}
	ra := func(a, _ *replica) *replica { return a }
	rb := func(_, b *replica) *replica { return b }
	// divided has A and B look twice each: the shards divided.
	divided := func(a, b *replica, c *clocktesting.FakeClock) {
		round(ra, rb)(a, b, c)
		round(ra, rb)(a, b, c)
	}
	all, first, second := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, []int{0, 1, 2, 3, 4, 5}, []int{6, 7, 8, 9, 10, 11}
	cases := map[string]struct {
		steps    []step
		tookByB  []int // the shards B was told it took, in all
		holdsKey map[string]bool
	}{
		"AloneItHoldsEveryShard": {
			steps: []step{{do: round(ra), want: map[string][]int{"a": all, "b": {}}}},
		},
		"ANewcomerIsGivenItsPart": {
			steps: []step{
				{do: round(ra), want: map[string][]int{"a": all, "b": {}}},
				{do: round(rb), want: map[string][]int{"a": all, "b": {}}}, // none free yet
				{do: round(ra), want: map[string][]int{"a": first, "b": {}}},
				{do: round(rb), want: map[string][]int{"a": first, "b": second}},
				{do: round(ra, rb), want: map[string][]int{"a": first, "b": second}}, // and stays so
			},
			tookByB: second,
		},
		"TheSharesOfOneThatDiedAreTakenOverOnceExpired": {
			steps: []step{
				{do: divided, want: map[string][]int{"a": first, "b": second}},
				// B is killed: no more rounds of it. Past its renew
				// deadline it would not act; before its Leases expire,
				// their duration after A last saw them change, A does
				// not take over.
				{do: func(a, _ *replica, c *clocktesting.FakeClock) {
					for range timing.Duration/timing.RetryPeriod - 2 {
						a.round(ctx, t)
						c.Step(timing.RetryPeriod)
					}
				}, want: map[string][]int{"a": first, "b": {}}},
				{do: func(a, _ *replica, c *clocktesting.FakeClock) {
					for range 3 {
						a.round(ctx, t)
						c.Step(timing.RetryPeriod)
					}
				}, want: map[string][]int{"a": all, "b": {}}},
			},
			tookByB: second,
		},
		"OneThatLeavesHandsItsSharesOverAtOnce": {
			steps: []step{
				{do: divided, want: map[string][]int{"a": first, "b": second}},
				{do: func(a, b *replica, c *clocktesting.FakeClock) {
					b.leave(ctx)
					c.Step(timing.RetryPeriod)
					a.round(ctx, t)
				}, want: map[string][]int{"a": all, "b": {}}},
			},
			tookByB: second,
		},
		"NoWorkPastTheRenewDeadlineWithoutARenewal": {
			steps: []step{
				{do: round(ra), want: map[string][]int{"a": all, "b": {}}},
				{do: func(_, _ *replica, c *clocktesting.FakeClock) { c.Step(timing.RenewDeadline) }, want: map[string][]int{"a": {}, "b": {}}},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			kube := fake.NewClientBuilder().Build()
			c := clocktesting.NewFakeClock(time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC))
			a, b := newReplica(kube, "a", c), newReplica(kube, "b", c)
			for i, st := range tc.steps {
				st.do(a, b, c)
				got := map[string][]int{"a": holding(a), "b": holding(b)}
				if diff := cmp.Diff(st.want, got); diff != "" {
					t.Errorf("step %d: the shards each replica holds: -want, +got:\n%s", i, diff)
				}
			}
			if diff := cmp.Diff(tc.tookByB, b.took); diff != "" {
				t.Errorf("the shards B was told it took: -want, +got:\n%s", diff)
			}
		})
	}
}

// round is one Round of r, its shards let go given up before it returns.
func (r *replica) round(ctx context.Context, t *testing.T) {
	t.Helper()
	r.Round(ctx)
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		r.mu.RLock()
		n := len(r.releasing)
		r.mu.RUnlock()
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("shards still being let go after 5 s")
		}
	}
}

// holding is the shards r does the work of now.
func holding(r *replica) []int {
	out := []int{}
	for n := range 12 {
		if r.holdsShard(n) {
			out = append(out, n)
		}
	}
	return out
}

// holdsShard reports whether r does the work of shard n, through a key of
// that shard.
func (r *replica) holdsShard(n int) bool {
	for i := range 10000 {
		if key := fmt.Sprint("account-", i); r.Of(key) == n {
			return r.Holds(key)
		}
	}
	return false
}

// TestOf: a key's shard is stable and the shards are used evenly enough
// that ten accounts do not all land on one replica of three.
func TestOf(t *testing.T) {
	s := New(nil, "provider", "a", 12, timing, logging.NewNopLogger(), clocktesting.NewFakeClock(time.Now()))
	again := New(nil, "provider", "b", 12, timing, logging.NewNopLogger(), clocktesting.NewFakeClock(time.Now()))
	if s.Of("100000000001") != again.Of("100000000001") {
		t.Fatal("Of is not stable")
	}
	per := map[int]int{}
	for i := range 1200 {
		per[s.Of(fmt.Sprintf("1000000000%02d", i))]++
	}
	for n := range 12 {
		if per[n] < 50 || per[n] > 150 {
			t.Errorf("shard %d: %d of 1200 keys, want about 100", n, per[n])
		}
	}
}

// TestAShardLetGoWaitsForItsWork: a replica that lets a shard go starts no
// more of its work at once, and gives its Lease up only once the work under
// way is done, so that no two replicas work on one object at once.
func TestAShardLetGoWaitsForItsWork(t *testing.T) {
	ctx := context.Background()
	kube := fake.NewClientBuilder().Build()
	c := clocktesting.NewFakeClock(time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC))
	a, b := newReplica(kube, "a", c), newReplica(kube, "b", c)
	a.round(ctx, t)
	key := ""
	for i := range 1000 {
		if k := fmt.Sprint("account-", i); a.Of(k) == 11 { // a shard A lets go when B comes
			key = k
			break
		}
	}
	done, ok := a.Enter(key)
	if !ok {
		t.Fatal("A does not serve a key of a shard it holds")
	}
	b.Round(ctx)
	c.Step(timing.RetryPeriod)
	a.Round(ctx) // lets shards 6 to 11 go, 11 with work under way
	if _, ok := a.Enter(key); ok {
		t.Error("A took new work of a shard it let go")
	}
	time.Sleep(100 * time.Millisecond)
	c.Step(timing.RetryPeriod)
	b.round(ctx, t)
	if got := b.Holds(key); got {
		t.Error("B took the shard while A's work in it was under way")
	}
	done()
	a.round(ctx, t) // its Lease given up
	c.Step(timing.RetryPeriod)
	b.round(ctx, t)
	if !b.Holds(key) {
		t.Error("B did not take the shard once A's work in it was done")
	}
}

// TestARenewalAnsweredPastTheDeadlineQueuesTheShardAgain: a round that
// starts within the renew deadline but whose renewals the API server
// answers past it leaves a gap in which the replica dropped the shards'
// work (Holds was false); the shards are then told as taken again, so that
// their objects are queued.
func TestARenewalAnsweredPastTheDeadlineQueuesTheShardAgain(t *testing.T) {
	all := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
	cases := map[string]struct {
		startAfter time.Duration // from the last renewal to the round's start
		want       []int         // the shards told as taken by that round
	}{
		// Renewed 6 s after the last renewal: no gap.
		"AnsweredWithinTheDeadline": {startAfter: 2 * time.Second, want: nil},
		// Sent 9 s after the last renewal, answered at 13 s: for 3 s it
		// held none.
		"AnsweredPastTheDeadline": {startAfter: 9 * time.Second, want: all},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			c := clocktesting.NewFakeClock(time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC))
			slow := false
			kube := fake.NewClientBuilder().WithInterceptorFuncs(interceptor.Funcs{
				Update: func(ctx context.Context, kube client.WithWatch, o client.Object, opts ...client.UpdateOption) error {
					if slow {
						// The round's first write is answered 4 s later.
						slow = false
						c.Step(4 * time.Second)
					}
					return kube.Update(ctx, o, opts...)
				},
			}).Build()
			a := newReplica(kube, "a", c)
			a.round(ctx, t)
			slices.Sort(a.took)
			if diff := cmp.Diff(all, a.took); diff != "" {
				t.Fatalf("the shards A was told it took first: -want, +got:\n%s", diff)
			}
			a.took = nil
			c.Step(tc.startAfter)
			slow = true
			a.round(ctx, t)
			slices.Sort(a.took) // renewed at once, told in any order
			if diff := cmp.Diff(tc.want, a.took); diff != "" {
				t.Errorf("the shards A was told it took: -want, +got:\n%s", diff)
			}
			if diff := cmp.Diff(all, holding(a)); diff != "" {
				t.Errorf("the shards A holds: -want, +got:\n%s", diff)
			}
		})
	}
}
