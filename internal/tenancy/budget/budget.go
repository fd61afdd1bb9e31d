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
	"sync"
	"sync/atomic"
	"time"

	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/smithy-go/middleware"
	"k8s.io/utils/clock"

	"github.com/cloudkinds/provider-aws-services/internal/aws/quota"
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
	op              quota.Operation
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
func (b *Budgets) Rate(op quota.Operation) float64 { return b.quotas.Rate(op) }

func (b *Budgets) bucket(account, region string, op quota.Operation) *bucket {
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

// SetRate sets the rate of op's budget in scope and region, in calls per
// second, in place of its share of the quota. The provider does not call
// it: it is for tests that need one budget slow and no other.
func (b *Budgets) SetRate(scope, region string, op quota.Operation, rate float64) {
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
				op := quota.Operation{Service: awsmiddleware.GetServiceID(ctx), Name: awsmiddleware.GetOperationName(ctx)}
				if err := b.Wait(ctx, account, awsmiddleware.GetRegion(ctx), op); err != nil {
					return middleware.FinalizeOutput{}, middleware.Metadata{}, err
				}
				return next.HandleFinalize(ctx, in)
			}), middleware.After)
	}
}
