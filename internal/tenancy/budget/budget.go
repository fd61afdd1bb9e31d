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

// Package budget keeps the provider's AWS calls within a share of AWS's
// per-operation rate quotas. Each account, region and operation has a token
// bucket; every SDK call takes a token before it is sent. Reconciles do not
// queue inside it: Reserve gives each one a turn in the budgets of the
// operations it calls, at their rate, and the caller requeues the reconcile
// for that turn rather than holding a worker, so that an operation whose
// budget is spent slows the kinds that use it and no other. Work on a change
// (a new, changed or deleted resource, one AWS is still creating) takes its
// turns before the periodic polls, and within each, the namespaces waiting
// in a budget take turns, so that one team's flood delays another team's
// work by a few slots, not by the flood.
package budget

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/smithy-go/middleware"
	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"k8s.io/utils/clock"

	"github.com/cloudkinds/provider-aws-services/internal/metrics"
)

// Budgets are the token buckets of every account, region and operation the
// provider calls.
type Budgets struct {
	quotas Quotas
	clock  clock.WithTicker

	mu      sync.Mutex
	buckets map[key]*bucket
	// places are the accounts and regions served, each with quotas of its
	// own; placeCount counts them for readers that take no lock.
	places     map[[2]string]struct{}
	placeCount atomic.Int64

	// sched guards the turns of every bucket; anonymous numbers the
	// reservations without a name.
	sched     sync.Mutex
	anonymous atomic.Uint64
}

type key struct {
	account, region string
	op              Operation
}

// An Option configures Budgets.
type Option func(*Budgets)

// WithClock replaces the real clock, for tests.
func WithClock(c clock.WithTicker) Option { return func(b *Budgets) { b.clock = c } }

// New returns the budgets of quotas.
func New(q Quotas, o ...Option) *Budgets {
	b := &Budgets{quotas: q, clock: clock.RealClock{}, buckets: map[key]*bucket{}, places: map[[2]string]struct{}{}}
	for _, fn := range o {
		fn(b)
	}
	return b
}

// Rate returns the calls per second the provider allows itself for op.
func (b *Budgets) Rate(op Operation) float64 { return b.quotas.Rate(op) }

func (b *Budgets) bucket(account, region string, op Operation) *bucket {
	k := key{account: account, region: region, op: op}
	b.mu.Lock()
	defer b.mu.Unlock()
	bk, ok := b.buckets[k]
	defer func() { bk.used = b.clock.Now() }()
	if !ok {
		rate := b.quotas.Rate(op)
		// A bucket holds at most one second's calls, as AWS's own do, and
		// starts full.
		burst := max(1, rate)
		bk = &bucket{rate: rate, burst: burst, tokens: burst, at: b.clock.Now(), turns: [2]*turns{newTurns(), newTurns()}, capped: map[string]time.Time{}}
		b.buckets[k] = bk
		metrics.BudgetRate.WithLabelValues(op.Service, op.Name).Set(rate)
		if _, ok := b.places[[2]string{account, region}]; !ok {
			b.places[[2]string{account, region}] = struct{}{}
			b.placeCount.Add(1)
		}
	}
	return bk
}

// Prune drops the buckets no call asked for in idle, with nobody waiting
// for a slot: refilled, such a bucket is what a new one would be. The
// accounts (at their endpoints) and regions of the calls that stopped go
// with them, whoever's configs made them.
func (b *Budgets) Prune(idle time.Duration) {
	b.sched.Lock()
	defer b.sched.Unlock()
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.clock.Now()
	for k, bk := range b.buckets {
		bk.mu.Lock()
		waiting := bk.urgentWaiting > 0
		bk.mu.Unlock()
		if waiting || now.Sub(bk.used) < idle || bk.turns[Poll].queued() > 0 || bk.turns[Change].queued() > 0 {
			continue
		}
		delete(b.buckets, k)
	}
	clear(b.places)
	for k := range b.buckets {
		b.places[[2]string{k.account, k.region}] = struct{}{}
	}
	b.placeCount.Store(int64(len(b.places)))
}

