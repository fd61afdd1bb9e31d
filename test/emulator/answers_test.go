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
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
	smtypes "github.com/aws/aws-sdk-go-v2/service/sagemaker/types"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/aws/smithy-go"
	"github.com/google/go-cmp/cmp"

	"github.com/cloudkinds/provider-aws-services/test/emulator"
)

// apiErrorOf returns what the SDK caller reads of an AWS error: its code,
// message and HTTP status.
func apiErrorOf(t *testing.T, err error) (code, message string, status int) {
	t.Helper()
	var ae smithy.APIError
	if !errors.As(err, &ae) {
		t.Fatalf("want an AWS API error, got %v", err)
	}
	var hs interface{ HTTPStatusCode() int }
	if !errors.As(err, &hs) {
		t.Fatalf("the error carries no HTTP status: %v", err)
	}
	return ae.ErrorCode(), ae.ErrorMessage(), hs.HTTPStatusCode()
}

// outcomes is an operation's Outcomes with the given counts.
func outcomes(ok, throttled, failed, refused int) map[string]int {
	return map[string]int{emulator.OutcomeOK: ok, emulator.OutcomeThrottled: throttled, emulator.OutcomeError: failed, emulator.OutcomeRefused: refused}
}

// TestAnswerReachesTheCaller: in each wire protocol, the code, message and
// status of an injected answer reach the SDK caller as they were given, and
// the operation does not run.
func TestAnswerReachesTheCaller(t *testing.T) {
	type result struct {
		Code, Message string
		Status        int
	}
	cases := map[string]struct {
		answer emulator.Answer
		call   func(aws.Config) error
		want   result
		// outcome is the call's outcome, as Outcomes counts it.
		outcome map[string]int
	}{
		"query: SNS Subscribe, a 403": {
			answer: emulator.Answer{Operation: "sns:Subscribe", Code: "AuthorizationError", Status: 403, Message: "User is not authorized to perform SNS:Subscribe & more <here>", Count: 1},
			call: func(cfg aws.Config) error {
				_, err := sns.NewFromConfig(cfg).Subscribe(ctx, &sns.SubscribeInput{TopicArn: aws.String("arn:aws:sns:us-east-1:000000000000:orders"),
					Protocol: aws.String("sqs"), Endpoint: aws.String("arn:aws:sqs:us-east-1:000000000000:q")})
				return err
			},
			want:    result{"AuthorizationError", "User is not authorized to perform SNS:Subscribe & more <here>", 403},
			outcome: outcomes(0, 0, 0, 1),
		},
		"JSON 1.1: Firehose CreateDeliveryStream, the default status and message": {
			answer: emulator.Answer{Operation: "firehose:CreateDeliveryStream", Code: "InvalidKMSResourceException", Count: 1},
			call: func(cfg aws.Config) error {
				_, err := firehose.NewFromConfig(cfg).CreateDeliveryStream(ctx, &firehose.CreateDeliveryStreamInput{
					DeliveryStreamName: aws.String("s"), HttpEndpointDestinationConfiguration: httpDestination()})
				return err
			},
			want:    result{"InvalidKMSResourceException", "injected by the emulator: InvalidKMSResourceException", 400},
			outcome: outcomes(0, 0, 0, 1),
		},
		"JSON 1.1: SageMaker CreateModel, a code SageMaker does not model": {
			answer: emulator.Answer{Operation: "sagemaker:CreateModel", Code: "ServiceUnavailable", Status: 503, Message: "try later", Until: time.Now().Add(time.Hour)},
			call: func(cfg aws.Config) error {
				_, err := sagemaker.NewFromConfig(cfg).CreateModel(ctx, &sagemaker.CreateModelInput{ModelName: aws.String("churn"),
					PrimaryContainer: &smtypes.ContainerDefinition{Image: aws.String("img")}})
				return err
			},
			want:    result{"ServiceUnavailable", "try later", 503},
			outcome: outcomes(0, 0, 1, 0),
		},
		"REST-JSON: AgentCore CreateApiKeyCredentialProvider, throttled": {
			answer: emulator.Answer{Operation: "bedrock-agentcore:CreateApiKeyCredentialProvider", Code: "ThrottlingException", Status: 429, Message: "Rate exceeded", Count: 3},
			call: func(cfg aws.Config) error {
				_, err := bedrockagentcorecontrol.NewFromConfig(cfg).CreateApiKeyCredentialProvider(ctx, &bedrockagentcorecontrol.CreateApiKeyCredentialProviderInput{
					Name: aws.String("search"), ApiKey: aws.String("k")})
				return err
			},
			want:    result{"ThrottlingException", "Rate exceeded", 429},
			outcome: outcomes(0, 1, 0, 0),
		},
		"REST-JSON: AgentCore CreateApiKeyCredentialProvider, a conflict": {
			answer: emulator.Answer{Operation: "bedrock-agentcore:CreateApiKeyCredentialProvider", Code: "ConflictException", Status: 409, Message: "exists", Count: 1},
			call: func(cfg aws.Config) error {
				_, err := bedrockagentcorecontrol.NewFromConfig(cfg).CreateApiKeyCredentialProvider(ctx, &bedrockagentcorecontrol.CreateApiKeyCredentialProviderInput{
					Name: aws.String("search"), ApiKey: aws.String("k")})
				return err
			},
			want:    result{"ConflictException", "exists", 409},
			outcome: outcomes(0, 0, 0, 1),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e, _, cfg := serve(t, emulator.Options{})
			e.InjectAnswer(tc.answer)
			var got result
			got.Code, got.Message, got.Status = apiErrorOf(t, tc.call(cfg))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("the caller read: -want, +got:\n%s", diff)
			}
			// The operation did not run: nothing was made or changed.
			if c, w := e.Creations(), e.Writes(); len(c) != 0 || len(w) != 0 {
				t.Errorf("the operation ran: creations %+v, writes %+v", c, w)
			}
			if diff := cmp.Diff(map[string]map[string]int{tc.answer.Operation: tc.outcome}, e.Outcomes()); diff != "" {
				t.Errorf("outcomes: -want, +got:\n%s", diff)
			}
			if diff := cmp.Diff(map[string]int{tc.answer.Operation: 1}, e.Calls()); diff != "" {
				t.Errorf("calls: -want, +got:\n%s", diff)
			}
		})
	}
}

