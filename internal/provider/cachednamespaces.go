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

package provider

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/cache"

	"github.com/cloudkinds/provider-aws-services/internal/reconciler/ackannotations"
)

// namespaceMetadata is an empty Namespace read as metadata only: the cache
// holds Namespaces so, with nothing but their names, labels and deletion
// policies. A ClusterProviderConfig's spec.namespaces.selector matches the
// labels (internal/tenancy/awsconfig reads them); the deletion of a managed
// resource that has no deletion policy of its own reads its namespace's
// (internal/reconciler/ackannotations). Nothing reads a Namespace before
// either, so a provider that needs neither never lists them.
func namespaceMetadata() *metav1.PartialObjectMetadata {
	return &metav1.PartialObjectMetadata{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Namespace"}}
}

// labelledMetadata is leanObject that keeps the labels and the deletion
// policies (ackannotations.NamespaceKeeps), and no other annotation: a
// Namespace applied with kubectl carries its whole manifest in one.
func labelledMetadata(in any) (any, error) {
	if m, ok := in.(*metav1.PartialObjectMetadata); ok {
		var kept map[string]string
		for k, v := range m.Annotations {
			if ackannotations.NamespaceKeeps(k) {
				if kept == nil {
					kept = map[string]string{}
				}
				kept[k] = v
			}
		}
		m.Annotations, m.OwnerReferences, m.Finalizers = kept, nil, nil
	}
	return interned(cache.TransformStripManagedFields()(in))
}
