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

// Package memory is where the provider keeps what one reconcile of an object
// learns for a later reconcile of the same object: a create that is about
// to happen, what a create answered, what references resolved to, a poll put
// off to a later time. Everything else is read anew from the API server's
// cache or from AWS at each reconcile.
//
// One rule prunes every entry: an entry is used up when it is taken, and
// forgotten Forget after its time (when it was put, or the time it is for),
// so that the entries of objects that are gone, or of reconciles that
// stopped half-way, do not pile up. A forgotten entry costs at most one
// call or one write that the entry would have spared.
package memory

import (
	"sync"
	"time"

	"k8s.io/utils/clock"
)

// Forget is how long an entry outlives its time. The reconcile an entry is
// for comes within seconds of it unless the provider stops.
const Forget = 5 * time.Minute

// A Store holds one value per object, keyed by K (the object's UID, or its
// namespace and name where the UID is not known yet).
type Store[K comparable, V any] struct {
	clock clock.PassiveClock

	mu        sync.Mutex
	entries   map[K]entry[V]
	lastPrune time.Time
}

type entry[V any] struct {
	value V
	at    time.Time
}

// New returns an empty store.
func New[K comparable, V any]() *Store[K, V] {
	return NewWithClock[K, V](clock.RealClock{})
}

// NewWithClock returns an empty store that reads time from c.
func NewWithClock[K comparable, V any](c clock.PassiveClock) *Store[K, V] {
	return &Store[K, V]{clock: c, entries: map[K]entry[V]{}}
}

// Put keeps v for key, timed now.
func (s *Store[K, V]) Put(key K, v V) { s.PutFor(key, v, s.clock.Now()) }

// PutFor keeps v for key, timed at: a time to come, for an entry that is for
// a later time.
func (s *Store[K, V]) PutFor(key K, v V, at time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.prune()
	s.entries[key] = entry[V]{value: v, at: at}
}

// Take returns the value kept for key and forgets it.
func (s *Store[K, V]) Take(key K) (V, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.live(key)
	delete(s.entries, key)
	return e.value, ok
}

// Peek returns the value kept for key and keeps it.
func (s *Store[K, V]) Peek(key K) (V, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.live(key)
	return e.value, ok
}

// Drop forgets the value kept for key.
func (s *Store[K, V]) Drop(key K) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.entries, key)
}

// Len is the number of values kept, forgotten ones not yet pruned included.
func (s *Store[K, V]) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.entries)
}

// live returns the entry for key unless it is forgotten.
func (s *Store[K, V]) live(key K) (entry[V], bool) {
	e, ok := s.entries[key]
	if !ok || s.clock.Since(e.at) > Forget {
		return entry[V]{}, false
	}
	return e, true
}

// prune drops the forgotten entries, at most once per pruneEvery, so that a
// burst of puts does not scan the store at each.
func (s *Store[K, V]) prune() {
	now := s.clock.Now()
	if now.Sub(s.lastPrune) < pruneEvery {
		return
	}
	s.lastPrune = now
	for k, e := range s.entries {
		if now.Sub(e.at) > Forget {
			delete(s.entries, k)
		}
	}
}

// pruneEvery is how often a put scans for forgotten entries.
const pruneEvery = time.Minute
