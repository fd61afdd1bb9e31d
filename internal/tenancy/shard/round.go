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
	"strconv"
	"sync"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/internal/metrics"
)

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
