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

// Package config runs the controllers of the provider configuration kinds:
// they count the managed resources that use a config and keep a config in use
// from being deleted.
package config

import (
	"context"
	"slices"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/controller"
	xpevent "github.com/crossplane/crossplane-runtime/v2/pkg/event"
	"github.com/crossplane/crossplane-runtime/v2/pkg/ratelimiter"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/providerconfig"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/workqueue"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/kube/kubeclient"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/shard"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/usage"
)

// Setup adds the controllers of ProviderConfig and ClusterProviderConfig. Both
// count the same ProviderConfigUsage kind, told apart by its config kind label.
// With shards (nil: none), each config is reconciled by the replica that
// holds its own key's shard, so that replicas do not write one status
// against each other.
func Setup(mgr ctrl.Manager, o controller.Options, shards *shard.Set) error {
	configs := []struct {
		kind   string
		object client.Object
	}{
		{kind: v1alpha1.ProviderConfigKind, object: &v1alpha1.ProviderConfig{}},
		{kind: v1alpha1.ClusterProviderConfigKind, object: &v1alpha1.ClusterProviderConfig{}},
	}
	// Only the provider's own records of use count, for the users, the
	// deletion's blocking and the credentials Secrets' protection alike.
	records := usage.NewRecords(mgr.GetCache(), mgr.GetAPIReader())
	for _, c := range configs {
		if err := setupOne(mgr, o, c.kind, c.object, shards, records); err != nil {
			return err
		}
	}
	return nil
}

func setupOne(mgr ctrl.Manager, o controller.Options, kind string, of client.Object, shards *shard.Set, records *usage.Records) error {
	name := providerconfig.ControllerName(kind)
	r := providerconfig.NewReconciler(countingManager{Manager: mgr, kube: usage.CountedOnly(mgr.GetClient(), records)},
		resource.ProviderConfigKinds{
			Config:    v1alpha1.SchemeGroupVersion.WithKind(kind),
			Usage:     v1alpha1.ProviderConfigUsageGroupVersionKind,
			UsageList: v1alpha1.ProviderConfigUsageListGroupVersionKind,
		},
		providerconfig.WithLogger(o.Logger.WithValues("controller", name)),
		providerconfig.WithRecorder(xpevent.NewAPIRecorder(mgr.GetEventRecorderFor(name)))) //nolint:staticcheck,nolintlint // crossplane-runtime's event.NewAPIRecorder takes the old events API's recorder; whether staticcheck flags it varies with the analysis

	var rec reconcile.Reconciler = secretProtection{Reconciler: r, kube: usage.CountedOnly(kubeclient.New(mgr), records), live: mgr.GetAPIReader(), kind: kind}
	rec = staleUsages{Reconciler: rec, kube: mgr.GetClient(), kind: kind}
	if kind == v1alpha1.ClusterProviderConfigKind {
		rec = namespacesStatus{Reconciler: rec, kube: mgr.GetClient()}
	}
	if shards != nil {
		rec = servedBy{Reconciler: rec, shards: shards, kind: kind}
	}
	if o.GlobalRateLimiter != nil {
		// The ceiling a user set with --max-reconcile-rate.
		rec = ratelimiter.NewReconciler(name, rec, o.GlobalRateLimiter)
	}
	return ctrl.NewControllerManagedBy(mgr).
		Named(name).
		WithOptions(o.ForControllerRuntime()).
		For(of, builder.WithPredicates(specOrDeletion{})).
		Watches(&v1alpha1.ProviderConfigUsage{}, coalesced{EventHandler: &resource.EnqueueRequestForProviderConfig{Kind: kind}, after: coalesce}).
		Complete(rec)
}

// countingManager is the manager crossplane-runtime's config reconciler
// is made with: its client lists only the usages that count
// (usage.CountedOnly), so that a usage a tenant wrote neither counts as a
// user nor blocks the config's deletion.
type countingManager struct {
	ctrl.Manager
	kube client.Client
}

func (m countingManager) GetClient() client.Client { return m.kube }

