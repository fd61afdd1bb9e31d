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
// run. Work on a change goes before the periodic polls, and the namespaces
// with work waiting in a budget take turns.
package pace

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/cloudkinds/provider-aws-services/internal/aws/quota"
	"github.com/cloudkinds/provider-aws-services/internal/kube/memory"
	"github.com/cloudkinds/provider-aws-services/internal/metrics"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/conditions"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/relook"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/budget"
)

// minDeferral is the shortest wait worth a requeue: a reconcile whose turn
// is nearer goes now, and its calls wait the rest for their tokens.
const minDeferral = 250 * time.Millisecond

// LongWait is how long a change may wait for its turn before its object
// says so, in an Event.
const LongWait = 30 * time.Second

// ReasonWaitingForTurn is the reason of the Event of an object whose change
// waits long for its turn in the AWS budgets.
const ReasonWaitingForTurn event.Reason = "WaitingForTurn"

// A Gate stands before a kind's reconciler. Every reconcile takes its turn
// in the budgets of the AWS operations it calls first: a reconcile on its
// way (conditions.Moving) ahead of the periodic polls, a poll behind every
// waiting change, and within each the object's namespace taking turns with
// the other namespaces waiting (budget.Budgets.Reserve). When its turn is
// later, it is requeued for it instead of holding a worker, so that a kind
// whose budget is spent waits and no other kind does; when it comes back,
// it asks again, since another namespace's work may have taken the slot it
// was promised. The first look after a create waits until AWS is likely
// done creating (package relook).
type Gate[MR resource.ModernManaged] struct {
	inner reconcile.Reconciler
	GateOptions[MR]

	mu           sync.Mutex
	stretched    bool
	lastDeferred time.Time
}

// ErrNotYet is what Calls answers while where a resource's calls go is not
// known yet, and finding out must not hold a worker: the reconcile comes
// back after notYetFor.
var ErrNotYet = errors.New("where the calls go is not known yet")

// notYetFor is how long a reconcile whose calls' place is not known yet is
// put off.
const notYetFor = 500 * time.Millisecond

// GateOptions describe a kind to its gate.
type GateOptions[MR resource.ModernManaged] struct {
	Kind   string
	Object MR
	Kube   client.Reader
	// Calls returns where a resource's calls go (the Reservation's Scope
	// and Region), its namespace's Weight there, and the AWS operations
	// its next reconcile calls first (Ops): its create when it creates
	// before it looks, its Observe's otherwise; ErrNotYet while that is
	// being found out.
	Calls   func(context.Context, MR) (budget.Reservation, error)
	Budgets *budget.Budgets
	// Behind are the operations whose reserved changes every poll waits
	// behind (budget.Budgets.Reserve): the create of a kind AWS creates
	// asynchronously, each of which needs a look soon after it.
	Behind []quota.Operation
	// Relook times the first look after a create; nil for a kind Ready at
	// create.
	Relook *relook.Schedule
	// Held reports whether the next reconcile of mg makes no AWS call at
	// all: a deletion whose deletion policy holds it (neither retain nor
	// delete: it waits until the policy changes) or lets the AWS resource
	// go (retain). Such a reconcile takes no turn and goes before nothing:
	// it is timed as a failing reconcile is, by the controller's backoff.
	// Nil holds nothing.
	Held func(context.Context, MR) bool
	// Record records the Event of an object whose change waits longer than
	// LongWait for its turn; nil records none.
	Record event.Recorder
	Log    logging.Logger
	Clock  clock.Clock
	// Deferred are the reconciles put off to a later turn.
	Deferred *Deferred
	// Serves reports whether this replica does the work of a key: the
	// Reservation's Scope, or NamespaceKey of a reconcile that calls no
	// account; when it does, done is called once the reconcile is over.
	// Another replica's work of an account is dropped, not requeued: that
	// replica has it queued. Nil serves everything (one replica).
	Serves func(key string) (done func(), ok bool)
	// Elsewhere is told of a reconcile whose account's work another
	// replica does, before it is dropped; nil is told nothing.
	Elsewhere func(ctx context.Context, mg MR, key string)
}

// notServedFor is when a reconcile keyed by its namespace that another
// replica serves comes back: two replicas may key one object apart (one
// built its session, the other could not), and neither may drop it for good.
const notServedFor = 10 * time.Second

// servedKey holds, in a reconcile's context, what it serves (a *served).
type servedKey struct{}

// served is what a reconcile the gate let in serves: the work of an
// account (its Reservation's Scope), and what to call when it is over.
type served struct {
	scope string
	over  []func()
}

