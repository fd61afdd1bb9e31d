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
// is cut by AWS account (docs/sizing.md, "Past one pod"): a fixed number of
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
	"math"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	coordinationv1 "k8s.io/api/coordination/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/internal/metrics"
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

// Round is one look at the shards: this replica's member Lease renewed, its
// shards renewed, those over its part let go, and free or expired ones
// taken up to its part (the shards divided by the replicas alive).
func (s *Set) Round(ctx context.Context) {
	defer func() {
		metrics.ShardsHeld.Set(float64(len(s.Held())))
		s.countCached()
	}()
	defer s.tell()
	defer s.settleCache()
	// A round that hangs on the API server must not outlive the renew
	// deadline: the next one tries again.
	ctx, cancel := context.WithTimeout(ctx, s.timing.RenewDeadline/2)
	defer cancel()
	now := s.clock.Now()
	if err := s.renewMember(ctx, now); err != nil {
		s.log.Debug("Cannot renew this replica's member lease", "error", err)
	}
	members, shards, err := s.look(ctx, now)
	if err != nil {
		s.log.Debug("Cannot list the shard leases", "error", err)
		return
	}
	part := (s.shards + max(1, members) - 1) / max(1, members)
	s.forgetLost(shards)
	mine := s.keep(ctx, shards, part, now)
	for n := range s.shards {
		if mine >= part {
			break
		}
		lease, ok := shards[n]
		if ok && (holder(lease) == s.identity || (holder(lease) != "" && s.alive(lease, now))) {
			continue
		}
		if s.take(ctx, n, lease, now) {
			mine++
		}
	}
}

// look lists the Leases: it counts the replicas alive, deletes the member
// Leases of those long gone, and returns the shards' Leases by shard.
func (s *Set) look(ctx context.Context, now time.Time) (int, map[int]*coordinationv1.Lease, error) {
	l := &coordinationv1.LeaseList{}
	if err := s.kube.List(ctx, l, client.InNamespace(s.namespace), client.HasLabels{LabelRole}); err != nil {
		return 0, nil, err
	}
	members, shards := 0, map[int]*coordinationv1.Lease{}
	for i := range l.Items {
		lease := &l.Items[i]
		s.sighted(lease, now) // every round, so that expiry counts from the last change
		switch lease.Labels[LabelRole] {
		case RoleMember:
			switch {
			case holder(lease) == s.identity || s.alive(lease, now):
				members++
			case s.goneLong(lease, now):
				// A replica that died without leaving; its name is not
				// used again (a random part).
				s.forget(ctx, lease)
			}
		case RoleShard:
			if n, err := strconv.Atoi(lease.Labels[LabelShard]); err == nil && n >= 0 && n < s.shards {
				shards[n] = lease
			}
		}
	}
	return members, shards, nil
}

// keep renews this replica's shards up to its part, all at once, so that a
// slow API server delays each renewal by one answer, not by the sum of them,
// and lets the others go; it returns how many it keeps.
func (s *Set) keep(ctx context.Context, shards map[int]*coordinationv1.Lease, part int, now time.Time) int {
	renewing := make([]int, 0, part)
	for n := range s.shards {
		lease, ok := shards[n]
		if !ok || holder(lease) != s.identity || s.isReleasing(n) {
			continue
		}
		if len(renewing) >= part {
			s.release(ctx, n, lease)
			continue
		}
		renewing = append(renewing, n)
	}
	kept := make([]bool, len(renewing))
	var wg sync.WaitGroup
	for i, n := range renewing {
		wg.Go(func() { kept[i] = s.renew(ctx, n, shards[n], now) })
	}
	wg.Wait()
	mine := 0
	for _, k := range kept {
		if k {
			mine++
		}
	}
	return mine
}

// forgetLost forgets the shards this replica held that another holds now.
func (s *Set) forgetLost(shards map[int]*coordinationv1.Lease) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for n := range s.held {
		if l, ok := shards[n]; !ok || holder(l) != s.identity {
			delete(s.held, n)
		}
	}
}

