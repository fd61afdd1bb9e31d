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

package usage

import (
	"context"
	"fmt"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/controller"
	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	ctrlmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/kube/sweep"
)

// ReasonAbandoned is the reason of the Event that reports a managed resource
// that went without the provider deleting or keeping its AWS resource.
const ReasonAbandoned event.Reason = "ManagedResourceAbandoned"

// Abandoned counts the managed resources that went without the provider
// letting them go (their finalizer removed by someone else), by kind.
var Abandoned = prometheus.NewCounterVec(prometheus.CounterOpts{
	Name: "provider_aws_services_abandoned_resources_total",
	Help: "Managed resources that went without the provider deleting or keeping their AWS resource (someone removed their finalizer): their AWS resource may remain. By kind.",
}, []string{"kind"})

func init() {
	ctrlmetrics.Registry.MustRegister(Abandoned)
}

// A Sweep releases the usages whose managed resource is gone: one whose
// finalizer someone removed goes without Release. Each is reported (an
// Event on the usage, naming the resource, and Abandoned), since its AWS
// resource may remain. It also puts Finalizer on the provider's own records
// (Genuine) that lack it (recorded by a release without it), and takes it
// off a usage that is not one (a tenant may write any usage, finalizers
// included): only the provider's own records count (Records).
type Sweep struct {
	// Kube reads from the cache, and writes.
	Kube client.Client
	// Records tells the provider's own records from the rest; nil reads
	// the managed resources from Kube.
	Records *Records
	Record  event.Recorder
	// Claimed reports whether the managed resource ref, of namespace and
	// uid, holds an ownership claim: only one that did may have left an
	// AWS resource behind, and is reported; the others (deleted before they
	// made anything) are released quietly.
	Claimed func(ctx context.Context, ref xpv2.TypedReference, namespace string, uid types.UID) (bool, error)
}

// Once sweeps the usages once, from the cache.
func (s *Sweep) Once(ctx context.Context) error {
	l := &v1alpha1.ProviderConfigUsageList{}
	if err := s.Kube.List(ctx, l); err != nil {
		return err
	}
	records := s.Records
	if records == nil {
		records = NewRecords(s.Kube, s.Kube)
	}
	pass := records.Pass()
	for i := range l.Items {
		u := &l.Items[i]
		v, err := pass.Check(ctx, u)
		if err != nil {
			return err
		}
		if err := s.one(ctx, u, v); err != nil {
			return err
		}
	}
	return nil
}

// one sweeps one usage, which Check found to be v.
func (s *Sweep) one(ctx context.Context, u *v1alpha1.ProviderConfigUsage, v Verdict) error {
	has := meta.FinalizerExists(u, Finalizer)
	switch {
	case v == Genuine && !has && !meta.WasDeleted(u):
		before := u.DeepCopy()
		meta.AddFinalizer(u, Finalizer)
		err := s.Kube.Patch(ctx, u, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{}))
		return client.IgnoreNotFound(err)
	case v == NotARecord && has:
		// Not the provider's record, or no longer one (its resource
		// names another config, or its namespace is no longer
		// admitted): the finalizer goes, quietly; a record the
		// tracker still needs it writes again.
		before := u.DeepCopy()
		meta.RemoveFinalizer(u, Finalizer)
		err := s.Kube.Patch(ctx, u, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{}))
		return client.IgnoreNotFound(err)
	case v == ResourceGone && has:
		claimed, err := s.Claimed(ctx, u.ResourceReference, u.Namespace, types.UID(u.Name))
		if err != nil {
			return err
		}
		if err := release(ctx, s.Kube, u); err != nil {
			return err
		}
		r := u.ResourceReference
		kind := KindLabel(r)
		sweep.Swept.WithLabelValues("usages", kind).Inc()
		if !claimed {
			return nil
		}
		Abandoned.WithLabelValues(kind).Inc()
		s.Record.Event(u, event.Warning(ReasonAbandoned, fmt.Errorf("%s %s/%s went without the provider deleting or keeping its AWS resource (its finalizer was removed): the resource may remain on AWS, and its ownership claim is released", r.Kind, u.Namespace, r.Name)))
	}
	return nil
}

// Deleted sweeps at once a usage being deleted (its namespace deleted whole,
// say) that holds Finalizer: one whose managed resource is gone, which went
// without releasing it (an object that never created anything has no
// finalizer of its own, and goes at once), or that is no record of the
// provider's, is released now, not at the next sweep, so that its namespace
// goes. The provider's own records of resources that still exist stay until
// their resources let go.
func (s *Sweep) Deleted(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	u := &v1alpha1.ProviderConfigUsage{}
	if err := s.Kube.Get(ctx, req.NamespacedName, u); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	if !meta.WasDeleted(u) || !meta.FinalizerExists(u, Finalizer) {
		return reconcile.Result{}, nil
	}
	records := s.Records
	if records == nil {
		records = NewRecords(s.Kube, s.Kube)
	}
	pass := records.Pass()
	v, err := pass.Check(ctx, u)
	if err != nil {
		return reconcile.Result{}, err
	}
	if v == Genuine {
		// Its object is still there: it releases the usage when its
		// deletion is done, or, if it goes without (it never created
		// anything, and so never held a finalizer), the next look does.
		return reconcile.Result{RequeueAfter: deletedLookAgain}, nil
	}
	return reconcile.Result{}, s.one(ctx, u, v)
}

// deletedLookAgain is how soon a usage being deleted whose object is still
// there is looked at again.
const deletedLookAgain = 3 * time.Second

// beingDeleted passes the events of usages being deleted that hold
// Finalizer: the only ones Deleted acts on.
var beingDeleted = predicate.NewPredicateFuncs(func(o client.Object) bool {
	return meta.WasDeleted(o) && meta.FinalizerExists(o, Finalizer)
})

// SetupDeleted adds the controller that runs Deleted, on the replica that
// leads.
func (s *Sweep) SetupDeleted(mgr ctrl.Manager, o controller.Options) error {
	return ctrl.NewControllerManagedBy(mgr).
		Named("usage-deleted").
		WithOptions(o.ForControllerRuntime()).
		For(&v1alpha1.ProviderConfigUsage{}, builder.WithPredicates(beingDeleted)).
		Complete(reconcile.Func(s.Deleted))
}
