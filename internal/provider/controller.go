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

// Package provider wires every controller of the provider into a manager.
package provider

import (
	"context"
	"math"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/controller"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/cloudkinds/provider-aws-services/internal/provider/config"
	"github.com/cloudkinds/provider-aws-services/internal/provider/readiness"
	"github.com/cloudkinds/provider-aws-services/internal/provider/safestart"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/ackannotations"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/budget"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/ownership"
)

// DefaultWorkers are the workers of each kind's controller when
// --max-reconcile-rate sets no more: ten reconciles of a kind at once, each
// making its calls and writes, more than AWS's budgets let through.
const DefaultWorkers = 10

// WritesPerCreate are the API server writes one create makes at most: the
// object's four (five for the kinds AWS creates asynchronously), the
// ownership claim and its record that the create made the resource.
const WritesPerCreate = 7

// KubeRate is the rate the Kubernetes client needs: the writes of the
// creates the budgets allow, every kind at once, each kind as many per
// second as its create operation's budget. Settled resources cost no write
// and are read from the cache, so nothing else needs it.
func KubeRate(b *budget.Budgets) (qps float32, burst int) {
	return kubeRate(b, kinds)
}

func kubeRate(b *budget.Budgets, ks []reconciler.Kind) (qps float32, burst int) {
	var creates float64
	for _, k := range ks {
		creates += b.Rate(k.Create)
	}
	perSecond := math.Ceil(creates * WritesPerCreate)
	return float32(perSecond), int(perSecond)
}

// Setup adds every controller of the provider to the manager. All kinds share
// one cache of AWS sessions and the key of the secret fingerprints. With a gate in the options (safe start), each
// kind's controller starts only once its CRD is established, so that a
// package whose kinds are not all active yet still runs.
//
// It adds the readiness check (readyz "controllers", see package readiness):
// ready once the controllers of the configs and of every kind expected are
// set up, their watches synced, and, on the replica that leads, started.
// Without safe start every kind is expected; with it, the kinds whose CRDs
// are established when the provider starts.
func Setup(mgr ctrl.Manager, o controller.Options, shared reconciler.Shared) error {
	ready := readiness.New(mgr.Elected(), o.Logger)
	if err := mgr.AddReadyzCheck("controllers", ready.Ready); err != nil {
		return err
	}
	ready.Expect(configKind)
	if o.Gate == nil {
		for _, k := range kinds {
			ready.Expect(k.GroupVersionKind.Kind)
		}
	}
	err := config.Setup(ready.Manager(mgr, configKind), o, shared.Shards)
	if err == nil {
		// A usage whose namespace is deleted goes as soon as its object
		// has (or never held it), not at the next sweep; ready with the
		// configs' controllers.
		err = reconciler.UsageSweep(mgr, shared.Namespace).SetupDeleted(ready.Manager(mgr, configKind), o)
	}
	ready.SetUp(configKind, err)
	if err != nil {
		return err
	}
	if shared.Sweeps != nil {
		if err := mgr.Add(shared.Sweeps); err != nil {
			return err
		}
	}
	if shared.Sessions != nil {
		// The sessions and budgets of configs, regions and namespaces
		// that are gone, dropped.
		if err := mgr.Add(shared.Sessions); err != nil {
			return err
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if shared.Namespace != "" {
		// Objects made before this are the previous release's, which
		// kept no ownership claims.
		if err := ownership.MarkEra(ctx, mgr.GetClient(), shared.Namespace); err != nil {
			return err
		}
	}
	if shared.NamespacesReadable, err = ackannotations.NamespacesReadable(ctx, mgr.GetClient()); err != nil {
		return err
	}
	if !shared.NamespacesReadable {
		o.Logger.Info("Namespaces' deletion policies are not read: the provider may not get, list and watch namespaces (cluster/rbac/namespaces.yaml grants it). An object's own services.k8s.aws/deletion-policy decides.")
	}
	if o.Gate == nil {
		for _, k := range kinds {
			err := k.Setup(ready.Manager(mgr, k.GroupVersionKind.Kind), o, shared)
			ready.SetUp(k.GroupVersionKind.Kind, err)
			if err != nil {
				return err
			}
		}
		return nil
	}
	if err := mgr.AddHealthzCheck("controllers", ready.Failed); err != nil {
		return err
	}
	gvks := registerGated(mgr, o, shared, ready, kinds)
	return safestart.Setup(mgr, expecting{CRDGate: o.Gate, ready: ready}, o.Logger, gvks...)
}

// expecting is safe start's gate, which tells readiness of a kind as its
// gate opens, before its setup runs (the gate runs it in a goroutine): a
// replica not yet ready waits for it, one ready already stays ready.
type expecting struct {
	safestart.CRDGate
	ready *readiness.Controllers
}

func (g expecting) Set(gvk schema.GroupVersionKind, open bool) bool {
	if open {
		g.ready.Expect(gvk.Kind)
	}
	return g.CRDGate.Set(gvk, open)
}

// configKind names the controllers of ProviderConfig and
// ClusterProviderConfig in the readiness check.
const configKind = "ProviderConfig"

// registerGated sets each kind's controller up once its gate opens. A kind
// whose setup fails then never reconciles: the failure is logged as an error
// and fails the health check (ready.Failed), so that the pod restarts and
// tries again, and `kubectl get pods` and the probe's answer show why.
func registerGated(mgr ctrl.Manager, o controller.Options, shared reconciler.Shared, ready *readiness.Controllers, ks []reconciler.Kind) []schema.GroupVersionKind {
	gvks := make([]schema.GroupVersionKind, 0, len(ks))
	for _, k := range ks {
		o.Gate.Register(func() {
			err := k.Setup(ready.Manager(mgr, k.GroupVersionKind.Kind), o, shared)
			if err != nil {
				mgr.GetLogger().Error(err, "Cannot set up the controller of an established kind: it does not reconcile until the provider restarts", "gvk", k.GroupVersionKind.String())
			}
			ready.SetUp(k.GroupVersionKind.Kind, err)
		}, k.GroupVersionKind)
		gvks = append(gvks, k.GroupVersionKind)
	}
	return gvks
}