// alive reports whether a Lease has a holder and changed within its
// duration, on this replica's clock.
func (s *Set) alive(l *coordinationv1.Lease, now time.Time) bool {
	if holder(l) == "" {
		return false
	}
	return now.Before(s.sighted(l, now).Add(durationOf(l, s.timing.Duration)))
}

// goneLong reports whether a Lease has not changed for five of its
// durations.
func (s *Set) goneLong(l *coordinationv1.Lease, now time.Time) bool {
	return !now.Before(s.sighted(l, now).Add(5 * durationOf(l, s.timing.Duration)))
}

// sighted is when this replica first saw the Lease's current version.
func (s *Set) sighted(l *coordinationv1.Lease, now time.Time) time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	seen, ok := s.seen[l.Name]
	if !ok || seen.version != l.ResourceVersion {
		seen = sighting{version: l.ResourceVersion, at: now}
		s.seen[l.Name] = seen
	}
	return seen.at
}

func durationOf(l *coordinationv1.Lease, otherwise time.Duration) time.Duration {
	if l.Spec.LeaseDurationSeconds != nil && *l.Spec.LeaseDurationSeconds > 0 {
		return time.Duration(*l.Spec.LeaseDurationSeconds) * time.Second
	}
	return otherwise
}

// forget deletes the member Lease of a replica long gone, unless it changed
// since it was read.
func (s *Set) forget(ctx context.Context, l *coordinationv1.Lease) {
	rv := l.ResourceVersion
	err := s.kube.Delete(ctx, l, client.Preconditions{ResourceVersion: &rv})
	if client.IgnoreNotFound(err) != nil {
		s.log.Debug("Cannot delete the member lease of a replica long gone", "lease", l.Name, "error", err)
		return
	}
	s.mu.Lock()
	delete(s.seen, l.Name)
	s.mu.Unlock()
}

func holder(l *coordinationv1.Lease) string {
	if l.Spec.HolderIdentity == nil {
		return ""
	}
	return *l.Spec.HolderIdentity
}

func (s *Set) leaseSpec(now time.Time) coordinationv1.LeaseSpec {
	id, at := s.identity, metav1.NewMicroTime(now)
	seconds := int32(min(s.timing.Duration/time.Second, math.MaxInt32)) //nolint:gosec // at most MaxInt32
	return coordinationv1.LeaseSpec{HolderIdentity: &id, LeaseDurationSeconds: &seconds, RenewTime: &at, AcquireTime: &at}
}

// renewMember renews this replica's member Lease, making it first.
func (s *Set) renewMember(ctx context.Context, now time.Time) error {
	l := &coordinationv1.Lease{}
	key := client.ObjectKey{Namespace: s.namespace, Name: leasePrefix + "member-" + s.identity}
	err := s.kube.Get(ctx, key, l)
	if kerrors.IsNotFound(err) {
		l = &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name, Labels: map[string]string{LabelRole: RoleMember}}, Spec: s.leaseSpec(now)}
		return s.kube.Create(ctx, l)
	}
	if err != nil {
		return err
	}
	at := metav1.NewMicroTime(now)
	l.Spec.RenewTime = &at
	return s.kube.Update(ctx, l)
}

// renew renews shard n; it reports whether this replica still holds it.
func (s *Set) renew(ctx context.Context, n int, l *coordinationv1.Lease, now time.Time) bool {
	at := metav1.NewMicroTime(now)
	l.Spec.RenewTime = &at
	if err := s.kube.Update(ctx, l); err != nil {
		// Kept until the renew deadline: the next round tries again.
		s.log.Debug("Cannot renew a shard lease", "shard", n, "error", err)
		return s.heldWithin(n, now)
	}
	s.hold(n, now)
	return true
}

// hold records that this replica holds shard n since its renewal at now,
// and tells the listeners when it did not hold it a moment ago: its
// objects' work, dropped meanwhile, is queued again. "A moment ago" is
// until the clock's now, not the round's: Holds compares the clock with the
// last renewal all along, so a renewal sent in time that an API server
// answers past the deadline leaves a gap in which the shard's work was
// dropped.
func (s *Set) hold(n int, now time.Time) {
	s.mu.Lock()
	at, ok := s.held[n]
	was := ok && s.clock.Since(at) < s.timing.RenewDeadline
	s.held[n] = now
	if !was {
		s.taken = append(s.taken, n)
	}
	s.mu.Unlock()
	if !was {
		s.log.Info("Holding a shard", "shard", n, "replica", s.identity)
	}
}

