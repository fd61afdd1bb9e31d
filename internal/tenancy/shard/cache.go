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

package shard

import (
	"context"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/watchlist"

	"github.com/cloudkinds/provider-aws-services/internal/metrics"
)

// Label is the value of LabelShard for the work keyed key.
func (s *Set) Label(key string) string { return strconv.Itoa(s.Of(key)) }

// HoldsLabel reports whether label names a shard whose objects this
// replica caches, and no other replica does.
func (s *Set) HoldsLabel(label string) bool {
	if !validLabel(label, s.shards) {
		return false
	}
	n, _ := strconv.Atoi(label)
	s.mu.RLock()
	defer s.mu.RUnlock()
	return slices.Contains(s.cached, n)
}

// settleCache makes the shards this replica holds at the end of a round
// those whose objects it caches. The caches drop the objects of a shard let
// go at once, and ignore their events (purge); a shard taken ends the
// caches' watches, which their informers open again at once with the new
// selector, asking for every object it selects (WatchWithContext).
func (s *Set) settleCache() {
	held := s.Held()
	s.mu.Lock()
	if slices.Equal(held, s.cached) {
		s.mu.Unlock()
		return
	}
	grew := slices.ContainsFunc(held, func(n int) bool { return !slices.Contains(s.cached, n) })
	s.cached = held
	if grew {
		close(s.grown)
		s.grown = make(chan struct{})
	}
	stores := slices.Collect(maps.Values(s.stores))
	s.mu.Unlock()
	for _, store := range stores {
		s.purge(store)
	}
}

// selection is the label selector of the objects this replica caches, and
// a channel closed once it selects more. Objects not labelled yet, or
// labelled with no shard of this count, are everyone's: they are cached
// until the replica that serves them labels them.
func (s *Set) selection() (string, <-chan struct{}) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	others := make([]string, 0, s.shards)
	for n := range s.shards {
		if !slices.Contains(s.cached, n) {
			others = append(others, strconv.Itoa(n))
		}
	}
	if len(others) == 0 {
		return "", s.grown
	}
	return LabelShard + " notin (" + strings.Join(others, ",") + ")", s.grown
}

// KeyedBy tells the caches of objects of kind's type where the work of one
// that no replica labelled yet goes: the key Of hashes, when known. With
// it, a replica does not cache another's new objects at all; without it,
// it caches them until Drop.
func (s *Set) KeyedBy(kind runtime.Object, key func(runtime.Object) (string, bool)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.keys[reflect.TypeOf(kind)] = key
}

// elsewhere reports whether o's work is in a shard this replica does not
// cache: as its label says, or, not labelled yet, as its kind's key says.
func (s *Set) elsewhere(o runtime.Object) bool {
	m, ok := o.(metav1.Object)
	if !ok {
		return false
	}
	if label, ok := m.GetLabels()[LabelShard]; ok && validLabel(label, s.shards) {
		return !s.HoldsLabel(label)
	}
	s.mu.RLock()
	keyOf := s.keys[reflect.TypeOf(o)]
	s.mu.RUnlock()
	if keyOf == nil {
		return false
	}
	key, known := keyOf(o)
	if !known {
		return false
	}
	n := s.Of(key)
	s.mu.RLock()
	defer s.mu.RUnlock()
	return !slices.Contains(s.cached, n)
}

// IsShard reports whether label names a shard of this count.
func (s *Set) IsShard(label string) bool { return validLabel(label, s.shards) }

func validLabel(label string, shards int) bool {
	n, err := strconv.Atoi(label)
	return err == nil && n >= 0 && n < shards
}

// Caching returns the cache's NewInformer (cache.Options.NewInformer) for
// which the informers of kinds cache only the objects of the shards this
// replica holds, and those no replica labelled yet. Other kinds' informers
// are as controller-runtime makes them.
func (s *Set) Caching(kinds ...runtime.Object) func(toolscache.ListerWatcher, runtime.Object, time.Duration, toolscache.Indexers) toolscache.SharedIndexInformer {
	types := make([]reflect.Type, len(kinds))
	for i, k := range kinds {
		types[i] = reflect.TypeOf(k)
	}
	return func(lw toolscache.ListerWatcher, o runtime.Object, resync time.Duration, ix toolscache.Indexers) toolscache.SharedIndexInformer {
		if !slices.Contains(types, reflect.TypeOf(o)) {
			return toolscache.NewSharedIndexInformer(lw, o, resync, ix)
		}
		sel := &selecting{inner: toolscache.ToListerWatcherWithContext(lw), plain: lw, set: s}
		i := toolscache.NewSharedIndexInformer(sel, o, resync, ix)
		sel.store = i.GetStore()
		s.mu.Lock()
		s.stores[reflect.TypeOf(o)] = i.GetStore()
		s.mu.Unlock()
		return i
	}
}

