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

// TestCreations checks the creation log: every create AWS accepted, kept
// after the resource is gone, and nothing else: not a create AWS refused or
// throttled, not a Subscribe answered with the existing subscription.
func TestCreations(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clk := &clock{now: t0}
	e := emulator.New(emulator.Options{CreateDelay: delay, UpdateDelay: delay, DeleteDelay: delay, Now: clk.Now})
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	cfg := configFor(srv.URL, "AKIDEMO")

	// A stream created, deleted and created again under the same name: two
	// creations of one identity, although one stream exists at any time.
	fh := firehose.NewFromConfig(cfg)
	createStream(t, fh, "s")
	_, err := fh.CreateDeliveryStream(ctx, &firehose.CreateDeliveryStreamInput{DeliveryStreamName: aws.String("s"), HttpEndpointDestinationConfiguration: httpDestination()})
	wantCode(t, err, "ResourceInUseException", "already exists")
	clk.Advance(delay)
	must(fh.DeleteDeliveryStream(ctx, &firehose.DeleteDeliveryStreamInput{DeliveryStreamName: aws.String("s")}))(t)
	clk.Advance(delay) // deleted
	e.InjectFault("firehose:CreateDeliveryStream", emulator.Fault{Throttle: 1})
	_, err = fh.CreateDeliveryStream(ctx, &firehose.CreateDeliveryStreamInput{DeliveryStreamName: aws.String("s"), HttpEndpointDestinationConfiguration: httpDestination()})
	wantCode(t, err, "LimitExceededException", "Rate exceeded")
	createStream(t, fh, "s")

	// A subscription, subscribed again (SNS answers the same ARN: no new
	// creation), then unsubscribed and subscribed anew: a new ARN, a second
	// creation.
	c := sns.NewFromConfig(cfg)
	topic := must(c.CreateTopic(ctx, &sns.CreateTopicInput{Name: aws.String("orders")}))(t).TopicArn
	subscribe := func() string {
		return aws.ToString(must(c.Subscribe(ctx, &sns.SubscribeInput{TopicArn: topic, Protocol: aws.String("sqs"),
			Endpoint: aws.String("arn:aws:sqs:us-east-1:000000000000:q"), ReturnSubscriptionArn: true}))(t).SubscriptionArn)
	}
	first := subscribe()
	if again := subscribe(); again != first {
		t.Fatalf("Subscribe is not idempotent: %s, then %s", first, again)
	}
	idempotentOnly := e.CreationCounts()[emulator.Identity("Subscription", "us-east-1", aws.ToString(topic)+" sqs arn:aws:sqs:us-east-1:000000000000:q")]
	if idempotentOnly != 1 {
		t.Errorf("after an idempotent re-subscribe: %d creations, want 1", idempotentOnly)
	}
	must(c.Unsubscribe(ctx, &sns.UnsubscribeInput{SubscriptionArn: aws.String(first)}))(t)
	second := subscribe()
	if second == first {
		t.Fatalf("a new subscription has the old ARN %s", first)
	}

	// The other three kinds, once each.
	e.CreateModel("us-east-1", "churn")
	sm := sagemaker.NewFromConfig(cfg)
	must(sm.CreateEndpointConfig(ctx, &sagemaker.CreateEndpointConfigInput{EndpointConfigName: aws.String("cfg"), ProductionVariants: []smtypes.ProductionVariant{{
		VariantName: aws.String("primary"), ModelName: aws.String("churn"), InstanceType: smtypes.ProductionVariantInstanceTypeMlM5Large, InitialInstanceCount: aws.Int32(1),
	}}}))(t)
	in := endpointInput("orders")
	in.RoleArn = aws.String("arn:aws:iam::000000000000:role/replication")
	must(eventbridge.NewFromConfig(cfg).CreateEndpoint(ctx, in))(t)
	ac := bedrockagentcorecontrol.NewFromConfig(configFor(srv.URL, "AKIDOTHER"))
	must(ac.CreateApiKeyCredentialProvider(ctx, &bedrockagentcorecontrol.CreateApiKeyCredentialProviderInput{Name: aws.String("search"), ApiKey: aws.String("k")}))(t)

	user := "arn:aws:iam::000000000000:user/AKIDEMO"
	at := t0.Add
	want := []emulator.Creation{
		{Seq: 1, Service: "firehose", Kind: "DeliveryStream", Region: "us-east-1", Name: "s", ARN: "arn:aws:firehose:us-east-1:000000000000:deliverystream/s", AccessKey: "AKIDEMO", Caller: user, Time: at(0)},
		{Seq: 2, Service: "firehose", Kind: "DeliveryStream", Region: "us-east-1", Name: "s", ARN: "arn:aws:firehose:us-east-1:000000000000:deliverystream/s", AccessKey: "AKIDEMO", Caller: user, Time: at(2 * delay)},
		{Seq: 3, Service: "sns", Kind: "Subscription", Region: "us-east-1", ARN: first, TopicARN: aws.ToString(topic), Protocol: "sqs", Endpoint: "arn:aws:sqs:us-east-1:000000000000:q", AccessKey: "AKIDEMO", Caller: user, Time: at(2 * delay)},
		{Seq: 4, Service: "sns", Kind: "Subscription", Region: "us-east-1", ARN: second, TopicARN: aws.ToString(topic), Protocol: "sqs", Endpoint: "arn:aws:sqs:us-east-1:000000000000:q", AccessKey: "AKIDEMO", Caller: user, Time: at(2 * delay)},
		{Seq: 5, Service: "sagemaker", Kind: "EndpointConfig", Region: "us-east-1", Name: "cfg", ARN: "arn:aws:sagemaker:us-east-1:000000000000:endpoint-config/cfg", AccessKey: "AKIDEMO", Caller: user, Time: at(2 * delay)},
		{Seq: 6, Service: "events", Kind: "Endpoint", Region: "us-east-1", Name: "orders", ARN: "arn:aws:events:us-east-1:000000000000:endpoint/orders", AccessKey: "AKIDEMO", Caller: user, Time: at(2 * delay)},
		{Seq: 7, Service: "bedrock-agentcore", Kind: "APIKeyCredentialProvider", Region: "us-east-1", Name: "search",
			ARN: "arn:aws:bedrock-agentcore:us-east-1:000000000000:token-vault/default/apikeycredentialprovider/search", AccessKey: "AKIDOTHER", Caller: "arn:aws:iam::000000000000:user/AKIDOTHER", Time: at(2 * delay)},
	}
	if diff := cmp.Diff(want, e.Creations()); diff != "" {
		t.Errorf("Creations: -want, +got:\n%s", diff)
	}
	counts := map[string]int{
		emulator.Identity("DeliveryStream", "us-east-1", "s"):                                                           2,
		emulator.Identity("Subscription", "us-east-1", aws.ToString(topic)+" sqs arn:aws:sqs:us-east-1:000000000000:q"): 2,
		emulator.Identity("EndpointConfig", "us-east-1", "cfg"):                                                         1,
		emulator.Identity("Endpoint", "us-east-1", "orders"):                                                            1,
		emulator.Identity("APIKeyCredentialProvider", "us-east-1", "search"):                                            1,
	}
	if diff := cmp.Diff(counts, e.CreationCounts()); diff != "" {
		t.Errorf("CreationCounts: -want, +got:\n%s", diff)
	}

	// The same over HTTP.
	status, body := control(t, http.MethodGet, srv.URL+"/_emulator/creations", "")
	var served []emulator.Creation
	if err := json.Unmarshal([]byte(body), &served); status != http.StatusOK || err != nil {
		t.Fatalf("GET /_emulator/creations: %d %s %v", status, body, err)
	}
	if diff := cmp.Diff(want, served); diff != "" {
		t.Errorf("/_emulator/creations: -want, +got:\n%s", diff)
	}
	if status, _ := control(t, http.MethodPost, srv.URL+"/_emulator/creations", ""); status != http.StatusMethodNotAllowed {
		t.Errorf("POST /_emulator/creations: %d", status)
	}
	// Forgetting the call counts keeps the history.
	e.ResetCalls()
	if n := len(e.Creations()); n != len(want) {
		t.Errorf("after ResetCalls: %d creations, want %d", n, len(want))
	}
}

