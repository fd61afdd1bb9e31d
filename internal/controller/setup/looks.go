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

package setup

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
	"github.com/cloudkinds/provider-aws-services/internal/metrics"
)

// minDeferral is the shortest wait worth a requeue: a look whose slot is
// nearer goes now, and its calls wait the rest for their tokens.
const minDeferral = 250 * time.Millisecond

// A lookGate stands before a kind's reconciler. A reconcile that acts on a
// change goes through at once, marked urgent so that its calls go before
// periodic looks. A periodic look of a settled resource takes the next free
// slot of the budgets of the AWS operations it calls; when that slot is
// later, the look is requeued for it instead of holding a worker, so that
// a kind whose budget is spent stretches its own polls and no other kind's.
type lookGate[MR resource.ModernManaged] struct {
	inner  reconcile.Reconciler
	kind   string
	object MR
	kube   client.Reader
	// where returns the account and region a resource's calls go to.
	where   func(context.Context, MR) (account, region string, err error)
	looks   func(MR) []budget.Operation
	budgets *budget.Budgets
	log     logging.Logger
	clock   clock.Clock

	slots *lookSlots

	mu           sync.Mutex
	stretched    bool
	lastDeferred time.Time
}

// lookSlots are the slots the gate deferred looks to. A slot that has come
// stays until the look is made (Observe), so that a look put off once more
// by --max-reconcile-rate after its slot came keeps it instead of taking a
// new one behind every other look.
type lookSlots struct {
	mu sync.Mutex
	at map[types.NamespacedName]lookSlot
}

type lookSlot struct {
	at  time.Time
	due bool
}

func newLookSlots() *lookSlots {
	return &lookSlots{at: map[types.NamespacedName]lookSlot{}}
}

// looked records that the look at name was made: its slot is used up.
func (l *lookSlots) looked(name types.NamespacedName) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.at, name)
}

// backWithin is how long the looks of a kind must go undeferred before the
// log says they are back within their budget: a kind near its budget has
// some looks deferred and some not, and says so once, not at every look.
const backWithin = 5 * time.Minute

func (g *lookGate[MR]) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	now := g.clock.Now()
	wait, deferred := g.slot(req.NamespacedName, now)
	if deferred && wait == 0 {
		// The slot this look was deferred to has come.
		res, err := g.inner.Reconcile(ctx, req)
		if err == nil && res.IsZero() {
			// Nothing more to do: the object is gone.
			g.forget(req.NamespacedName)
		}
		return res, err
	}
	mg := g.object.DeepCopyObject().(MR) //nolint:forcetypeassert // a copy of its own type
	if err := g.kube.Get(ctx, req.NamespacedName, mg); err != nil {
		// Gone, or not readable: the reconciler says what to do.
		g.forget(req.NamespacedName)
		return g.inner.Reconcile(budget.Urgent(ctx), req)
	}
	if !conditions.Settled(mg) {
		g.forget(req.NamespacedName)
		return g.inner.Reconcile(budget.Urgent(ctx), req)
	}
	if deferred {
		// Woken before its slot by something that changes nothing to do:
		// its slot stays reserved.
		return reconcile.Result{RequeueAfter: wait}, nil
	}
	account, region, err := g.where(ctx, mg)
	if err != nil {
		// The reconciler reports what is wrong with the config.
		return g.inner.Reconcile(ctx, req)
	}
	ops := g.looks(mg)
	wait = g.budgets.Schedule(account, region, ops)
	if wait < minDeferral {
		g.cross(false, ops, 0)
		return g.inner.Reconcile(ctx, req)
	}
	g.slots.mu.Lock()
	g.slots.at[req.NamespacedName] = lookSlot{at: now.Add(wait)}
	g.slots.mu.Unlock()
	metrics.DeferredLooks.WithLabelValues(g.kind).Inc()
	g.cross(true, ops, wait)
	return reconcile.Result{RequeueAfter: wait}, nil
}

// slot reports whether the look at name was deferred, and how long until
// its slot comes: zero when it has come. A slot that has come is due until
// the look is made.
func (g *lookGate[MR]) slot(name types.NamespacedName, now time.Time) (time.Duration, bool) {
	g.slots.mu.Lock()
	defer g.slots.mu.Unlock()
	s, ok := g.slots.at[name]
	if !ok {
		return 0, false
	}
	if wait := s.at.Sub(now); !s.due && wait >= minDeferral {
		return wait, true
	}
	s.due = true
	g.slots.at[name] = s
	return 0, true
}

// forget drops the slot of a resource whose reconcile acts on a change now,
// or that is gone.
func (g *lookGate[MR]) forget(name types.NamespacedName) {
	g.slots.looked(name)
}

// cross logs when the kind's looks begin to wait for their budgets, and
// when none has waited for backWithin.
func (g *lookGate[MR]) cross(deferred bool, ops []budget.Operation, wait time.Duration) {
	now := g.clock.Now()
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
		g.log.Info("Periodic looks wait for the AWS budget of their operations: this kind is polled less often than --poll until the budget allows",
			"kind", g.kind, "operations", strings.Join(names, ","), "wait", wait.Round(time.Second).String())
		return
	}
	g.log.Info("Periodic looks are back within the AWS budget of their operations", "kind", g.kind, "operations", strings.Join(names, ","),
		"since", backWithin.String())
}
