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
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestLeaseValidate(t *testing.T) {
	s := time.Second
	cases := map[string]struct {
		reason string
		lease  Lease
		want   string
	}{
		"Default": {
			reason: "The default lease is valid.",
			lease:  DefaultLease,
		},
		"KubeControllerManager": {
			reason: "kube-controller-manager's lease (15 s, 10 s, 2 s) is valid.",
			lease:  Lease{Duration: 15 * s, RenewDeadline: 10 * s, RetryPeriod: 2 * s},
		},
		"Zero": {
			reason: "Every duration must be positive.",
			lease:  Lease{Duration: 14 * s, RenewDeadline: 10 * s},
			want:   "--leader-election-lease-duration (14s), --leader-election-renew-deadline (10s) and --leader-election-retry-period (0s) must be positive",
		},
		"RenewDeadlineWithinJitter": {
			reason: "client-go refuses a renew deadline not longer than 1.2 retry periods.",
			lease:  Lease{Duration: 14 * s, RenewDeadline: 2 * s, RetryPeriod: 2 * s},
			want:   "--leader-election-renew-deadline (2s) must be longer than 1.2 times --leader-election-retry-period (2s): the leader must be able to try to renew more than once",
		},
		"LeaseNotLongerThanRenewal": {
			reason: "A standby must not take over while a leader that cannot renew still leads.",
			lease:  Lease{Duration: 11 * s, RenewDeadline: 10 * s, RetryPeriod: s},
			want:   "--leader-election-lease-duration (11s) must be longer than --leader-election-renew-deadline (10s) plus --leader-election-retry-period (1s): a leader that cannot renew must give up before a standby may take over",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := ""
			if err := tc.lease.Validate(); err != nil {
				got = err.Error()
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n-want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