// Places counts the accounts (at their endpoints) and regions the budgets
// serve, those Prune dropped aside: each has AWS quotas of its own.
func (b *Budgets) Places() int { return int(b.placeCount.Load()) }

// urgentKey marks a context whose calls go before periodic polls.
type urgentKey struct{}

// Urgent marks ctx as the context of a reconcile whose calls go before those
// of periodic polls not yet given their slot: one that acts on a change, or
// one whose reserved slot has come. Writes always go first.
func Urgent(ctx context.Context) context.Context {
	return context.WithValue(ctx, urgentKey{}, true)
}

// IsUrgent reports whether ctx was marked Urgent.
func IsUrgent(ctx context.Context) bool {
	v, _ := ctx.Value(urgentKey{}).(bool)
	return v
}

// Wait takes a token of op's budget in account and region, waiting until
// there is one or ctx ends. Writes and urgent calls wait before the others.
func (b *Budgets) Wait(ctx context.Context, account, region string, op Operation) error {
	bk := b.bucket(account, region, op)
	urgent := op.Write() || IsUrgent(ctx)
	start := b.clock.Now()
	err := bk.wait(ctx, b.clock, urgent)
	if waited := b.clock.Since(start); waited > 0 {
		metrics.BudgetWait.WithLabelValues(op.Service, op.Name).Add(waited.Seconds())
	}
	if err != nil {
		return errors.Wrapf(err, "gave up waiting for the budget of %s", op)
	}
	metrics.BudgetCalls.WithLabelValues(op.Service, op.Name).Inc()
	return nil
}

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
	Ops []Operation
	// Class ranks them: Change before Poll.
	Class Class
	// Behind are operations whose waiting changes a Poll also waits
	// behind: the creates of a kind AWS creates asynchronously, each of
	// which needs a look in the poll's budgets soon after it, which the
	// poll would otherwise take.
	Behind []Operation
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
func (b *Budgets) Waiting(scope, region string, op Operation, class Class, namespace string) (namespaces, ofNamespace int) {
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

// SetRate sets the rate of op's budget in scope and region, in calls per
// second, in place of its share of the quota. The provider does not call
// it: it is for tests that need one budget slow and no other.
func (b *Budgets) SetRate(scope, region string, op Operation, rate float64) {
	bk := b.bucket(scope, region, op)
	b.sched.Lock()
	defer b.sched.Unlock()
	bk.mu.Lock()
	defer bk.mu.Unlock()
	bk.rate, bk.burst = rate, max(1, rate)
	bk.tokens = min(bk.tokens, bk.burst)
}

// Middleware returns the SDK option that makes every call of a session
// with account take a token of its operation's budget before it is sent.
// It sits inside the retry loop: AWS counts each attempt against the quota.
func (b *Budgets) Middleware(account string) func(*middleware.Stack) error {
	return func(stack *middleware.Stack) error {
		return stack.Finalize.Add(middleware.FinalizeMiddlewareFunc("AWSQuotaBudget",
			func(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
				op := Operation{Service: awsmiddleware.GetServiceID(ctx), Name: awsmiddleware.GetOperationName(ctx)}
				if err := b.Wait(ctx, account, awsmiddleware.GetRegion(ctx), op); err != nil {
					return middleware.FinalizeOutput{}, middleware.Metadata{}, err
				}
				return next.HandleFinalize(ctx, in)
			}), middleware.After)
	}
}

// A bucket is the token bucket of one operation in one account and region,
// and the turns of the reconciles waiting for its slots.
type bucket struct {
	mu            sync.Mutex
	rate, burst   float64
	tokens        float64
	at            time.Time
	urgentWaiting int

	// Guarded by Budgets.sched: next is the next slot no reconcile has
	// taken (one is taken an interval after the last), and turns are the
	// reconciles waiting for theirs, per class.
	next  time.Time
	turns [2]*turns
	// capped is, for each namespace with a cap, its next slot under it.
	capped map[string]time.Time
	// used is when a call last asked for the bucket; guarded by
	// Budgets.mu.
	used time.Time
}

// interval is the time one call uses of the rate.
func (bk *bucket) interval() time.Duration {
	return time.Duration(float64(time.Second) / bk.rate)
}

func (bk *bucket) refill(now time.Time) {
	if now.After(bk.at) {
		bk.tokens = min(bk.burst, bk.tokens+now.Sub(bk.at).Seconds()*bk.rate)
		bk.at = now
	}
}

// take takes a token if there is one for a caller of that urgency, and
// otherwise says how long to wait before trying again.
func (bk *bucket) take(now time.Time, urgent bool) time.Duration {
	bk.mu.Lock()
	defer bk.mu.Unlock()
	bk.refill(now)
	if !urgent && bk.urgentWaiting > 0 {
		return bk.interval()
	}
	if bk.tokens >= 1 {
		bk.tokens--
		return 0
	}
	return time.Duration((1 - bk.tokens) / bk.rate * float64(time.Second))
}

func (bk *bucket) wait(ctx context.Context, c clock.Clock, urgent bool) error {
	if urgent {
		bk.mu.Lock()
		bk.urgentWaiting++
		bk.mu.Unlock()
		defer func() {
			bk.mu.Lock()
			bk.urgentWaiting--
			bk.mu.Unlock()
		}()
	}
	for {
		d := bk.take(c.Now(), urgent)
		if d <= 0 {
			return nil
		}
		t := c.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C():
		}
	}
}

