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

package config

import (
	"context"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
)

// TypeNamespacesLimited is the condition of a ClusterProviderConfig that
// says whether spec.namespaces limits who may use it: an admin reading the
// config sees at once that one without it serves every namespace.
const TypeNamespacesLimited xpv2.ConditionType = "NamespacesLimited"

// Reasons of TypeNamespacesLimited.
const (
	ReasonOpenToEveryNamespace xpv2.ConditionReason = "OpenToEveryNamespace"
	ReasonNamespacesSelected   xpv2.ConditionReason = "NamespacesSelected"
)

// NamespacesCondition is what a ClusterProviderConfig's status says of its
// spec.namespaces.
func NamespacesCondition(pc *v1alpha1.ClusterProviderConfig) xpv2.Condition {
	if pc.Spec.Namespaces == nil {
		return xpv2.Condition{Type: TypeNamespacesLimited, Status: corev1.ConditionFalse, Reason: ReasonOpenToEveryNamespace,
			Message: "spec.namespaces is not set: the managed resources of every namespace may use this config and act in its AWS account"}
	}
	return xpv2.Condition{Type: TypeNamespacesLimited, Status: corev1.ConditionTrue, Reason: ReasonNamespacesSelected,
		Message: "only the namespaces spec.namespaces names or selects may use this config"}
}

// namespacesStatus writes NamespacesCondition on a ClusterProviderConfig's
// status when it changed, after the usage count of the reconciler it wraps.
type namespacesStatus struct {
	reconcile.Reconciler
	kube client.Client
}

func (r namespacesStatus) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	res, err := r.Reconciler.Reconcile(ctx, req)
	if err != nil {
		return res, err
	}
	pc := &v1alpha1.ClusterProviderConfig{}
	if err := r.kube.Get(ctx, req.NamespacedName, pc); err != nil {
		return res, client.IgnoreNotFound(err)
	}
	want := NamespacesCondition(pc)
	if pc.GetCondition(want.Type).Equal(want) {
		return res, nil
	}
	want.LastTransitionTime = metav1.Now()
	pc.SetConditions(want)
	// A conflict with the usage count's own write is retried.
	return res, r.kube.Status().Update(ctx, pc)
}