// TestAnswerCount: a counted answer meets that many calls, before the
// faults and the quotas of the operation, which neither count down nor take
// a token meanwhile; then it is gone and they apply again.
func TestAnswerCount(t *testing.T) {
	const op = "firehose:ListDeliveryStreams"
	e, cfg, _ := start(t, "AKIDEMO")
	c := firehose.NewFromConfig(cfg)
	call := func() string {
		_, err := c.ListDeliveryStreams(ctx, &firehose.ListDeliveryStreamsInput{})
		if err == nil {
			return "ok"
		}
		var ae smithy.APIError
		if errors.As(err, &ae) {
			return ae.ErrorCode()
		}
		return err.Error()
	}
	// The clock stands still: the quota of one call is taken by the first
	// call that reaches it.
	e.SetQuotas(map[string]float64{op: 1})
	e.InjectFault(op, emulator.Fault{ServerError: 1})
	e.InjectAnswer(emulator.Answer{Operation: op, Code: "ResourceNotFoundException", Count: 2})
	e.InjectAnswer(emulator.Answer{Operation: op, Code: "InvalidArgumentException", Count: 1})
	e.InjectAnswer(emulator.Answer{Operation: "firehose:DescribeDeliveryStream", Code: "ResourceNotFoundException", Count: 1})

	var got []string
	got = append(got, call())
	want := []emulator.Answer{
		{Operation: op, Code: "ResourceNotFoundException", Status: 400, Message: "injected by the emulator: ResourceNotFoundException", Count: 1},
		{Operation: op, Code: "InvalidArgumentException", Status: 400, Message: "injected by the emulator: InvalidArgumentException", Count: 1},
		{Operation: "firehose:DescribeDeliveryStream", Code: "ResourceNotFoundException", Status: 400, Message: "injected by the emulator: ResourceNotFoundException", Count: 1},
	}
	if diff := cmp.Diff(want, e.Answers()); diff != "" {
		t.Errorf("answers after one call: -want, +got:\n%s", diff)
	}
	// ClearFaults leaves the answers.
	e.ClearFaults()
	e.InjectFault(op, emulator.Fault{ServerError: 1})
	for range 5 {
		got = append(got, call())
	}
	// Answers in the order injected, then the fault, then the quota's
	// one call, then throttling.
	wantCalls := []string{"ResourceNotFoundException", "ResourceNotFoundException", "InvalidArgumentException", "InternalFailure", "ok", "LimitExceededException"}
	if diff := cmp.Diff(wantCalls, got); diff != "" {
		t.Errorf("calls: -want, +got:\n%s", diff)
	}
	if diff := cmp.Diff(want[2:], e.Answers()); diff != "" {
		t.Errorf("answers left: -want, +got:\n%s", diff)
	}
	if diff := cmp.Diff(outcomes(1, 1, 1, 3), e.Outcomes()[op]); diff != "" {
		t.Errorf("outcomes: -want, +got:\n%s", diff)
	}
	if n := e.CallCount(op); n != 6 {
		t.Errorf("%d calls counted, want 6", n)
	}

	// A fault-free key meets no answer, and leaves its count alone.
	e.FaultFree("AKIDOUTSIDER")
	outside := firehose.NewFromConfig(configFor(*cfg.BaseEndpoint, "AKIDOUTSIDER"))
	_, err := outside.DescribeDeliveryStream(ctx, &firehose.DescribeDeliveryStreamInput{DeliveryStreamName: aws.String("s")})
	wantCode(t, err, "ResourceNotFoundException", "not found")
	if diff := cmp.Diff(want[2:], e.Answers()); diff != "" {
		t.Errorf("answers after a fault-free call: -want, +got:\n%s", diff)
	}

	e.ClearAnswers()
	if a := e.Answers(); a != nil {
		t.Errorf("after ClearAnswers: %+v", a)
	}
}

