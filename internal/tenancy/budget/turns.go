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
	"sort"
	"time"
)

// lateFor is how long a reservation whose slot passed before it came for it
// is remembered: its holder comes back within seconds unless the provider
// stopped or the object went. (memory.Forget, which this package cannot
// import.)
const lateFor = 5 * time.Minute

// turns are the reservations of one class waiting for a slot in one budget,
// queued per namespace and served in rounds (start-time fair queuing): in
// each round every namespace with a reservation waiting has as many slots
// as its weight (one unless an admin weights it), the namespaces in the
// order they began to wait. A namespace alone has every slot. A reservation's slot is not fixed when it
// is made: it is where the reservation stands in the rounds now, and so
// moves back when another namespace begins to wait, which its holder learns
// when it comes for its slot (Budgets.Reserve).
type turns struct {
	// shares are the namespaces with a reservation queued, or with a turn
	// in the round being served.
	shares map[string]*share
	seq    uint64 // the order in which namespaces began to wait
	// round is the round being served, the latest a slot was taken in: a
	// namespace that begins to wait has its first turn in it.
	round int64
	// late are the reservations whose holder did not come for its slot:
	// they stand in no one's way, and take their turn when they come.
	late      map[ticketKey]late
	lastPrune time.Time
}

// A share is one namespace's queue.
type share struct {
	order   uint64
	tickets []ticket // by round, one a round
	rounds  map[string]int64
	// last is the round of its last turn, waiting or taken, and inLast
	// how many of its turns are in it: its next is in that round while
	// they are fewer than its weight, else in the round after.
	last   int64
	inLast int
}

// A ticket is one reservation waiting: its round, and when its holder comes
// back for its slot.
type ticket struct {
	name     string
	round    int64
	promised time.Time
}

type ticketKey struct{ namespace, name string }

type late struct {
	round int64
	since time.Time
}

func newTurns() *turns {
	return &turns{shares: map[string]*share{}, late: map[ticketKey]late{}}
}

// queued is how many reservations wait in the queues (not the late ones).
func (t *turns) queued() int {
	n := 0
	for _, sh := range t.shares {
		n += len(sh.tickets)
	}
	return n
}

// expire moves the reservations at the head of each queue whose holders did
// not come for their slot within lateBy to late, where they keep their
// round but stand in no one's way, and forgets late ones long gone.
func (t *turns) expire(now time.Time) {
	for ns, sh := range t.shares {
		i := 0
		for i < len(sh.tickets) && sh.tickets[i].promised.Add(lateBy).Before(now) {
			tk := sh.tickets[i]
			t.late[ticketKey{ns, tk.name}] = late{round: tk.round, since: tk.promised}
			delete(sh.rounds, tk.name)
			i++
		}
		sh.tickets = sh.tickets[i:]
		if len(sh.tickets) == 0 && sh.last < t.round {
			// Nothing waits, and its last turn was before the round
			// being served: there is nothing to remember.
			delete(t.shares, ns)
		}
	}
	if now.Sub(t.lastPrune) < time.Minute {
		return
	}
	t.lastPrune = now
	for k, l := range t.late {
		if now.Sub(l.since) > lateFor {
			delete(t.late, k)
		}
	}
	if t.queued() > 0 {
		return
	}
	// Nothing waits: every namespace begins anew, in the round of the last
	// turn any had.
	for ns, sh := range t.shares {
		t.round = max(t.round, sh.last)
		delete(t.shares, ns)
	}
}

