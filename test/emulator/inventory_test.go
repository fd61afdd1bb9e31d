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
	"net/http/httptest"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
	smtypes "github.com/aws/aws-sdk-go-v2/service/sagemaker/types"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/google/go-cmp/cmp"

	"github.com/cloudkinds/provider-aws-services/test/emulator"
)

func TestInventory(t *testing.T) {
	clk := &clock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	e := emulator.New(emulator.Options{CreateDelay: delay, UpdateDelay: delay, DeleteDelay: delay, Now: clk.Now})
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	cfg := configFor(srv.URL, "AKIDEMO")
	west := cfg.Copy()
	west.Region = "us-west-2"

	empty := emulator.Inventory{DeliveryStreams: []string{}, EndpointConfigs: []string{}, Endpoints: []string{}, APIKeyCredentialProviders: []string{}, Subscriptions: []emulator.InventorySubscription{}}
	if diff := cmp.Diff(empty, e.Inventory()); diff != "" {
		t.Errorf("initially: -want, +got:\n%s", diff)
	}

	fh, fhWest := firehose.NewFromConfig(cfg), firehose.NewFromConfig(west)
	createStream(t, fh, "b-stream")
	createStream(t, fh, "a-stream")
	createStream(t, fhWest, "west-stream")

	e.CreateModel("us-east-1", "churn")
	sm := sagemaker.NewFromConfig(cfg)
	must(sm.CreateEndpointConfig(ctx, &sagemaker.CreateEndpointConfigInput{EndpointConfigName: aws.String("cfg"), ProductionVariants: []smtypes.ProductionVariant{{
		VariantName: aws.String("primary"), ModelName: aws.String("churn"), InstanceType: smtypes.ProductionVariantInstanceTypeMlM5Large, InitialInstanceCount: aws.Int32(1),
	}}}))(t)

	eb := eventbridge.NewFromConfig(cfg)
	in := endpointInput("orders")
	in.RoleArn = aws.String("arn:aws:iam::000000000000:role/replication")
	must(eb.CreateEndpoint(ctx, in))(t)

	ac := bedrockagentcorecontrol.NewFromConfig(cfg)
	must(ac.CreateApiKeyCredentialProvider(ctx, &bedrockagentcorecontrol.CreateApiKeyCredentialProviderInput{Name: aws.String("search"), ApiKey: aws.String("k")}))(t)

	c := sns.NewFromConfig(cfg)
	topic := must(c.CreateTopic(ctx, &sns.CreateTopicInput{Name: aws.String("orders")}))(t).TopicArn
	queue := aws.ToString(must(c.Subscribe(ctx, &sns.SubscribeInput{TopicArn: topic, Protocol: aws.String("sqs"),
		Endpoint: aws.String("arn:aws:sqs:us-east-1:000000000000:q"), ReturnSubscriptionArn: true}))(t).SubscriptionArn)
	hook := aws.ToString(must(c.Subscribe(ctx, &sns.SubscribeInput{TopicArn: topic, Protocol: aws.String("https"),
		Endpoint: aws.String("https://hooks.example.com"), ReturnSubscriptionArn: true}))(t).SubscriptionArn)

	subs := []emulator.InventorySubscription{
		{ARN: queue, TopicARN: aws.ToString(topic), Protocol: "sqs", Endpoint: "arn:aws:sqs:us-east-1:000000000000:q"},
		{ARN: hook, TopicARN: aws.ToString(topic), Protocol: "https", Endpoint: "https://hooks.example.com", Pending: true},
	}
	if subs[1].ARN < subs[0].ARN {
		subs[0], subs[1] = subs[1], subs[0]
	}
	want := emulator.Inventory{
		DeliveryStreams:           []string{"a-stream", "b-stream", "west-stream"},
		EndpointConfigs:           []string{"cfg"},
		Endpoints:                 []string{"orders"},
		APIKeyCredentialProviders: []string{"search"},
		Subscriptions:             subs,
	}
	if diff := cmp.Diff(want, e.Inventory()); diff != "" {
		t.Errorf("after creating: -want, +got:\n%s", diff)
	}
	status, body := control(t, http.MethodGet, srv.URL+"/_emulator/resources", "")
	var served emulator.Inventory
	if err := json.Unmarshal([]byte(body), &served); status != http.StatusOK || err != nil {
		t.Fatalf("GET /_emulator/resources: %d %s %v", status, body, err)
	}
	if diff := cmp.Diff(want, served); diff != "" {
		t.Errorf("/_emulator/resources: -want, +got:\n%s", diff)
	}

	clk.Advance(delay) // everything ACTIVE
	for _, name := range []string{"a-stream", "b-stream"} {
		must(fh.DeleteDeliveryStream(ctx, &firehose.DeleteDeliveryStreamInput{DeliveryStreamName: aws.String(name)}))(t)
	}
	must(fhWest.DeleteDeliveryStream(ctx, &firehose.DeleteDeliveryStreamInput{DeliveryStreamName: aws.String("west-stream")}))(t)
	must(sm.DeleteEndpointConfig(ctx, &sagemaker.DeleteEndpointConfigInput{EndpointConfigName: aws.String("cfg")}))(t)
	must(eb.DeleteEndpoint(ctx, &eventbridge.DeleteEndpointInput{Name: aws.String("orders")}))(t)
	must(ac.DeleteApiKeyCredentialProvider(ctx, &bedrockagentcorecontrol.DeleteApiKeyCredentialProviderInput{Name: aws.String("search")}))(t)
	must(c.Unsubscribe(ctx, &sns.UnsubscribeInput{SubscriptionArn: aws.String(queue)}))(t)

	// Deletions in progress still exist; the pending subscription waits for
	// its confirmation to expire.
	deleting := emulator.Inventory{
		DeliveryStreams: []string{"a-stream", "b-stream", "west-stream"}, EndpointConfigs: []string{}, Endpoints: []string{"orders"},
		APIKeyCredentialProviders: []string{}, Subscriptions: []emulator.InventorySubscription{
			{ARN: hook, TopicARN: aws.ToString(topic), Protocol: "https", Endpoint: "https://hooks.example.com", Pending: true},
		},
	}
	if diff := cmp.Diff(deleting, e.Inventory()); diff != "" {
		t.Errorf("while deleting: -want, +got:\n%s", diff)
	}
	clk.Advance(delay)
	e.ExpirePendingSubscriptions()
	if diff := cmp.Diff(empty, e.Inventory()); diff != "" {
		t.Errorf("after deleting: -want, +got:\n%s", diff)
	}
}

