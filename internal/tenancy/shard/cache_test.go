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
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	toolscache "k8s.io/client-go/tools/cache"
	clocktesting "k8s.io/utils/clock/testing"
)

// fourShards is a Set of four shards that holds none yet.
func fourShards() *Set {
	return New(nil, "provider", "a", 4, timing, logging.NewNopLogger(), clocktesting.NewFakeClock(time.Now()))
}

// holdNow makes the Set hold shards since now, and settles its cache.
func (s *Set) holdNow(shards ...int) {
	s.mu.Lock()
	clear(s.held)
	for _, n := range shards {
		s.held[n] = s.clock.Now()
	}
	s.mu.Unlock()
	s.settleCache()
}

func TestSelection(t *testing.T) {
	cases := map[string]struct {
		held []int
		want string
	}{
		"NoneHeldCachesOnlyTheUnlabelled":    {want: LabelShard + " notin (0,1,2,3)"},
		"SomeHeldCachesThemAndTheUnlabelled": {held: []int{1, 3}, want: LabelShard + " notin (0,2)"},
		"AllHeldCachesEverything":            {held: []int{0, 1, 2, 3}, want: ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := fourShards()
			s.holdNow(tc.held...)
			got, _ := s.selection()
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("selection(): -want, +got:\n%s", diff)
			}
		})
	}
}

func TestHoldsLabel(t *testing.T) {
	s := fourShards()
	s.holdNow(2)
	cases := map[string]struct {
		label string
		want  bool
	}{
		"AShardItHolds":       {label: "2", want: true},
		"AShardItDoesNotHold": {label: "1"},
		"NoShardOfThisCount":  {label: "4"},
		"NotANumber":          {label: "two"},
		"ANegativeNumber":     {label: "-2"},
		"NoLabelAtAll":        {label: ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := s.HoldsLabel(tc.label); got != tc.want {
				t.Errorf("HoldsLabel(%q): want %t, got %t", tc.label, tc.want, got)
			}
		})
	}
}

// recordingLW records the selectors it was asked with, and hands out
// watches the test drives.
type recordingLW struct {
	mu             sync.Mutex
	lists, watches []string
	last           *watch.FakeWatcher
	items          []corev1.ConfigMap
}

// IsWatchListSemanticsUnSupported: an informer lists, then watches.
func (l *recordingLW) IsWatchListSemanticsUnSupported() bool { return true }

func (l *recordingLW) List(opts metav1.ListOptions) (runtime.Object, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lists = append(l.lists, opts.LabelSelector)
	return &corev1.ConfigMapList{ListMeta: metav1.ListMeta{ResourceVersion: "1"}, Items: l.items}, nil
}

func (l *recordingLW) Watch(opts metav1.ListOptions) (watch.Interface, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := opts.LabelSelector
	if opts.SendInitialEvents != nil && *opts.SendInitialEvents {
		w += fmt.Sprintf(" (every object first, from %q %s)", opts.ResourceVersion, opts.ResourceVersionMatch)
	}
	l.watches = append(l.watches, w)
	l.last = watch.NewFake()
	return l.last, nil
}

// current is the last watch handed out, nil before the first.
func (l *recordingLW) current() *watch.FakeWatcher {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.last
}

// firstList is the selector of the first list.
func (l *recordingLW) firstList() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.lists[:1])
}

func next(t *testing.T, w watch.Interface) (watch.Event, bool) {
	t.Helper()
	select {
	case e, open := <-w.ResultChan():
		return e, open
	case <-time.After(5 * time.Second):
		t.Fatal("no event within 5 s")
	}
	return watch.Event{}, false
}

func configMap(name, shard string) *corev1.ConfigMap {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "team", Name: name, ResourceVersion: "1"}}
	if shard != "" {
		cm.Labels = map[string]string{LabelShard: shard}
	}
	return cm
}

