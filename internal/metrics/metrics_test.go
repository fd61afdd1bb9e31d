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

package metrics

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/smithy-go/middleware"
	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	"github.com/google/go-cmp/cmp"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/cloudkinds/provider-aws-services/test/emulator"
)

func TestCountCalls(t *testing.T) {
	e := emulator.New(emulator.Options{})
	srv := httptest.NewServer(e)
	defer srv.Close()
	// Two throttled attempts, then an answer: three calls, retried by the
	// SDK; then a call AWS refuses.
	e.InjectFault("events:ListEndpoints", emulator.Fault{Throttle: 2})
	c := eventbridge.NewFromConfig(aws.Config{Region: "us-east-1", BaseEndpoint: aws.String(srv.URL),
		Credentials: credentials.NewStaticCredentialsProvider("AKID", "s", ""), APIOptions: []func(*middleware.Stack) error{CountCalls}})
	if _, err := c.ListEndpoints(context.Background(), &eventbridge.ListEndpointsInput{}); err != nil {
		t.Fatal(err)
	}
	_, _ = c.DescribeEndpoint(context.Background(), &eventbridge.DescribeEndpointInput{Name: aws.String("missing")})

	got := map[string]float64{}
	for _, l := range [][]string{
		{"EventBridge", "ListEndpoints", OutcomeSuccess}, {"EventBridge", "ListEndpoints", OutcomeThrottled},
		{"EventBridge", "DescribeEndpoint", OutcomeError}, {"EventBridge", "DescribeEndpoint", OutcomeSuccess},
	} {
		got[strings.Join(l, " ")] = testutil.ToFloat64(AWSCalls.WithLabelValues(l...))
	}
	want := map[string]float64{
		"EventBridge ListEndpoints success": 1, "EventBridge ListEndpoints throttled": 2,
		"EventBridge DescribeEndpoint error": 1, "EventBridge DescribeEndpoint success": 0,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("-want, +got:\n%s", diff)
	}
}

// TestUndeclaredObserveCalls: a call made with the context of an Observe
// that does not declare it is counted; a declared one, or one made outside
// an Observe, is not.
func TestUndeclaredObserveCalls(t *testing.T) {
	e := emulator.New(emulator.Options{})
	srv := httptest.NewServer(e)
	defer srv.Close()
	c := eventbridge.NewFromConfig(aws.Config{Region: "us-east-1", BaseEndpoint: aws.String(srv.URL),
		Credentials: credentials.NewStaticCredentialsProvider("AKID", "s", ""), APIOptions: []func(*middleware.Stack) error{CountCalls}})
	observe := DeclareObserveCalls(context.Background(), []string{"EventBridge:DescribeEndpoint"})
	_, _ = c.DescribeEndpoint(observe, &eventbridge.DescribeEndpointInput{Name: aws.String("declared")})
	_, _ = c.ListEndpoints(observe, &eventbridge.ListEndpointsInput{})
	_, _ = c.ListEndpoints(context.Background(), &eventbridge.ListEndpointsInput{})

	got := map[string]float64{
		"DescribeEndpoint": testutil.ToFloat64(UndeclaredObserveCalls.WithLabelValues("EventBridge", "DescribeEndpoint")),
		"ListEndpoints":    testutil.ToFloat64(UndeclaredObserveCalls.WithLabelValues("EventBridge", "ListEndpoints")),
	}
	if diff := cmp.Diff(map[string]float64{"DescribeEndpoint": 0, "ListEndpoints": 1}, got); diff != "" {
		t.Errorf("-want, +got:\n%s", diff)
	}
}

func TestObservations(t *testing.T) {
	now := time.Unix(0, 0)
	o := NewObservations("TestKind")
	o.now = func() time.Time { return now }
	o.Observed("a")
	now = now.Add(100 * time.Second)
	o.Observed("a")
	o.Observed("b")
	if n := testutil.CollectAndCount(PollInterval, "provider_aws_services_poll_interval_seconds"); n == 0 {
		t.Fatal("nothing recorded")
	}
	h := `
		# HELP provider_aws_services_poll_interval_seconds Seconds between two observations of the same managed resource in AWS, by kind.
		# TYPE provider_aws_services_poll_interval_seconds histogram
		provider_aws_services_poll_interval_seconds_bucket{kind="TestKind",le="5"} 0
		provider_aws_services_poll_interval_seconds_bucket{kind="TestKind",le="10"} 0
		provider_aws_services_poll_interval_seconds_bucket{kind="TestKind",le="15"} 0
		provider_aws_services_poll_interval_seconds_bucket{kind="TestKind",le="30"} 0
		provider_aws_services_poll_interval_seconds_bucket{kind="TestKind",le="45"} 0
		provider_aws_services_poll_interval_seconds_bucket{kind="TestKind",le="60"} 0
		provider_aws_services_poll_interval_seconds_bucket{kind="TestKind",le="75"} 0
		provider_aws_services_poll_interval_seconds_bucket{kind="TestKind",le="90"} 0
		provider_aws_services_poll_interval_seconds_bucket{kind="TestKind",le="120"} 1
		provider_aws_services_poll_interval_seconds_bucket{kind="TestKind",le="180"} 1
		provider_aws_services_poll_interval_seconds_bucket{kind="TestKind",le="300"} 1
		provider_aws_services_poll_interval_seconds_bucket{kind="TestKind",le="600"} 1
		provider_aws_services_poll_interval_seconds_bucket{kind="TestKind",le="+Inf"} 1
		provider_aws_services_poll_interval_seconds_sum{kind="TestKind"} 100
		provider_aws_services_poll_interval_seconds_count{kind="TestKind"} 1
	`
	if err := testutil.CollectAndCompare(PollInterval, strings.NewReader(h), "provider_aws_services_poll_interval_seconds"); err != nil {
		t.Error(err)
	}
}

func TestCapacityWarner(t *testing.T) {
	w := &CapacityWarner{Poll: time.Minute, Rate: 10, Log: logging.NewNopLogger()}
	cases := []struct {
		resources int
		want      string
	}{
		{resources: 500, want: ""},
		{resources: 1000, want: "1000 managed resources polled every 1m0s need 16.7 reconciles per second, more than --max-reconcile-rate=10 allows: " +
			"each is checked about every 1m40s instead (see provider_aws_services_poll_interval_seconds). Raise --max-reconcile-rate to 17 or more, or --poll to 1m40s or more"},
		{resources: 1000, want: ""}, // said once
		{resources: 600, want: ""},
		{resources: 1200, want: "1200 managed resources polled every 1m0s need 20.0 reconciles per second"},
	}
	for i, tc := range cases {
		got := w.Check(tc.resources)
		if (tc.want == "") != (got == "") || !strings.HasPrefix(got, tc.want) {
			t.Errorf("check %d (%d resources): want %q, got %q", i, tc.resources, tc.want, got)
		}
	}
}