func TestOutcomes(t *testing.T) {
	e, url, cfg := serve(t, emulator.Options{})
	c := firehose.NewFromConfig(cfg)
	describe := func() error {
		_, err := c.DescribeDeliveryStream(ctx, &firehose.DescribeDeliveryStreamInput{DeliveryStreamName: aws.String("s")})
		return err
	}
	_ = describe() // refused: not found
	e.InjectFault("firehose:DescribeDeliveryStream", emulator.Fault{Throttle: 2, ServerError: 1})
	_, _, _ = describe(), describe(), describe() // throttled twice, then an error
	createStream(t, c, "s")
	_ = describe() // ok
	e.Deny("AKIDEMO", "firehose:DeleteDeliveryStream")
	_, err := c.DeleteDeliveryStream(ctx, &firehose.DeleteDeliveryStreamInput{DeliveryStreamName: aws.String("s")})
	wantCode(t, err, "AccessDeniedException", "not authorized")

	want := map[string]map[string]int{
		"firehose:DescribeDeliveryStream": {"ok": 1, "throttled": 2, "error": 1, "refused": 1},
		"firehose:CreateDeliveryStream":   {"ok": 1, "throttled": 0, "error": 0, "refused": 0},
		"firehose:DeleteDeliveryStream":   {"ok": 0, "throttled": 0, "error": 0, "refused": 1},
	}
	if diff := cmp.Diff(want, e.Outcomes()); diff != "" {
		t.Errorf("Outcomes: -want, +got:\n%s", diff)
	}
	for op, m := range want {
		if sum := m["ok"] + m["throttled"] + m["error"] + m["refused"]; e.CallCount(op) != sum {
			t.Errorf("%s: %d calls, %d outcomes", op, e.CallCount(op), sum)
		}
	}
	status, body := control(t, http.MethodGet, url+"/_emulator/outcomes", "")
	var served map[string]map[string]int
	if err := json.Unmarshal([]byte(body), &served); status != http.StatusOK || err != nil {
		t.Fatalf("GET /_emulator/outcomes: %d %s %v", status, body, err)
	}
	if diff := cmp.Diff(want, served); diff != "" {
		t.Errorf("/_emulator/outcomes: -want, +got:\n%s", diff)
	}
	if status, _ := control(t, http.MethodPost, url+"/_emulator/reset", ""); status != http.StatusOK || len(e.Outcomes()) != 0 || len(e.Calls()) != 0 {
		t.Errorf("reset: %d, outcomes %v, calls %v", status, e.Outcomes(), e.Calls())
	}
}
