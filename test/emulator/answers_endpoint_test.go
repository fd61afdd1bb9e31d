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
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	"github.com/google/go-cmp/cmp"

	"github.com/cloudkinds/provider-aws-services/test/emulator"
)

func TestAnswersEndpoint(t *testing.T) {
	clk := &clock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	e, url, cfg := serve(t, emulator.Options{Now: clk.Now})
	url += "/_emulator/answers"
	type answer struct {
		Operation string `json:"operation"`
		Resource  string `json:"resource"`
		Code      string `json:"code"`
		Status    int    `json:"status"`
		Message   string `json:"message"`
		Count     int    `json:"count"`
		For       string `json:"for"`
	}
	list := func(status int, body string) []answer {
		t.Helper()
		var out []answer
		if err := json.Unmarshal([]byte(body), &out); status != http.StatusOK || err != nil || out == nil {
			t.Fatalf("answer: %d %s %v", status, body, err)
		}
		return out
	}
	if diff := cmp.Diff([]answer{}, list(control(t, http.MethodGet, url, ""))); diff != "" {
		t.Errorf("initially: -want, +got:\n%s", diff)
	}

	first := answer{Operation: "firehose:CreateDeliveryStream", Resource: "orders", Code: "InvalidKMSResourceException", Status: 400,
		Message: "KMS key disabled", Count: 2, For: "1m0s"}
	second := answer{Operation: "sns:Subscribe", Code: "AuthorizationError", Status: 403, Message: "injected by the emulator: AuthorizationError", Count: 1}
	got := list(control(t, http.MethodPost, url, `{"operation": "firehose:CreateDeliveryStream", "resource": "orders", "code": "InvalidKMSResourceException",
		"message": "KMS key disabled", "count": 2, "for": "1m"}`))
	if diff := cmp.Diff([]answer{first}, got); diff != "" {
		t.Errorf("POST: -want, +got:\n%s", diff)
	}
	clk.Advance(15 * time.Second)
	got = list(control(t, http.MethodPost, url, `{"operation": "sns:Subscribe", "code": "AuthorizationError", "status": 403, "count": 1}`))
	first.For = "45s" // the time left
	if diff := cmp.Diff([]answer{first, second}, got); diff != "" {
		t.Errorf("second POST: -want, +got:\n%s", diff)
	}
	if diff := cmp.Diff([]answer{first, second}, list(control(t, http.MethodGet, url, ""))); diff != "" {
		t.Errorf("GET: -want, +got:\n%s", diff)
	}
	wantGo := []emulator.Answer{
		{Operation: "firehose:CreateDeliveryStream", Resource: "orders", Code: "InvalidKMSResourceException", Status: 400, Message: "KMS key disabled",
			Count: 2, Until: time.Date(2026, 1, 1, 0, 1, 0, 0, time.UTC)},
		{Operation: "sns:Subscribe", Code: "AuthorizationError", Status: 403, Message: "injected by the emulator: AuthorizationError", Count: 1},
	}
	if diff := cmp.Diff(wantGo, e.Answers()); diff != "" {
		t.Errorf("Answers(): -want, +got:\n%s", diff)
	}
	_, err := firehose.NewFromConfig(cfg).CreateDeliveryStream(ctx, &firehose.CreateDeliveryStreamInput{
		DeliveryStreamName: aws.String("orders"), HttpEndpointDestinationConfiguration: httpDestination()})
	wantCode(t, err, "InvalidKMSResourceException", "KMS key disabled")

	bad := map[string]struct{ body, msg string }{
		"not JSON":              {`{"operation": `, "bad answer document"},
		"two documents":         {`{"operation": "sns:Subscribe", "code": "X", "count": 1} {}`, "more than one JSON value"},
		"an unknown member":     {`{"operation": "sns:Subscribe", "cod": "X", "count": 1}`, `unknown field "cod"`},
		"a list":                {`[{"operation": "sns:Subscribe", "code": "X", "count": 1}]`, "bad answer document"},
		"a count as a string":   {`{"operation": "sns:Subscribe", "code": "X", "count": "1"}`, "count"},
		"no operation":          {`{"code": "X", "count": 1}`, "operation is required"},
		"an unknown service":    {`{"operation": "s3:PutObject", "code": "X", "count": 1}`, `the service "s3"`},
		"no code":               {`{"operation": "sns:Subscribe", "count": 1}`, "code is required"},
		"a status of success":   {`{"operation": "sns:Subscribe", "code": "X", "status": 204, "count": 1}`, "status 204"},
		"a negative count":      {`{"operation": "sns:Subscribe", "code": "X", "count": -2}`, "count -2 is negative"},
		"neither count nor for": {`{"operation": "sns:Subscribe", "code": "X"}`, "give a count of calls or a window"},
		"a bad for":             {`{"operation": "sns:Subscribe", "code": "X", "for": "soon"}`, `for "soon" is not a positive duration`},
		"a negative for":        {`{"operation": "sns:Subscribe", "code": "X", "for": "-1s"}`, `for "-1s" is not a positive duration`},
	}
	for name, tc := range bad {
		t.Run(name, func(t *testing.T) {
			status, body := control(t, http.MethodPost, url, tc.body)
			if status != http.StatusBadRequest || !strings.Contains(body, tc.msg) {
				t.Errorf("want 400 with %q, got %d %s", tc.msg, status, body)
			}
		})
	}
	first.Count = 1 // the create above met it
	if diff := cmp.Diff([]answer{first, second}, list(control(t, http.MethodGet, url, ""))); diff != "" {
		t.Errorf("after the refused POSTs: -want, +got:\n%s", diff)
	}

	// Faults are not answers: healing the faults leaves them.
	if status, body := control(t, http.MethodDelete, strings.TrimSuffix(url, "answers")+"faults", ""); status != http.StatusOK {
		t.Fatalf("DELETE faults: %d %s", status, body)
	}
	if n := len(e.Answers()); n != 2 {
		t.Errorf("DELETE /_emulator/faults left %d answers, want 2", n)
	}
	if status, body := control(t, http.MethodPut, url, "{}"); status != http.StatusMethodNotAllowed {
		t.Errorf("PUT: %d %s", status, body)
	}
	if diff := cmp.Diff([]answer{}, list(control(t, http.MethodDelete, url, ""))); diff != "" {
		t.Errorf("DELETE: -want, +got:\n%s", diff)
	}
	if a := e.Answers(); a != nil {
		t.Errorf("after DELETE: %+v", a)
	}
}