// lateBy is how late a reconcile may come back for its slot and still have
// it: what a busy work queue makes it, and well within a bucket's burst.
const lateBy = 250 * time.Millisecond

// The following are called with Budgets.sched held.

// slot is the bucket's interval, read under its lock (SetRate changes the
// rate).
func (bk *bucket) slot() time.Duration {
	bk.mu.Lock()
	defer bk.mu.Unlock()
	return bk.interval()
}

// turn is the slot of the reservation k of class: after the slots of those
// before it, from the next slot not taken or from floor, the later.
func (bk *bucket) turn(now, floor time.Time, class Class, k ticketKey, weight int) time.Time {
	before := bk.turns[class].position(k, weight, now)
	if class == Poll {
		bk.turns[Change].expire(now)
		before += bk.turns[Change].queued()
	}
	return later(bk.next, floor).Add(time.Duration(before) * bk.slot())
}

// claim gives the reservation k of class the next slot not taken.
// A reconcile that comes back a little after its slot still has it, unless
// another took it: its token is still in the bucket.
func (bk *bucket) claim(now time.Time, class Class, k ticketKey) {
	from := now
	if promised, ok := bk.turns[class].take(k); ok && promised.Before(now) {
		from = later(promised, now.Add(-lateBy))
	}
	bk.next = later(bk.next, from).Add(bk.slot())
}

// capNext is when namespace may take its next slot under its cap.
func (bk *bucket) capNext(namespace string, now time.Time) time.Time {
	if next, ok := bk.capped[namespace]; ok {
		return next
	}
	return now
}

// spendCap moves a capped namespace's next slot one slot of its capped
// rate on, and forgets the namespaces whose cap has long let them go.
func (bk *bucket) spendCap(namespace string, capped float64, now time.Time) {
	if capped <= 0 {
		return
	}
	for ns, next := range bk.capped {
		if now.Sub(next) > time.Minute {
			delete(bk.capped, ns)
		}
	}
	step := time.Duration(float64(bk.slot()) / min(capped, 1))
	bk.capped[namespace] = later(bk.capNext(namespace, now), now).Add(step)
}

// changesUntil is when the changes waiting will have had their slots.
func (bk *bucket) changesUntil(now time.Time) time.Time {
	bk.turns[Change].expire(now)
	return later(bk.next, now).Add(time.Duration(bk.turns[Change].queued()) * bk.slot())
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
