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

// Package finalizer adds and removes the managed reconciler's finalizer with
// one write fewer at create, and releases the object's ownership claims
// before it lets the object go.
package finalizer

import (
	"context"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/internal/kube/memory"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/ownership"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/usage"
)

// ToCreate are the objects whose last Observe found nothing in AWS: their
// reconcile goes on to create, and records that it does with an update of
// its own (crossplane-runtime's create-pending annotation).
type ToCreate struct {
	uids *memory.Store[types.UID, struct{}]
}

// NewToCreate returns an empty record.
func NewToCreate() *ToCreate {
	return &ToCreate{uids: memory.New[types.UID, struct{}]()}
}

// Observed records what the Observe of mg found.
func (c *ToCreate) Observed(mg resource.Managed, o managed.ExternalObservation, err error) {
	if err == nil && !o.ResourceExists && !meta.WasDeleted(mg) {
		c.uids.Put(mg.GetUID(), struct{}{})
		return
	}
	c.uids.Drop(mg.GetUID())
}

func (c *ToCreate) take(uid types.UID) bool {
	_, ok := c.uids.Take(uid)
	return ok
}

// Batched adds the managed reconciler's finalizer as crossplane-runtime
// does, with one exception: an object whose reconcile is about to create
// its resource gets it in memory only, and the create-pending update that
// comes next writes it, with the external name: one write to the object
// instead of three (each is an event that Crossplane's composite circuit
// breaker counts). A create-pending update that fails creates nothing, and
// the next reconcile adds the finalizer again.
type Batched struct {
	resource.Finalizer
	ToCreate         *ToCreate
	PoliciesHonoured bool
	Claims           *ownership.Claims
	// Kube releases the object's use of its provider config, and labels
	// an object that has its finalizer already.
	Kube client.Client
	// Labels are the labels the object of a reconcile must carry (the
	// shard of its work, shard.LabelShard), written with the finalizer;
	// nil or none writes none.
	Labels func(ctx context.Context) map[string]string
}

// RemoveFinalizer lets the object go. Its ownership claims are released
// when its deletion is finished; an object whose management policies lack
// Delete leaves its resource behind, and its claims keep it for its
// namespace (ownership.Retained), so that no other namespace adopts what
// this one kept. A provider stopped in between leaves a claim whose holder
// is gone, which the next object to ask for the identity releases.
func (f *Batched) RemoveFinalizer(ctx context.Context, obj resource.Object) error {
	if mg, ok := obj.(resource.Managed); ok && meta.WasDeleted(mg) &&
		!managed.NewManagementPoliciesResolver(f.PoliciesHonoured, mg.GetManagementPolicies()).ShouldDelete() {
		return f.retain(ctx, obj)
	}
	if err := f.Claims.ReleaseAll(ctx, obj.GetUID()); err != nil {
		return err
	}
	return f.letGo(ctx, obj)
}

// retain keeps the object's claims for its namespace, then lets it go.
func (f *Batched) retain(ctx context.Context, obj resource.Object) error {
	if err := f.Claims.RetainAll(ctx, obj.GetUID()); err != nil {
		return err
	}
	return f.letGo(ctx, obj)
}

// letGo releases the object's use of its provider config, which its
// deletion no longer needs, then removes its finalizer.
func (f *Batched) letGo(ctx context.Context, obj resource.Object) error {
	if f.Kube != nil {
		if err := usage.Release(ctx, f.Kube, obj); err != nil {
			return err
		}
	}
	return f.Finalizer.RemoveFinalizer(ctx, obj)
}

// Retaining is the finalizer of objects deleted with deletion policy
// retain: they leave their resource behind, kept for their namespace.
func (f *Batched) Retaining() resource.Finalizer { return retaining{f} }

type retaining struct{ *Batched }

func (r retaining) RemoveFinalizer(ctx context.Context, obj resource.Object) error {
	return r.retain(ctx, obj)
}

// AddFinalizer adds the finalizer and the labels, in memory only before a
// create. An object that has its finalizer and lacks a label is written
// once for it: its account changed, or someone changed the label.
func (f *Batched) AddFinalizer(ctx context.Context, obj resource.Object) error {
	labels := f.missingLabels(ctx, obj)
	if meta.FinalizerExists(obj, managed.FinalizerName) {
		if len(labels) == 0 || f.Kube == nil {
			return nil
		}
		meta.AddLabels(obj, labels)
		return f.Kube.Update(ctx, obj)
	}
	meta.AddLabels(obj, labels)
	mg, ok := obj.(resource.Managed)
	if ok && f.ToCreate.take(obj.GetUID()) && ownership.MayCreate(mg, f.PoliciesHonoured) {
		meta.AddFinalizer(obj, managed.FinalizerName)
		return nil
	}
	return f.Finalizer.AddFinalizer(ctx, obj)
}

// missingLabels are the labels obj must carry and does not, with their
// values.
func (f *Batched) missingLabels(ctx context.Context, obj resource.Object) map[string]string {
	if f.Labels == nil {
		return nil
	}
	var missing map[string]string
	for k, v := range f.Labels(ctx) {
		if have, ok := obj.GetLabels()[k]; ok && have == v {
			continue
		}
		if missing == nil {
			missing = map[string]string{}
		}
		missing[k] = v
	}
	return missing
}
