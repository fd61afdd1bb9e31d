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
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/google/go-cmp/cmp"

	"github.com/cloudkinds/provider-aws-services/test/emulator"
)

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
