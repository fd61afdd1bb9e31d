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

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	coordinationv1 "k8s.io/api/coordination/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Get returns the claim of id, if any. A claim the cache shows held by mg is
// taken from the cache; anything else is read from the API server, which
// the cache may be behind.
func (c *Claims) Get(ctx context.Context, id Identity, holder types.UID) (*Claim, error) {
	l := &coordinationv1.Lease{}
	key := types.NamespacedName{Namespace: c.namespace, Name: claimName(id)}
	if err := c.cached.Get(ctx, key, l); err == nil && claimOf(l).Holder == holder {
		return claimOf(l), nil
	}
	if err := c.live.Get(ctx, key, l); err != nil {
		if kerrors.IsNotFound(err) {
			return nil, nil
		}
		return nil, errors.Wrap(err, errGetClaim)
	}
	return claimOf(l), nil
}

// Cached returns the holder of id's claim as the cache shows it, with no
// call to the API server; false when the cache shows no claim. The cache may
// be behind: only Take decides.
func (c *Claims) Cached(ctx context.Context, id Identity) (types.UID, bool) {
	cl, ok := c.cachedClaim(ctx, id)
	if !ok {
		return "", false
	}
	return cl.Holder, true
}

// cachedClaim returns id's claim as the cache shows it; false when it shows
// none.
func (c *Claims) cachedClaim(ctx context.Context, id Identity) (*Claim, bool) {
	l := &coordinationv1.Lease{}
	if err := c.cached.Get(ctx, types.NamespacedName{Namespace: c.namespace, Name: claimName(id)}, l); err != nil {
		return nil, false
	}
	return claimOf(l), true
}

// heldBy lists the claims uid holds, from the API server: a claim taken
// moments ago may not be cached.
func (c *Claims) heldBy(ctx context.Context, uid types.UID) ([]coordinationv1.Lease, error) {
	l := &coordinationv1.LeaseList{}
	if err := c.live.List(ctx, l, client.InNamespace(c.namespace), client.MatchingLabels{LabelClaim: "true", LabelHolder: string(uid)}); err != nil {
		return nil, errors.Wrap(err, errReleaseClaim)
	}
	for i := range l.Items {
		if l.Items[i].Annotations == nil {
			l.Items[i].Annotations = map[string]string{}
		}
	}
	return l.Items, nil
}

// HoldsAny reports whether the object holder (its kind, namespace, name and
// UID) holds any ownership claim, of any kind, as the cache shows the claims
// of namespace. A claim that names another object is not its: a UID is no
// secret, and the answer must tell nothing of another object, of its
// namespace or another.
func HoldsAny(ctx context.Context, cached client.Reader, namespace string, holder Owner) (bool, error) {
	l := &coordinationv1.LeaseList{}
	if err := cached.List(ctx, l, client.InNamespace(namespace), client.MatchingLabels{LabelClaim: "true", LabelHolder: string(holder.UID)}); err != nil {
		return false, errors.Wrap(err, errGetClaim)
	}
	for i := range l.Items {
		if claimOf(&l.Items[i]).Owner.Names(holder) {
			return true, nil
		}
	}
	return false, nil
}
