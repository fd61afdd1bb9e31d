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

package provider

import (
	"fmt"
	"time"

	"k8s.io/client-go/tools/leaderelection"
)

// A Lease times leader election (--leader-election), as client-go's leader
// elector uses it.
type Lease struct {
	// Duration is how long a standby waits, after it last saw the leader
	// renew the lease, before it takes the lease over.
	Duration time.Duration
	// RenewDeadline is how long the leader keeps trying to renew before it
	// gives up leading, and the provider exits.
	RenewDeadline time.Duration
	// RetryPeriod is how often the leader renews and a standby looks at
	// the lease (each look a little later, up to 2.2 periods: client-go's
	// jitter).
	RetryPeriod time.Duration
}

// DefaultLease fails over within 20 s of a leader's crash and tolerates an
// API server that answers no renewal for 10 s, as kube-controller-manager
// and kube-scheduler do (15 s, 10 s, 2 s): RenewDeadline is theirs, the
// retry period is 1 s, so that a standby notices an expired lease sooner,
// and Duration keeps their 3 s between the moment a leader that cannot renew
// gives up (RetryPeriod + RenewDeadline after its last renewal) and the
// moment a standby may take over. A standby takes over between Duration − 1 s
// and Duration + 2 × 2.2 × RetryPeriod after the leader's last renewal
// (docs/operations.md).
var DefaultLease = Lease{Duration: 14 * time.Second, RenewDeadline: 10 * time.Second, RetryPeriod: time.Second}

// Validate says, naming the flags, why the lease cannot elect a single
// leader.
func (l Lease) Validate() error {
	switch {
	case l.Duration <= 0 || l.RenewDeadline <= 0 || l.RetryPeriod <= 0:
		return fmt.Errorf("--leader-election-lease-duration (%s), --leader-election-renew-deadline (%s) and --leader-election-retry-period (%s) must be positive", l.Duration, l.RenewDeadline, l.RetryPeriod)
	case l.RenewDeadline <= time.Duration(leaderelection.JitterFactor*float64(l.RetryPeriod)):
		return fmt.Errorf("--leader-election-renew-deadline (%s) must be longer than %v times --leader-election-retry-period (%s): the leader must be able to try to renew more than once", l.RenewDeadline, leaderelection.JitterFactor, l.RetryPeriod)
	case l.Duration <= l.RenewDeadline+l.RetryPeriod:
		return fmt.Errorf("--leader-election-lease-duration (%s) must be longer than --leader-election-renew-deadline (%s) plus --leader-election-retry-period (%s): a leader that cannot renew must give up before a standby may take over", l.Duration, l.RenewDeadline, l.RetryPeriod)
	}
	return nil
}
