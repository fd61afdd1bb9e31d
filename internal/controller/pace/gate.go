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

// Package pace times every reconcile by AWS's quotas: a reconcile takes its
// turn in the budgets of the AWS operations it calls, and is requeued for
// that turn rather than holding a worker or being counted as a reconcile
// run. Work on a change goes before the periodic polls.
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
	"github.com/cloudkinds/provider-aws-services/internal/controller/relook"
	"github.com/cloudkinds/provider-aws-services/internal/metrics"
)

// minDeferral is the shortest wait worth a requeue: a reconcile whose turn
// is nearer goes now, and its calls wait the rest for their tokens.
const minDeferral = 250 * time.Millisecond

// A Gate stands before a kind's reconciler. Every reconcile takes the next
// free turn of the budgets of the AWS operations it calls first: a
// reconcile on its way (conditions.Moving) ahead of the periodic polls, a
// poll behind every reserved change. When its turn is later, it is requeued
// for it instead of holding a worker, so that a kind whose budget is spent
// waits and no other kind does. The first look after a create waits until
// AWS is likely done creating (package relook).
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
	// Calls returns the account and region a resource's calls go to, and
	// the AWS operations its next reconcile calls first: its create when
	// it creates before it looks, its Observe's otherwise.
	Calls   func(context.Context, MR) (account, region string, ops []budget.Operation, err error)
	Budgets *budget.Budgets
	// Behind are the operations whose reserved changes every poll waits
	// behind (budget.Budgets.Reserve): the create of a kind AWS creates
	// asynchronously, each of which needs a look soon after it.
	Behind []budget.Operation
	// Relook times the first look after a create; nil for a kind Ready at
	// create.
	Relook *relook.Schedule
	Log    logging.Logger
	Clock  clock.Clock
	// Deferred are the reconciles put off to a later turn.
	Deferred *Deferred
}

// NewGate returns the gate before inner.
func NewGate[MR resource.ModernManaged](inner reconcile.Reconciler, o GateOptions[MR]) *Gate[MR] {
	if o.Clock == nil {
		o.Clock = clock.RealClock{}
	}
	return &Gate[MR]{inner: inner, GateOptions: o}
}

// Deferred are the reconciles a gate put off, each to its turn. A turn that
// has come stays until the reconcile looks at AWS (Polled), so that a
// reconcile put off once more behind the gate (by a --max-reconcile-rate a
// user set) keeps it instead of taking a new one behind every other.
type Deferred struct {
	turns *memory.Store[types.NamespacedName, turn]
}

type turn struct {
	at    time.Time
	due   bool
	class budget.Class
	// displaced is true for a poll that yielded its turn to changes once:
	// it does not yield again, so that changes arriving as fast as the
	// budget allows cannot put a poll off for ever.
	displaced bool
}

// NewDeferred returns an empty record of deferred reconciles.
func NewDeferred(c clock.PassiveClock) *Deferred {
	return &Deferred{turns: memory.NewWithClock[types.NamespacedName, turn](c)}
}

// Polled records that name was looked at: its turn is used up.
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
	mg := g.Object.DeepCopyObject().(MR) //nolint:forcetypeassert // a copy of its own type
	if err := g.Kube.Get(ctx, req.NamespacedName, mg); err != nil {
		// Gone, or not readable: the reconciler says what to do.
		g.Deferred.Polled(req.NamespacedName)
		return g.inner.Reconcile(budget.Urgent(ctx), req)
	}
	class := budget.Poll
	if conditions.Moving(mg) {
		class = budget.Change
	}
	if t, ok := g.Deferred.turns.Peek(req.NamespacedName); ok {
		if t.class == budget.Poll && class == budget.Change {
			// A change came while a poll waited: it goes first.
			g.Deferred.Polled(req.NamespacedName)
		} else {
			return g.atTurn(ctx, req, mg, t, now)
		}
	}
	if class == budget.Change && g.Relook != nil && mg.GetDeletionTimestamp() == nil {
		if at, ok := g.Relook.FirstLook(mg.GetUID()); ok && at.Sub(now) >= minDeferral {
			// AWS is likely still creating it: a look now would only
			// say so, at the cost of a call.
			metrics.DeferredChanges.WithLabelValues(g.Kind).Inc()
			return reconcile.Result{RequeueAfter: at.Sub(now)}, nil
		}
	}
	return g.reserve(ctx, req, mg, class, now, false)
}

// atTurn handles a reconcile put off before: woken before its turn by
// something that changes nothing to do, it keeps its turn; at its turn it
// goes, unless it is a poll whose slots changes have taken since.
func (g *Gate[MR]) atTurn(ctx context.Context, req reconcile.Request, mg MR, t turn, now time.Time) (reconcile.Result, error) {
	if wait := t.at.Sub(now); !t.due && wait >= minDeferral {
		return reconcile.Result{RequeueAfter: wait}, nil
	}
	if t.class == budget.Poll && !t.displaced {
		account, region, ops, err := g.Calls(ctx, mg)
		if err == nil && g.Budgets.Displaced(account, region, ops, g.Behind...) {
			g.Deferred.Polled(req.NamespacedName)
			return g.reserve(ctx, req, mg, t.class, now, true)
		}
	}
	t.due = true
	g.Deferred.turns.PutFor(req.NamespacedName, t, t.at)
	res, err := g.inner.Reconcile(budget.Urgent(ctx), req)
	if err == nil && res.IsZero() {
		// Nothing more to do: the object is gone.
		g.Deferred.Polled(req.NamespacedName)
	}
	return res, err
}

// reserve takes the reconcile's turn in the budgets of its calls, and lets
// it go now or requeues it for its turn; displaced says that it yielded a
// turn before.
func (g *Gate[MR]) reserve(ctx context.Context, req reconcile.Request, mg MR, class budget.Class, now time.Time, displaced bool) (reconcile.Result, error) {
	account, region, ops, err := g.Calls(ctx, mg)
	if err != nil {
		// The reconciler reports what is wrong with the config.
		return g.inner.Reconcile(budget.Urgent(ctx), req)
	}
	wait := g.Budgets.Reserve(account, region, ops, class, g.Behind...)
	if wait < minDeferral {
		if class == budget.Poll {
			g.logPacing(false, ops, 0)
		}
		// Its calls hold their slots: they take their tokens first.
		return g.inner.Reconcile(budget.Urgent(ctx), req)
	}
	g.Deferred.turns.PutFor(req.NamespacedName, turn{at: now.Add(wait), class: class, displaced: displaced}, now.Add(wait))
	if class == budget.Change {
		metrics.DeferredChanges.WithLabelValues(g.Kind).Inc()
		return reconcile.Result{RequeueAfter: wait}, nil
	}
	metrics.DeferredPolls.WithLabelValues(g.Kind).Inc()
	g.logPacing(true, ops, wait)
	return reconcile.Result{RequeueAfter: wait}, nil
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
