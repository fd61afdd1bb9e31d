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
	"container/heap"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/cloudkinds/provider-aws-services/internal/aws/quota"
)

// soon is the gate's: a turn less than this away is taken now
// (pace.minDeferral).
const soon = 250 * time.Millisecond

// An arrival is a reconcile that wants a turn in the budget of Firehose's
// CreateDeliveryStream (4 calls per second: a slot every 250 ms).
type arrival struct {
	ns, name string
	class    Class
	at       time.Duration
	weight   int
	cap      float64
}

// flood is n reconciles of class in namespace ns, all arriving at at.
func flood(ns string, n int, class Class, at time.Duration) []arrival {
	out := make([]arrival, 0, n)
	for i := range n {
		out = append(out, arrival{ns: ns, name: fmt.Sprintf("%s-%d", ns, i+1), class: class, at: at})
	}
	return out
}

func arrivals(groups ...[]arrival) []arrival { return slices.Concat(groups...) }

// capped gives the reconciles of as the cap of their namespace.
func capped(c float64, as []arrival) []arrival {
	for i := range as {
		as[i].cap = c
	}
	return as
}

// weighted gives the reconciles of as the weight of their namespace.
func weighted(weight int, as []arrival) []arrival {
	for i := range as {
		as[i].weight = weight
	}
	return as
}

// A run is what a simulation saw: the slot each reconcile took, and how
// many times reconciles came to the budget.
type run struct {
	slot   map[string]time.Duration
	passes int
}

// simulate runs reconciles through the budget as pace.Gate does: each
// reserves when it arrives; one whose turn is not now comes back at its
// turn and reserves again, and goes when its turn has come. A poll whose
// turn moved back once goes at the next. lateness is the most a reconcile
// comes back after its turn, as a busy work queue makes it; the same seed
// makes the same run.
func simulate(t *testing.T, rate float64, lateness time.Duration, as []arrival) run {
	t.Helper()
	start := time.Unix(0, 0)
	c := clocktesting.NewFakeClock(start)
	b := New(Quotas{Of: map[string]float64{"Firehose:*": rate}, Share: 1}, WithClock(c))
	rng := rand.New(rand.NewPCG(1, 2))
	q := &events{}
	for i, a := range as {
		heap.Push(q, event{at: a.at, seq: i, a: a})
	}
	seq := len(as)
	seen, yielded := map[string]bool{}, map[string]bool{}
	out := run{slot: map[string]time.Duration{}}
	for q.Len() > 0 {
		e := heap.Pop(q).(event) //nolint:forcetypeassert // events holds events
		c.SetTime(start.Add(e.at))
		r := Reservation{Scope: "111", Region: "us-east-1", Namespace: e.a.ns, Name: e.a.name, Weight: e.a.weight, Cap: e.a.cap, Ops: []quota.Operation{create}, Class: e.a.class}
		out.passes++
		back := seen[e.a.name]
		seen[e.a.name] = true
		if yielded[e.a.name] {
			b.Take(r)
			out.slot[e.a.name] = e.at
			continue
		}
		wait := b.Reserve(r, soon)
		if wait < soon {
			out.slot[e.a.name] = e.at + wait
			continue
		}
		if back && e.a.class == Poll {
			// A poll that came back at its turn and found it moved back
			// goes at the next.
			yielded[e.a.name] = true
		}
		var late time.Duration
		if lateness > 0 {
			late = time.Duration(rng.Int64N(int64(lateness)))
		}
		seq++
		heap.Push(q, event{at: e.at + wait + late, seq: seq, a: e.a})
	}
	return out
}

type event struct {
	at  time.Duration
	seq int
	a   arrival
}

type events []event

func (e events) Len() int { return len(e) }
func (e events) Less(i, j int) bool {
	if e[i].at != e[j].at {
		return e[i].at < e[j].at
	}
	return e[i].seq < e[j].seq
}
func (e events) Swap(i, j int) { e[i], e[j] = e[j], e[i] }
func (e *events) Push(x any)   { *e = append(*e, x.(event)) } //nolint:forcetypeassert // events holds events
func (e *events) Pop() any {
	old := *e
	x := old[len(old)-1]
	*e = old[:len(old)-1]
	return x
}

// order returns the reconciles of a run by the slot they took.
func (r run) order() []string {
	names := make([]string, 0, len(r.slot))
	for n := range r.slot {
		names = append(names, n)
	}
	slices.SortFunc(names, func(a, b string) int {
		if d := r.slot[a] - r.slot[b]; d != 0 {
			return int(d)
		}
		return cmpStrings(a, b)
	})
	return names
}

func cmpStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// last is the latest slot taken by a reconcile of namespace ns.
func (r run) last(ns string, as []arrival) time.Duration {
	var last time.Duration
	for _, a := range as {
		if a.ns == ns {
			last = max(last, r.slot[a.name])
		}
	}
	return last
}

// mostInAnyWindow is the most slots taken within any span of d.
func (r run) mostInAnyWindow(d time.Duration) int {
	slots := make([]time.Duration, 0, len(r.slot))
	for _, s := range r.slot {
		slots = append(slots, s)
	}
	slices.Sort(slots)
	most := 0
	for i, j := 0, 0; j < len(slots); j++ {
		for slots[j]-slots[i] >= d {
			i++
		}
		most = max(most, j-i+1)
	}
	return most
}

// TestTurns: the namespaces waiting in a budget take turns.
func TestTurns(t *testing.T) {
	type want struct {
		order []string
		slots map[string]time.Duration
	}
	cases := map[string]struct {
		reason string
		as     []arrival
		want   want
	}{
		"EqualTurns": {
			reason: "Two namespaces whose reconciles arrive at once take one slot each in turn, the first to wait first.",
			as:     arrivals(flood("a", 4, Change, 0), flood("b", 4, Change, 0)),
			want:   want{order: []string{"a-1", "b-1", "a-2", "b-2", "a-3", "b-3", "a-4", "b-4"}},
		},
		"WorkConserving": {
			reason: "A namespace alone takes every slot: 8 reconciles in 8 slots, one every 250 ms.",
			as:     flood("a", 8, Change, 0),
			want: want{slots: map[string]time.Duration{
				"a-1": 0, "a-2": 250 * time.Millisecond, "a-3": 500 * time.Millisecond, "a-4": 750 * time.Millisecond,
				"a-5": time.Second, "a-6": 1250 * time.Millisecond, "a-7": 1500 * time.Millisecond, "a-8": 1750 * time.Millisecond,
			}},
		},
		"ANewcomerTakesASlotPromisedToAFlood": {
			reason: "Three seconds into a flood of 1000, a newcomer's reconcile takes the next slot, though every slot was promised to the flood.",
			as:     arrivals(flood("noisy", 1000, Change, 0), flood("quiet", 1, Change, 3100*time.Millisecond)),
			want:   want{slots: map[string]time.Duration{"quiet-1": 3250 * time.Millisecond}},
		},
		"TheNewcomersTurnsAreEveryOtherSlot": {
			reason: "Three reconciles of a newcomer during a flood take every other slot: one each a round.",
			as:     arrivals(flood("noisy", 100, Change, 0), flood("quiet", 3, Change, 3100*time.Millisecond)),
			want: want{slots: map[string]time.Duration{
				"quiet-1": 3250 * time.Millisecond, "quiet-2": 3750 * time.Millisecond, "quiet-3": 4250 * time.Millisecond,
			}},
		},
		"ANewcomerBesideTwoFloods": {
			reason: "Beside two floods of 500, a newcomer waits for the round's two turns at most.",
			as:     arrivals(flood("a", 500, Change, 0), flood("b", 500, Change, 0), flood("c", 1, Change, 3100*time.Millisecond)),
			want:   want{slots: map[string]time.Duration{"c-1": 3500 * time.Millisecond}},
		},
		"WeightsShareTheRounds": {
			reason: "A namespace of weight 3 takes three slots a round to one of weight 1, while both wait; then the other has every slot.",
			as:     arrivals(weighted(3, flood("a", 8, Change, 0)), flood("b", 6, Change, 0)),
			want:   want{order: []string{"a-1", "a-2", "a-3", "b-1", "a-4", "a-5", "a-6", "b-2", "a-7", "a-8", "b-3", "b-4", "b-5", "b-6"}},
		},
		"AWeightedNewcomerBesideAFlood": {
			reason: "A newcomer of weight 2 during a flood takes two slots of every three.",
			as:     arrivals(flood("noisy", 100, Change, 0), weighted(2, flood("quiet", 4, Change, 3100*time.Millisecond))),
			want: want{slots: map[string]time.Duration{
				"quiet-1": 3250 * time.Millisecond, "quiet-2": 3500 * time.Millisecond, "quiet-3": 4000 * time.Millisecond, "quiet-4": 4250 * time.Millisecond,
			}},
		},
		"ACapHoldsANamespaceAloneBack": {
			reason: "A namespace capped at half the budget takes every other slot even alone: caps give up work conservation.",
			as:     capped(0.5, flood("a", 4, Change, 0)),
			want: want{slots: map[string]time.Duration{
				"a-1": 0, "a-2": 500 * time.Millisecond, "a-3": time.Second, "a-4": 1500 * time.Millisecond,
			}},
		},
		"ACappedFloodStandsInNoOnesWay": {
			reason: "Beside a flood capped at a quarter of the budget, another namespace's reconciles take the slots the cap leaves, one after the other.",
			as:     arrivals(capped(0.25, flood("a", 8, Change, 0)), flood("b", 3, Change, 100*time.Millisecond)),
			want: want{slots: map[string]time.Duration{
				"a-1": 0, "a-2": time.Second, "b-1": 250 * time.Millisecond, "b-2": 500 * time.Millisecond, "b-3": 750 * time.Millisecond,
			}},
		},
		"ChangesBeforePolls": {
			reason: "A change arriving while 100 polls wait takes the next slot; the polls of another namespace do not delay it either.",
			as:     arrivals(flood("a", 100, Poll, 0), flood("b", 100, Poll, 0), flood("c", 1, Change, 2100*time.Millisecond)),
			want:   want{slots: map[string]time.Duration{"c-1": 2250 * time.Millisecond}},
		},
		"PollsTakeTurnsToo": {
			reason: "Polls of two namespaces take turns, after the changes.",
			as:     arrivals(flood("a", 3, Poll, 0), flood("b", 2, Poll, 0), flood("c", 2, Change, 0)),
			want:   want{order: []string{"a-1", "c-1", "c-2", "b-1", "a-2", "b-2", "a-3"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			r := simulate(t, 4, 0, tc.as)
			got := want{}
			if tc.want.order != nil {
				got.order = r.order()
			}
			if tc.want.slots != nil {
				got.slots = map[string]time.Duration{}
				for n := range tc.want.slots {
					got.slots[n] = r.slot[n]
				}
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("%s\n-want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestFloodAndNewcomer is the measure, in the budget alone: while
// "noisy" creates 600 streams at once (Firehose: 5 calls per second, the
// budget 4, so 150 s at best), "quiet" creates one 3 s later, and changes
// and deletes one (each a change's turn) 30 s and 60 s in. The newcomer waits a few slots,
// however long the flood; the flood takes the slots it took alone, plus the
// newcomer's; no slot is given twice beyond the budget's one-second burst;
// and every turn moved costs its reconcile one more pass at the gate, not
// more. Reconciles come back up to 100 ms after their turn, as a busy work
// queue makes them.
func TestFloodAndNewcomer(t *testing.T) {
	const rate, n = 4, 600
	interval := time.Second / rate
	quiet := []arrival{
		{ns: "quiet", name: "create", class: Change, at: 3 * time.Second},
		{ns: "quiet", name: "change", class: Change, at: 30 * time.Second},
		{ns: "quiet", name: "delete", class: Change, at: 60 * time.Second},
	}
	alone := simulate(t, rate, 100*time.Millisecond, flood("noisy", n, Change, 0))
	as := arrivals(flood("noisy", n, Change, 0), quiet)
	shared := simulate(t, rate, 100*time.Millisecond, as)

	// The flood cannot be faster than the budget allows: 150 s.
	awsBound := time.Duration(n) * interval
	t.Logf("noisy alone: %d creates took their slots by %v (bound %v: %.2f×), %d passes at the gate",
		n, alone.last("noisy", as), awsBound, alone.last("noisy", as).Seconds()/awsBound.Seconds(), alone.passes)
	t.Logf("noisy beside quiet: by %v (%.2f× the bound), %d passes at the gate", shared.last("noisy", as),
		shared.last("noisy", as).Seconds()/awsBound.Seconds(), shared.passes)
	for _, a := range quiet {
		wait := shared.slot[a.name] - a.at
		t.Logf("quiet %s: arrived at %v, its slot %v later (%.1f slots)", a.name, a.at, wait, float64(wait)/float64(interval))
		if wait > 3*interval {
			t.Errorf("quiet's %s waited %v for its slot during noisy's flood, want at most 3 slots (%v)", a.name, wait, 3*interval)
		}
	}
	if got, want := shared.last("noisy", as), alone.last("noisy", as)+time.Duration(len(quiet)+1)*interval; got > want {
		t.Errorf("noisy's flood took its last slot at %v beside quiet, %v alone: want no later than alone plus quiet's slots (%v)", got, alone.last("noisy", as), want)
	}
	if got, bound := shared.last("noisy", as), time.Duration(1.15*float64(awsBound)); got > bound {
		t.Errorf("noisy's flood took %v, over 1.15 × the bound (%v)", got, bound)
	}
	if most, allowed := shared.mostInAnyWindow(10*time.Second), 10*rate+rate; most > allowed {
		t.Errorf("%d slots within 10 s, want at most %d (the rate and a one-second burst)", most, allowed)
	}
	if extra := shared.passes - alone.passes - len(quiet); extra > n {
		t.Errorf("quiet's three reconciles cost %d more passes at the gate than noisy's alone, want at most one a flood reconcile (%d)", extra, n)
	}
}

// TestTurnsForgetNamespaces: once nothing waits, the budget remembers no
// namespace beyond the round being served, and reservations whose
// reconciles never came back are forgotten.
func TestTurnsForgetNamespaces(t *testing.T) {
	c := clocktesting.NewFakeClock(time.Unix(0, 0))
	b := New(Quotas{}, WithClock(c))
	for i := range 20 {
		for _, ns := range []string{"a", "b", "c"} {
			b.Reserve(Reservation{Scope: "111", Region: "us-east-1", Namespace: ns, Name: fmt.Sprint(i), Ops: []quota.Operation{create}, Class: Change}, soon)
		}
	}
	// None of them comes back for its turn.
	c.Step(10 * time.Minute)
	b.Reserve(Reservation{Scope: "111", Region: "us-east-1", Namespace: "d", Name: "x", Ops: []quota.Operation{create}, Class: Change}, soon)
	turns := b.bucket("111", "us-east-1", create).turns[Change]
	if n, late := len(turns.shares), len(turns.late); n > 1 || late != 0 {
		t.Errorf("10 minutes after 60 reservations whose reconciles never came: %d namespaces and %d late reservations remembered, want at most 1 and 0", n, late)
	}

	// A flood of three namespaces, run to its end.
	as := arrivals(flood("a", 50, Change, 0), flood("b", 50, Change, 0), flood("c", 50, Change, 0))
	c2 := clocktesting.NewFakeClock(time.Unix(0, 0))
	b2 := New(Quotas{}, WithClock(c2))
	went := map[string]bool{}
	for range 200 {
		for _, a := range as {
			if !went[a.name] {
				went[a.name] = b2.Reserve(Reservation{Scope: "111", Region: "us-east-1", Namespace: a.ns, Name: a.name, Ops: []quota.Operation{create}, Class: Change}, soon) < soon
			}
		}
		c2.Step(250 * time.Millisecond)
	}
	turns = b2.bucket("111", "us-east-1", create).turns[Change]
	if turns.queued() != 0 {
		t.Fatalf("%d reservations still queued", turns.queued())
	}
	if n := len(turns.shares); n > 3 {
		t.Errorf("at the end of the floods of three namespaces: %d namespaces remembered, want at most 3 (those with a turn in the last round)", n)
	}
	c2.Step(2 * time.Minute)
	b2.Reserve(Reservation{Scope: "111", Region: "us-east-1", Namespace: "d", Name: "x", Ops: []quota.Operation{create}, Class: Change}, soon)
	if n := len(turns.shares); n > 1 {
		t.Errorf("two minutes after the floods of three namespaces, and one reservation of a fourth: %d namespaces remembered, want at most 1", n)
	}
}

// BenchmarkReserve is the cost of a reservation in a budget where 1000
// reconciles of one namespace and 10 of each of 20 others wait.
func BenchmarkReserve(b *testing.B) {
	c := clocktesting.NewFakeClock(time.Unix(0, 0))
	bs := New(Quotas{}, WithClock(c))
	r := Reservation{Scope: "111", Region: "us-east-1", Ops: []quota.Operation{create}, Class: Change}
	for i := range 1000 {
		r.Namespace, r.Name = "noisy", fmt.Sprint(i)
		bs.Reserve(r, soon)
	}
	for ns := range 20 {
		for i := range 10 {
			r.Namespace, r.Name = fmt.Sprint("team-", ns), fmt.Sprint(i)
			bs.Reserve(r, soon)
		}
	}
	r.Namespace, r.Name = "noisy", "500"
	b.ResetTimer()
	for range b.N {
		bs.Reserve(r, soon)
	}
}