// staleUsages deletes the usages labelled for the config that have no
// controller reference, as crossplane-runtime's config reconciler does (a
// restore from a backup leaves them; the tracker records a usage again when
// its resource next connects), before that reconciler runs: it sees only the
// usages that count (countingManager), and a delete it could not make would
// stop it before it counts the users. A delete the RBAC does not grant
// (cluster/rbac/provider-config-usages.yaml) is left: such a usage counts
// for nothing anyway.
type staleUsages struct {
	reconcile.Reconciler
	kube client.Client
	kind string
}

func (s staleUsages) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	l := &v1alpha1.ProviderConfigUsageList{}
	in := []client.ListOption{client.MatchingLabels{xpv2.LabelKeyProviderName: req.Name, xpv2.LabelKeyProviderKind: s.kind}}
	if req.Namespace != "" {
		in = append(in, client.InNamespace(req.Namespace))
	}
	if err := s.kube.List(ctx, l, in...); err == nil {
		for i := range l.Items {
			if u := &l.Items[i]; metav1.GetControllerOf(u) == nil {
				_ = s.kube.Delete(ctx, u)
			}
		}
	}
	return s.Reconciler.Reconcile(ctx, req)
}

// servedBy reconciles a config on the replica that holds its key's shard;
// the others look again a little later, in case the shard comes to them.
type servedBy struct {
	reconcile.Reconciler
	shards *shard.Set
	kind   string
}

// notServedFor is when a config another replica serves is looked at again.
const notServedFor = 10 * time.Second

func (s servedBy) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	done, ok := s.shards.Enter(s.kind + " " + req.String())
	if !ok {
		return reconcile.Result{RequeueAfter: notServedFor}, nil
	}
	defer done()
	return s.Reconciler.Reconcile(ctx, req)
}

// specOrDeletion passes a config's changes that its reconcile acts on: its
// spec (a new generation), its deletion, its finalizers, and the periodic
// resync. Not its status, which the
// reconcile itself writes with each new count of users: during a flood of
// new objects each such write would reconcile the config again at once,
// list its usages, count a few more and write again, as fast as the API
// server answers, for as long as the flood lasts.
type specOrDeletion struct {
	predicate.Funcs
}

func (specOrDeletion) Update(e event.UpdateEvent) bool {
	if e.ObjectOld == nil || e.ObjectNew == nil {
		return true
	}
	return e.ObjectOld.GetResourceVersion() == e.ObjectNew.GetResourceVersion() || // the periodic resync
		e.ObjectOld.GetGeneration() != e.ObjectNew.GetGeneration() ||
		e.ObjectOld.GetDeletionTimestamp().IsZero() != e.ObjectNew.GetDeletionTimestamp().IsZero() ||
		!slices.Equal(e.ObjectOld.GetFinalizers(), e.ObjectNew.GetFinalizers()) // its in-use finalizer taken off
}

// coalesce is how long a config's reconcile waits after a usage of it
// changed, gathering the changes that come meanwhile.
const coalesce = 2 * time.Second

// coalesced enqueues the config of a usage that changed coalesce later,
// once however many of its usages change meanwhile: each reconcile lists
// every usage of the config, so that one per usage of a flood (thousands of
// objects applied at once, each recording its usage) would cost work that
// grows with the square of the flood. The count of users, and the release
// of a config whose last user went, come coalesce later.
type coalesced struct {
	handler.EventHandler
	after time.Duration
}

func (c coalesced) Create(ctx context.Context, e event.CreateEvent, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
	c.EventHandler.Create(ctx, e, delayed{q, c.after})
}

func (c coalesced) Update(ctx context.Context, e event.UpdateEvent, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
	c.EventHandler.Update(ctx, e, delayed{q, c.after})
}

func (c coalesced) Delete(ctx context.Context, e event.DeleteEvent, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
	c.EventHandler.Delete(ctx, e, delayed{q, c.after})
}

func (c coalesced) Generic(ctx context.Context, e event.GenericEvent, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
	c.EventHandler.Generic(ctx, e, delayed{q, c.after})
}

// delayed is a work queue whose Add adds after a while: the queue keeps one
// item however often it is added meanwhile.
type delayed struct {
	workqueue.TypedRateLimitingInterface[reconcile.Request]
	after time.Duration
}

func (d delayed) Add(r reconcile.Request) { d.AddAfter(r, d.after) }
