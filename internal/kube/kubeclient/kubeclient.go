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
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/internal/kube/memory"
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

// CacheThenAPIServer returns a reader that reads objects from cached and,
// those it does not hold, from live: a cache that misses an object proves
// nothing. It may not have seen a new object yet, and a replica that shares
// the work caches only the objects of its shards (shard.Set.Caching).
func CacheThenAPIServer(cached, live client.Reader) client.Reader {
	return cacheThenAPIServer{Reader: cached, live: live}
}

type cacheThenAPIServer struct {
	client.Reader
	live client.Reader
}

func (c cacheThenAPIServer) Get(ctx context.Context, key client.ObjectKey, obj client.Object, o ...client.GetOption) error {
	err := c.Reader.Get(ctx, key, obj, o...)
	if kerrors.IsNotFound(err) {
		return c.live.Get(ctx, key, obj, o...)
	}
	return err
}

// Presence answers, during one sweep, which objects exist: from the cache,
// and for an object the cache does not hold with the UID asked for, from
// one listing of its kind's metadata at the API server, made at the first
// such question and kept for the sweep. A replica that shares the work
// caches only the objects of its shards; asked one by one, the others would
// cost a request each.
type Presence struct {
	cached, live client.Reader
	listed       map[schema.GroupVersionKind]map[types.NamespacedName]types.UID
}

// NewPresence returns a Presence that reads cached, then live; make one for
// each sweep.
func NewPresence(cached, live client.Reader) *Presence {
	return &Presence{cached: cached, live: live, listed: map[schema.GroupVersionKind]map[types.NamespacedName]types.UID{}}
}

// listPage is how many objects' metadata one request of a listing reads.
const listPage = 500

// Exists reports whether the object of kind gvk at key exists with uid; obj
// is an empty object of the kind, read into from the cache.
func (p *Presence) Exists(ctx context.Context, gvk schema.GroupVersionKind, key types.NamespacedName, uid types.UID, obj client.Object) (bool, error) {
	err := p.cached.Get(ctx, key, obj)
	if err == nil && obj.GetUID() == uid {
		return true, nil
	}
	if err != nil && !kerrors.IsNotFound(err) {
		return false, err
	}
	uids, ok := p.listed[gvk]
	if !ok {
		if uids, err = p.list(ctx, gvk); err != nil {
			return false, err
		}
		p.listed[gvk] = uids
	}
	return uids[key] == uid, nil
}

func (p *Presence) list(ctx context.Context, gvk schema.GroupVersionKind) (map[types.NamespacedName]types.UID, error) {
	uids := map[types.NamespacedName]types.UID{}
	l := &metav1.PartialObjectMetadataList{}
	l.SetGroupVersionKind(gvk.GroupVersion().WithKind(gvk.Kind + "List"))
	for {
		if err := p.live.List(ctx, l, client.Limit(listPage), client.Continue(l.GetContinue())); err != nil {
			return nil, err
		}
		for i := range l.Items {
			uids[types.NamespacedName{Namespace: l.Items[i].Namespace, Name: l.Items[i].Name}] = l.Items[i].UID
		}
		if l.GetContinue() == "" {
			return uids, nil
		}
	}
}
