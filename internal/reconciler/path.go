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

package reconciler

import (
	"context"

	"github.com/crossplane/crossplane-runtime/v2/pkg/controller"
	xperrors "github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
	"github.com/crossplane/crossplane-runtime/v2/pkg/feature"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/ratelimiter"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	"github.com/crossplane/crossplane-runtime/v2/pkg/statemetrics"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/cloudkinds/provider-aws-services/internal/aws/quota"
	"github.com/cloudkinds/provider-aws-services/internal/aws/tags"
	"github.com/cloudkinds/provider-aws-services/internal/kube/kubeclient"
	"github.com/cloudkinds/provider-aws-services/internal/kube/secretkey"
	"github.com/cloudkinds/provider-aws-services/internal/kube/sweep"
	"github.com/cloudkinds/provider-aws-services/internal/metrics"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/ackannotations"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/connect"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/createanswers"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/externalname"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/finalizer"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/managedoptions"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/pace"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/relook"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/resolver"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/awsconfig"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/budget"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/ownership"
)

// Add adds the controller of kind k to the manager. It is the path a managed
// resource takes from a watch event to AWS, and the one description of it:
// every step the code wires carries its number here in a comment, and
// TestThePathIsToldOnceAndWhole fails when a step is wired without one or
// told without its code. In the order a reconcile takes it:
//
//  1. The watch passes a change of the desired state only (spec, labels, a
//     user's annotations), not the provider's own records (1a); a change
//     to a Secret an object reads (Definition.Secrets) reconciles that
//     object (1b); with --shards, the objects of a shard this replica
//     takes up are queued (1c, shards.go).
//  2. pace.Gate: every reconcile waits for its turn in the AWS budgets of
//     the calls it makes first, requeued for it without holding a worker:
//     work on a change (new, changed, deleted, being created) before the
//     periodic polls, the namespaces waiting in a budget taking turns; the
//     first look after a create when AWS is likely done creating. A
//     deletion its deletion policy lets go or holds (4) calls nothing and
//     takes no turn. With --shards, an object of an account another
//     replica serves is not reconciled here, and one whose shard label is
//     wrong is relabelled to its account's shard (2a, shards.go).
//  3. The ceiling of --max-reconcile-rate, if a user sets one
//     (crossplane-runtime's rate limiter), then a count of the reconciles
//     run, then a conflict (the object changed since it was read) requeued
//     without an error.
//  4. ackannotations.Retaining: a deleted object whose deletion policy is
//     retain is let go, its finalizer removed with no call to AWS, as the
//     managed reconciler lets go one whose management policies lack Delete;
//     every other object goes on to crossplane-runtime's managed
//     reconciler, which calls, in its order:
//     a. the initializers: ackannotations warns once of an ACK annotation
//     the provider does not honour, and stops a deletion whose deletion
//     policy is neither retain nor delete; the external name from the
//     kind's name field;
//     b. resolver.Resolver: the referenced ARNs, in memory only;
//     c. connect.Connector: the provider config admits the namespace, its
//     usage is tracked, and the external client is built on the cached
//     AWS session of the config and region;
//     d. Observe, through the external clients below;
//     e. finalizer.Batched: the finalizer, written with the create-pending
//     update when a create follows;
//     f. Create, Update or Delete, through the same external clients; the
//     external name is deterministic: every kind finds what a create it
//     cannot remember made (by name, or a subscription by its topic), so
//     a provider killed between the create and its record strands nothing;
//     g. the status, written only when it changed (changedStatusOnly): a
//     poll of a resource that is up to date writes nothing;
//     h. the next poll, after --poll spread by --poll-jitter, or the
//     object's crossplane.io/poll-interval (managedoptions.Polling).
//  5. Beside the path: the claims whose holder went without releasing them
//     are swept (sweep.Set), and crossplane-runtime's state metrics list
//     the kind.
//
// The external clients of 4d and 4f, outermost first:
//
//   - observeStep: the answer a create gave, instead of an Observe, for the kinds
//     Ready at create; what the Observe found is recorded for the finalizer and
//     the poll metrics, and what the references resolved to is written.
//   - ownership.Client: the object touches only what it owns; before a create
//     it claims the identity.
//   - the kind's own client: the AWS calls. Its Observe is counted against
//     the calls the kind declares (declaredObserve).
//
// What one reconcile keeps for a later one is kept in memory.Store values
// (finalizer.ToCreate, createanswers.Answers, resolver.Resolver,
// pace.Deferred, relook.Schedule), all pruned by the same rule. Two records outlive that
// rule on purpose, each dropped when its object is gone: the time of each
// object's last Observe (metrics.Observations, for the poll interval
// achieved) and the ACK annotations ackannotations warned of (once per
// object).
func Add[MR Object[MR]](mgr ctrl.Manager, o controller.Options, shared Shared, k Definition[MR]) error {
	if k.Secrets != nil && k.List == nil {
		// The Secrets' watch lists the kind to find their readers.
		return xperrors.Errorf("%s reads Secrets (Definition.Secrets) and has no List", k.GroupVersionKind.Kind)
	}
	p, err := newPath(mgr, o, shared, k)
	if err != nil {
		return err
	}
	if err := p.stateMetrics(); err != nil { // 5
		return err
	}
	return p.watch( // 1
		p.gate( // 2
			p.rateLimited( // 3
				p.managedReconciler()))) // 4
}