// TestWrites checks the write log: every accepted call that changes, or may
// change, a resource, with the key that signed it; no read, no refused or
// throttled call. The calls per key count every call.
func TestWrites(t *testing.T) {
	e, cfg, clk := start(t, "AKIDEMO")
	c := sns.NewFromConfig(cfg)
	topic := must(c.CreateTopic(ctx, &sns.CreateTopicInput{Name: aws.String("orders")}))(t).TopicArn
	in := &sns.SubscribeInput{TopicArn: topic, Protocol: aws.String("sqs"), Endpoint: aws.String("arn:aws:sqs:us-east-1:000000000000:q"), ReturnSubscriptionArn: true}
	arn := must(c.Subscribe(ctx, in))(t).SubscriptionArn
	// The same Subscribe by someone else: no creation, but a write, since it
	// hands the existing subscription over.
	must(sns.NewFromConfig(configFor(aws.ToString(cfg.BaseEndpoint), "AKIDOTHER")).Subscribe(ctx, in))(t)
	must(c.GetSubscriptionAttributes(ctx, &sns.GetSubscriptionAttributesInput{SubscriptionArn: arn}))(t)
	must(c.ListSubscriptionsByTopic(ctx, &sns.ListSubscriptionsByTopicInput{TopicArn: topic}))(t)
	e.InjectFault("sns:SetSubscriptionAttributes", emulator.Fault{ServerError: 1})
	set := &sns.SetSubscriptionAttributesInput{SubscriptionArn: arn, AttributeName: aws.String("RawMessageDelivery"), AttributeValue: aws.String("true")}
	_, err := c.SetSubscriptionAttributes(ctx, set)
	if err == nil {
		t.Fatal("the injected server error did not reach the call")
	}
	clk.Advance(time.Second)
	must(c.SetSubscriptionAttributes(ctx, set))(t)
	_, err = c.Unsubscribe(ctx, &sns.UnsubscribeInput{SubscriptionArn: aws.String("arn:aws:sns:us-east-1:000000000000:orders:nope")})
	wantCode(t, err, "NotFound", "does not exist")
	must(c.Unsubscribe(ctx, &sns.UnsubscribeInput{SubscriptionArn: arn}))(t)

	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	want := []emulator.Write{
		{Seq: 1, Service: "sns", Operation: "CreateTopic", Region: "us-east-1", Resource: "orders", AccessKey: "AKIDEMO", Time: t0},
		{Seq: 2, Service: "sns", Operation: "Subscribe", Region: "us-east-1", Resource: aws.ToString(topic), AccessKey: "AKIDEMO", Time: t0},
		{Seq: 3, Service: "sns", Operation: "Subscribe", Region: "us-east-1", Resource: aws.ToString(topic), AccessKey: "AKIDOTHER", Time: t0},
		{Seq: 4, Service: "sns", Operation: "SetSubscriptionAttributes", Region: "us-east-1", Resource: aws.ToString(arn), AccessKey: "AKIDEMO", Time: t0.Add(time.Second)},
		{Seq: 5, Service: "sns", Operation: "Unsubscribe", Region: "us-east-1", Resource: aws.ToString(arn), AccessKey: "AKIDEMO", Time: t0.Add(time.Second)},
	}
	got := e.Writes()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Writes: -want, +got:\n%s", diff)
	}
	for _, w := range got {
		if w.IsDelete() != (w.Operation == "Unsubscribe") {
			t.Errorf("%s: IsDelete %t", w.Operation, w.IsDelete())
		}
	}
	if n := len(e.Creations()); n != 1 {
		t.Errorf("%d creations, want 1: %+v", n, e.Creations())
	}
	// Every call is counted for the key that signed it, reads, refused and
	// failed calls included.
	if diff := cmp.Diff(map[string]int{"AKIDEMO": 8, "AKIDOTHER": 1}, e.CallsByKey()); diff != "" {
		t.Errorf("CallsByKey: -want, +got:\n%s", diff)
	}
	for op, isDelete := range map[string]bool{"DeleteDeliveryStream": true, "DeleteApiKeyCredentialProvider": true, "DeleteTags": false, "UntagResource": false, "UpdateEndpoint": false} {
		if got := (emulator.Write{Operation: op}).IsDelete(); got != isDelete {
			t.Errorf("%s: IsDelete %t, want %t", op, got, isDelete)
		}
	}
}

