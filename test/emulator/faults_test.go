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
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
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

// TestDroppedAnswers: a fault that drops the answer runs the operation
// first: the change is made (here, a create creates) and its caller gets an
// HTTP 500 or a reset connection instead of the answer, once per count; the
// calls after it are answered as usual, so that a retry of the create is
// told that what it names exists.
func TestDroppedAnswers(t *testing.T) {
	const op = "events:CreateEndpoint"
	reset := "connection reset"
	cases := map[string]struct {
		fault emulator.Fault
		// want is the outcome of each create, as the client sees it:
		// an outcome, or a part of a transport error.
		want []string
	}{
		"AnswerReplacedByAServerError": {
			fault: emulator.Fault{DropAnswer: 1},
			want:  []string{emulator.OutcomeError, emulator.OutcomeRefused},
		},
		"ConnectionReset": {
			fault: emulator.Fault{DropConnection: 1},
			want:  []string{reset, emulator.OutcomeRefused},
		},
		"ServerErrorsFirstThenTheDroppedAnswers": {
			fault: emulator.Fault{ServerError: 1, DropAnswer: 1, DropConnection: 1},
			want:  []string{emulator.OutcomeError, emulator.OutcomeError, reset, emulator.OutcomeRefused},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e, _, cfg := serve(t, emulator.Options{})
			e.InjectFault(op, tc.fault)
			var created []string
			e.SetCreationHook(func(c emulator.Creation) { created = append(created, c.Name) })
			c := eventbridge.NewFromConfig(cfg)
			in := endpointInput("orders")
			in.RoleArn = aws.String("arn:aws:iam::000000000000:role/replication")
			var got []string
			for range tc.want {
				_, err := c.CreateEndpoint(ctx, in)
				o := outcomeOf(err)
				if strings.Contains(o, reset) {
					o = reset
				}
				got = append(got, o)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("creates as the client saw them: -want, +got:\n%s", diff)
			}
			// The create whose answer was dropped made the endpoint; the
			// one after it was told it exists.
			if diff := cmp.Diff([]string{"orders"}, created); diff != "" {
				t.Errorf("endpoints created: -want, +got:\n%s", diff)
			}
			if d := must(c.DescribeEndpoint(ctx, &eventbridge.DescribeEndpointInput{Name: aws.String("orders")}))(t); aws.ToString(d.Name) != "orders" {
				t.Errorf("described %q", aws.ToString(d.Name))
			}
			// A call whose answer was dropped counts as what the operation
			// did: the first made the endpoint, each later one was
			// refused as existing (the dropped connection's too).
			ran := len(tc.want) - tc.fault.ServerError
			want := map[string]int{emulator.OutcomeOK: 1, emulator.OutcomeThrottled: 0, emulator.OutcomeError: tc.fault.ServerError, emulator.OutcomeRefused: ran - 1}
			if diff := cmp.Diff(want, e.Outcomes()[op]); diff != "" {
				t.Errorf("outcomes of %s: -want, +got:\n%s", op, diff)
			}
			// Its counts ran out: the fault is gone.
			if f := e.Faults(); len(f) != 0 {
				t.Errorf("faults left: %v", f)
			}
		})
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

func TestFaultJSON(t *testing.T) {
	cases := map[string]struct {
		fault emulator.Fault
		json  string
	}{
		"zero": {json: `{"throttle":0,"serverError":0,"dropAnswer":0,"dropConnection":0,"throttleRate":0,"errorRate":0,"latency":"0s","latencyJitter":"0s"}`},
		"full": {
			fault: emulator.Fault{Throttle: 1, ServerError: 2, DropAnswer: 3, DropConnection: 4, ThrottleRate: 0.25, ErrorRate: 0.5, Latency: 50 * time.Millisecond, LatencyJitter: 2 * time.Second},
			json:  `{"throttle":1,"serverError":2,"dropAnswer":3,"dropConnection":4,"throttleRate":0.25,"errorRate":0.5,"latency":"50ms","latencyJitter":"2s"}`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			b, err := json.Marshal(tc.fault)
			if err != nil || string(b) != tc.json {
				t.Fatalf("marshal: %s %v, want %s", b, err, tc.json)
			}
			var back emulator.Fault
			if err := json.Unmarshal(b, &back); err != nil || back != tc.fault {
				t.Errorf("unmarshal: %+v %v, want %+v", back, err, tc.fault)
			}
		})
	}
	for _, bad := range []string{`{"latency":"fast"}`, `{"latency":50}`, `{"throtle":1}`, `[]`} {
		var f emulator.Fault
		if err := json.Unmarshal([]byte(bad), &f); err == nil {
			t.Errorf("%s: no error, got %+v", bad, f)
		}
	}
}