// path holds what the steps of one kind's path share.
type path[MR Object[MR]] struct {
	mgr              ctrl.Manager
	o                controller.Options
	shared           Shared
	kind             Definition[MR]
	name             string
	kube             client.Client
	policiesHonoured bool
	owners           *ownership.Owners[MR]
	annotations      *ackannotations.Annotations
	finalizer        *finalizer.Batched
	// record records the events of the kind's controller.
	record event.Recorder

	// What a reconcile keeps for a later one.
	resolver *resolver.Resolver
	toCreate *finalizer.ToCreate
	answers  *createanswers.Answers // nil unless the kind is Ready at create
	deferred *pace.Deferred         // nil unless the kind's reconciles are paced
	relook   *relook.Schedule       // nil unless paced and created asynchronously

	observations *metrics.Observations
}

func newPath[MR Object[MR]](mgr ctrl.Manager, o controller.Options, shared Shared, k Definition[MR]) (*path[MR], error) {
	p := &path[MR]{
		mgr: mgr, o: o, shared: shared, kind: k,
		name:             managed.ControllerName(k.GroupVersionKind.GroupKind().String()),
		kube:             kubeclient.New(mgr),
		policiesHonoured: o.Features.Enabled(feature.EnableBetaManagementPolicies),
		owners:           k.ownership(mgr, o, shared.Namespace, shared.Sessions),
		toCreate:         finalizer.NewToCreate(),
		observations:     metrics.NewObservations(k.GroupVersionKind.Kind),
	}
	p.resolver = resolver.New(p.kube)
	p.record = event.NewAPIRecorder(mgr.GetEventRecorderFor(p.name)) //nolint:staticcheck,nolintlint // as managedoptions.For
	p.finalizer = &finalizer.Batched{
		Finalizer: resource.NewAPIFinalizer(p.kube, managed.FinalizerName),
		ToCreate:  p.toCreate, PoliciesHonoured: p.policiesHonoured, Claims: p.owners.Claims, Kube: p.kube,
		Labels: shared.shardLabels(),
	}
	var namespaces client.Reader
	if shared.NamespacesReadable {
		namespaces = p.kube
	}
	p.annotations = ackannotations.New(k.GroupVersionKind.Group, namespaces, p.record)
	if k.ReadyAtCreate {
		p.answers = createanswers.New()
	}
	if shared.Budgets != nil && k.ObserveCalls != nil {
		p.deferred = pace.NewDeferred(clock.RealClock{})
		if !k.ReadyAtCreate {
			p.relook = relook.New(clock.RealClock{})
		}
	}
	// Who asks first for an identity is read from the cache by this index.
	asking, err := ownership.IndexInformer(context.Background(), mgr.GetCache(), k.Object, p.owners.Index)
	if err != nil {
		return nil, err
	}
	p.owners.Asking = asking
	// Claims whose holder went without releasing them are released.
	if shared.Sweeps != nil {
		kind := k.GroupVersionKind.Kind
		shared.Sweeps.Add("the ownership claims of "+kind, func(ctx context.Context) error { // 5
			n, err := p.owners.Claims.Sweep(ctx)
			sweep.Swept.WithLabelValues("claims", kind).Add(float64(n))
			return err
		})
	}
	return p, nil
}