func TestSelectingWatchesAgainWhenTheShardsGrow(t *testing.T) {
	ctx := context.Background()
	s := fourShards()
	s.holdNow(0, 1)
	inner := &recordingLW{}
	var lw toolscache.ListerWatcherWithContext = &selecting{inner: toolscache.ToListerWatcherWithContext(inner), plain: inner, set: s}

	if _, err := lw.ListWithContext(ctx, metav1.ListOptions{LabelSelector: "team=a"}); err != nil {
		t.Fatal(err)
	}
	w, err := lw.WatchWithContext(ctx, metav1.ListOptions{ResourceVersion: "1"})
	if err != nil {
		t.Fatal(err)
	}
	// Its events pass while the shards stay.
	go inner.last.Add(configMap("passed", "1"))
	if e, _ := next(t, w); e.Type != watch.Added {
		t.Fatalf("an event of the watch: want it passed, got %v", e)
	}
	// The replica takes shard 2: the watch ends, with no error, so that
	// the informer watches again at once.
	s.holdNow(0, 1, 2)
	if e, open := next(t, w); open {
		t.Fatalf("once the shards grew: want the watch ended, got %v", e)
	}
	if !inner.last.IsStopped() {
		t.Error("the API server's watch was not stopped")
	}
	// The watch from the informer's version asks for every object first:
	// those of shard 2 are not in the informer.
	if _, err := lw.WatchWithContext(ctx, metav1.ListOptions{ResourceVersion: "7"}); err != nil {
		t.Fatal(err)
	}
	// The next, from a later version, only for the changes.
	if _, err := lw.WatchWithContext(ctx, metav1.ListOptions{ResourceVersion: "9"}); err != nil {
		t.Fatal(err)
	}
	// A list covers the selection too.
	s.holdNow(0, 1, 2, 3)
	if _, err := lw.ListWithContext(ctx, metav1.ListOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := lw.WatchWithContext(ctx, metav1.ListOptions{ResourceVersion: "11"}); err != nil {
		t.Fatal(err)
	}

	want := struct{ Lists, Watches []string }{
		Lists: []string{"team=a," + LabelShard + " notin (2,3)", ""},
		Watches: []string{
			LabelShard + " notin (2,3)",
			LabelShard + ` notin (3) (every object first, from "7" NotOlderThan)`,
			LabelShard + " notin (3)",
			"",
		},
	}
	got := struct{ Lists, Watches []string }{inner.lists, inner.watches}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("what the API server was asked for: -want, +got:\n%s", diff)
	}
}

func TestSelectingDropsTheObjectsOfShardsLetGo(t *testing.T) {
	s := fourShards()
	s.holdNow(0, 1)
	inner := &recordingLW{items: []corev1.ConfigMap{*configMap("zero", "0"), *configMap("one", "1"), *configMap("unlabelled", "")}}
	// A new object's work is its "account" annotation's, when it has one.
	s.KeyedBy(&corev1.ConfigMap{}, func(o runtime.Object) (string, bool) {
		a, ok := o.(*corev1.ConfigMap).Annotations["account"] //nolint:forcetypeassert // ConfigMaps only
		return a, ok
	})
	mine, theirs := keysOf(s, 1)
	newObject := func(name, account string) *corev1.ConfigMap {
		cm := configMap(name, "")
		cm.Annotations = map[string]string{"account": account}
		return cm
	}
	i := runSynced(t, s, inner)
	// It lets shard 0 go: its objects leave the cache at once, and the
	// watch, still selecting them at the API server, drops their events
	// or passes them as deletions.
	s.holdNow(1)
	events := []watch.Event{
		{Type: watch.Added, Object: configMap("zero-new", "0")},
		{Type: watch.Modified, Object: configMap("one", "0")}, // moved to shard 0
		{Type: watch.Added, Object: configMap("one-new", "1")},
		{Type: watch.Added, Object: configMap("unlabelled-new", "")},
		{Type: watch.Added, Object: configMap("no-shard-of-this-count", "12")},
		{Type: watch.Added, Object: newObject("new-mine", mine)},
		{Type: watch.Added, Object: newObject("new-theirs", theirs)},
	}
	for deadline := time.Now().Add(5 * time.Second); inner.current() == nil; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the informer did not watch within 5 s")
		}
	}
	for _, e := range events {
		inner.current().Action(e.Type, e.Object)
	}
	want := []string{"new-mine", "no-shard-of-this-count", "one-new", "unlabelled", "unlabelled-new"}
	if diff := cmp.Diff(want, cachedNames(i, want)); diff != "" {
		t.Errorf("the objects cached: -want, +got:\n%s", diff)
	}
}

// cachedNames are the names of the ConfigMaps i caches, in order, once they
// are want or 5 s passed.
func cachedNames(i toolscache.SharedIndexInformer, want []string) []string {
	var got []string
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		got = got[:0]
		for _, o := range i.GetStore().List() {
			got = append(got, o.(*corev1.ConfigMap).Name) //nolint:forcetypeassert // a store of ConfigMaps
		}
		slices.Sort(got)
		if cmp.Equal(want, got) {
			break
		}
	}
	return got
}

