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

package emulator_test

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"
	"github.com/google/go-cmp/cmp"

	"github.com/cloudkinds/provider-aws-services/test/emulator"
)

// serve serves an emulator made with o and returns it, its URL and an SDK
// configuration (one attempt per call) that reaches it.
func serve(t *testing.T, o emulator.Options) (*emulator.Server, string, aws.Config) {
	t.Helper()
	e := emulator.New(o)
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return e, srv.URL, configFor(srv.URL, "AKIDEMO")
}

// outcomeOf classifies a call's error as the emulator's Outcomes do.
func outcomeOf(err error) string {
	if err == nil {
		return emulator.OutcomeOK
	}
	var re *smithyhttp.ResponseError
	if errors.As(err, &re) && re.HTTPStatusCode() == http.StatusInternalServerError {
		return emulator.OutcomeError
	}
	var ae smithy.APIError
	if errors.As(err, &ae) {
		switch ae.ErrorCode() {
		case "LimitExceededException", "Throttling", "ThrottlingException":
			return emulator.OutcomeThrottled
		}
		return emulator.OutcomeRefused
	}
	return "transport error: " + err.Error()
}

// control sends a request to an /_emulator/ endpoint and returns the status
// and body of the answer.
func control(t *testing.T, method, url, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(out)
}

func TestFaultScopes(t *testing.T) {
	const (
		list     = "firehose:ListDeliveryStreams"
		describe = "firehose:DescribeDeliveryStream"
		topic    = "sns:CreateTopic"
		configs  = "sagemaker:ListEndpointConfigs"
		buses    = "events:ListEndpoints"
	)
	ok, throttled, failed := emulator.OutcomeOK, emulator.OutcomeThrottled, emulator.OutcomeError
	cases := map[string]struct {
		faults map[string]emulator.Fault
		want   map[string]string
	}{
		"none": {
			want: map[string]string{list: ok, describe: ok, topic: ok, configs: ok, buses: ok},
		},
		"a service throttled always": {
			faults: map[string]emulator.Fault{"firehose": {ThrottleRate: 1}},
			want:   map[string]string{list: throttled, describe: throttled, topic: ok, configs: ok, buses: ok},
		},
		"every call failing": {
			faults: map[string]emulator.Fault{"*": {ErrorRate: 1}},
			want:   map[string]string{list: failed, describe: failed, topic: failed, configs: failed, buses: failed},
		},
		"rates of zero": {
			faults: map[string]emulator.Fault{"*": {ThrottleRate: 0, ErrorRate: 0}},
			want:   map[string]string{list: ok, describe: ok, topic: ok, configs: ok, buses: ok},
		},
		"a service's fault beats every call's": {
			faults: map[string]emulator.Fault{"*": {ThrottleRate: 1}, "sns": {ErrorRate: 1}, "events": {}},
			want:   map[string]string{list: throttled, describe: throttled, topic: failed, configs: throttled, buses: ok},
		},
		"an operation's fault beats its service's": {
			faults: map[string]emulator.Fault{"*": {ErrorRate: 1}, "firehose": {ThrottleRate: 1}, list: {}},
			want:   map[string]string{list: ok, describe: throttled, topic: failed, configs: failed, buses: failed},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e, _, cfg := serve(t, emulator.Options{Seed: 1})
			fh := firehose.NewFromConfig(cfg)
			createStream(t, fh, "s")
			e.SetFaults(tc.faults)
			calls := map[string]func() error{
				list: func() error { _, err := fh.ListDeliveryStreams(ctx, &firehose.ListDeliveryStreamsInput{}); return err },
				describe: func() error {
					_, err := fh.DescribeDeliveryStream(ctx, &firehose.DescribeDeliveryStreamInput{DeliveryStreamName: aws.String("s")})
					return err
				},
				topic: func() error {
					_, err := sns.NewFromConfig(cfg).CreateTopic(ctx, &sns.CreateTopicInput{Name: aws.String("t")})
					return err
				},
				configs: func() error {
					_, err := sagemaker.NewFromConfig(cfg).ListEndpointConfigs(ctx, &sagemaker.ListEndpointConfigsInput{})
					return err
				},
				buses: func() error {
					_, err := eventbridge.NewFromConfig(cfg).ListEndpoints(ctx, &eventbridge.ListEndpointsInput{})
					return err
				},
			}
			got := map[string]string{}
			for op, call := range calls {
				for i := 0; i < 5; i++ {
					o := outcomeOf(call())
					if prev, seen := got[op]; seen && prev != o {
						t.Errorf("%s: call %d is %s, earlier ones %s", op, i, o, prev)
					}
					got[op] = o
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("outcomes: -want, +got:\n%s", diff)
			}
			for op, o := range tc.want {
				if n := e.Outcomes()[op][o]; n != 5 {
					t.Errorf("the emulator counted %d %s calls of %s, want 5", n, o, op)
				}
			}
		})
	}
}

