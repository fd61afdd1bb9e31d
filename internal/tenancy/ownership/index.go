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

package ownership

import (
	"context"
	"fmt"

	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// IndexField indexes the objects of a kind by the AWS identity they ask for.
const IndexField = "ownership.services.k8s.aws/identity"

// Asking returns copies of the cached objects of a kind that ask for an
// identity.
type Asking func(ctx context.Context, identity string) ([]client.Object, error)

// Index returns the index function of IndexField: the identity an object
// asks for, when it may create.
func (k *Owners[MR]) Index(o client.Object) []string {
	mg, ok := o.(MR)
	if !ok || !MayCreate(mg, k.PoliciesHonoured) {
		return nil
	}
	if id := k.Identity(mg); id != "" {
		return []string{id}
	}
	return nil
}

// IndexInformer indexes the cached objects of obj's kind by index, once
// each, and returns their reader. controller-runtime's field indexes keep
// two entries an object, one for its namespace beside the one for all
// namespaces; the identity is asked for across namespaces only, so the
// second would be a set per object that nothing reads (about 0.4 KiB of the
// ten a managed resource costs).
func IndexInformer(ctx context.Context, c cache.Informers, obj client.Object, index func(client.Object) []string) (Asking, error) {
	inf, err := c.GetInformer(ctx, obj)
	if err != nil {
		return nil, err
	}
	indexed, ok := inf.(interface{ GetIndexer() toolscache.Indexer })
	if !ok {
		return nil, fmt.Errorf("the cache's informer of %T keeps no index", obj)
	}
	err = inf.AddIndexers(toolscache.Indexers{IndexField: func(o any) ([]string, error) {
		if co, ok := o.(client.Object); ok {
			return index(co), nil
		}
		return nil, nil
	}})
	if err != nil {
		return nil, err
	}
	return IndexerAsking(indexed.GetIndexer()), nil
}

// IndexerAsking reads the objects asking for an identity from idx, whose
// IndexField index is the identity. They are copied: the store's own are
// shared by every reader of the cache.
func IndexerAsking(idx toolscache.Indexer) Asking {
	return func(_ context.Context, identity string) ([]client.Object, error) {
		items, err := idx.ByIndex(IndexField, identity)
		if err != nil {
			return nil, err
		}
		out := make([]client.Object, 0, len(items))
		for _, it := range items {
			if o, ok := it.(client.Object); ok {
				out = append(out, o.DeepCopyObject().(client.Object)) //nolint:forcetypeassert // a copy of an Object is one
			}
		}
		return out, nil
	}
}
