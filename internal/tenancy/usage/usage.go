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

// Package usage keeps what a managed resource's deletion needs until the
// deletion is done: the record of its use of a provider config, and so the
// config and the Secrets its credentials read.
//
// When a namespace is deleted, Kubernetes deletes everything in it at once:
// the managed resources (which wait on their finalizers while the provider
// deletes their AWS resources), but also their ProviderConfigUsages, their
// ProviderConfig and its credentials Secret, which would go at once. A
// config's in-use protection (crossplane-runtime's) counts the usages, so
// without this the config and its Secret go before the deletes that need
// them, and the managed resources can never connect again. Here each usage
// carries a finalizer of the provider's (Finalizer), removed only when its
// managed resource lets go (Release) or is gone (the sweep): the usage, and
// through it the config, stays while a deletion needs it, across restarts,
// whatever order the namespace's deletion takes.
package usage

import (
	"context"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
)

// Finalizer keeps a ProviderConfigUsage while its managed resource may
// still need its config.
const Finalizer = "aws.services.k8s.aws/in-use"

const errRelease = "cannot release the use of the provider config"

// NewTracker returns crossplane-runtime's usage tracker, whose usages carry
// Finalizer from their creation.
func NewTracker(kube client.Client) *resource.ProviderConfigUsageTracker {
	of := &v1alpha1.ProviderConfigUsage{}
	of.SetFinalizers([]string{Finalizer})
	return resource.NewProviderConfigUsageTracker(kube, of)
}

// Release lets go of the usage of the managed resource mg (its name is mg's
// UID): its finalizer is removed and the usage deleted, so that the config
// may go once nothing else uses it. A usage already gone is released.
func Release(ctx context.Context, kube client.Client, mg metav1.Object) error {
	u := &v1alpha1.ProviderConfigUsage{}
	if err := kube.Get(ctx, types.NamespacedName{Namespace: mg.GetNamespace(), Name: string(mg.GetUID())}, u); err != nil {
		return errors.Wrap(client.IgnoreNotFound(err), errRelease)
	}
	return errors.Wrap(release(ctx, kube, u), errRelease)
}

func release(ctx context.Context, kube client.Client, u *v1alpha1.ProviderConfigUsage) error {
	if meta.FinalizerExists(u, Finalizer) {
		before := u.DeepCopy()
		meta.RemoveFinalizer(u, Finalizer)
		if err := kube.Patch(ctx, u, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{})); err != nil {
			return client.IgnoreNotFound(err)
		}
	}
	// Without the finalizer the garbage collector deletes the usage once its
	// managed resource (its controller) is gone; deleting it now lets the
	// config go sooner where the provider may (Crossplane's RBAC manager
	// grants no delete on usages: cluster/rbac/provider-config-usages.yaml).
	if err := kube.Delete(ctx, u); err != nil && !kerrors.IsNotFound(err) && !kerrors.IsForbidden(err) {
		return err
	}
	return nil
}