// 1. The watch passes a change of the desired state only. Every kind may
// record the tag keys it manages; that record is no change either.
func (p *path[MR]) watch(r reconcile.Reconciler) error {
	sent := append([]string{tags.AnnotationManagedKeys}, p.kind.SentAnnotations...)
	var watches []managedoptions.Watch
	if p.kind.Secrets != nil {
		watches = append(watches, managedoptions.WatchSecrets(p.mgr.GetClient(), p.o.Logger, p.kind.emptyList(), p.kind.Secrets)) // 1b
	}
	if w := p.shardWatch(); w != nil { // 1c
		watches = append(watches, w)
	}
	return managedoptions.Register(p.mgr, p.name, p.o, p.shared.polling(), p.kind.Object, r, sent, watches...) // 1a
}

// 2. The gate paces every reconcile by the budgets of the calls it makes
// first, when there are budgets to pace them.
func (p *path[MR]) gate(r reconcile.Reconciler) reconcile.Reconciler {
	if p.deferred == nil {
		return r
	}
	return pace.NewGate(r, pace.GateOptions[MR]{
		Kind: p.kind.GroupVersionKind.Kind, Object: p.kind.Object, Kube: p.kube,
		Calls: func(ctx context.Context, mg MR) (budget.Reservation, error) {
			// A session is built off the worker: a tenant's slow or
			// silent endpoint holds none that other namespaces need.
			s, err := p.shared.Sessions.SessionBuilt(ctx, mg, p.kind.Region(mg))
			if xperrors.Is(err, awsconfig.ErrBuilding) {
				return budget.Reservation{}, pace.ErrNotYet
			}
			if err != nil {
				return budget.Reservation{}, err
			}
			share := s.Share(mg.GetNamespace())
			r := budget.Reservation{Scope: s.Scope(), Region: s.Region, Weight: share.Weight, Cap: share.Cap, Ops: p.kind.ObserveCalls(mg, s)}
			if p.kind.CreatesFirst && p.owners.CreatesFirst(ctx, mg, place(s)) {
				r.Ops = []quota.Operation{p.kind.Create}
			}
			return r, nil
		},
		Budgets: p.shared.Budgets, Behind: p.pollsBehind(), Relook: p.relook, Held: p.deletionCallsNothing,
		Record: p.record,
		Log:    p.o.Logger.WithValues("controller", p.name), Deferred: p.deferred,
		Serves: p.shared.serves(), Elsewhere: p.elsewhere(), // 2a
	})
}

// deletionCallsNothing reports whether a reconcile of mg makes no AWS call
// because of its deletion policy (4, 4a): a deletion whose policy is retain
// is let go, one whose policy decides nothing waits until it does. Neither
// takes a turn in the budgets.
func (p *path[MR]) deletionCallsNothing(ctx context.Context, mg MR) bool {
	if !meta.WasDeleted(mg) {
		return false
	}
	d, err := p.annotations.Decide(ctx, mg)
	return err != nil || d.Retain
}

// pollsBehind are the operations whose queued changes the kind's polls wait
// behind: its create, when AWS creates its resources asynchronously, since
// every create needs a look in the budgets the polls use soon after it. A
// backlog of new objects is then Ready as fast as the budgets allow, and the
// polls of those already Ready come after it.
func (p *path[MR]) pollsBehind() []quota.Operation {
	if !p.kind.CreatesFirst || p.kind.ReadyAtCreate {
		return nil
	}
	return []quota.Operation{p.kind.Create}
}

// 3. The ceiling of --max-reconcile-rate, when a user sets one, the count
// of reconciles run, and a conflict requeued without an error.
func (p *path[MR]) rateLimited(r reconcile.Reconciler) reconcile.Reconciler {
	r = metrics.CountReconciles(p.name, xperrors.WithSilentRequeueOnConflict(r))
	if p.o.GlobalRateLimiter == nil {
		return r
	}
	return ratelimiter.NewReconciler(p.name, r, p.o.GlobalRateLimiter)
}

