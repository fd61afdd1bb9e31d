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
	"sync"
	"time"

	"k8s.io/utils/clock"
)

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