func TestFaultRates(t *testing.T) {
	const n = 500
	cases := map[string]struct {
		fault                   emulator.Fault
		throttled, failed, okay [2]int // bands
	}{
		"throttling": {fault: emulator.Fault{ThrottleRate: 0.2}, throttled: [2]int{60, 140}, failed: [2]int{0, 0}, okay: [2]int{360, 440}},
		"errors":     {fault: emulator.Fault{ErrorRate: 0.2}, throttled: [2]int{0, 0}, failed: [2]int{60, 140}, okay: [2]int{360, 440}},
		"both":       {fault: emulator.Fault{ThrottleRate: 0.2, ErrorRate: 0.3}, throttled: [2]int{60, 140}, failed: [2]int{110, 190}, okay: [2]int{210, 290}},
		"certain":    {fault: emulator.Fault{ThrottleRate: 0.6, ErrorRate: 0.6}, throttled: [2]int{240, 360}, failed: [2]int{140, 260}, okay: [2]int{0, 0}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e, _, cfg := serve(t, emulator.Options{Seed: 7})
			e.InjectFault("firehose:ListDeliveryStreams", tc.fault)
			c := firehose.NewFromConfig(cfg)
			count := map[string]int{}
			for i := 0; i < n; i++ {
				_, err := c.ListDeliveryStreams(ctx, &firehose.ListDeliveryStreamsInput{})
				count[outcomeOf(err)]++
			}
			for o, band := range map[string][2]int{emulator.OutcomeThrottled: tc.throttled, emulator.OutcomeError: tc.failed, emulator.OutcomeOK: tc.okay} {
				if count[o] < band[0] || count[o] > band[1] {
					t.Errorf("%d %s calls of %d, want %d..%d", count[o], o, n, band[0], band[1])
				}
			}
			if got := e.Outcomes()["firehose:ListDeliveryStreams"]; !cmp.Equal(got, map[string]int{
				emulator.OutcomeOK: count[emulator.OutcomeOK], emulator.OutcomeThrottled: count[emulator.OutcomeThrottled],
				emulator.OutcomeError: count[emulator.OutcomeError], emulator.OutcomeRefused: 0,
			}) {
				t.Errorf("the emulator's outcomes %v differ from the client's %v", got, count)
			}
		})
	}
}

func TestFaultSeed(t *testing.T) {
	pattern := func(seed uint64) string {
		e, _, cfg := serve(t, emulator.Options{Seed: seed})
		e.InjectFault("sns", emulator.Fault{ThrottleRate: 0.3, ErrorRate: 0.3})
		c := sns.NewFromConfig(cfg)
		var b strings.Builder
		for i := 0; i < 100; i++ {
			_, err := c.CreateTopic(ctx, &sns.CreateTopicInput{Name: aws.String("t")})
			b.WriteString(outcomeOf(err)[:1])
		}
		return b.String()
	}
	first, again, other := pattern(99), pattern(99), pattern(100)
	if first != again {
		t.Errorf("seed 99 gave different faults:\n%s\n%s", first, again)
	}
	if first == other {
		t.Errorf("seeds 99 and 100 gave the same faults: %s", first)
	}
	if !strings.Contains(first, "o") || !strings.Contains(first, "t") || !strings.Contains(first, "e") {
		t.Errorf("want calls that pass, are throttled and fail: %s", first)
	}
}

