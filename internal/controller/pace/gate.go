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

// Package pace times the periodic polls of settled resources by AWS's
// quotas: a poll waits for its turn in the budgets of the AWS operations its
// Observe calls, requeued for that turn rather than holding a worker.
package pace

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/cloudkinds/provider-aws-services/internal/clients/budget"
	"github.com/cloudkinds/provider-aws-services/internal/conditions"
	"github.com/cloudkinds/provider-aws-services/internal/controller/memory"
	"github.com/cloudkinds/provider-aws-services/internal/metrics"
)

// minDeferral is the shortest wait worth a requeue: a poll whose turn is
// nearer goes now, and its calls wait the rest for their tokens.
const minDeferral = 250 * time.Millisecond

// A Gate stands before a kind's reconciler. A reconcile that acts on a
// change goes through at once, marked urgent so that its calls go before
// periodic polls. A periodic poll of a settled resource takes the next free
// turn of the budgets of the AWS operations its Observe calls; when that
// turn is later, the poll is requeued for it instead of holding a worker, so
// that a kind whose budget is spent stretches its own polls and no other
// kind's.
type Gate[MR resource.ModernManaged] struct {
	inner reconcile.Reconciler
	GateOptions[MR]

	mu           sync.Mutex
	stretched    bool
	lastDeferred time.Time
}

// GateOptions describe a kind to its gate.
type GateOptions[MR resource.ModernManaged] struct {
	Kind   string
	Object MR
	Kube   client.Reader
	// Calls returns the account and region a resource's Observe calls go
	// to, and the AWS operations it calls.
	Calls   func(context.Context, MR) (account, region string, ops []budget.Operation, err error)
	Budgets *budget.Budgets
	Log     logging.Logger
	Clock   clock.Clock
	// Deferred are the polls put off to a later turn.
	Deferred *Deferred
}

// NewGate returns the gate before inner.
func NewGate[MR resource.ModernManaged](inner reconcile.Reconciler, o GateOptions[MR]) *Gate[MR] {
	if o.Clock == nil {
		o.Clock = clock.RealClock{}
	}
	return &Gate[MR]{inner: inner, GateOptions: o}
}

// Deferred are the polls a gate put off, each to its turn. A turn that has
// come stays until the poll is made (Polled), so that a poll put off once
// more by --max-reconcile-rate after its turn came keeps it instead of
// taking a new one behind every other poll.
type Deferred struct {
	turns *memory.Store[types.NamespacedName, turn]
}

type turn struct {
	at  time.Time
	due bool
}

// NewDeferred returns an empty record of deferred polls.
func NewDeferred(c clock.PassiveClock) *Deferred {
	return &Deferred{turns: memory.NewWithClock[types.NamespacedName, turn](c)}
}

// Polled records that the poll of name was made: its turn is used up.
func (d *Deferred) Polled(name types.NamespacedName) {
	if d == nil {
		return
	}
	d.turns.Drop(name)
}

// backWithin is how long the polls of a kind must go undeferred before the
// log says they are back within their budget: a kind near its budget has
// some polls deferred and some not, and says so once, not at every poll.
const backWithin = 5 * time.Minute

// Reconcile lets a reconcile through, now or at its turn.
func (g *Gate[MR]) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	now := g.Clock.Now()
	wait, deferred := g.turnOf(req.NamespacedName, now)
	if deferred && wait == 0 {
		// The turn this poll was deferred to has come.
		res, err := g.inner.Reconcile(ctx, req)
		if err == nil && res.IsZero() {
			// Nothing more to do: the object is gone.
			g.Deferred.Polled(req.NamespacedName)
		}
		return res, err
	}
	mg := g.Object.DeepCopyObject().(MR) //nolint:forcetypeassert // a copy of its own type
	if err := g.Kube.Get(ctx, req.NamespacedName, mg); err != nil {
		// Gone, or not readable: the reconciler says what to do.
		g.Deferred.Polled(req.NamespacedName)
		return g.inner.Reconcile(budget.Urgent(ctx), req)
	}
	if !conditions.Settled(mg) {
		g.Deferred.Polled(req.NamespacedName)
		return g.inner.Reconcile(budget.Urgent(ctx), req)
	}
	if deferred {
		// Woken before its turn by something that changes nothing to do:
		// its turn stays reserved.
		return reconcile.Result{RequeueAfter: wait}, nil
	}
	account, region, ops, err := g.Calls(ctx, mg)
	if err != nil {
		// The reconciler reports what is wrong with the config.
		return g.inner.Reconcile(ctx, req)
	}
	wait = g.Budgets.Schedule(account, region, ops)
	if wait < minDeferral {
		g.logPacing(false, ops, 0)
		return g.inner.Reconcile(ctx, req)
	}
	g.Deferred.turns.PutFor(req.NamespacedName, turn{at: now.Add(wait)}, now.Add(wait))
	metrics.DeferredPolls.WithLabelValues(g.Kind).Inc()
	g.logPacing(true, ops, wait)
	return reconcile.Result{RequeueAfter: wait}, nil
}

// turnOf reports whether the poll of name was deferred, and how long until
// its turn comes: zero when it has come. A turn that has come is due until
// the poll is made.
func (g *Gate[MR]) turnOf(name types.NamespacedName, now time.Time) (time.Duration, bool) {
	t, ok := g.Deferred.turns.Peek(name)
	if !ok {
		return 0, false
	}
	if wait := t.at.Sub(now); !t.due && wait >= minDeferral {
		return wait, true
	}
	t.due = true
	g.Deferred.turns.PutFor(name, t, t.at)
	return 0, true
}

// logPacing logs when the kind's polls begin to wait for their budgets, and
// when none has waited for backWithin.
func (g *Gate[MR]) logPacing(deferred bool, ops []budget.Operation, wait time.Duration) {
	now := g.Clock.Now()
	g.mu.Lock()
	var changed bool
	switch {
	case deferred:
		g.lastDeferred = now
		changed, g.stretched = !g.stretched, true
	case g.stretched && now.Sub(g.lastDeferred) >= backWithin:
		changed, g.stretched = true, false
	}
	stretched := g.stretched
	g.mu.Unlock()
	if !changed {
		return
	}
	names := make([]string, 0, len(ops))
	for _, op := range ops {
		names = append(names, op.String())
	}
	if stretched {
		g.Log.Info("Periodic polls wait for the AWS budget of their operations: this kind is polled less often than --poll until the budget allows",
			"kind", g.Kind, "operations", strings.Join(names, ","), "wait", wait.Round(time.Second).String())
		return
	}
	g.Log.Info("Periodic polls are back within the AWS budget of their operations", "kind", g.Kind, "operations", strings.Join(names, ","),
		"since", backWithin.String())
}