// tell tells the listeners the shards taken in this round.
func (s *Set) tell() {
	s.mu.Lock()
	taken := s.taken
	s.taken = nil
	s.mu.Unlock()
	if len(taken) == 0 {
		return
	}
	for _, fn := range s.acquired {
		fn(taken)
	}
}

func (s *Set) heldWithin(n int, now time.Time) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	at, ok := s.held[n]
	return ok && now.Sub(at) < s.timing.RenewDeadline
}

// take takes shard n, free or expired: made if it has no Lease yet, else
// written over the version read, so that of two replicas taking it at once
// one wins.
func (s *Set) take(ctx context.Context, n int, l *coordinationv1.Lease, now time.Time) bool {
	var err error
	if l == nil {
		l = &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Namespace: s.namespace, Name: leasePrefix + "shard-" + strconv.Itoa(n),
			Labels: map[string]string{LabelRole: RoleShard, LabelShard: strconv.Itoa(n)}}, Spec: s.leaseSpec(now)}
		err = s.kube.Create(ctx, l)
	} else {
		l.Spec = s.leaseSpec(now)
		err = s.kube.Update(ctx, l)
	}
	if err != nil {
		s.log.Debug("Cannot take a shard lease", "shard", n, "error", err)
		return false
	}
	s.hold(n, now)
	return true
}

// release lets go of shard n: this replica starts no more of its work at
// once, and its Lease is given up once the work under way is done, in the
// background, for another replica to take at its next look.
func (s *Set) release(ctx context.Context, n int, l *coordinationv1.Lease) {
	s.mu.Lock()
	delete(s.held, n)
	s.releasing[n] = true
	s.mu.Unlock()
	go func() {
		// It outlives the round.
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*s.timing.RenewDeadline)
		defer cancel()
		s.giveUp(ctx, n, l)
		s.mu.Lock()
		delete(s.releasing, n)
		s.mu.Unlock()
	}()
}

func (s *Set) isReleasing(n int) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.releasing[n]
}

// giveUp waits, up to the renew deadline, for the work under way in shard n
// and then gives its Lease up.
func (s *Set) giveUp(ctx context.Context, n int, l *coordinationv1.Lease) {
	// Real time: this waits for work, not for the Leases' clock.
	for start := time.Now(); time.Since(start) < s.timing.RenewDeadline; time.Sleep(20 * time.Millisecond) {
		s.mu.RLock()
		busy := s.working[n] > 0
		s.mu.RUnlock()
		if !busy {
			break
		}
	}
	l.Spec.HolderIdentity = nil
	l.Spec.RenewTime = nil
	if err := s.kube.Update(ctx, l); err != nil {
		s.log.Debug("Cannot let go of a shard lease", "shard", n, "error", err)
		return
	}
	s.log.Info("Let go of a shard", "shard", n, "replica", s.identity)
}

// leave lets go of every shard, once the work under way is done, and
// deletes this replica's member Lease.
func (s *Set) leave(ctx context.Context) {
	s.mu.Lock()
	clear(s.held)
	s.mu.Unlock()
	l := &coordinationv1.LeaseList{}
	if err := s.kube.List(ctx, l, client.InNamespace(s.namespace), client.MatchingLabels{LabelRole: RoleShard}); err == nil {
		var wg sync.WaitGroup
		for i := range l.Items {
			if holder(&l.Items[i]) != s.identity {
				continue
			}
			if n, err := strconv.Atoi(l.Items[i].Labels[LabelShard]); err == nil {
				wg.Go(func() { s.giveUp(ctx, n, &l.Items[i]) })
			}
		}
		wg.Wait()
	}
	m := &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Namespace: s.namespace, Name: leasePrefix + "member-" + s.identity}}
	_ = client.IgnoreNotFound(s.kube.Delete(ctx, m))
}