func TestCountedFaultsComeFirstThenRunOut(t *testing.T) {
	e, _, cfg := serve(t, emulator.Options{})
	c := firehose.NewFromConfig(cfg)
	call := func() string {
		_, err := c.ListDeliveryStreams(ctx, &firehose.ListDeliveryStreamsInput{})
		return outcomeOf(err)
	}
	e.SetFaults(map[string]emulator.Fault{
		"firehose":                     {ErrorRate: 1},
		"firehose:ListDeliveryStreams": {Throttle: 2, ServerError: 1},
		"sns:CreateTopic":              {},
	})
	var got []string
	for i := 0; i < 5; i++ {
		got = append(got, call())
	}
	// Two throttles, one error, then the service's fault once the counts ran out.
	want := []string{emulator.OutcomeThrottled, emulator.OutcomeThrottled, emulator.OutcomeError, emulator.OutcomeError, emulator.OutcomeError}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("outcomes: -want, +got:\n%s", diff)
	}
	// The exhausted fault is gone; the zero fault set on purpose stays.
	if diff := cmp.Diff(map[string]emulator.Fault{"firehose": {ErrorRate: 1}, "sns:CreateTopic": {}}, e.Faults()); diff != "" {
		t.Errorf("faults left: -want, +got:\n%s", diff)
	}
	// A fault removed from its scope stops; the others stay.
	e.RemoveFault("firehose")
	if got := call(); got != emulator.OutcomeOK {
		t.Errorf("after RemoveFault: %s", got)
	}
	if diff := cmp.Diff(map[string]emulator.Fault{"sns:CreateTopic": {}}, e.Faults()); diff != "" {
		t.Errorf("faults left after RemoveFault: -want, +got:\n%s", diff)
	}
	e.ClearFaults()
	if got := call(); got != emulator.OutcomeOK || len(e.Faults()) != 0 {
		t.Errorf("after ClearFaults: %s, faults %v", got, e.Faults())
	}
}

func TestLatencyJitter(t *testing.T) {
	e, _, cfg := serve(t, emulator.Options{Seed: 3})
	e.InjectFault("firehose", emulator.Fault{Latency: 10 * time.Millisecond, LatencyJitter: 100 * time.Millisecond})
	c := firehose.NewFromConfig(cfg)
	var shortest, longest time.Duration
	for i := 0; i < 8; i++ {
		began := time.Now()
		must(c.ListDeliveryStreams(ctx, &firehose.ListDeliveryStreamsInput{}))(t)
		took := time.Since(began)
		if i == 0 || took < shortest {
			shortest = took
		}
		longest = max(longest, took)
	}
	// Eight draws below 20ms of 100ms happen once in 390,000 runs.
	if shortest < 10*time.Millisecond || longest < 30*time.Millisecond {
		t.Errorf("calls took %v to %v; want at least 10ms each and some well beyond", shortest, longest)
	}
}

func TestEventualConsistencyCanBeRemoved(t *testing.T) {
	e, cfg, _ := start(t, "AKIDEMO")
	c := firehose.NewFromConfig(cfg)
	e.SetEventualConsistency("firehose", time.Hour)
	if got := e.EventualConsistency(); !cmp.Equal(got, map[string]time.Duration{"firehose": time.Hour}) {
		t.Errorf("EventualConsistency: %v", got)
	}
	createStream(t, c, "late")
	_, err := c.DescribeDeliveryStream(ctx, &firehose.DescribeDeliveryStreamInput{DeliveryStreamName: aws.String("late")})
	wantCode(t, err, "ResourceNotFoundException", "not found")
	e.SetEventualConsistency("firehose", 0)
	if got := e.EventualConsistency(); len(got) != 0 {
		t.Errorf("after removal: %v", got)
	}
	describeStream(t, c, "late")
}