// TestAnswerWindow: an answer with a window meets every call until it
// ends, on the emulator's clock, given as a time (Go) or as a duration
// counted from its arrival (HTTP).
func TestAnswerWindow(t *testing.T) {
	const op = "events:ListEndpoints"
	cases := map[string]struct {
		// testClock makes the emulator run on the test's clock, else on
		// the wall clock.
		testClock bool
		// inject injects an answer for op with a window and returns the
		// function that lets the window pass.
		inject func(t *testing.T, e *emulator.Server, url string, clk *clock) (pass func())
	}{
		"Until on a test's clock": {
			testClock: true,
			inject: func(t *testing.T, e *emulator.Server, _ string, clk *clock) func() {
				e.InjectAnswer(emulator.Answer{Operation: op, Code: "InternalException", Status: 500, Until: clk.Now().Add(time.Minute)})
				return func() { clk.Advance(time.Minute) }
			},
		},
		"for through the endpoint, on the wall clock": {
			inject: func(t *testing.T, _ *emulator.Server, url string, _ *clock) func() {
				// Long enough for three calls on a busy machine, short
				// enough for a unit test.
				const window = 500 * time.Millisecond
				sent := time.Now()
				status, body := control(t, http.MethodPost, url+"/_emulator/answers",
					`{"operation": "events:ListEndpoints", "code": "InternalException", "status": 500, "for": "`+window.String()+`"}`)
				if status != http.StatusOK {
					t.Fatalf("POST: %d %s", status, body)
				}
				return func() { time.Sleep(time.Until(sent.Add(window + 10*time.Millisecond))) }
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			clk := &clock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
			o := emulator.Options{}
			if tc.testClock {
				o.Now = clk.Now
			}
			e, url, cfg := serve(t, o)
			c := eventbridgeClient(cfg)
			pass := tc.inject(t, e, url, clk)
			for i := range 3 {
				if err := c(); err == nil {
					t.Fatalf("call %d inside the window ran", i)
				} else {
					wantCode(t, err, "InternalException", "injected by the emulator: InternalException")
				}
			}
			if n := len(e.Answers()); n != 1 {
				t.Errorf("%d answers in force inside the window, want 1", n)
			}
			pass()
			if a := e.Answers(); a != nil {
				t.Errorf("answers in force after the window: %+v", a)
			}
			if err := c(); err != nil {
				t.Errorf("after the window: %v", err)
			}
			if diff := cmp.Diff(outcomes(1, 0, 3, 0), e.Outcomes()[op]); diff != "" {
				t.Errorf("outcomes: -want, +got:\n%s", diff)
			}
		})
	}
}

