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

package setup

import (
	"context"
	"sync"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/internal/reference"
)

// referenceWait is how long a new object waits for the objects its
// references name before it reports them. In a Composition the Role or Topic
// a resource references is composed beside it and is seldom Ready at its
// first reconcile; reporting that is a status write, which the composite's
// circuit breaker charges, about a wait that ends by itself.
const referenceWait = 30 * time.Second

// resolvable is an object with references: the kinds' ResolveReferences.
type resolvable interface {
	ResolveReferences(ctx context.Context, r client.Reader) error
}

// references resolves an object's references as crossplane-runtime's
// resolver does, with two differences, each sparing a write to the object
// (a watch event a composite pays for):
//
//   - A new object whose references wait for their targets (reference.IsWaiting)
//     is requeued with backoff, without a status write or an event, for its
//     first referenceWait. After that the wait is reported as usual.
//   - What the references resolved to is written with the reconcile's next
//     write of the object rather than at once: when the look that follows
//     finds nothing in AWS, the create-pending update, which carries the whole
//     object, writes it. Otherwise (settle) crossplane-runtime's resolver
//     writes it right after the look, as it would have before.
type references struct {
	kube  client.Client
	clock clock.PassiveClock
	// unwritten holds, per object, the object as read before its
	// references were resolved, until its look says who writes them.
	unwritten sync.Map // types.UID → resource.Managed
	// write is crossplane-runtime's resolver, which resolves again and
	// patches what changed.
	write managed.ReferenceResolver
}

func newReferences(kube client.Client) *references {
	return &references{kube: kube, clock: clock.RealClock{}, write: managed.NewAPISimpleReferenceResolver(kube)}
}

// ResolveReferences fills the object's fields from its references, in
// memory only.
func (r *references) ResolveReferences(ctx context.Context, mg resource.Managed) error {
	r.unwritten.Delete(mg.GetUID())
	rr, ok := mg.(resolvable)
	if !ok {
		return nil
	}
	read, ok := mg.DeepCopyObject().(resource.Managed)
	if !ok {
		return r.write.ResolveReferences(ctx, mg)
	}
	if err := rr.ResolveReferences(ctx, r.kube); err != nil {
		if reference.IsWaiting(err) && r.clock.Since(mg.GetCreationTimestamp().Time) < referenceWait {
			// crossplane-runtime requeues a conflict with backoff and
			// writes nothing.
			return kerrors.NewConflict(schema.GroupResource{}, mg.GetName(), err)
		}
		return err
	}
	if !cmp.Equal(read, mg, cmpopts.EquateEmpty()) {
		r.unwritten.Store(mg.GetUID(), read)
	}
	return nil
}

// settle writes what the object's references resolved to, unless the
// reconcile creates next (creates): then the create-pending update writes
// it. The object takes the resourceVersion of the write, so that the
// reconcile's status write does not conflict with it.
func (r *references) settle(ctx context.Context, mg resource.Managed, creates bool) error {
	v, ok := r.unwritten.LoadAndDelete(mg.GetUID())
	if !ok || creates {
		return nil
	}
	read := v.(resource.Managed) //nolint:forcetypeassert // only Store puts values, all resource.Managed
	if err := r.write.ResolveReferences(ctx, read); err != nil {
		return err
	}
	mg.SetResourceVersion(read.GetResourceVersion())
	return nil
}

// resolvedAnew reports whether the object's references resolved to values
// it does not hold yet.
func (r *references) resolvedAnew(uid types.UID) bool {
	_, ok := r.unwritten.Load(uid)
	return ok
}

// forget drops what an object's references resolved to.
func (r *references) forget(uid types.UID) { r.unwritten.Delete(uid) }