// TestCreationHook checks that the creation hook runs for each creation,
// before the answer leaves, and for nothing else.
func TestCreationHook(t *testing.T) {
	e, cfg, _ := start(t, "AKIDEMO")
	var seen []string
	e.SetCreationHook(func(c emulator.Creation) {
		// The creation is in the log already.
		if n := len(e.Creations()); n != c.Seq {
			t.Errorf("hook of creation %d, with %d in the log", c.Seq, n)
		}
		seen = append(seen, c.Identity())
	})
	fh := firehose.NewFromConfig(cfg)
	createStream(t, fh, "s")
	_, err := fh.CreateDeliveryStream(ctx, &firehose.CreateDeliveryStreamInput{DeliveryStreamName: aws.String("s"), HttpEndpointDestinationConfiguration: httpDestination()})
	wantCode(t, err, "ResourceInUseException", "already exists")
	c := sns.NewFromConfig(cfg)
	topic := must(c.CreateTopic(ctx, &sns.CreateTopicInput{Name: aws.String("orders")}))(t).TopicArn
	in := &sns.SubscribeInput{TopicArn: topic, Protocol: aws.String("sqs"), Endpoint: aws.String("arn:aws:sqs:us-east-1:000000000000:q")}
	must(c.Subscribe(ctx, in))(t)
	must(c.Subscribe(ctx, in))(t) // the same subscription: no creation
	e.SetCreationHook(nil)
	createStream(t, fh, "t")

	want := []string{
		emulator.Identity("DeliveryStream", "us-east-1", "s"),
		emulator.Identity("Subscription", "us-east-1", aws.ToString(topic)+" sqs arn:aws:sqs:us-east-1:000000000000:q"),
	}
	if diff := cmp.Diff(want, seen); diff != "" {
		t.Errorf("hooks: -want, +got:\n%s", diff)
	}
}
