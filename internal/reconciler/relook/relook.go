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

// Package relook times the first look at a resource after its create, for
// the kinds AWS creates asynchronously: at the time AWS has needed to create
// the kind's recent resources, learned from what those first looks found,
// rather than at once and again and again while AWS is still at work. Each
// look costs a call from a budget shared with every other resource's.
package relook

import (
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/clock"

	"github.com/cloudkinds/provider-aws-services/internal/kube/memory"
)

// The bounds of the learned time, and how it moves. A first look that finds
// the resource still creating moves the time up by half; one that finds it
// created, on time, moves it down by 3 %: most first looks find the
// resource created, at the cost of a wait a little longer than AWS's.
const (
	Shortest = time.Second
	Longest  = 5 * time.Minute
	grow     = 1.5
	shrink   = 0.97
	// onTime is how much later than the learned time a look may come and
	// still tell that time was long enough: a look that came later, held
	// back by its budget, tells nothing of how long AWS took.
	onTime = 1.25
)

// A Schedule learns how long AWS takes to create a kind's resources, and
// times the first look after each create by it. It learns apart for each
// scope (an account at an endpoint, awsconfig.Session.Scope): an endpoint
// of a tenant's choosing, slow or lying, times no one's looks but its own.
type Schedule struct {
	clock   clock.PassiveClock
	created *memory.Store[types.UID, create]

	mu       sync.Mutex
	expected map[string]learned
	// forgotAt is when the learned times were last looked over (forget).
	forgotAt time.Time
}

// learned is how long creates take in a scope, and when that was last
// learned.
type learned struct {
	expected time.Duration
	at       time.Time
}

// forgetAfter is how long what a scope taught is kept once nothing more is
// learned of it: a scope whose creates stopped (a tenant's endpoint, a
// config gone) costs nothing after it, and one that comes back starts at
// Shortest, learning again within a few creates.
const forgetAfter = time.Hour

// A create is when a resource was created, and in which scope.
type create struct {
	at    time.Time
	scope string
}

// New returns the schedule of one kind, starting at Shortest.
func New(c clock.PassiveClock) *Schedule {
	return &Schedule{clock: c, created: memory.NewWithClock[types.UID, create](c), expected: map[string]learned{}}
}

// Expected is how long AWS is expected to take to create a resource in
// scope now.
func (s *Schedule) Expected(scope string) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.expectedLocked(scope)
}

func (s *Schedule) expectedLocked(scope string) time.Duration {
	if e, ok := s.expected[scope]; ok {
		return e.expected
	}
	return Shortest
}

// Created records that the resource of uid was created now, in scope. A nil
// Schedule records nothing.
func (s *Schedule) Created(uid types.UID, scope string) {
	if s == nil {
		return
	}
	now := s.clock.Now()
	s.created.PutFor(uid, create{at: now, scope: scope}, now.Add(s.Expected(scope)))
}

// FirstLook returns when the first look at the resource of uid after its
// create is due; false when no create of it is remembered (it was looked at
// since, or the provider restarted), when a look may go now.
func (s *Schedule) FirstLook(uid types.UID) (time.Time, bool) {
	if s == nil {
		return time.Time{}, false
	}
	c, ok := s.created.Peek(uid)
	if !ok {
		return time.Time{}, false
	}
	return c.at.Add(s.Expected(c.scope)), true
}

// A Finding is what the first look after a create found.
type Finding int

// What a first look can find.
const (
	// Other tells nothing of how long a create takes: a failure, a
	// resource waiting on a person.
	Other Finding = iota
	// StillCreating is a resource AWS is still creating.
	StillCreating
	// Created is a resource AWS has finished creating.
	Created
)

// Looked learns from the first look at the resource of uid after its
// create, if this was it; later looks are timed as any look at a resource
// in progress.
func (s *Schedule) Looked(uid types.UID, found Finding) {
	if s == nil {
		return
	}
	c, ok := s.created.Take(uid)
	if !ok {
		return
	}
	took := s.clock.Since(c.at)
	s.mu.Lock()
	defer s.mu.Unlock()
	expected := s.expectedLocked(c.scope)
	switch found {
	case StillCreating:
		expected = time.Duration(float64(max(expected, took)) * grow)
	case Created:
		if float64(took) <= float64(expected)*onTime {
			expected = time.Duration(float64(expected) * shrink)
		}
	case Other:
	}
	now := s.clock.Now()
	s.expected[c.scope] = learned{expected: min(Longest, max(Shortest, expected)), at: now}
	s.forget(now)
}

// forget drops, at most every quarter of forgetAfter, the times of the
// scopes nothing was learned of in forgetAfter. The caller holds s.mu.
func (s *Schedule) forget(now time.Time) {
	if now.Sub(s.forgotAt) < forgetAfter/4 {
		return
	}
	s.forgotAt = now
	for scope, l := range s.expected {
		if now.Sub(l.at) >= forgetAfter {
			delete(s.expected, scope)
		}
	}
}
