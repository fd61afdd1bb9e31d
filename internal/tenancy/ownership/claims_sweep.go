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
	"strings"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	coordinationv1 "k8s.io/api/coordination/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/internal/kube/kubeclient"
)

// Sweep releases the claims of this kind whose holder is gone: one that
// went without letting go (its finalizer removed by someone else, or
// deleted before its first create wrote a finalizer). A claim kept for a
// namespace (Retained) stays while its namespace exists. It returns how many
// it released.
func (c *Claims) Sweep(ctx context.Context) (int, error) {
	l := &coordinationv1.LeaseList{}
	if err := c.cached.List(ctx, l, client.InNamespace(c.namespace), client.MatchingLabels{LabelClaim: "true"}); err != nil {
		return 0, errors.Wrap(err, errGetClaim)
	}
	kind := strings.ToLower(c.kind.String())
	present := kubeclient.NewPresence(c.cached, c.live)
	released := 0
	for i := range l.Items {
		lease := &l.Items[i]
		cl := claimOf(lease)
		if lease.Name == EraLease || !strings.EqualFold(cl.Owner.Kind, kind) {
			continue
		}
		gone, err := c.gone(ctx, cl, present)
		if err != nil {
			return released, err
		}
		if !gone {
			continue
		}
		if err := c.delete(ctx, lease, sameHolder(cl.Holder)); err != nil {
			return released, err
		}
		released++
	}
	return released, nil
}

// gone reports whether what keeps a claim is gone: its holder, or, for a
// Retained claim, the namespace it keeps the resource for.
func (c *Claims) gone(ctx context.Context, cl *Claim, present *kubeclient.Presence) (bool, error) {
	if cl.Purpose != Retained {
		if cl.Owner.Name == "" {
			// A claim that does not say who holds it holds nothing.
			return true, nil
		}
		key := types.NamespacedName{Namespace: cl.Owner.Namespace, Name: cl.Owner.Name}
		alive, err := present.Exists(ctx, c.kind.WithVersion(c.version), key, cl.Holder, c.object())
		if err != nil {
			return false, errors.Wrap(err, errHolder)
		}
		return !alive, nil
	}
	ns := &metav1.PartialObjectMetadata{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Namespace"}}
	// A namespace that cannot be read (the provider may not read
	// namespaces) keeps what it kept.
	return kerrors.IsNotFound(c.live.Get(ctx, types.NamespacedName{Name: cl.Owner.Namespace}, ns)), nil
}

// Lease names the Lease that records id's claim, for an admin to delete.
func (c *Claims) Lease(id Identity) string {
	return c.namespace + "/" + claimName(id)
}

// Alive reports whether the object that holds cl still exists.
func (c *Claims) alive(ctx context.Context, cl *Claim) (bool, error) {
	if cl.Owner.Name == "" {
		// A claim that does not say who holds it holds nothing.
		return false, nil
	}
	key := types.NamespacedName{Namespace: cl.Owner.Namespace, Name: cl.Owner.Name}
	o := c.object()
	if err := c.cached.Get(ctx, key, o); err == nil && o.GetUID() == cl.Holder {
		return true, nil
	}
	// The cache may not have seen it yet.
	if err := c.live.Get(ctx, key, o); err != nil {
		if kerrors.IsNotFound(err) {
			return false, nil
		}
		return false, errors.Wrap(err, errHolder)
	}
	return o.GetUID() == cl.Holder, nil
}
