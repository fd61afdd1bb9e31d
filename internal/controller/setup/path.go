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

	"github.com/crossplane/crossplane-runtime/v2/pkg/controller"
	xperrors "github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/feature"
	"github.com/crossplane/crossplane-runtime/v2/pkg/ratelimiter"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	"github.com/crossplane/crossplane-runtime/v2/pkg/statemetrics"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/cloudkinds/provider-aws-services/internal/clients/awsconfig"
	"github.com/cloudkinds/provider-aws-services/internal/clients/tags"
	"github.com/cloudkinds/provider-aws-services/internal/controller/connect"
	"github.com/cloudkinds/provider-aws-services/internal/controller/finalizer"
	"github.com/cloudkinds/provider-aws-services/internal/controller/kubeclient"
	"github.com/cloudkinds/provider-aws-services/internal/controller/managedoptions"
	"github.com/cloudkinds/provider-aws-services/internal/controller/pace"
	"github.com/cloudkinds/provider-aws-services/internal/controller/readyatcreate"
	"github.com/cloudkinds/provider-aws-services/internal/controller/references"
	"github.com/cloudkinds/provider-aws-services/internal/externalname"
	"github.com/cloudkinds/provider-aws-services/internal/metrics"
	"github.com/cloudkinds/provider-aws-services/internal/ownership"
)

// Add adds the controller of kind k to the manager. It is the path a managed
// resource takes from a watch event to AWS, built here in that order:
//
//  1. The watch passes a change of the desired state only (spec, labels, a
//     user's annotations), not the provider's own records.
//  2. pace.Gate: a periodic poll of a settled resource waits for its turn in
//     the AWS budgets of the calls its Observe makes; a change goes at once.
//  3. --max-reconcile-rate (crossplane-runtime's rate limiter), then a count
//     of the reconciles run, then a conflict (the object changed since it
//     was read) requeued without an error.
//  4. crossplane-runtime's managed reconciler, which calls, in its order:
//     a. the initializer: the external name from the kind's name field;
//     b. references.Resolver: the referenced ARNs, in memory only;
//     c. connect.Connector: the provider config admits the namespace, its
//     usage is tracked, and the external client is built on the cached
//     AWS session of the config and region;
//     d. Observe, through the external clients below;
//     e. finalizer.Deferred: the finalizer, written with the create-pending
//     update when a create follows;
//     f. Create, Update or Delete, through the same external clients.
//
// The external clients, outermost first:
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
// (finalizer.ToCreate, readyatcreate.Answers, references.Resolver,
// pace.Deferred), all pruned by the same rule.
func Add[MR resource.ModernManaged](mgr ctrl.Manager, o controller.Options, shared Shared, k Kind[MR]) error {
	name := managed.ControllerName(k.GroupVersionKind.GroupKind().String())
	kube := kubeclient.New(mgr)
	policiesHonoured := o.Features.Enabled(feature.EnableBetaManagementPolicies)
	owners := k.ownership(mgr, o, shared.Namespace)
	if err := mgr.GetFieldIndexer().IndexField(context.Background(), k.Object, ownership.IndexField, owners.Index); err != nil {
		return err
	}

	// 4b. References.
	resolver := references.New(kube)
	// 4c, 4d, 4f. The external clients, innermost last.
	toCreate := finalizer.NewToCreate()
	var deferred *pace.Deferred
	if shared.Budgets != nil && k.ObserveCalls != nil {
		deferred = pace.NewDeferred(clock.RealClock{})
	}
	var answers *readyatcreate.Answers
	if k.ReadyAtCreate {
		answers = readyatcreate.New()
	}
	observations := metrics.NewObservations(k.GroupVersionKind.Kind)
	connector := connect.New(kube, shared.Sessions, k.Region, func(_ MR, s *awsconfig.Session) managed.TypedExternalClient[MR] {
		var own = k.External(Connection{Kube: kube, Session: s, OwnerTags: func(mg resource.Managed) map[string]string {
			return ownership.OwnerTags(k.GroupVersionKind.GroupKind(), mg)
		}})
		if k.ObserveCalls != nil {
			own = declaredObserve[MR]{TypedExternalClient: own, calls: k.ObserveCalls}
		}
		return &observeStep[MR]{
			TypedExternalClient: ownership.Wrap(own, owners, s.AccountID, s.Region),
			observations:        observations, toCreate: toCreate, answers: answers, deferred: deferred,
			references: resolver, policiesHonoured: policiesHonoured,
		}
	})
	// 4a. The initializer.
	initializers := []managed.Initializer{}
	if k.NameField != "" {
		initializers = append(initializers, externalname.FromField(k.NameField, k.Name))
	}
	// 4. crossplane-runtime's managed reconciler.
	var r reconcile.Reconciler = managed.NewReconciler(mgr, resource.ManagedKind(k.GroupVersionKind),
		managedoptions.For(mgr, name, o, shared.polling(),
			managed.WithTypedExternalConnector[MR](connector),
			managed.WithInitializers(initializers...),
			managed.WithReferenceResolver(resolver),
			// 4e.
			managed.WithFinalizer(&finalizer.Deferred{Finalizer: resource.NewAPIFinalizer(kube, managed.FinalizerName),
				ToCreate: toCreate, PoliciesHonoured: policiesHonoured, Claims: owners.Claims}),
			// Every kind can learn what a create it cannot remember made:
			// four by the name the user chose, Subscription by looking
			// its topic up. A provider killed between the create call and
			// the record of its result so never strands a resource.
			managed.WithDeterministicExternalName(true),
		)...)
	// 3. Rate, count, conflicts.
	r = ratelimiter.NewReconciler(name, metrics.CountReconciles(name, xperrors.WithSilentRequeueOnConflict(r)), o.GlobalRateLimiter)
	// 2. The gate.
	if deferred != nil {
		r = pace.NewGate(r, pace.GateOptions[MR]{
			Kind: k.GroupVersionKind.Kind, Object: k.Object, Kube: kube,
			Where: func(ctx context.Context, mg MR) (string, string, error) {
				s, err := shared.Sessions.Session(ctx, mg, k.Region(mg))
				if err != nil {
					return "", "", err
				}
				return s.AccountID, s.Region, nil
			},
			ObserveCalls: k.ObserveCalls, Budgets: shared.Budgets, Log: o.Logger.WithValues("controller", name), Deferred: deferred,
		})
	}
	if m := o.MetricOptions; m != nil && m.MRStateMetrics != nil && k.List != nil {
		if err := mgr.Add(statemetrics.NewMRStateRecorder(kube, o.Logger, m.MRStateMetrics, k.List, m.PollStateMetricInterval)); err != nil {
			return err
		}
	}
	// 1. The watches. Every kind may record the tag keys it manages; the
	// record is no change of the desired state.
	sent := append([]string{tags.AnnotationManagedKeys}, k.SentAnnotations...)
	return managedoptions.Register(mgr, name, o, k.Object, r, sent, k.Watches...)
}

// polling is how the next poll of a resource is timed.
func (s Shared) polling() managedoptions.Polling {
	if s.Polling != nil {
		return *s.Polling
	}
	return managedoptions.DefaultPolling
}
