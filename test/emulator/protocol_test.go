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
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/cloudkinds/provider-aws-services/test/emulator"
	"github.com/cloudkinds/provider-aws-services/test/emulator/snapshot"
)

func TestUnsignedRequestsAreRefused(t *testing.T) {
	srv := httptest.NewServer(emulator.New(emulator.Options{}))
	defer srv.Close()
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/", strings.NewReader(`{"DeliveryStreamName":"s"}`))
	req.Header.Set("X-Amz-Target", "Firehose_20150804.DescribeDeliveryStream")
	req.Header.Set("Content-Type", "application/x-amz-json-1.1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusForbidden || !strings.Contains(string(body), "MissingAuthenticationToken") {
		t.Errorf("unsigned request: %d %s", resp.StatusCode, body)
	}
}

func TestInjectedFaults(t *testing.T) {
	e, cfg, _ := start(t, "AKIDEMO")
	c := firehose.NewFromConfig(cfg)
	in := &firehose.DescribeDeliveryStreamInput{DeliveryStreamName: aws.String("none")}

	e.InjectFault("firehose:DescribeDeliveryStream", emulator.Fault{Throttle: 1, ServerError: 1})
	_, err := c.DescribeDeliveryStream(ctx, in)
	wantCode(t, err, "LimitExceededException", "Rate exceeded")
	_, err = c.DescribeDeliveryStream(ctx, in)
	var re *smithyhttp.ResponseError
	if !errors.As(err, &re) || re.HTTPStatusCode() != 500 {
		t.Fatalf("want HTTP 500, got %v", err)
	}
	_, err = c.DescribeDeliveryStream(ctx, in)
	wantCode(t, err, "ResourceNotFoundException", "not found")
	if n := e.CallCount("firehose:DescribeDeliveryStream"); n != 3 {
		t.Errorf("want 3 counted calls, got %d", n)
	}

	e.InjectFault("sns:CreateTopic", emulator.Fault{Throttle: 1})
	_, err = sns.NewFromConfig(cfg).CreateTopic(ctx, &sns.CreateTopicInput{Name: aws.String("t")})
	wantCode(t, err, "Throttling", "Rate exceeded")

	// The SDK's own retryer rides over a throttle.
	e.InjectFault("firehose:ListDeliveryStreams", emulator.Fault{Throttle: 1, Latency: 10 * time.Millisecond})
	retrying := cfg.Copy()
	retrying.RetryMaxAttempts = 3
	if _, err := firehose.NewFromConfig(retrying).ListDeliveryStreams(ctx, &firehose.ListDeliveryStreamsInput{}); err != nil {
		t.Errorf("a retried throttle still failed: %v", err)
	}
}

func TestEventualConsistency(t *testing.T) {
	e, cfg, clk := start(t, "AKIDEMO")
	e.SetEventualConsistency("firehose", 10*time.Second)
	c := firehose.NewFromConfig(cfg)
	createStream(t, c, "late")
	_, err := c.DescribeDeliveryStream(ctx, &firehose.DescribeDeliveryStreamInput{DeliveryStreamName: aws.String("late")})
	wantCode(t, err, "ResourceNotFoundException", "not found")
	clk.Advance(10 * time.Second)
	describeStream(t, c, "late")
}

func TestControlEndpoint(t *testing.T) {
	e := emulator.New(emulator.Options{})
	srv := httptest.NewServer(e)
	defer srv.Close()
	_, _ = firehose.NewFromConfig(configFor(srv.URL, "AKIDEMO")).ListDeliveryStreams(ctx, &firehose.ListDeliveryStreamsInput{})
	resp, err := http.Get(srv.URL + "/_emulator/calls")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var calls map[string]int
	if err := json.NewDecoder(resp.Body).Decode(&calls); err != nil || calls["firehose:ListDeliveryStreams"] != 1 {
		t.Errorf("calls: %v %v", calls, err)
	}
}

// TestSDKRequestSnapshots replays the request snapshots the SDK modules ship
// (the exact requests their clients send, with placeholder values) and checks
// that the emulator recognises each operation and reads its input: the answer
// is the service's own verdict on the placeholders, never an unknown
// operation or a serialization error.
func TestSDKRequestSnapshots(t *testing.T) {
	snapshots := map[string][]string{
		"github.com/aws/aws-sdk-go-v2/service/firehose": {"CreateDeliveryStream", "DescribeDeliveryStream", "DeleteDeliveryStream", "ListDeliveryStreams",
			"UpdateDestination", "StartDeliveryStreamEncryption", "StopDeliveryStreamEncryption", "TagDeliveryStream", "UntagDeliveryStream", "ListTagsForDeliveryStream"},
		"github.com/aws/aws-sdk-go-v2/service/sagemaker":   {"CreateEndpointConfig", "DescribeEndpointConfig", "DeleteEndpointConfig", "ListEndpointConfigs", "AddTags", "DeleteTags", "ListTags"},
		"github.com/aws/aws-sdk-go-v2/service/eventbridge": {"CreateEndpoint", "DescribeEndpoint", "UpdateEndpoint", "DeleteEndpoint", "ListEndpoints"},
		"github.com/aws/aws-sdk-go-v2/service/sns": {"CreateTopic", "DeleteTopic", "Subscribe", "ConfirmSubscription", "GetSubscriptionAttributes",
			"SetSubscriptionAttributes", "Unsubscribe", "ListSubscriptionsByTopic"},
		"github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol": {"CreateApiKeyCredentialProvider", "GetApiKeyCredentialProvider", "UpdateApiKeyCredentialProvider",
			"DeleteApiKeyCredentialProvider", "ListApiKeyCredentialProviders", "TagResource", "UntagResource", "ListTagsForResource"},
	}
	signing := map[string]string{"sns": "sns", "bedrockagentcorecontrol": "bedrock-agentcore"}
	e := emulator.New(emulator.Options{})
	srv := httptest.NewServer(e)
	defer srv.Close()

	replayed := 0
	for mod, ops := range snapshots {
		service := signing[filepath.Base(mod)]
		for _, op := range ops {
			b, err := snapshot.Read(mod, op)
			if errors.Is(err, snapshot.ErrNone) {
				continue // this SDK release ships no snapshot of the operation
			}
			if err != nil {
				t.Fatal(err)
			}
			status, body, err := snapshot.Replay(srv.URL, service, b)
			if err != nil {
				t.Fatal(err)
			}
			replayed++
			if !snapshot.Understood(body) {
				t.Errorf("%s %s: the emulator did not understand the request: %d %s", filepath.Base(mod), op, status, body)
			}
		}
	}
	if replayed < 20 {
		t.Errorf("replayed only %d snapshots", replayed)
	}
	calls := e.Calls()
	for _, op := range []string{"firehose:CreateDeliveryStream", "sagemaker:CreateEndpointConfig", "events:CreateEndpoint", "sns:Subscribe", "bedrock-agentcore:CreateApiKeyCredentialProvider"} {
		if calls[op] != 1 {
			t.Errorf("%s was not recognised from its snapshot: %v", op, calls)
		}
	}
}
