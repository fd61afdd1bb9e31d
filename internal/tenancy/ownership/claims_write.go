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
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Take claims id for holder, for purpose, unless another object holds it;
// it returns the claim that holds id. A claim whose holder no longer exists
// is released first: a newcomer of the same name does not inherit it.
func (c *Claims) Take(ctx context.Context, id Identity, holder Owner, uid types.UID, purpose Purpose) (*Claim, error) {
	cached := &coordinationv1.Lease{}
	if err := c.cached.Get(ctx, types.NamespacedName{Namespace: c.namespace, Name: claimName(id)}, cached); err == nil && claimOf(cached).Holder == uid {
		return claimOf(cached), nil
	}
	for range 2 {
		l := c.lease(id, holder, uid, purpose)
		err := c.write.Create(ctx, l)
		if err == nil {
			cl := claimAnswered(l)
			cl.taken = true
			return cl, nil
		}
		if !kerrors.IsAlreadyExists(err) {
			return nil, errors.Wrap(err, errCreateClaim)
		}
		existing := &coordinationv1.Lease{}
		if err := c.live.Get(ctx, client.ObjectKeyFromObject(l), existing); err != nil {
			if kerrors.IsNotFound(err) {
				continue
			}
			return nil, errors.Wrap(err, errGetClaim)
		}
		got := claimAnswered(existing)
		if got.Holder == uid {
			return got, nil
		}
		if got.KeptFrom(holder.Namespace) {
			return got, nil
		}
		// Held by nothing (Denied), or by an object that is gone: taken
		// over, unless it changed meanwhile (its holder took it again to
		// create), which the next turn of the loop decides on.
		still := sameHolder(got.Holder)
		if got.Holds() {
			alive, err := c.alive(ctx, got)
			if err != nil || alive {
				return got, err
			}
		} else {
			still = func(cl *Claim) bool { return cl.Holder == got.Holder && !cl.Holds() }
		}
		if err := c.delete(ctx, existing, still); err != nil {
			return nil, err
		}
	}
	return nil, errors.New(errCreateClaim)
}

// Repurpose records that holder, which holds id, now holds it for purpose.
// held is the claim as the holder last had it, or nil: a claim unchanged
// since is written at once, one the cache was behind on or that changed
// meanwhile is read from the API server first.
func (c *Claims) Repurpose(ctx context.Context, id Identity, uid types.UID, purpose Purpose, held *Claim) error {
	if held != nil && held.lease != nil && held.Holder == uid {
		l := held.lease.DeepCopy()
		if l.Annotations == nil {
			l.Annotations = map[string]string{}
		}
		l.Annotations[annotationPurpose] = string(purpose)
		err := c.write.Update(ctx, l)
		if err == nil {
			held.lease, held.Purpose = l, purpose
			return nil
		}
		if !kerrors.IsConflict(err) {
			return errors.Wrap(err, errCreateClaim)
		}
	}
	l := &coordinationv1.Lease{}
	if err := c.live.Get(ctx, types.NamespacedName{Namespace: c.namespace, Name: claimName(id)}, l); err != nil {
		return errors.Wrap(err, errGetClaim)
	}
	if claimOf(l).Holder != uid {
		return errors.New(errCreateClaim)
	}
	if l.Annotations == nil {
		l.Annotations = map[string]string{}
	}
	l.Annotations[annotationPurpose] = string(purpose)
	return errors.Wrap(c.write.Update(ctx, l), errCreateClaim)
}

// Release releases id's claim if uid holds it.
func (c *Claims) Release(ctx context.Context, id Identity, uid types.UID) error {
	l := &coordinationv1.Lease{}
	if err := c.live.Get(ctx, types.NamespacedName{Namespace: c.namespace, Name: claimName(id)}, l); err != nil {
		return errors.Wrap(client.IgnoreNotFound(err), errGetClaim)
	}
	if claimOf(l).Holder != uid {
		return nil
	}
	return c.delete(ctx, l, sameHolder(uid))
}

// ReleaseAll releases every claim uid holds: its deletion finished.
func (c *Claims) ReleaseAll(ctx context.Context, uid types.UID) error {
	held, err := c.heldBy(ctx, uid)
	for i := range held {
		if err := c.delete(ctx, &held[i], sameHolder(uid)); err != nil {
			return err
		}
	}
	return err
}

// RetainAll keeps every claim uid holds for its namespace (Retained): it
// is deleted, and lets its resources go. No object holds them any more
// (their holder UID is cleared); the holder's kind, namespace and name stay,
// for the namespace and for messages.
func (c *Claims) RetainAll(ctx context.Context, uid types.UID) error {
	held, err := c.heldBy(ctx, uid)
	for i := range held {
		l := &held[i]
		l.Annotations[annotationPurpose] = string(Retained)
		l.Labels[LabelHolder] = ""
		if err := c.write.Update(ctx, l); err != nil && !kerrors.IsNotFound(err) {
			return errors.Wrap(err, errCreateClaim)
		}
	}
	return err
}

// sameHolder is the condition of a claim held by uid.
func sameHolder(uid types.UID) func(*Claim) bool {
	return func(cl *Claim) bool { return cl.Holder == uid }
}

// delete deletes a claim as it was read, or, if it changed meanwhile, as
// long as still holds of it: a claim taken again meanwhile, by another or
// by its holder for another purpose, is kept.
func (c *Claims) delete(ctx context.Context, l *coordinationv1.Lease, still func(*Claim) bool) error {
	for range 3 {
		uid, rv := l.GetUID(), l.GetResourceVersion()
		err := c.write.Delete(ctx, l, client.Preconditions{UID: &uid, ResourceVersion: &rv})
		if err == nil || kerrors.IsNotFound(err) {
			return nil
		}
		if !kerrors.IsConflict(err) {
			return errors.Wrap(err, errReleaseClaim)
		}
		// Read from a cache that was behind, or changed meanwhile.
		if err := c.live.Get(ctx, client.ObjectKeyFromObject(l), l); err != nil {
			return errors.Wrap(client.IgnoreNotFound(err), errReleaseClaim)
		}
		if !still(claimOf(l)) {
			return nil
		}
	}
	return errors.New(errReleaseClaim)
}

func (c *Claims) lease(id Identity, holder Owner, uid types.UID, purpose Purpose) *coordinationv1.Lease {
	h := string(uid)
	return &coordinationv1.Lease{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: c.namespace,
			Name:      claimName(id),
			Labels:    map[string]string{LabelClaim: "true", LabelHolder: h},
			Annotations: map[string]string{
				annotationHolder:   holder.Kind + " " + holder.String(),
				annotationIdentity: id.String(),
				annotationPurpose:  string(purpose),
			},
		},
		Spec: coordinationv1.LeaseSpec{HolderIdentity: &h},
	}
}
