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

package conditions

import (
	"errors"
	"testing"
	"time"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
)

func TestPollInterval(t *testing.T) {
	hook := PollInterval(10 * time.Second)
	cases := map[string]struct {
		reason string
		ready  xpv2.Condition
		since  time.Duration
		want   time.Duration
	}{
		"JustCreating": {
			reason: "A resource that began creating a moment ago is looked at after a second.",
			ready:  xpv2.Creating(), since: 200 * time.Millisecond, want: time.Second,
		},
		"CreatingForFourSeconds": {
			reason: "A resource creating for 4 s is looked at again after as long.",
			ready:  xpv2.Creating(), since: 4 * time.Second, want: 4 * time.Second,
		},
		"CreatingForMinutes": {
			reason: "A resource creating for minutes is looked at every 10 s.",
			ready:  xpv2.Creating(), since: 3 * time.Minute, want: 10 * time.Second,
		},
		"Updating": {
			reason: "Updating waits as creating does.",
			ready:  Updating(), since: 2 * time.Second, want: 2 * time.Second,
		},
		"PendingConfirmationForSeconds": {
			reason: "A subscription that began waiting for its endpoint's confirmation 3 s ago is looked at after as long.",
			ready:  PendingConfirmation(""), since: 3 * time.Second, want: 3 * time.Second,
		},
		"PendingConfirmationForDays": {
			reason: "A subscription pending confirmation for days waits on a person, not on AWS: it backs off to the poll interval, not to 10 s.",
			ready:  PendingConfirmation(""), since: 72 * time.Hour, want: time.Minute,
		},
		"Available": {
			reason: "A Ready resource is polled every poll interval.",
			ready:  xpv2.Available(), since: 2 * time.Second, want: time.Minute,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mg := &v1alpha1.DeliveryStream{}
			c := tc.ready
			c.LastTransitionTime = metav1.NewTime(time.Now().Add(-tc.since))
			mg.SetConditions(c)
			got := hook(mg, time.Minute).Round(100 * time.Millisecond)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n-want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestMoving(t *testing.T) {
	with := func(generation int64, cs ...xpv2.Condition) *v1alpha1.DeliveryStream {
		mg := &v1alpha1.DeliveryStream{ObjectMeta: metav1.ObjectMeta{Generation: generation}}
		mg.SetConditions(cs...)
		return mg
	}
	deleting := with(1, xpv2.Available(), xpv2.ReconcileSuccess().WithObservedGeneration(1))
	now := metav1.Now()
	deleting.SetDeletionTimestamp(&now)
	synced := xpv2.ReconcileSuccess().WithObservedGeneration(2)
	failing := xpv2.ReconcileError(errors.New("AccessDenied")).WithObservedGeneration(2)
	refused := xpv2.Condition{Type: xpv2.TypeReady, Status: "False", Reason: "NotOwned"}
	for name, tc := range map[string]struct {
		reason string
		mg     *v1alpha1.DeliveryStream
		want   bool
	}{
		"New":                 {"An object never reconciled is on its way.", with(1), true},
		"Settled":             {"A Ready resource synced at its generation is polled.", with(2, xpv2.Available(), synced), false},
		"SpecChanged":         {"A spec changed since it was synced is acted on.", with(3, xpv2.Available(), synced), true},
		"Deleting":            {"A deleted object is acted on.", deleting, true},
		"Creating":            {"A resource AWS is creating is on its way.", with(2, xpv2.Creating(), synced), true},
		"Updating":            {"A resource AWS is updating is on its way.", with(2, Updating(), synced), true},
		"PendingConfirmation": {"A subscription waiting on a person is paced as a poll.", with(2, PendingConfirmation(""), synced), false},
		"FailedOnAWS":         {"A resource AWS reports failed is paced as a poll.", with(2, Failed("CREATE_FAILED"), synced), false},
		"Refused":             {"An object refused a resource it does not own is paced as a poll.", with(2, refused, failing), false},
		"FailingCreate":       {"A create that keeps failing at the same spec is paced as a poll, timed by the backoff.", with(2, xpv2.Creating(), failing), false},
		"FailingAfterChange":  {"A spec changed since the failure is acted on.", with(3, xpv2.Creating(), failing), true},
	} {
		if got := Moving(tc.mg); got != tc.want {
			t.Errorf("%s: %s Moving() = %v, want %v", name, tc.reason, got, tc.want)
		}
	}
}
