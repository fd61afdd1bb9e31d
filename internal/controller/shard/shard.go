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
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	coordinationv1 "k8s.io/api/coordination/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/internal/metrics"
)

const (
	// LabelRole marks the Leases of sharding: RoleShard or RoleMember.
	LabelRole = "shards.services.k8s.aws/role"
	// RoleShard is a shard's Lease; RoleMember a replica's.
	RoleShard  = "shard"
	RoleMember = "member"

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
	// acquired are told each shard this replica takes.
	acquired []func(shard int)
}

// New returns the part of shards that the replica identity holds; the Leases
// are kept in namespace. Add it to the manager, which runs it on every
// replica (no leader election).
func New(kube client.Client, namespace, identity string, shards int, t Timing, log logging.Logger, c clock.WithTicker) *Set {
	return &Set{kube: kube, namespace: namespace, identity: identity, shards: shards, timing: t, clock: c, log: log, held: map[int]time.Time{}}
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

// OnAcquire tells fn each shard this replica takes, so that the work of its
// objects is queued here. Call it before Start.
func (s *Set) OnAcquire(fn func(shard int)) {
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
			stop, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.timing.RenewDeadline)
			defer cancel()
			s.leave(stop)
			return nil
		case <-t.C():
		}
	}
}

// Round is one look at the shards: this replica's member Lease renewed, its
// shards renewed, those over its part let go, and free or expired ones
// taken up to its part (the shards divided by the replicas alive).
func (s *Set) Round(ctx context.Context) {
	now := s.clock.Now()
	if err := s.renewMember(ctx, now); err != nil {
		s.log.Debug("Cannot renew this replica's member lease", "error", err)
	}
	l := &coordinationv1.LeaseList{}
	if err := s.kube.List(ctx, l, client.InNamespace(s.namespace), client.HasLabels{LabelRole}); err != nil {
		s.log.Debug("Cannot list the shard leases", "error", err)
		return
	}
	members, shards := 0, map[int]*coordinationv1.Lease{}
	for i := range l.Items {
		lease := &l.Items[i]
		switch lease.Labels[LabelRole] {
		case RoleMember:
			if s.alive(lease, now) || holder(lease) == s.identity {
				members++
			}
		case RoleShard:
			if n, err := strconv.Atoi(lease.Labels[labelShard]); err == nil && n >= 0 && n < s.shards {
				shards[n] = lease
			}
		}
	}
	part := (s.shards + max(1, members) - 1) / max(1, members)
	s.forgetLost(shards)

	mine := 0
	for n := range s.shards {
		if lease, ok := shards[n]; ok && holder(lease) == s.identity {
			if mine >= part {
				s.release(ctx, n, lease)
				continue
			}
			if s.renew(ctx, n, lease, now) {
				mine++
			}
		}
	}
	defer func() { metrics.ShardsHeld.Set(float64(len(s.Held()))) }()
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

// alive reports whether a Lease was renewed within its duration.
func (s *Set) alive(l *coordinationv1.Lease, now time.Time) bool {
	if l.Spec.RenewTime == nil {
		return false
	}
	return now.Before(l.Spec.RenewTime.Add(s.timing.Duration))
}

func holder(l *coordinationv1.Lease) string {
	if l.Spec.HolderIdentity == nil {
		return ""
	}
	return *l.Spec.HolderIdentity
}

const labelShard = "shards.services.k8s.aws/shard"

func (s *Set) leaseSpec(now time.Time) coordinationv1.LeaseSpec {
	id, seconds, at := s.identity, int32(s.timing.Duration/time.Second), metav1.NewMicroTime(now)
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
// objects' work, dropped meanwhile, is queued again.
func (s *Set) hold(n int, now time.Time) {
	was := s.heldWithin(n, now)
	s.mu.Lock()
	s.held[n] = now
	s.mu.Unlock()
	if was {
		return
	}
	s.log.Info("Holding a shard", "shard", n, "replica", s.identity)
	for _, fn := range s.acquired {
		fn(n)
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
			Labels: map[string]string{LabelRole: RoleShard, labelShard: strconv.Itoa(n)}}, Spec: s.leaseSpec(now)}
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

// release lets go of shard n: this replica stops its work at once, and
// another takes it at its next look.
func (s *Set) release(ctx context.Context, n int, l *coordinationv1.Lease) {
	s.mu.Lock()
	delete(s.held, n)
	s.mu.Unlock()
	l.Spec.HolderIdentity = nil
	l.Spec.RenewTime = nil
	if err := s.kube.Update(ctx, l); err != nil {
		s.log.Debug("Cannot let go of a shard lease", "shard", n, "error", err)
		return
	}
	s.log.Info("Let go of a shard", "shard", n, "replica", s.identity)
}

// leave lets go of every shard and deletes this replica's member Lease.
func (s *Set) leave(ctx context.Context) {
	l := &coordinationv1.LeaseList{}
	if err := s.kube.List(ctx, l, client.InNamespace(s.namespace), client.MatchingLabels{LabelRole: RoleShard}); err == nil {
		for i := range l.Items {
			if holder(&l.Items[i]) != s.identity {
				continue
			}
			if n, err := strconv.Atoi(l.Items[i].Labels[labelShard]); err == nil {
				s.release(ctx, n, &l.Items[i])
			}
		}
	}
	m := &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Namespace: s.namespace, Name: leasePrefix + "member-" + s.identity}}
	_ = client.IgnoreNotFound(s.kube.Delete(ctx, m))
}
