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

// Package shard divides the provider's work between its replicas. The work
// is cut by AWS account (docs/decisions.md, "Replicas share the work by AWS account"): a fixed number of
// shards, an account's work in the shard its scope hashes to, each shard
// held by one replica at a time through a Lease of its own. So each
// account's budgets live in one replica, whole, and the replicas together
// stay within AWS's quotas without dividing any budget; the namespaces
// sharing an account take their turns in one scheduler. Replicas say they
// are alive with a member Lease each, and each holds its part of the
// shards: a replica that joins takes shards the others let go, and the
// shards of one that dies are taken over once its Leases expire.
package shard

import (
	"context"
	"hash/fnv"
	"reflect"
	"slices"
	"sync"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	"k8s.io/apimachinery/pkg/runtime"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

const (
	// LabelRole marks the Leases of sharding: RoleShard or RoleMember.
	LabelRole = "shards.services.k8s.aws/role"
	// RoleShard marks a shard's Lease.
	RoleShard = "shard"
	// RoleMember marks a replica's Lease, which says it is alive.
	RoleMember = "member"

	// LabelShard is the shard a Lease is of, and the shard of the work of a
	// managed resource, which the provider writes (Labels) so that each
	// replica caches only the objects of its shards (Caching).
	LabelShard = "shards.services.k8s.aws/shard"

	leasePrefix = "provider-aws-services-"
)

// Timing is how long a Lease lasts unrenewed, how long its holder acts on
// it after its last renewal, and how often it is renewed: as leader
// election's (--leader-election-lease-duration and the others).
type Timing struct {
	Duration, RenewDeadline, RetryPeriod time.Duration
}

// A Set is this replica's part of the shards.
type Set struct {
	kube      client.Client // reads and writes the Leases at the API server
	namespace string
	identity  string
	shards    int
	timing    Timing
	clock     clock.WithTicker
	log       logging.Logger

	mu   sync.RWMutex
	held map[int]time.Time // shard → when its renewal last succeeded
	// working counts, per shard, the work under way that Enter let in;
	// releasing are the shards let go whose Leases wait for that work.
	working   map[int]int
	releasing map[int]bool
	// acquired are told the shards this replica takes, once a round;
	// taken gathers them during the round (guarded by mu).
	acquired []func(shards []int)
	taken    []int
	// cached are the shards whose objects this replica caches (Caching):
	// those it holds, as of the end of the last round; grown is closed
	// when they grow; stores are the informers' stores of the kinds it
	// caches so.
	cached []int
	grown  chan struct{}
	stores map[reflect.Type]toolscache.Store
	keys   map[reflect.Type]func(runtime.Object) (string, bool)
	// seen is when this replica first saw each Lease's current version: a
	// Lease expires its duration after that, on this replica's clock, so
	// that replicas whose clocks differ agree (as client-go's leader
	// election does).
	seen map[string]sighting
}

type sighting struct {
	version string
	at      time.Time
}

// New returns the part of shards that the replica identity holds; the Leases
// are kept in namespace. Add it to the manager, which runs it on every
// replica (no leader election).
func New(kube client.Client, namespace, identity string, shards int, t Timing, log logging.Logger, c clock.WithTicker) *Set {
	return &Set{kube: kube, namespace: namespace, identity: identity, shards: shards, timing: t, clock: c, log: log,
		held: map[int]time.Time{}, working: map[int]int{}, releasing: map[int]bool{}, seen: map[string]sighting{},
		grown: make(chan struct{}), stores: map[reflect.Type]toolscache.Store{},
		keys: map[reflect.Type]func(runtime.Object) (string, bool){}}
}

// Of is the shard of key: an AWS scope (an account, at its endpoint), or
// for work that calls no account, its namespace.
func (s *Set) Of(key string) int {
	h := fnv.New32a()
	_, _ = h.Write([]byte(key))
	return int(h.Sum32() % uint32(s.shards)) //nolint:gosec // shards is small and positive
}

// Holds reports whether this replica does key's work now: it holds key's
// shard and renewed it within the renew deadline, which ends before any
// other replica may take the shard over.
func (s *Set) Holds(key string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	at, ok := s.held[s.Of(key)]
	return ok && s.clock.Since(at) < s.timing.RenewDeadline
}

// Enter reports whether this replica does key's work now and, when it does,
// counts that work in key's shard until done is called: a shard this
// replica lets go is handed over only once the work under way in it is
// done (or the renew deadline passed), so that two replicas never work on
// one object at once.
func (s *Set) Enter(key string) (done func(), ok bool) {
	n := s.Of(key)
	s.mu.Lock()
	defer s.mu.Unlock()
	at, held := s.held[n]
	if !held || s.clock.Since(at) >= s.timing.RenewDeadline {
		return nil, false
	}
	s.working[n]++
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			s.working[n]--
			s.mu.Unlock()
		})
	}, true
}

// Held returns the shards this replica holds, in order.
func (s *Set) Held() []int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]int, 0, len(s.held))
	for i := range s.held {
		out = append(out, i)
	}
	slices.Sort(out)
	return out
}

// OnAcquire tells fn the shards this replica takes in a round, so that the
// work of their objects is queued here. Call it before Start.
func (s *Set) OnAcquire(fn func(shards []int)) {
	s.acquired = append(s.acquired, fn)
}

// NeedLeaderElection is false: every replica holds shards.
func (s *Set) NeedLeaderElection() bool { return false }

// Start renews, takes and lets go of shards every retry period until ctx
// ends; then it lets go of all it holds, so that the others take them at
// their next look rather than after the lease duration.
func (s *Set) Start(ctx context.Context) error {
	t := s.clock.NewTicker(s.timing.RetryPeriod)
	defer t.Stop()
	for {
		s.Round(ctx)
		select {
		case <-ctx.Done():
			s.stop(ctx)
			return nil
		case <-t.C():
		}
	}
}

// stop lets go of every shard, with time for the work under way.
func (s *Set) stop(ctx context.Context) {
	stop, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*s.timing.RenewDeadline)
	defer cancel()
	s.leave(stop)
}
