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
	"strconv"
	"time"

	"github.com/cloudkinds/provider-aws-services/internal/aws/quota"
)

// A Class is how a reserved call ranks: Change before Poll.
type Class int

// The classes of reserved calls.
const (
	// Poll is a periodic look at a settled resource: it takes a slot after
	// every Change waiting.
	Poll Class = iota
	// Change is work on a change: it takes its slot ahead of the polls
	// waiting.
	Change
)

func (c Class) String() string {
	if c == Change {
		return "change"
	}
	return "poll"
}

// A Reservation is the turn of one reconcile in the budgets of the calls it
// makes first.
type Reservation struct {
	// Scope and Region are the account, as budgets know it
	// (awsconfig.Session.Scope), and the region the calls go to.
	Scope, Region string
	// Namespace is the reconciled object's: the namespaces waiting in a
	// budget take turns.
	Namespace string
	// Name is the object's, in its namespace: it keeps its place when it
	// reserves again. Reservations without a name are each one of their
	// own.
	Name string
	// Weight is how many turns a round the namespace has in each budget
	// while others wait too (a ClusterProviderConfig's namespaceShares);
	// less than one is one.
	Weight int
	// Cap is the most of each budget's rate the namespace may use, in
	// (0, 1], even when no other namespace waits; 0 caps nothing.
	Cap float64
	// Ops are the calls the reconcile makes first.
	Ops []quota.Operation
	// Class ranks them: Change before Poll.
	Class Class
	// Behind are operations whose waiting changes a Poll also waits
	// behind: the creates of a kind AWS creates asynchronously, each of
	// which needs a look in the poll's budgets soon after it, which the
	// poll would otherwise take.
	Behind []quota.Operation
}

// Reserve gives r its turn in the budget of each of its operations, and
// returns how long until the last of them comes. A turn less than soon away
// is taken: the reconcile goes now, its calls taking their tokens as they
// come. A later turn is kept for r, and r is to come back for it then: the
// namespaces waiting in a budget take turns, one slot each a round, changes
// before polls, so a turn is not fixed when it is given. It moves back when
// another namespace begins to wait (whose first turn is in the round being
// served), or a change arrives before a poll; Reserve, called again for r,
// returns where it stands now, and takes it if it has come.
func (b *Budgets) Reserve(r Reservation, soon time.Duration) time.Duration {
	now := b.clock.Now()
	k := b.key(r)
	b.sched.Lock()
	defer b.sched.Unlock()
	floor := now
	if r.Class == Poll {
		for _, op := range r.Behind {
			floor = later(floor, b.bucket(r.Scope, r.Region, op).changesUntil(now))
		}
	}
	queue, others := b.budgetsOf(r)
	if queue == nil {
		return 0
	}
	if r.Cap > 0 {
		// A capped namespace waits for its cap before it queues: its
		// work stands in no one's way until the cap lets it go.
		if wait := queue.capNext(r.Namespace, now).Sub(now); wait >= soon {
			queue.turns[r.Class].remove(k)
			return wait
		}
	}
	at := later(floor, queue.turn(now, floor, r.Class, k, max(1, r.Weight)))
	for _, bk := range others {
		at = later(at, later(bk.next, floor))
	}
	wait := at.Sub(now)
	if wait >= soon {
		queue.turns[r.Class].promise(k, at)
		return wait
	}
	queue.claim(now, r.Class, k)
	queue.spendCap(r.Namespace, r.Cap, now)
	for _, bk := range others {
		bk.claim(now, r.Class, k)
	}
	return wait
}

// Take gives r a slot now, whatever waits before it: a reconcile that has
// yielded its turn once goes at its next, so that no stream of changes puts
// it off for ever.
func (b *Budgets) Take(r Reservation) {
	now := b.clock.Now()
	k := b.key(r)
	b.sched.Lock()
	defer b.sched.Unlock()
	queue, others := b.budgetsOf(r)
	if queue == nil {
		return
	}
	queue.claim(now, r.Class, k)
	queue.spendCap(r.Namespace, r.Cap, now)
	for _, bk := range others {
		bk.claim(now, r.Class, k)
	}
}

// budgetsOf returns the budget a reservation takes its turn in (queue), the
// one of its operations whose rate is lowest (the first of those), and the
// budgets of its other operations, whose next free slot it waits for and
// takes when it goes. A reservation queues in one budget only: one queued
// in two could stand before another in one and behind it in the other (their
// namespaces began to wait in a different order in each), and the two would
// wait for each other for ever. queue is nil for a reservation of no
// operation.
func (b *Budgets) budgetsOf(r Reservation) (queue *bucket, others []*bucket) {
	if len(r.Ops) == 0 {
		return nil, nil
	}
	binding := 0
	for i, op := range r.Ops {
		if b.quotas.Rate(op) < b.quotas.Rate(r.Ops[binding]) {
			binding = i
		}
	}
	for i, op := range r.Ops {
		if i == binding {
			queue = b.bucket(r.Scope, r.Region, op)
			continue
		}
		others = append(others, b.bucket(r.Scope, r.Region, op))
	}
	return queue, others
}

// Cancel gives up r's turn: the reconcile will not come for it.
func (b *Budgets) Cancel(r Reservation) {
	if r.Name == "" {
		return
	}
	k := b.key(r)
	b.sched.Lock()
	defer b.sched.Unlock()
	if queue, _ := b.budgetsOf(r); queue != nil {
		queue.turns[r.Class].remove(k)
	}
}

// Waiting returns how many namespaces have a reservation of class waiting in
// the budget of op, in scope and region, and how many reservations of
// namespace wait there.
func (b *Budgets) Waiting(scope, region string, op quota.Operation, class Class, namespace string) (namespaces, ofNamespace int) {
	b.sched.Lock()
	defer b.sched.Unlock()
	t := b.bucket(scope, region, op).turns[class]
	if sh, ok := t.shares[namespace]; ok {
		ofNamespace = len(sh.tickets)
	}
	return t.namespaces(), ofNamespace
}

// key names r's reservations; one without a name is one of its own.
func (b *Budgets) key(r Reservation) ticketKey {
	if r.Name != "" {
		return ticketKey{namespace: r.Namespace, name: r.Name}
	}
	return ticketKey{namespace: r.Namespace, name: "\x00" + strconv.FormatUint(b.anonymous.Add(1), 10)}
}
