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
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

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
