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
	"math"
	"strconv"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

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
