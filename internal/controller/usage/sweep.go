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

	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	ctrlmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"

	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/controller/sweep"
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
	// Claimed reports whether the object of uid, of namespace, holds an
	// ownership claim:
	// only one that did may have left an AWS resource behind, and is
	// reported; the others (deleted before they made anything) are
	// released quietly.
	Claimed func(ctx context.Context, namespace string, uid types.UID) (bool, error)
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
		has := meta.FinalizerExists(u, Finalizer)
		switch {
		case v == Genuine && !has:
			before := u.DeepCopy()
			meta.AddFinalizer(u, Finalizer)
			err := s.Kube.Patch(ctx, u, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{}))
			if client.IgnoreNotFound(err) != nil {
				return err
			}
		case v == NotARecord && has:
			// Not the provider's record, or no longer one (its resource
			// names another config, or its namespace is no longer
			// admitted): the finalizer goes, quietly; a record the
			// tracker still needs it writes again.
			before := u.DeepCopy()
			meta.RemoveFinalizer(u, Finalizer)
			err := s.Kube.Patch(ctx, u, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{}))
			if client.IgnoreNotFound(err) != nil {
				return err
			}
		case v == ResourceGone && has:
			claimed, err := s.Claimed(ctx, u.Namespace, types.UID(u.Name))
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
				continue
			}
			Abandoned.WithLabelValues(kind).Inc()
			s.Record.Event(u, event.Warning(ReasonAbandoned, fmt.Errorf("%s %s/%s went without the provider deleting or keeping its AWS resource (its finalizer was removed): the resource may remain on AWS, and its ownership claim is released", r.Kind, u.Namespace, r.Name)))
		}
	}
	return nil
}