// Drop drops o from this replica's cache when it is not of a shard this
// replica holds: another replica's object that no replica labelled yet,
// which every replica caches until then. Its holder labels it at its first
// reconcile, and a flood of new objects would otherwise be cached by every
// replica until then. An object changed while not labelled is cached again,
// and dropped again at its reconcile; a replica that takes its shard
// watches again for every object of its selection.
func (s *Set) Drop(o runtime.Object, key string) {
	s.mu.RLock()
	store, ok := s.stores[reflect.TypeOf(o)]
	mine := slices.Contains(s.cached, s.Of(key))
	s.mu.RUnlock()
	if ok && !mine {
		_ = store.Delete(o)
	}
}

// countCached counts the objects this replica caches by their shard label
// (metrics.ShardCached).
func (s *Set) countCached() {
	s.mu.RLock()
	stores := slices.Collect(maps.Values(s.stores))
	s.mu.RUnlock()
	counts := map[string]int{"none": 0}
	for n := range s.shards {
		counts[strconv.Itoa(n)] = 0
	}
	for _, store := range stores {
		for _, o := range store.List() {
			m, ok := o.(metav1.Object)
			if !ok {
				continue
			}
			label := m.GetLabels()[LabelShard]
			if !validLabel(label, s.shards) {
				label = "none"
			}
			counts[label]++
		}
	}
	for label, n := range counts {
		metrics.ShardCached.WithLabelValues(label).Set(float64(n))
	}
}

// purge drops from store the objects of shards this replica let go.
func (s *Set) purge(store toolscache.Store) {
	for _, o := range store.List() {
		if ro, ok := o.(runtime.Object); ok && s.elsewhere(ro) {
			_ = store.Delete(o)
		}
	}
}

// selecting lists and watches with the selection of its set.
type selecting struct {
	inner toolscache.ListerWatcherWithContext
	plain toolscache.ListerWatcher // the same, asked whether it streams lists
	set   *Set
	// store is the informer's: a watch that streams every object first
	// deletes from it those it did not stream.
	store toolscache.Store

	mu sync.Mutex
	// covered is the channel of the selection that the informer's objects
	// were last listed with: a watch opened after the selection grew asks
	// for every object it selects, since a watch from the informer's last
	// version sends only those changed since.
	covered <-chan struct{}
}

func (l *selecting) ListWithContext(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
	sel, grown := l.set.selection()
	opts.LabelSelector = and(opts.LabelSelector, sel)
	out, err := l.inner.ListWithContext(ctx, opts)
	if err == nil {
		l.cover(grown)
	}
	return out, err
}

func (l *selecting) WatchWithContext(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	sel, grown := l.set.selection()
	l.mu.Lock()
	covered := l.covered
	l.mu.Unlock()
	streams := opts.SendInitialEvents != nil && *opts.SendInitialEvents
	var snapshot toolscache.Store // the store it brings up to date, when it streams for it
	if !streams && covered != nil && covered != grown {
		// The objects of the shards taken since are not in the
		// informer: the API server sends every object the selection
		// has first (as added, which an informer that has it takes
		// as an update), then the changes since the informer's
		// version.
		yes := true
		opts.SendInitialEvents, opts.AllowWatchBookmarks = &yes, true
		opts.ResourceVersionMatch = metav1.ResourceVersionMatchNotOlderThan
		streams, snapshot = true, l.store
	}
	opts.LabelSelector = and(opts.LabelSelector, sel)
	w, err := l.inner.WatchWithContext(ctx, opts)
	if err != nil {
		return nil, err
	}
	if streams {
		l.cover(grown)
	}
	return newEndingWatch(w, grown, l.set.elsewhere, snapshot), nil
}

func (l *selecting) cover(grown <-chan struct{}) {
	l.mu.Lock()
	l.covered = grown
	l.mu.Unlock()
}

func (l *selecting) List(opts metav1.ListOptions) (runtime.Object, error) {
	return l.ListWithContext(context.Background(), opts)
}

func (l *selecting) Watch(opts metav1.ListOptions) (watch.Interface, error) {
	return l.WatchWithContext(context.Background(), opts)
}

