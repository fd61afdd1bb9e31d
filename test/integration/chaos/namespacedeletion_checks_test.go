//go:build integration

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

package chaos

import (
	"context"
	"fmt"
	"testing"

	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/ownership"
	"github.com/cloudkinds/provider-aws-services/test/emulator"
)

// whatStays lists what is left in a namespace being deleted that the
// provider has a finalizer on, or makes: the objects, with their
// finalizers and conditions, the config, its usages and the Secrets.
func whatStays(ctx context.Context, kube client.Client, ns string, objects []resource.Managed) []string {
	var out []string
	for _, mg := range objects {
		o := mg.DeepCopyObject().(resource.Managed) //nolint:forcetypeassert // a copy of its own type
		if err := kube.Get(ctx, client.ObjectKeyFromObject(mg), o); err != nil {
			if !kerrors.IsNotFound(err) {
				out = append(out, objectName(mg)+": "+err.Error())
			}
			continue
		}
		out = append(out, fmt.Sprintf("%s: deleted %s, finalizers %v, %s", objectName(mg), deletedAt(o), o.GetFinalizers(), conditionsOf(o)))
	}
	pcs := &v1alpha1.ProviderConfigList{}
	if err := kube.List(ctx, pcs, client.InNamespace(ns)); err != nil {
		out = append(out, "ProviderConfigs: "+err.Error())
	}
	for i := range pcs.Items {
		pc := &pcs.Items[i]
		out = append(out, fmt.Sprintf("ProviderConfig %s: deleted %s, finalizers %v, %d users", pc.Name, deletedAt(pc), pc.Finalizers, pc.Status.Users))
	}
	usages := &v1alpha1.ProviderConfigUsageList{}
	if err := kube.List(ctx, usages, client.InNamespace(ns)); err != nil {
		out = append(out, "ProviderConfigUsages: "+err.Error())
	}
	for i := range usages.Items {
		u := &usages.Items[i]
		out = append(out, fmt.Sprintf("ProviderConfigUsage %s (of %s %s): deleted %s, finalizers %v", u.Name, u.ResourceReference.Kind, u.ResourceReference.Name, deletedAt(u), u.Finalizers))
	}
	secrets := &corev1.SecretList{}
	if err := kube.List(ctx, secrets, client.InNamespace(ns)); err != nil {
		out = append(out, "Secrets: "+err.Error())
	}
	for i := range secrets.Items {
		s := &secrets.Items[i]
		out = append(out, fmt.Sprintf("Secret %s: deleted %s, finalizers %v", s.Name, deletedAt(s), s.Finalizers))
	}
	if len(out) == 0 {
		out = append(out, "none of the provider's objects, config, usages or Secrets")
	}
	return out
}

func deletedAt(o metav1.Object) string {
	if ts := o.GetDeletionTimestamp(); ts != nil {
		return ts.Format("15:04:05")
	}
	return "no"
}

// leftOnAWS lists the objects whose AWS resources AWS still holds.
func leftOnAWS(em *emulator.Server, objects []resource.Managed) []string {
	inv := em.Inventory()
	var out []string
	for _, mg := range objects {
		if n := awsCount(inv, kindOf(mg), mg.GetName()); n > 0 {
			out = append(out, fmt.Sprintf("%d AWS resources of %s", n, objectName(mg)))
		}
	}
	return out
}

// heldClaims lists the ownership claims the objects hold: the claim of an
// object that is gone must be released (deleted) or, had it retained its
// resource, no longer name it as its holder.
func heldClaims(ctx context.Context, t *testing.T, kube client.Client, objects []resource.Managed) []string {
	t.Helper()
	var out []string
	for _, mg := range objects {
		l := &coordinationv1.LeaseList{}
		if err := kube.List(ctx, l, client.InNamespace(claimsNamespace), client.MatchingLabels{ownership.LabelClaim: "true", ownership.LabelHolder: string(mg.GetUID())}); err != nil {
			t.Error(err)
			continue
		}
		for _, c := range l.Items {
			out = append(out, fmt.Sprintf("%s holds %s %v", objectName(mg), c.Name, c.Annotations))
		}
	}
	return out
}