func TestValidateAnswer(t *testing.T) {
	ok := emulator.Answer{Operation: "sns:Subscribe", Code: "AuthorizationError", Count: 1}
	cases := map[string]struct {
		change func(*emulator.Answer)
		want   string // a part of the error; empty for none
	}{
		"valid":                 {change: func(*emulator.Answer) {}},
		"a window alone":        {change: func(a *emulator.Answer) { a.Count, a.Until = 0, time.Now() }},
		"a 5xx":                 {change: func(a *emulator.Answer) { a.Status = 599 }},
		"a dotted code":         {change: func(a *emulator.Answer) { a.Code = "AWS.SimpleQueueService.NonExistentQueue" }},
		"no operation":          {change: func(a *emulator.Answer) { a.Operation = "" }, want: "operation is required"},
		"an unknown service":    {change: func(a *emulator.Answer) { a.Operation = "s3:PutObject" }, want: `the service "s3" is not one of`},
		"a service alone":       {change: func(a *emulator.Answer) { a.Operation = "sns" }, want: "names no operation"},
		"an empty operation":    {change: func(a *emulator.Answer) { a.Operation = "sns:" }, want: "names no operation"},
		"no code":               {change: func(a *emulator.Answer) { a.Code = "" }, want: "code is required"},
		"a code the SDKs cut":   {change: func(a *emulator.Answer) { a.Code = "Throttling:Sender" }, want: `code "Throttling:Sender" is not an AWS error code`},
		"a success status":      {change: func(a *emulator.Answer) { a.Status = 200 }, want: "status 200 is not an HTTP error status"},
		"a status beyond 599":   {change: func(a *emulator.Answer) { a.Status = 600 }, want: "status 600"},
		"a negative count":      {change: func(a *emulator.Answer) { a.Count = -1 }, want: "count -1 is negative"},
		"neither count nor for": {change: func(a *emulator.Answer) { a.Count = 0 }, want: "give a count of calls or a window"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			a := ok
			tc.change(&a)
			err := emulator.ValidateAnswer(a)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("want an error with %q, got %v", tc.want, err)
			}
			// InjectAnswer refuses it too, loudly.
			defer func() {
				if recover() == nil {
					t.Errorf("InjectAnswer took %+v", a)
				}
			}()
			emulator.New(emulator.Options{}).InjectAnswer(a)
		})
	}
}

// eventbridgeClient returns a call of EventBridge's ListEndpoints.
func eventbridgeClient(cfg aws.Config) func() error {
	c := eventbridge.NewFromConfig(cfg)
	return func() error {
		_, err := c.ListEndpoints(ctx, &eventbridge.ListEndpointsInput{})
		return err
	}
}
