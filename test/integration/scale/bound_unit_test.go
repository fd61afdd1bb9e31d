//go:build integration

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

package scale

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cloudkinds/provider-aws-services/internal/aws/quota"

	"github.com/cloudkinds/provider-aws-services/internal/tenancy/budget"
)

var defaultQuotas = budget.Quotas{Share: budget.DefaultShare}

func TestAWSBound(t *testing.T) {
	type bound struct {
		Op    string
		Calls int
		Time  time.Duration
	}
	cases := map[string]struct {
		counts map[string]int
		want   bound
	}{
		"1000 DeliveryStreams alone: 1000 creates at 4 per second": {
			counts: map[string]int{"DeliveryStream": 1000},
			want:   bound{Op: "Firehose:CreateDeliveryStream", Calls: 1000, Time: 250 * time.Second},
		},
		"200 per kind: Firehose's and EventBridge's creates tie at 4 per second": {
			counts: map[string]int{"DeliveryStream": 200, "Subscription": 200, "Endpoint": 200, "EndpointConfig": 200, "APIKeyCredentialProvider": 200},
			want:   bound{Op: "EventBridge:CreateEndpoint", Calls: 200, Time: 50 * time.Second},
		},
		"5001: 2000 streams bind": {
			counts: map[string]int{"DeliveryStream": 2000, "Subscription": 1000, "Endpoint": 667, "EndpointConfig": 667, "APIKeyCredentialProvider": 667},
			want:   bound{Op: "Firehose:CreateDeliveryStream", Calls: 2000, Time: 500 * time.Second},
		},
		"SageMaker's assumed quota binds when it has the most": {
			counts: map[string]int{"DeliveryStream": 10, "EndpointConfig": 800},
			want:   bound{Op: "SageMaker:CreateEndpointConfig", Calls: 800, Time: 100 * time.Second},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			l := awsLoads(tc.counts, defaultQuotas)[0]
			got := bound{Op: l.op.String(), Calls: l.calls, Time: l.time().Round(time.Millisecond)}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("awsLoads(...)[0]: -want, +got:\n%s", diff)
			}
		})
	}
}

func TestExpectedPoll(t *testing.T) {
	cases := map[string]struct {
		counts map[string]int
		poll   time.Duration
		want   map[string]time.Duration
	}{
		"Few resources: --poll": {
			counts: map[string]int{"DeliveryStream": 20, "Subscription": 20, "Endpoint": 20, "EndpointConfig": 20, "APIKeyCredentialProvider": 20},
			poll:   time.Minute,
			want: map[string]time.Duration{"DeliveryStream": time.Minute, "Subscription": time.Minute, "Endpoint": time.Minute,
				"EndpointConfig": time.Minute, "APIKeyCredentialProvider": time.Minute},
		},
		"5001: each kind stretched by its own budgets only": {
			counts: map[string]int{"DeliveryStream": 2000, "Subscription": 1000, "Endpoint": 667, "EndpointConfig": 667, "APIKeyCredentialProvider": 667},
			poll:   time.Minute,
			want: map[string]time.Duration{
				"DeliveryStream":           500 * time.Second, // 2000 describes (and tag lists) at 4 per second
				"Subscription":             time.Minute,       // 1000 at 24 per second: 41.7 s
				"Endpoint":                 time.Minute,       // 667 at 40 per second
				"EndpointConfig":           83375 * time.Millisecond,
				"APIKeyCredentialProvider": 83375 * time.Millisecond,
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := expectedPoll(tc.counts, tc.poll, defaultQuotas)
			for k, d := range got {
				got[k] = d.Round(time.Millisecond)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("expectedPoll(...): -want, +got:\n%s", diff)
			}
		})
	}
}

// TestNoSharedOperations checks what expectedPoll relies on: no two kinds
// call the same operation, so each budget paces one kind's looks.
func TestNoSharedOperations(t *testing.T) {
	seen := map[quota.Operation]string{}
	for kind, ops := range pollCalls {
		for _, op := range ops {
			if other, ok := seen[op]; ok && other != kind {
				t.Errorf("%s and %s both call %s", other, kind, op)
			}
			seen[op] = kind
		}
	}
}

func TestFlagDefaults(t *testing.T) {
	help := `usage: provider [<flags>]

Flags:
      --help                     Show context-sensitive help (also try
                                 --help-long and --help-man).
  -s, --sync=1h                  How often all resources are resynced from the
                                 cache.
      --poll=1m                  How often each managed resource is checked for
                                 drift from AWS.
      --aws-quota=AWS-QUOTA ...  An override.
      --max-reconcile-rate=10    The global maximum rate per second at
`
	want := map[string]string{"sync": "1h", "poll": "1m", "aws-quota": "AWS-QUOTA", "max-reconcile-rate": "10"}
	if diff := cmp.Diff(want, flagDefaults(help)); diff != "" {
		t.Errorf("flagDefaults(...): -want, +got:\n%s", diff)
	}
}

func TestReconcileRate(t *testing.T) {
	cases := map[string]float64{"10": 10, "2.5": 2.5, "0": 0, "-1": 0, "MAX-RECONCILE-RATE": 0, "": 0, "+Inf": 0}
	for rate, want := range cases {
		if got := (flags{rate: rate}).reconcileRate(); got != want {
			t.Errorf("--max-reconcile-rate=%q: reconcileRate() = %v, want %v", rate, got, want)
		}
	}
}
