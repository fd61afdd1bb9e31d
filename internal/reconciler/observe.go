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

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/cloudkinds/provider-aws-services/internal/aws/awserrors"
	"github.com/cloudkinds/provider-aws-services/internal/aws/quota"
	"github.com/cloudkinds/provider-aws-services/internal/metrics"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/connect"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/createanswers"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/finalizer"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/pace"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/relook"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/resolver"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/ownership"
)

// observeStep is the outermost external client. For the kinds Ready at
// create it takes the Observe after a create from the create's answer; it
// records every Observe, for the finalizer, the poll metrics and the gate; and
// it writes what the references resolved to once the Observe says whether a
// create follows.
type observeStep[MR resource.Managed] struct {
	managed.TypedExternalClient[MR]
	observations *metrics.Observations
	toCreate     *finalizer.ToCreate
	answers      *createanswers.Answers // nil unless the kind is Ready at create
	deferred     *pace.Deferred         // nil unless the kind's polls are paced
	relook       *relook.Schedule       // nil unless the first look after a create is timed
	scope        string                 // the session's Scope: whose creates teach the relook schedule
	references   *resolver.Resolver
	// policiesHonoured is true when spec.managementPolicies are honoured.
	policiesHonoured bool
}

func (o *observeStep[MR]) Create(ctx context.Context, mg MR) (managed.ExternalCreation, error) {
	c, err := o.TypedExternalClient.Create(ctx, mg)
	if err != nil {
		return c, err
	}
	if o.answers != nil {
		o.answers.Remember(mg, c.ConnectionDetails)
	}
	o.relook.Created(mg.GetUID(), o.scope)
	return c, nil
}

// Delete deletes the resource; one AWS refuses (credentials revoked, a role
// gone) says how to let the object go.
func (o *observeStep[MR]) Delete(ctx context.Context, mg MR) (managed.ExternalDelete, error) {
	d, err := o.TypedExternalClient.Delete(ctx, mg)
	if c := awserrors.Classify(err); c == awserrors.AccessDenied || c == awserrors.Terminal {
		return d, errors.Wrap(err, connect.WayOut)
	}
	return d, err
}

func (o *observeStep[MR]) Observe(ctx context.Context, mg MR) (managed.ExternalObservation, error) {
	// The create's answer stands for an Observe only if the references still
	// resolve to what the create sent.
	if o.answers != nil && !o.references.ResolvedAnew(mg.GetUID()) {
		if details, ok := o.answers.Restore(mg); ok {
			mg.SetConditions(xpv2.Available())
			obs := managed.ExternalObservation{ResourceExists: true, ResourceUpToDate: true, ConnectionDetails: details}
			o.toCreate.Observed(mg, obs, nil)
			return obs, nil
		}
	}
	o.observations.Observed(mg.GetUID())
	o.deferred.Polled(types.NamespacedName{Namespace: mg.GetNamespace(), Name: mg.GetName()})
	obs, err := o.TypedExternalClient.Observe(ctx, mg)
	o.toCreate.Observed(mg, obs, err)
	if err != nil {
		o.references.Forget(mg.GetUID())
		return obs, err
	}
	if obs.ResourceExists {
		o.relook.Looked(mg.GetUID(), finding(mg))
	}
	if !obs.ResourceExists && meta.WasDeleted(mg) {
		o.observations.Forget(mg.GetUID())
	}
	creates := !obs.ResourceExists && !meta.WasDeleted(mg) && ownership.MayCreate(mg, o.policiesHonoured)
	return obs, o.references.WriteResolved(ctx, mg, creates)
}

// finding is what an Observe found of a resource, for the first look after
// its create.
func finding(mg resource.Managed) relook.Finding {
	ready := mg.GetCondition(xpv2.TypeReady)
	switch {
	case ready.Reason == xpv2.ReasonCreating:
		return relook.StillCreating
	case ready.Status == corev1.ConditionTrue:
		return relook.Created
	}
	return relook.Other
}

// declaredObserve is the innermost external client: the kind's own, whose
// Observe calls are counted against what the kind declares (ObserveCalls).
// Ownership's own calls, made outside it, are not the kind's polls. What the
// kind's Observe found passes through it (LastObserved, promoted).
type declaredObserve[MR resource.Managed] struct {
	ownership.ExternalClient[MR]
	calls func(MR) []quota.Operation
}

func (d declaredObserve[MR]) Observe(ctx context.Context, mg MR) (managed.ExternalObservation, error) {
	ops := d.calls(mg)
	names := make([]string, 0, len(ops))
	for _, op := range ops {
		names = append(names, op.String())
	}
	return d.ExternalClient.Observe(metrics.DeclareObserveCalls(ctx, names), mg)
}
