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
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/internal/kube/intern"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/ownership"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/shard"
)

// CacheOptions are the options of the manager's cache: it caches only what
// the provider owns, so that its memory does not grow with the cluster.
// Managed fields are dropped from every cached object, the strings objects
// repeat are kept once (a managed resource is a fifth smaller), and a cached object's
// metadata (the provider caches only the metadata of Secrets and Namespaces)
// keeps only its name, namespace, UID and resourceVersion: a Secret applied
// with kubectl carries its whole data in an annotation. A Namespace keeps
// its labels too, which a ClusterProviderConfig's spec.namespaces.selector
// matches, and its deletion policies (ACK's annotations); the namespaces are
// cached only once such a selector is used or a managed resource without a
// deletion policy of its own is deleted.
//
// Of Leases it caches only the ownership claims of namespace, the
// provider's own.
func CacheOptions(sync time.Duration, namespace string) cache.Options {
	return cache.Options{SyncPeriod: &sync, DefaultTransform: leanObject, ByObject: map[client.Object]cache.ByObject{
		namespaceMetadata():     {Transform: labelledMetadata},
		&coordinationv1.Lease{}: ownership.CacheOptions(namespace),
	}}
}

// ShardedCache is o with the managed resources' informers of the replica
// that holds shards: they cache only the objects of its shards and those not
// labelled yet (shard.Set.Caching).
func ShardedCache(o cache.Options, scheme *runtime.Scheme, shards *shard.Set) (cache.Options, error) {
	objects := make([]runtime.Object, 0, len(kinds))
	for _, k := range kinds {
		obj, err := scheme.New(k.GroupVersionKind)
		if err != nil {
			return o, err
		}
		objects = append(objects, obj)
	}
	o.NewInformer = shards.Caching(objects...)
	return o, nil
}

// ClientOptions are the options of the manager's client: Secrets are never
// cached, so reading one reads it from the API server. Readers of a Secret
// look at its cached metadata first and read its value only when it changed.
func ClientOptions() client.Options {
	return client.Options{Cache: &client.CacheOptions{DisableFor: []client.Object{&corev1.Secret{}}}}
}

func leanObject(in any) (any, error) {
	if m, ok := in.(*metav1.PartialObjectMetadata); ok {
		// Watches of metadata only need to know which object changed.
		m.Annotations, m.Labels, m.OwnerReferences, m.Finalizers = nil, nil, nil, nil
	}
	return interned(cache.TransformStripManagedFields()(in))
}

// interned shares the strings that the cached objects repeat (intern.Meta).
func interned(in any, err error) (any, error) {
	if o, ok := in.(intern.Internable); ok && err == nil {
		intern.Meta(o)
	}
	return in, err
}
