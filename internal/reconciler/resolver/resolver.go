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

// Package resolver resolves a managed resource's references with no write
// of their own: the reconcile's next write carries what they resolved to.
package resolver

import (
	"context"
	"encoding/json"
	"strconv"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	jsonpatch "github.com/evanphx/json-patch/v5"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/internal/kube/memory"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/reference"
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

// A Resolver resolves an object's references as crossplane-runtime's
// resolver does, with two differences, each sparing a write to the object
// (a watch event a composite pays for):
//
//   - A new object whose references wait for their targets (reference.IsWaiting)
//     is requeued with backoff, without a status write or an event, for its
//     first referenceWait. After that the wait is reported as usual.
//   - What the references resolved to is written with the reconcile's next
//     write of the object rather than at once: when the Observe that follows
//     finds nothing in AWS, the create-pending update, which carries the whole
//     object, writes it. Otherwise (WriteResolved) a patch writes it right
//     after the Observe, on condition that the object is still the one the
//     reconcile read.
type Resolver struct {
	kube  client.Client
	clock clock.PassiveClock
	// unwritten holds, per object, what its references resolved to, until
	// its Observe says who writes it. An object whose reconcile ended before
	// its Observe (it cannot connect to AWS) resolves them again at its next.
	unwritten *memory.Store[types.UID, resolved]
}

// resolved is what an object's references changed, as a merge patch of the
// object the reconcile read (at resourceVersion).
type resolved struct {
	patch           []byte
	resourceVersion string
}

// New returns a resolver that reads the referenced objects with kube.
func New(kube client.Client) *Resolver {
	return NewWithClock(kube, clock.RealClock{})
}

// NewWithClock returns a resolver that reads time from c.
func NewWithClock(kube client.Client, c clock.PassiveClock) *Resolver {
	return &Resolver{kube: kube, clock: c, unwritten: memory.NewWithClock[types.UID, resolved](c)}
}

// ResolveReferences fills the object's fields from its references, in
// memory only.
func (r *Resolver) ResolveReferences(ctx context.Context, mg resource.Managed) error {
	r.unwritten.Drop(mg.GetUID())
	rr, ok := mg.(resolvable)
	if !ok {
		return nil
	}
	read, err := withoutStatus(mg)
	if err != nil {
		return err
	}
	if err := rr.ResolveReferences(ctx, r.kube); err != nil {
		if reference.IsWaiting(err) && r.clock.Since(mg.GetCreationTimestamp().Time) < referenceWait {
			return RequeueQuietly(mg, err)
		}
		return err
	}
	after, err := withoutStatus(mg)
	if err != nil {
		return err
	}
	patch, err := jsonpatch.CreateMergePatch(read, after)
	if err != nil {
		return errors.Wrap(err, "cannot compute what the references changed")
	}
	if string(patch) == "{}" {
		return nil
	}
	r.unwritten.Put(mg.GetUID(), resolved{patch: patch, resourceVersion: mg.GetResourceVersion()})
	return nil
}

// RequeueQuietly is the error that makes crossplane-runtime's managed
// reconciler requeue an object with backoff, writing nothing and recording
// no event: it does so for a conflict returned by the reference resolver,
// as for any conflict. TestRequeueQuietly fails if it stops doing so.
func RequeueQuietly(mg resource.Managed, err error) error {
	return kerrors.NewConflict(schema.GroupResource{}, mg.GetName(), err)
}

// WriteResolved writes what the object's references resolved to, unless the
// reconcile creates next (creates): then the create-pending update writes
// it. The patch carries the resourceVersion the reconcile read, so that it
// conflicts (and the reconcile repeats) if the object changed meanwhile
// rather than letting the reconcile's later writes undo that change. The
// object then holds what the API server holds, and takes its
// resourceVersion and generation.
func (r *Resolver) WriteResolved(ctx context.Context, mg resource.Managed, creates bool) error {
	res, ok := r.unwritten.Take(mg.GetUID())
	if !ok || creates || meta.WasDeleted(mg) {
		return nil
	}
	if res.resourceVersion != mg.GetResourceVersion() {
		return nil // resolved by an earlier reconcile
	}
	patch, err := jsonpatch.MergeMergePatches(res.patch, []byte(`{"metadata":{"resourceVersion":`+strconv.Quote(res.resourceVersion)+`}}`))
	if err != nil {
		return errors.Wrap(err, "cannot write what the references resolved to")
	}
	patched, ok := mg.DeepCopyObject().(client.Object)
	if !ok {
		return errors.New("cannot copy the object")
	}
	if err := r.kube.Patch(ctx, patched, client.RawPatch(types.MergePatchType, patch)); err != nil {
		return errors.Wrap(err, "cannot write what the references resolved to")
	}
	mg.SetResourceVersion(patched.GetResourceVersion())
	mg.SetGeneration(patched.GetGeneration())
	return nil
}

// withoutStatus is the object as JSON, without its status: what a
// reference may change.
func withoutStatus(mg resource.Managed) ([]byte, error) {
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(mg)
	if err != nil {
		return nil, err
	}
	delete(u, "status")
	return json.Marshal(u)
}

// ResolvedAnew reports whether the object's references resolved to values
// it does not hold yet.
func (r *Resolver) ResolvedAnew(uid types.UID) bool {
	_, ok := r.unwritten.Peek(uid)
	return ok
}

// Forget drops what an object's references resolved to.
func (r *Resolver) Forget(uid types.UID) { r.unwritten.Drop(uid) }