// ServedScope is the AWS scope (account at endpoint) whose work the
// reconcile of ctx does, when a replica's share of the work let it in; ""
// otherwise.
func ServedScope(ctx context.Context) string {
	if s, ok := ctx.Value(servedKey{}).(*served); ok {
		return s.scope
	}
	return ""
}

// NamespaceKey is the key Serves is asked for the work of a reconcile
// that calls no AWS account: a deletion held by its policy, an object
// whose config is wrong.
func NamespaceKey(namespace string) string { return namespacePrefix + namespace }

const namespacePrefix = "namespace "

// serves reports whether this replica does the work of key; if it does,
// the work counts as under way until the reconcile of ctx is over.
func (g *Gate[MR]) serves(ctx context.Context, key string) bool {
	if g.Serves == nil {
		return true
	}
	done, ok := g.Serves(key)
	if ok {
		if s, held := ctx.Value(servedKey{}).(*served); held {
			s.over = append(s.over, done)
			if !strings.HasPrefix(key, namespacePrefix) {
				s.scope = key
			}
		} else {
			done()
		}
	}
	return ok
}

// Reconcile lets the reconcile go now, or puts it off to its turn in the
// budgets of its first calls; the work of a shard it let in is over when it
// returns.
func (g *Gate[MR]) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	s := &served{}
	defer func() {
		for _, done := range s.over {
			done()
		}
	}()
	return g.reconcile(context.WithValue(ctx, servedKey{}, s), req)
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
	// r is the reservation, kept in the budgets until the turn is taken.
	r budget.Reservation
	// at is when the reconcile comes back for its turn, and since when it
	// waits.
	at, since time.Time
	// due is true once the turn is taken.
	due bool
	// displaced is true for a poll that yielded its turn to changes once:
	// it does not yield again, so that changes arriving as fast as the
	// budget allows cannot put a poll off for ever.
	displaced bool
	// told is true once an Event said that the object waits long.
	told bool
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

// giveUp forgets name's turn, and gives it back to the budgets if it was
// not taken.
func (d *Deferred) giveUp(b *budget.Budgets, name types.NamespacedName) {
	if t, ok := d.turns.Take(name); ok && !t.due {
		b.Cancel(t.r)
	}
}

// backWithin is how long the polls of a kind must go undeferred before the
// log says they are back within their budget: a kind near its budget has
// some polls deferred and some not, and says so once, not at every poll.
const backWithin = 5 * time.Minute

