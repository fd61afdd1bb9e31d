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
// queue inside it: Reserve gives each one a slot of the operations it calls,
// at their rate, and the caller requeues the reconcile for that slot rather
// than holding a worker, so that an operation whose budget is spent slows
// the kinds that use it and no other. Work on a change (a new, changed or
// deleted resource, one AWS is still creating) takes its slots before the
// periodic polls.
package budget

import (
	"context"
	"slices"
	"sync"
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
	b := &Budgets{quotas: q, clock: clock.RealClock{}, buckets: map[key]*bucket{}}
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
	if !ok {
		rate := b.quotas.Rate(op)
		// A bucket holds at most one second's calls, as AWS's own do, and
		// starts full.
		burst := max(1, rate)
		bk = &bucket{rate: rate, burst: burst, tokens: burst, at: b.clock.Now()}
		b.buckets[k] = bk
		metrics.BudgetRate.WithLabelValues(op.Service, op.Name).Set(rate)
	}
	return bk
}

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
	// Poll is a periodic look at a settled resource: it takes the next slot
	// no other call has, after every reserved Change.
	Poll Class = iota
	// Change is work on a change: it takes the next slot no other Change
	// has, ahead of the polls not yet made.
	Change
)

// Reserve reserves the next free slot of each of ops, the calls one
// reconcile makes, and returns how long until the last of them comes: zero
// if the reconcile can be made now. A Poll's slots are also after every
// change reserved in the budgets of behind: the creates of a kind AWS
// creates asynchronously, each of which needs a look in the poll's budgets
// soon after it, which the poll would otherwise take.
func (b *Budgets) Reserve(account, region string, ops []Operation, class Class, behind ...Operation) time.Duration {
	now := b.clock.Now()
	floor := now
	if class == Poll {
		for _, op := range behind {
			floor = later(floor, b.bucket(account, region, op).changesUntil())
		}
	}
	var wait time.Duration
	for _, op := range ops {
		wait = max(wait, floor.Sub(now)+b.bucket(account, region, op).reserve(floor, class))
	}
	return wait
}

// Displaced reports whether changes have since reserved the slots a poll of
// ops was given: more than one change's call is still to come in one of
// their budgets, or in those of behind (Reserve). Such a poll yields, and
// takes a new slot behind them.
func (b *Budgets) Displaced(account, region string, ops []Operation, behind ...Operation) bool {
	now := b.clock.Now()
	for _, op := range append(slices.Clip(ops), behind...) {
		if b.bucket(account, region, op).displaced(now) {
			return true
		}
	}
	return false
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

// A bucket is the token bucket of one operation in one account and region.
type bucket struct {
	mu            sync.Mutex
	rate, burst   float64
	tokens        float64
	at            time.Time
	urgentWaiting int
	// changeAt is the next free slot for a change, and pollAt for a poll:
	// reservations are spread at the bucket's rate, and a poll's slot is
	// after every change reserved before it.
	changeAt, pollAt time.Time
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

// changesUntil is when the changes reserved so far will have had their
// slots.
func (bk *bucket) changesUntil() time.Time {
	bk.mu.Lock()
	defer bk.mu.Unlock()
	return bk.changeAt
}

// reserve takes the next free slot of class from now on and returns how
// long until it.
func (bk *bucket) reserve(now time.Time, class Class) time.Duration {
	bk.mu.Lock()
	defer bk.mu.Unlock()
	if class == Change {
		slot := later(bk.changeAt, now)
		bk.changeAt = slot.Add(bk.interval())
		return slot.Sub(now)
	}
	slot := later(later(bk.pollAt, bk.changeAt), now)
	bk.pollAt = slot.Add(bk.interval())
	return slot.Sub(now)
}

// displaced reports whether more than one change's slot is still to come.
func (bk *bucket) displaced(now time.Time) bool {
	bk.mu.Lock()
	defer bk.mu.Unlock()
	return bk.changeAt.Sub(now) > bk.interval()
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
