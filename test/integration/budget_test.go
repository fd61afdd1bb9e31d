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

package integration

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/cloudkinds/provider-aws-services/internal/aws/quota"
	"github.com/cloudkinds/provider-aws-services/internal/metrics"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/budget"
)

// TestSpentBudgetStretchesItsOwnKind: when the budget of Firehose's
// DescribeDeliveryStream is spent (here by reserving its look slots for the
// next 15 s, as 2000 streams of the stream's namespace would), the stream's
// looks wait for their slot without holding a worker, while a Subscription
// in the same account and region is still looked at every poll (1 s here).
// Once the slots come, the stream is looked at again.
func TestSpentBudgetStretchesItsOwnKind(t *testing.T) {
	s := provider(t)
	ns := namespace(t)
	topicARN := topic(t, s, "stretch-"+ns[len(ns)-5:])
	stream := newStream(t, ns, short("stretch"))
	sub := newSubscription(ns, "stretch-queue", topicARN)
	create(t, stream)
	create(t, sub)
	eventually(t, 30*time.Second, "stream Ready", func() error { return isReady(t, stream) })
	eventually(t, 30*time.Second, "subscription Ready", func() error { return isReady(t, sub) })

	describe := quota.Operation{Service: "Firehose", Name: "DescribeDeliveryStream"}
	session, err := s.sessions.Session(context.Background(), stream, nil)
	if err != nil {
		t.Fatal(err)
	}
	deferred := testutil.ToFloat64(metrics.DeferredPolls.WithLabelValues("DeliveryStream"))
	// The polls of the stream's own namespace: the namespaces take turns.
	spent := budget.Reservation{Scope: session.Scope(), Region: session.Region, Namespace: ns, Ops: []quota.Operation{describe}, Class: budget.Poll}
	for wait := time.Duration(0); wait < 15*time.Second; {
		wait = s.budgets.Reserve(spent, 0)
	}
	spentAt := time.Now()
	streamLooks := func() int {
		return s.aws.CallsFor(stream.Spec.ForProvider.DeliveryStreamName)["firehose:DescribeDeliveryStream"]
	}
	subLooks := func() int { return s.aws.CallsFor(meta.GetExternalName(sub))["sns:GetSubscriptionAttributes"] }
	// A look already past the gate may still land.
	time.Sleep(time.Second)
	streamBefore, subBefore := streamLooks(), subLooks()
	time.Sleep(10 * time.Second)
	streamDuring, subDuring := streamLooks()-streamBefore, subLooks()-subBefore

	if streamDuring != 0 {
		t.Errorf("stream: %d looks while its budget was spent, want 0", streamDuring)
	}
	if subDuring < 6 {
		t.Errorf("subscription: %d looks in 10 s while the streams' budget was spent, want at least 6 (poll 1 s): one kind's spent budget slowed another", subDuring)
	}
	if n := testutil.ToFloat64(metrics.DeferredPolls.WithLabelValues("DeliveryStream")) - deferred; n < 1 {
		t.Errorf("provider_aws_services_deferred_polls_total{kind=DeliveryStream} rose by %v, want at least 1", n)
	}
	eventually(t, 15*time.Second, "the stream looked at again once its slot came", func() error {
		if n := streamLooks() - streamBefore; n == 0 {
			return fmt.Errorf("no look at the stream %s after the budget was spent", time.Since(spentAt).Round(time.Second))
		}
		return nil
	})
	if since := time.Since(spentAt); since < 13*time.Second {
		t.Errorf("the stream was looked at again %v after its budget was spent for 15 s", since.Round(time.Second))
	}
	if err := isReady(t, stream); err != nil {
		t.Errorf("stream after the stretch: %v", err)
	}
	remove(t, stream)
	remove(t, sub)
}
