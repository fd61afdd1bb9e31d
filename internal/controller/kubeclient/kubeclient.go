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

// Package kubeclient is the provider's client of the API server.
package kubeclient

import (
	"context"

	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/internal/controller/setup/memory"
)

// metadataFromCache reads objects' metadata (PartialObjectMetadata) from
// the manager's cache and everything else as its client does. The client
// caches no Secret, and the kind it names is all it looks at: without this,
// the "metadata-only" read of a key Secret's resourceVersion, made at every
// reconcile that may need the key and at every session check, would be a
// live GET to the API server, although the provider watches Secrets'
// metadata anyway.
type metadataFromCache struct {
	client.Client
	cache client.Reader
}

// New returns the manager's client, reading metadata from the
// manager's cache.
func New(mgr ctrl.Manager) client.Client {
	return metadataFromCache{Client: mgr.GetClient(), cache: mgr.GetCache()}
}

func (c metadataFromCache) Get(ctx context.Context, key client.ObjectKey, obj client.Object, o ...client.GetOption) error {
	if _, ok := obj.(*metav1.PartialObjectMetadata); ok {
		return c.cache.Get(ctx, key, obj, o...)
	}
	return c.Client.Get(ctx, key, obj, o...)
}

// ListsWithoutCopies returns c, except that its List hands out the cache's
// own objects rather than copies of them: for a reader that lists a whole
// kind often and changes nothing it lists, as crossplane-runtime's state
// metrics do every few seconds. Copying every object of a kind on each such
// list would cost as much CPU and garbage as the objects themselves.
func ListsWithoutCopies(c client.Client) client.Client {
	return readOnlyLists{Client: c}
}

type readOnlyLists struct{ client.Client }

func (c readOnlyLists) List(ctx context.Context, l client.ObjectList, o ...client.ListOption) error {
	return c.Client.List(ctx, l, append(o, client.UnsafeDisableDeepCopy)...)
}

// StatusWrittenWhenChanged returns c, except that a status update that
// would change nothing is not sent. crossplane-runtime's managed reconciler
// updates the status after every Observe, changed or not; the API server
// then decodes, validates and compares the whole object only to store
// nothing. With thousands of resources polled each minute those updates
// are most of the API server's work in steady state. An update is known to
// change nothing when the cache holds the object at the same
// resourceVersion with the same status, and that version is not older than
// this client's own last write of the object (a cache behind that write
// would hide what it changed); anything else is sent, and the API server
// decides, a conflict included.
func StatusWrittenWhenChanged(c client.Client, cached client.Reader) client.Client {
	return &statusWhenChanged{Client: c, cached: cached, written: memory.New[types.UID, string]()}
}

type statusWhenChanged struct {
	client.Client
	cached client.Reader
	// written is the resourceVersion of each object's last write through
	// this client, kept memory.Forget.
	written *memory.Store[types.UID, string]
}

func (c *statusWhenChanged) Update(ctx context.Context, o client.Object, opts ...client.UpdateOption) error {
	err := c.Client.Update(ctx, o, opts...)
	if err == nil {
		c.written.Put(o.GetUID(), o.GetResourceVersion())
	}
	return err
}

func (c *statusWhenChanged) Status() client.SubResourceWriter {
	return statusWriter{SubResourceWriter: c.Client.Status(), c: c}
}

type statusWriter struct {
	client.SubResourceWriter
	c *statusWhenChanged
}

func (w statusWriter) Update(ctx context.Context, o client.Object, opts ...client.SubResourceUpdateOption) error {
	if len(opts) == 0 && w.c.unchanged(ctx, o) {
		return nil
	}
	err := w.SubResourceWriter.Update(ctx, o, opts...)
	if err == nil {
		w.c.written.Put(o.GetUID(), o.GetResourceVersion())
	}
	return err
}

// unchanged reports whether the cache holds o as it is, status included, at
// a version no older than this client's last write of it.
func (c *statusWhenChanged) unchanged(ctx context.Context, o client.Object) bool {
	if rv, ok := c.written.Peek(o.GetUID()); ok && rv != o.GetResourceVersion() {
		return false
	}
	was, ok := o.DeepCopyObject().(client.Object)
	if !ok || o.GetResourceVersion() == "" {
		return false
	}
	if err := c.cached.Get(ctx, client.ObjectKeyFromObject(o), was); err != nil {
		return false
	}
	if was.GetUID() != o.GetUID() || was.GetResourceVersion() != o.GetResourceVersion() {
		return false
	}
	now, err := runtime.DefaultUnstructuredConverter.ToUnstructured(o)
	if err != nil {
		return false
	}
	before, err := runtime.DefaultUnstructuredConverter.ToUnstructured(was)
	if err != nil {
		return false
	}
	return equality.Semantic.DeepEqual(now["status"], before["status"])
}