// reconcile lets a reconcile through, now or at its turn.
func (g *Gate[MR]) reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	now := g.Clock.Now()
	mg := g.Object.DeepCopyObject().(MR) //nolint:forcetypeassert // a copy of its own type
	if err := g.Kube.Get(ctx, req.NamespacedName, mg); err != nil {
		// Gone, or not readable: the reconciler says what to do.
		g.Deferred.giveUp(g.Budgets, req.NamespacedName)
		return g.inner.Reconcile(budget.Urgent(ctx), req)
	}
	if g.Held != nil && g.Held(ctx, mg) {
		// It calls nothing: it reserves nothing, and goes before no one.
		g.Deferred.giveUp(g.Budgets, req.NamespacedName)
		if !g.serves(ctx, NamespaceKey(req.Namespace)) {
			return reconcile.Result{RequeueAfter: notServedFor}, nil
		}
		return g.inner.Reconcile(ctx, req)
	}
	class := budget.Poll
	if conditions.Moving(mg) {
		class = budget.Change
	}
	if t, ok := g.Deferred.turns.Peek(req.NamespacedName); ok {
		switch {
		case t.r.Class == budget.Poll && class == budget.Change:
			// A change came while a poll waited: it goes first.
			g.Deferred.giveUp(g.Budgets, req.NamespacedName)
		case !g.serves(ctx, t.r.Scope):
			// Its account's shard went to another replica meanwhile.
			g.Deferred.giveUp(g.Budgets, req.NamespacedName)
			return reconcile.Result{}, nil
		default:
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
	return g.reserve(ctx, req, mg, class, now)
}

// atTurn handles a reconcile put off before: woken before its turn by
// something that changes nothing to do, it keeps its turn; at its turn it
// asks the budgets again, and goes if its turn has come. A turn another
// namespace's work or a change has taken since is promised anew, later; a
// poll yields so once, and goes at its next.
func (g *Gate[MR]) atTurn(ctx context.Context, req reconcile.Request, mg MR, t turn, now time.Time) (reconcile.Result, error) {
	if t.due {
		// Its turn came, and it was put off once more behind the gate
		// (by a --max-reconcile-rate a user set): it keeps it.
		return g.run(ctx, req)
	}
	if wait := t.at.Sub(now); wait >= minDeferral {
		return reconcile.Result{RequeueAfter: wait}, nil
	}
	var wait time.Duration
	if t.displaced {
		g.Budgets.Take(t.r)
	} else {
		wait = g.Budgets.Reserve(t.r, minDeferral)
	}
	if wait >= minDeferral {
		t.displaced = t.r.Class == budget.Poll
		return g.wait(req, mg, t, now, wait), nil
	}
	return g.taken(ctx, req, t, now)
}

// reserve takes the reconcile's turn in the budgets of its calls, and lets
// it go now or requeues it for its turn.
func (g *Gate[MR]) reserve(ctx context.Context, req reconcile.Request, mg MR, class budget.Class, now time.Time) (reconcile.Result, error) {
	r, err := g.Calls(ctx, mg)
	if errors.Is(err, ErrNotYet) {
		// Where its calls go is being found out (a session built against
		// a slow endpoint, say): it holds no worker meanwhile.
		return reconcile.Result{RequeueAfter: notYetFor}, nil
	}
	if err != nil {
		// The reconciler reports what is wrong with the config.
		if !g.serves(ctx, NamespaceKey(req.Namespace)) {
			return reconcile.Result{RequeueAfter: notServedFor}, nil
		}
		return g.inner.Reconcile(budget.Urgent(ctx), req)
	}
	if !g.serves(ctx, r.Scope) {
		// Another replica holds its account's shard.
		if g.Elsewhere != nil {
			g.Elsewhere(ctx, mg, r.Scope)
		}
		return reconcile.Result{}, nil
	}
	r.Namespace, r.Name, r.Class, r.Behind = req.Namespace, req.Name, class, g.Behind
	ops := r.Ops
	wait := g.Budgets.Reserve(r, minDeferral)
	if wait < minDeferral {
		if class == budget.Poll {
			g.logPacing(false, ops, 0)
		}
		// Its calls hold their slots: they take their tokens first.
		return g.inner.Reconcile(budget.Urgent(ctx), req)
	}
	return g.wait(req, mg, turn{r: r, since: now}, now, wait), nil
}

// wait puts the reconcile off for wait, to its turn.
func (g *Gate[MR]) wait(req reconcile.Request, mg MR, t turn, now time.Time, wait time.Duration) reconcile.Result {
	t.at = now.Add(wait)
	metrics.NamespaceDeferred.WithLabelValues(req.Namespace, t.r.Class.String()).Inc()
	if t.r.Class == budget.Change {
		metrics.DeferredChanges.WithLabelValues(g.Kind).Inc()
		g.sayWaiting(mg, &t)
	} else {
		metrics.DeferredPolls.WithLabelValues(g.Kind).Inc()
		g.logPacing(true, t.r.Ops, wait)
	}
	g.Deferred.turns.PutFor(req.NamespacedName, t, t.at)
	return reconcile.Result{RequeueAfter: wait}
}

// taken lets a reconcile whose turn has come go, keeping the turn until it
// looks at AWS.
func (g *Gate[MR]) taken(ctx context.Context, req reconcile.Request, t turn, now time.Time) (reconcile.Result, error) {
	metrics.NamespaceTurnWait.WithLabelValues(req.Namespace, t.r.Class.String()).Observe(now.Sub(t.since).Seconds())
	t.due = true
	g.Deferred.turns.PutFor(req.NamespacedName, t, t.at)
	return g.run(ctx, req)
}

// run runs a reconcile at its turn.
func (g *Gate[MR]) run(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	res, err := g.inner.Reconcile(budget.Urgent(ctx), req)
	if err == nil && res.IsZero() {
		// Nothing more to do: the object is gone.
		g.Deferred.Polled(req.NamespacedName)
	}
	return res, err
}

// sayWaiting records, once per wait, an Event on an object whose change
// waits longer than LongWait for its turn.
func (g *Gate[MR]) sayWaiting(mg MR, t *turn) {
	waits := t.at.Sub(t.since)
	if g.Record == nil || t.told || waits <= LongWait || len(t.r.Ops) == 0 {
		return
	}
	t.told = true
	op := t.r.Ops[0]
	namespaces, own := g.Budgets.Waiting(t.r.Scope, t.r.Region, op, t.r.Class, mg.GetNamespace())
	g.Record.Event(mg, event.Normal(ReasonWaitingForTurn, fmt.Sprintf(
		"Waits about %s for its turn in the AWS budget of %s in %s: %d changes of this namespace wait there, and %d namespaces take turns in it. "+
			"The provider keeps within AWS's rate quota of each operation, shared by the namespaces that use the account.",
		waits.Round(time.Second), op, t.r.Region, own, namespaces)))
}

// logPacing logs when the kind's polls begin to wait for their budgets, and
// when none has waited for backWithin.
func (g *Gate[MR]) logPacing(deferred bool, ops []quota.Operation, wait time.Duration) {
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
