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
	"net/http"
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
)

// Label is the value of LabelShard for the work keyed key.
func (s *Set) Label(key string) string { return strconv.Itoa(s.Of(key)) }

// HoldsLabel reports whether label names a shard whose objects this
// replica caches, and no other replica does.
func (s *Set) HoldsLabel(label string) bool {
	n, err := strconv.Atoi(label)
	if err != nil || n < 0 || n >= s.shards {
		return false
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return slices.Contains(s.cached, n)
}

// settleCache makes the shards this replica holds at the end of a round
// those whose objects it caches, and has the caches list their objects
// again when they changed.
func (s *Set) settleCache() {
	held := s.Held()
	s.mu.Lock()
	defer s.mu.Unlock()
	if slices.Equal(held, s.cached) {
		return
	}
	s.cached = held
	close(s.recache)
	s.recache = make(chan struct{})
}

// selection is the label selector of the objects this replica caches, and
// a channel closed once it changes. Objects not labelled yet, or labelled
// with no shard of this count, are everyone's: they are cached until the
// replica that serves them labels them.
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
		return "", s.recache
	}
	return LabelShard + " notin (" + strings.Join(others, ",") + ")", s.recache
}

// Caching returns the cache's NewInformer (cache.Options.NewInformer) for
// which the informers of kinds list and watch only the objects of the
// shards this replica holds, and those no replica labelled yet; when the
// shards it holds change, they list their objects again with the new
// selector (the API server answers that their watch expired), which adds
// the objects of a shard taken and drops those of a shard let go. Other
// kinds' informers are as controller-runtime makes them.
func (s *Set) Caching(kinds ...runtime.Object) func(toolscache.ListerWatcher, runtime.Object, time.Duration, toolscache.Indexers) toolscache.SharedIndexInformer {
	types := make([]reflect.Type, len(kinds))
	for i, k := range kinds {
		types[i] = reflect.TypeOf(k)
	}
	return func(lw toolscache.ListerWatcher, o runtime.Object, resync time.Duration, ix toolscache.Indexers) toolscache.SharedIndexInformer {
		if slices.Contains(types, reflect.TypeOf(o)) {
			lw = &selecting{inner: toolscache.ToListerWatcherWithContext(lw), plain: lw, set: s}
		}
		return toolscache.NewSharedIndexInformer(lw, o, resync, ix)
	}
}

// selecting lists and watches with the selection of its set.
type selecting struct {
	inner toolscache.ListerWatcherWithContext
	plain toolscache.ListerWatcher // the same, asked whether it streams lists
	set   *Set

	mu sync.Mutex
	// listedWith is the channel of the selection the last list used: a
	// watch that follows a list made with another selection would miss
	// the objects the new one adds.
	listedWith <-chan struct{}
}

func (l *selecting) ListWithContext(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
	sel, changed := l.set.selection()
	opts.LabelSelector = and(opts.LabelSelector, sel)
	out, err := l.inner.ListWithContext(ctx, opts)
	if err == nil {
		l.mu.Lock()
		l.listedWith = changed
		l.mu.Unlock()
	}
	return out, err
}

func (l *selecting) WatchWithContext(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	sel, changed := l.set.selection()
	l.mu.Lock()
	listed := l.listedWith
	l.mu.Unlock()
	streamsList := opts.SendInitialEvents != nil && *opts.SendInitialEvents
	if !streamsList && listed != nil && listed != changed {
		// Listed with another selection: list again.
		return expiredWatch(), nil
	}
	opts.LabelSelector = and(opts.LabelSelector, sel)
	w, err := l.inner.WatchWithContext(ctx, opts)
	if err != nil {
		return nil, err
	}
	if streamsList {
		l.mu.Lock()
		l.listedWith = changed
		l.mu.Unlock()
	}
	return newEndingWatch(w, changed), nil
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

// expired is what an informer's reflector lists again after: the answer
// the API server gives a watch from a version it no longer has.
func expired() watch.Event {
	return watch.Event{Type: watch.Error, Object: &metav1.Status{Status: metav1.StatusFailure, Code: http.StatusGone,
		Reason: metav1.StatusReasonExpired, Message: "the shards this replica caches changed: list again"}}
}

// expiredWatch is a watch that ends at once, expired.
func expiredWatch() watch.Interface {
	ch := make(chan watch.Event, 1)
	ch <- expired()
	close(ch)
	return endedWatch(ch)
}

type endedWatch chan watch.Event

func (w endedWatch) ResultChan() <-chan watch.Event { return w }
func (w endedWatch) Stop()                          {}

// endingWatch passes its inner watch's events until the selection it was
// made with changes; then it ends with an expired answer.
type endingWatch struct {
	inner   watch.Interface
	out     chan watch.Event
	stop    chan struct{}
	stopped sync.Once
}

func newEndingWatch(inner watch.Interface, changed <-chan struct{}) *endingWatch {
	w := &endingWatch{inner: inner, out: make(chan watch.Event), stop: make(chan struct{})}
	go w.run(changed)
	return w
}

func (w *endingWatch) run(changed <-chan struct{}) {
	defer close(w.out)
	defer w.inner.Stop()
	for {
		select {
		case e, ok := <-w.inner.ResultChan():
			if !ok {
				return
			}
			select {
			case w.out <- e:
			case <-w.stop:
				return
			}
		case <-changed:
			select {
			case w.out <- expired():
			case <-w.stop:
			}
			return
		case <-w.stop:
			return
		}
	}
}

func (w *endingWatch) ResultChan() <-chan watch.Event { return w.out }

func (w *endingWatch) Stop() { w.stopped.Do(func() { close(w.stop) }) }