func TestFaultsEndpoint(t *testing.T) {
	e, url, cfg := serve(t, emulator.Options{})
	url += "/_emulator/faults"
	type document struct {
		Faults              map[string]emulator.Fault `json:"faults"`
		EventualConsistency map[string]string         `json:"eventualConsistency"`
	}
	get := func() document {
		t.Helper()
		status, body := control(t, http.MethodGet, url, "")
		var d document
		if err := json.Unmarshal([]byte(body), &d); status != http.StatusOK || err != nil {
			t.Fatalf("GET: %d %s %v", status, body, err)
		}
		return d
	}
	if diff := cmp.Diff(document{Faults: map[string]emulator.Fault{}, EventualConsistency: map[string]string{}}, get()); diff != "" {
		t.Errorf("initially: -want, +got:\n%s", diff)
	}

	put := `{"faults": {"*": {"latencyJitter": "5ms"}, "sns": {"throttleRate": 1}, "firehose:CreateDeliveryStream": {"throttle": 2, "errorRate": 0.5, "latency": "1ms"}},
		"eventualConsistency": {"firehose": "2s", "sagemaker": "1m30s"}}`
	want := document{
		Faults: map[string]emulator.Fault{
			"*":                             {LatencyJitter: 5 * time.Millisecond},
			"sns":                           {ThrottleRate: 1},
			"firehose:CreateDeliveryStream": {Throttle: 2, ErrorRate: 0.5, Latency: time.Millisecond},
		},
		EventualConsistency: map[string]string{"firehose": "2s", "sagemaker": "1m30s"},
	}
	for _, method := range []string{http.MethodPut, http.MethodPost} {
		status, body := control(t, method, url, put)
		var answered document
		if err := json.Unmarshal([]byte(body), &answered); status != http.StatusOK || err != nil {
			t.Fatalf("%s: %d %s %v", method, status, body, err)
		}
		if diff := cmp.Diff(want, answered); diff != "" {
			t.Errorf("%s answer: -want, +got:\n%s", method, diff)
		}
		if diff := cmp.Diff(want, get()); diff != "" {
			t.Errorf("GET after %s: -want, +got:\n%s", method, diff)
		}
	}
	if diff := cmp.Diff(want.Faults, e.Faults()); diff != "" {
		t.Errorf("Faults(): -want, +got:\n%s", diff)
	}
	if diff := cmp.Diff(map[string]time.Duration{"firehose": 2 * time.Second, "sagemaker": 90 * time.Second}, e.EventualConsistency()); diff != "" {
		t.Errorf("EventualConsistency(): -want, +got:\n%s", diff)
	}
	_, err := sns.NewFromConfig(cfg).CreateTopic(ctx, &sns.CreateTopicInput{Name: aws.String("t")})
	wantCode(t, err, "Throttling", "Rate exceeded")
	if _, raw := control(t, http.MethodGet, url, ""); !strings.Contains(raw, `"latency":"1ms"`) || !strings.Contains(raw, `"latencyJitter":"5ms"`) {
		t.Errorf("durations are not duration strings: %s", raw)
	}

	// A PUT replaces everything: what it does not name is gone.
	if status, body := control(t, http.MethodPut, url, `{"faults": {"events": {"serverError": 1}}}`); status != http.StatusOK {
		t.Fatalf("PUT: %d %s", status, body)
	}
	if diff := cmp.Diff(document{Faults: map[string]emulator.Fault{"events": {ServerError: 1}}, EventualConsistency: map[string]string{}}, get()); diff != "" {
		t.Errorf("after a second PUT: -want, +got:\n%s", diff)
	}

	bad := map[string]struct{ body, msg string }{
		"a rate above 1":        {`{"faults": {"*": {"throttleRate": 1.5}}}`, "throttleRate 1.5 is not a probability"},
		"a negative rate":       {`{"faults": {"sns": {"errorRate": -0.1}}}`, "errorRate -0.1 is not a probability"},
		"not JSON":              {`{"faults": `, "bad faults document"},
		"an unknown member":     {`{"fault": {}}`, "unknown field"},
		"an unknown fault item": {`{"faults": {"*": {"rate": 1}}}`, "unknown field"},
		"a bad duration":        {`{"faults": {"*": {"latency": "soon"}}}`, `latency "soon" is not a duration`},
		"an unknown service":    {`{"faults": {"firehos": {"throttle": 1}}}`, `fault scope "firehos"`},
		"no operation":          {`{"faults": {"sns:": {"throttle": 1}}}`, "names no operation"},
		"a negative count":      {`{"faults": {"sns": {"throttle": -1}}}`, "negative count"},
		"a bad delay":           {`{"eventualConsistency": {"firehose": "2"}}`, "not a duration"},
		"a delay for no one":    {`{"eventualConsistency": {"s3": "2s"}}`, `"s3" is not one of`},
	}
	for name, tc := range bad {
		t.Run(name, func(t *testing.T) {
			status, body := control(t, http.MethodPut, url, tc.body)
			if status != http.StatusBadRequest || !strings.Contains(body, tc.msg) {
				t.Errorf("want 400 with %q, got %d %s", tc.msg, status, body)
			}
		})
	}
	if got := e.Faults(); !cmp.Equal(got, map[string]emulator.Fault{"events": {ServerError: 1}}) {
		t.Errorf("a refused PUT changed the faults: %v", got)
	}

	if status, body := control(t, http.MethodPatch, url, "{}"); status != http.StatusMethodNotAllowed {
		t.Errorf("PATCH: %d %s", status, body)
	}
	e.SetEventualConsistency("sns", time.Second)
	if status, body := control(t, http.MethodDelete, url, ""); status != http.StatusOK {
		t.Fatalf("DELETE: %d %s", status, body)
	}
	if diff := cmp.Diff(document{Faults: map[string]emulator.Fault{}, EventualConsistency: map[string]string{}}, get()); diff != "" {
		t.Errorf("after DELETE: -want, +got:\n%s", diff)
	}
	if len(e.Faults()) != 0 || len(e.EventualConsistency()) != 0 {
		t.Errorf("after DELETE: %v %v", e.Faults(), e.EventualConsistency())
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

func TestCallHook(t *testing.T) {
	e, cfg, _ := start(t, "AKIDEMO")
	c := firehose.NewFromConfig(cfg)
	var (
		mu    sync.Mutex
		fired []string
		seen  emulator.Inventory
	)

	// The caller dies right after its create left: AWS made the stream, the
	// answer is lost.
	lost, cancel := context.WithCancel(ctx)
	returned := make(chan struct{})
	e.SetCallHook(func(service, operation string) {
		inv := e.Inventory() // the hook runs outside the server's lock, after the change
		mu.Lock()
		fired = append(fired, service+":"+operation)
		seen = inv
		mu.Unlock()
		cancel()
		select {
		case <-returned:
		case <-time.After(5 * time.Second):
		}
	})
	_, err := c.CreateDeliveryStream(lost, &firehose.CreateDeliveryStreamInput{DeliveryStreamName: aws.String("s1"), HttpEndpointDestinationConfiguration: httpDestination()})
	close(returned)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("the caller got its answer: %v", err)
	}
	mu.Lock()
	if !cmp.Equal(seen.DeliveryStreams, []string{"s1"}) {
		t.Errorf("the hook saw %v", seen.DeliveryStreams)
	}
	mu.Unlock()

	var calls []string
	e.SetCallHook(func(service, operation string) {
		mu.Lock()
		defer mu.Unlock()
		calls = append(calls, service+":"+operation)
	})
	e.InjectFault("firehose:CreateDeliveryStream", emulator.Fault{Throttle: 1})
	_, err = c.CreateDeliveryStream(ctx, &firehose.CreateDeliveryStreamInput{DeliveryStreamName: aws.String("s2"), HttpEndpointDestinationConfiguration: httpDestination()})
	wantCode(t, err, "LimitExceededException", "Rate exceeded")
	_, err = c.CreateDeliveryStream(ctx, &firehose.CreateDeliveryStreamInput{DeliveryStreamName: aws.String("s1"), HttpEndpointDestinationConfiguration: httpDestination()})
	wantCode(t, err, "ResourceInUseException", "")
	createStream(t, c, "s2")
	describeStream(t, c, "s2")
	e.SetCallHook(nil)
	createStream(t, c, "s3")

	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff([]string{"firehose:CreateDeliveryStream"}, fired); diff != "" {
		t.Errorf("first hook: -want, +got:\n%s", diff)
	}
	if diff := cmp.Diff([]string{"firehose:CreateDeliveryStream", "firehose:DescribeDeliveryStream"}, calls); diff != "" {
		t.Errorf("second hook: -want, +got:\n%s", diff)
	}
}