// IsWatchListSemanticsUnSupported is its inner lister's answer: whether the
// informer may stream its lists.
func (l *selecting) IsWatchListSemanticsUnSupported() bool {
	return watchlist.DoesClientNotSupportWatchListSemantics(l.plain)
}

func and(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "," + b
}

// shortestWatch is how long a watch must last before it ends without an
// error: client-go's reflector backs off before it watches again after a
// watch that ended sooner with no event.
const shortestWatch = time.Second

// endingWatch passes its inner watch's events until the selection it was
// made with grows; then it ends, with no error, so that the informer
// watches again at once (a watch that ends with an error is listed again
// after a back-off, which grows to 30 s). The events of objects of shards
// let go meanwhile are dropped, or passed as deletions when an object cached
// changed into one.
//
// A watch that streams every object first for an informer that has objects
// already (WatchWithContext) passes, at the end of that stream, the deletion
// of each object the informer holds and the stream did not have: one
// deleted, or one that left the selection, while no watch was open.
type endingWatch struct {
	inner     watch.Interface
	elsewhere func(runtime.Object) bool
	out       chan watch.Event
	stop      chan struct{}
	stopped   sync.Once
	// snapshot is the informer's store while the stream of every object
	// lasts, nil otherwise; streamed are the keys it had.
	snapshot toolscache.Store
	streamed map[string]bool
}

func newEndingWatch(inner watch.Interface, grown <-chan struct{}, elsewhere func(runtime.Object) bool, snapshot toolscache.Store) *endingWatch {
	w := &endingWatch{inner: inner, elsewhere: elsewhere, out: make(chan watch.Event), stop: make(chan struct{}),
		snapshot: snapshot, streamed: map[string]bool{}}
	go w.run(grown, time.Now())
	return w
}

func (w *endingWatch) run(grown <-chan struct{}, started time.Time) {
	defer close(w.out)
	defer w.inner.Stop()
	// The reflector times a watch from its last streamed list's end when
	// it goes on with the same one: from the last event passed.
	last := started
	var end <-chan time.Time
	for {
		select {
		case e, ok := <-w.inner.ResultChan():
			if !ok {
				return
			}
			for _, e := range w.events(e) {
				select {
				case w.out <- e:
					last = time.Now()
				case <-w.stop:
					return
				}
			}
		case <-grown:
			// Its events still pass until it ends.
			grown, end = nil, time.After(time.Until(last.Add(shortestWatch)))
		case <-end:
			return
		case <-w.stop:
			return
		}
	}
}

// events are what the watch passes for e.
func (w *endingWatch) events(e watch.Event) []watch.Event {
	e, pass := w.filter(e)
	if w.snapshot == nil {
		if pass {
			return []watch.Event{e}
		}
		return nil
	}
	if e.Type == watch.Bookmark && isInitialEventsEnd(e.Object) {
		out := w.unstreamed()
		w.snapshot, w.streamed = nil, nil
		return append(out, e)
	}
	if pass && e.Type == watch.Added {
		if key, err := toolscache.MetaNamespaceKeyFunc(e.Object); err == nil {
			w.streamed[key] = true
		}
	}
	if pass {
		return []watch.Event{e}
	}
	return nil
}

// unstreamed are the deletions of the objects the informer holds that the
// stream of every object did not have.
func (w *endingWatch) unstreamed() []watch.Event {
	var out []watch.Event
	for _, o := range w.snapshot.List() {
		ro, ok := o.(runtime.Object)
		if !ok {
			continue
		}
		if key, err := toolscache.MetaNamespaceKeyFunc(o); err == nil && !w.streamed[key] {
			out = append(out, watch.Event{Type: watch.Deleted, Object: ro})
		}
	}
	return out
}

func isInitialEventsEnd(o runtime.Object) bool {
	m, ok := o.(metav1.Object)
	return ok && m.GetAnnotations()[metav1.InitialEventsAnnotationKey] == "true"
}

// filter drops the addition of an object of another replica's shard (one
// of a shard let go, or a new object another replica serves), and makes the
// change of one a deletion (it may have been cached).
func (w *endingWatch) filter(e watch.Event) (watch.Event, bool) {
	if e.Object == nil || !w.elsewhere(e.Object) {
		return e, true
	}
	switch e.Type {
	case watch.Added:
		return e, false
	case watch.Modified:
		e.Type = watch.Deleted
	}
	return e, true
}

func (w *endingWatch) ResultChan() <-chan watch.Event { return w.out }

func (w *endingWatch) Stop() { w.stopped.Do(func() { close(w.stop) }) }