// position returns how many slots of this class go before the reservation
// of key, adding it at the end of its namespace's queue, of weight, when it
// has none:
// the turns of earlier rounds, and in its round those of the namespaces
// that began to wait before its own. A late reservation keeps its round,
// and the late ones of others stand in its way no more than it in theirs.
func (t *turns) position(k ticketKey, weight int, now time.Time) int {
	t.expire(now)
	sh := t.shares[k.namespace]
	var before int
	r, queued := int64(0), false
	if sh != nil {
		r, queued = sh.rounds[k.name]
	}
	switch l, late := t.late[k]; {
	case late:
		// It keeps its round, behind none of its own namespace's that
		// came after it.
		r = l.round
		if sh != nil {
			before = sort.Search(len(sh.tickets), func(i int) bool { return sh.tickets[i].round >= r })
		}
	case queued:
		before = sh.index(r, k.name)
	default:
		if sh == nil {
			sh = t.newShare(k.namespace)
		}
		r = max(t.round, sh.last+1)
		if sh.last >= t.round && sh.inLast < weight {
			r = sh.last
		}
		if r == sh.last {
			sh.inLast++
		} else {
			sh.inLast = 1
		}
		before = len(sh.tickets)
		sh.tickets = append(sh.tickets, ticket{name: k.name, round: r, promised: now})
		sh.rounds[k.name] = r
		sh.last = r
	}
	order := t.seq
	if sh != nil {
		order = sh.order
	}
	for ns, other := range t.shares {
		if ns == k.namespace {
			continue
		}
		// The other namespaces' turns of earlier rounds, and of this one
		// when they began to wait first.
		upTo := r
		if other.order < order {
			upTo = r + 1
		}
		before += sort.Search(len(other.tickets), func(i int) bool { return other.tickets[i].round >= upTo })
	}
	return before
}

// newShare is the queue of a namespace that begins to wait: its turn in
// each round comes after those of the namespaces already waiting.
func (t *turns) newShare(ns string) *share {
	sh := &share{order: t.seq, rounds: map[string]int64{}, last: t.round - 1}
	t.seq++
	t.shares[ns] = sh
	return sh
}

// index is where the ticket name of round r stands in the share's queue.
func (sh *share) index(r int64, name string) int {
	i := sort.Search(len(sh.tickets), func(i int) bool { return sh.tickets[i].round >= r })
	for i < len(sh.tickets) && sh.tickets[i].name != name {
		i++
	}
	return i
}

// promise records when the holder of key comes back for its slot. A late
// reservation that could not take its slot at once waits in its round again.
func (t *turns) promise(k ticketKey, at time.Time) {
	if l, ok := t.late[k]; ok {
		delete(t.late, k)
		sh, ok := t.shares[k.namespace]
		if !ok {
			sh = t.newShare(k.namespace)
		}
		i := sort.Search(len(sh.tickets), func(i int) bool { return sh.tickets[i].round > l.round })
		sh.tickets = append(sh.tickets, ticket{})
		copy(sh.tickets[i+1:], sh.tickets[i:])
		sh.tickets[i] = ticket{name: k.name, round: l.round, promised: at}
		sh.rounds[k.name] = l.round
		sh.last = max(sh.last, l.round)
		return
	}
	sh, ok := t.shares[k.namespace]
	if !ok {
		return
	}
	if r, ok := sh.rounds[k.name]; ok {
		sh.tickets[sh.index(r, k.name)].promised = at
	}
}

// remove forgets the reservation of key, and returns the round it had and
// when its slot was promised.
func (t *turns) remove(k ticketKey) (int64, time.Time, bool) {
	if l, ok := t.late[k]; ok {
		delete(t.late, k)
		return l.round, l.since, true
	}
	sh, ok := t.shares[k.namespace]
	if !ok {
		return 0, time.Time{}, false
	}
	r, ok := sh.rounds[k.name]
	if !ok {
		return 0, time.Time{}, false
	}
	i := sh.index(r, k.name)
	promised := sh.tickets[i].promised
	sh.tickets = append(sh.tickets[:i], sh.tickets[i+1:]...)
	delete(sh.rounds, k.name)
	return r, promised, true
}

// take gives the reservation of key its slot: it leaves the queue, and the
// round it was in is the one being served. It returns when the slot was
// promised, if it was.
func (t *turns) take(k ticketKey) (time.Time, bool) {
	r, promised, ok := t.remove(k)
	if ok {
		t.round = max(t.round, r)
	}
	return promised, ok
}

// namespaces is how many namespaces have a reservation queued.
func (t *turns) namespaces() int {
	n := 0
	for _, sh := range t.shares {
		if len(sh.tickets) > 0 {
			n++
		}
	}
	return n
}