func TestCachingSelectsOnlyTheKindsGiven(t *testing.T) {
	newInformer := fourShards().Caching(&corev1.ConfigMap{})
	cases := map[string]struct {
		object runtime.Object
		want   []string
	}{
		"AKindGivenIsSelected":    {object: &corev1.ConfigMap{}, want: []string{LabelShard + " notin (0,1,2,3)"}},
		"AnotherKindIsNotTouched": {object: &corev1.Secret{}, want: []string{""}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			inner := &recordingLW{}
			i := newInformer(inner, tc.object, 0, toolscache.Indexers{})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go i.RunWithContext(ctx)
			if !toolscache.WaitForCacheSync(ctx.Done(), i.HasSynced) {
				t.Fatal("not synced")
			}
			if diff := cmp.Diff(tc.want, inner.firstList()); diff != "" {
				t.Errorf("the informer's first list: -want, +got:\n%s", diff)
			}
		})
	}
}

// keysOf returns a key whose work is in shard n of s, and one whose is not.
func keysOf(s *Set, n int) (in, out string) {
	for i := 0; in == "" || out == ""; i++ {
		k := fmt.Sprintf("11112222%04d", i)
		if s.Of(k) == n {
			in = k
		} else {
			out = k
		}
	}
	return in, out
}

func TestDropForgetsOnlyAnotherReplicasObjects(t *testing.T) {
	s := fourShards()
	s.holdNow(1)
	inner := &recordingLW{items: []corev1.ConfigMap{*configMap("mine", ""), *configMap("theirs", ""), *configMap("secret", "")}}
	i := runSynced(t, s, inner)
	mine, theirs := keysOf(s, 1)
	s.Drop(configMap("mine", ""), mine)
	s.Drop(configMap("theirs", ""), theirs)
	s.Drop(&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "team", Name: "secret"}}, theirs) // a kind it does not cache so
	var got []string
	for _, o := range i.GetStore().List() {
		got = append(got, o.(*corev1.ConfigMap).Name) //nolint:forcetypeassert // a store of ConfigMaps
	}
	slices.Sort(got)
	if diff := cmp.Diff([]string{"mine", "secret"}, got); diff != "" {
		t.Errorf("the objects cached after Drop: -want, +got:\n%s", diff)
	}
}

func TestAShardTakenDeletesWhatTheStreamNoLongerHas(t *testing.T) {
	s := fourShards()
	s.holdNow(1)
	inner := &recordingLW{items: []corev1.ConfigMap{*configMap("stays", "1"), *configMap("gone-meanwhile", "1")}}
	i := runSynced(t, s, inner)
	first := watchAfter(t, inner, nil)
	// It takes shard 2: the informer watches again, asking for every
	// object first. One of those it has was deleted in between.
	s.holdNow(1, 2)
	second := watchAfter(t, inner, first)
	end := configMap("", "")
	end.ResourceVersion = "9"
	end.Annotations = map[string]string{metav1.InitialEventsAnnotationKey: "true"}
	second.Add(configMap("stays", "1"))
	second.Add(configMap("taken", "2"))
	second.Action(watch.Bookmark, end)

	want := []string{"stays", "taken"}
	if diff := cmp.Diff(want, cachedNames(i, want)); diff != "" {
		t.Errorf("the objects cached after the stream: -want, +got:\n%s", diff)
	}
}

// watchAfter waits for the informer's watch after previous, and returns it.
func watchAfter(t *testing.T, l *recordingLW, previous *watch.FakeWatcher) *watch.FakeWatcher {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if w := l.current(); w != nil && w != previous {
			return w
		}
	}
	t.Fatal("the informer did not watch again within 10 s")
	return nil
}

// runSynced runs an informer of ConfigMaps cached as s caches (Caching) over
// inner, until the test ends, and waits until it synced.
func runSynced(t *testing.T, s *Set, inner *recordingLW) toolscache.SharedIndexInformer {
	t.Helper()
	i := s.Caching(&corev1.ConfigMap{})(inner, &corev1.ConfigMap{}, 0, toolscache.Indexers{})
	go i.RunWithContext(t.Context())
	if !toolscache.WaitForCacheSync(t.Context().Done(), i.HasSynced) {
		t.Fatal("not synced")
	}
	return i
}