// 4. A deleted object whose deletion policy is retain is let go; the others
// go to crossplane-runtime's managed reconciler, with the provider's steps.
func (p *path[MR]) managedReconciler() reconcile.Reconciler {
	initializers := []managed.Initializer{p.annotations} // 4a
	if p.kind.NameField != "" {
		initializers = append(initializers, externalname.FromField(p.kind.NameField, p.kind.Name)) // 4a
	}
	r := managed.NewReconciler(changedStatusOnly{p.mgr}, resource.ManagedKind(p.kind.GroupVersionKind), // 4g
		managedoptions.For(p.mgr, p.name, p.o, p.shared.polling(), // 4h
			managed.WithInitializers(initializers...), // 4a
			managed.WithReferenceResolver(p.resolver), // 4b
			managed.WithTypedExternalConnector[MR](connect.New(p.kube, p.shared.Sessions, p.kind.Region, p.external)), // 4c
			managed.WithFinalizer(p.finalizer),          // 4e
			managed.WithDeterministicExternalName(true), // 4f
		)...)
	return ackannotations.Retaining(p.annotations, r, ackannotations.RetainingOptions[MR]{ // 4
		New: p.kind.newObject, Kube: p.kube, Finalizer: p.finalizer.Retaining(),
		Released: func(mg MR) { p.observations.Forget(mg.GetUID()) },
	})
}

// changedStatusOnly is the manager as crossplane-runtime's managed
// reconciler sees it: its client sends no status update that would change
// nothing, as the one after each poll of a resource that is up to date.
type changedStatusOnly struct{ ctrl.Manager }

func (m changedStatusOnly) GetClient() client.Client {
	return kubeclient.StatusWrittenWhenChanged(m.Manager.GetClient(), m.GetCache())
}

// external builds the external clients of a session, outermost first.
func (p *path[MR]) external(_ MR, s *awsconfig.Session) managed.TypedExternalClient[MR] {
	return &observeStep[MR]{ // 4d, 4f
		TypedExternalClient: ownership.Wrap(p.kindClient(s), p.owners, place(s)),
		observations:        p.observations, toCreate: p.toCreate, answers: p.answers, deferred: p.deferred, relook: p.relook, scope: s.Scope(),
		references: p.resolver, policiesHonoured: p.policiesHonoured,
	}
}

// place is where a session's calls go, as ownership tells identities apart.
func place(s *awsconfig.Session) ownership.Place {
	return ownership.Place{Endpoint: s.Endpoint, Account: s.AccountID, Region: s.Region, Config: s.ProviderConfig}
}

// kindClient is the kind's own client, its Observe counted against the
// calls the kind declares.
func (p *path[MR]) kindClient(s *awsconfig.Session) ownership.ExternalClient[MR] {
	gk := p.kind.GroupVersionKind.GroupKind()
	c := p.kind.External(Connection{Kube: p.kube, Session: s, Secrets: secretkey.NewReader(p.kube, p.shared.Fingerprints), OwnerTags: func(mg resource.Managed) map[string]string {
		return ownership.OwnerTags(gk, mg)
	}, Left: p.left, HoldsClaim: func(ctx context.Context, mg resource.Managed) bool {
		typed, ok := mg.(MR)
		return ok && p.owners.HoldsCreateClaim(ctx, typed, place(s))
	}})
	if p.kind.ObserveCalls == nil {
		return c
	}
	return declaredObserve[MR]{ExternalClient: c, calls: func(mg MR) []quota.Operation { return p.kind.ObserveCalls(mg, s) }}
}

// left tells what mg's deletion left on AWS: a Warning Event on mg, which
// outlives it, and a count of the kind.
func (p *path[MR]) left(mg resource.Managed, what string) {
	metrics.LeftOnAWS.WithLabelValues(p.kind.GroupVersionKind.Kind).Inc()
	p.record.Event(mg, event.Warning(ReasonLeftOnAWS, xperrors.New(what)))
}

// stateMetrics adds crossplane-runtime's state metrics of the kind.
func (p *path[MR]) stateMetrics() error {
	m := p.o.MetricOptions
	if m == nil || m.MRStateMetrics == nil || p.kind.List == nil {
		return nil
	}
	// The recorder lists the whole kind into the list it is given, every
	// interval: a list of its own, never the kind's template, which others
	// copy. It reads conditions only, so the cache's objects serve it uncopied.
	own, ok := p.kind.emptyList().(resource.ManagedList)
	if !ok {
		return nil
	}
	return p.mgr.Add(statemetrics.NewMRStateRecorder(kubeclient.ListsWithoutCopies(p.mgr.GetClient()), p.o.Logger, m.MRStateMetrics, own, m.PollStateMetricInterval))
}

// polling is how the next poll of a resource is timed.
func (s Shared) polling() managedoptions.Polling {
	if s.Polling != nil {
		return *s.Polling
	}
	return managedoptions.DefaultPolling
}
