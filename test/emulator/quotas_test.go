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
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	"github.com/aws/aws-sdk-go-v2/service/sns"

	"github.com/cloudkinds/provider-aws-services/test/emulator"
)

// A call over its operation's quota gets the service's own throttling
// answer; the quota refills with time, counts per operation and region, and
// is off unless set.
func TestQuotas(t *testing.T) {
	ctx := context.Background()
	e, cfg, clk := start(t, "AKIDEMO")
	fh := firehose.NewFromConfig(cfg)
	describe := func(c *firehose.Client) error {
		_, err := c.DescribeDeliveryStream(ctx, &firehose.DescribeDeliveryStreamInput{DeliveryStreamName: aws.String("none")})
		return err
	}
	notFound := func(err error) {
		t.Helper()
		wantCode(t, err, "ResourceNotFoundException", "")
	}

	// Off by default.
	for range 20 {
		notFound(describe(fh))
	}

	e.SetQuotas(emulator.PublishedQuotas)
	for range 5 {
		notFound(describe(fh))
	}
	wantCode(t, describe(fh), "LimitExceededException", "Rate exceeded")
	// Another operation of the service has a bucket of its own.
	_, err := fh.ListTagsForDeliveryStream(ctx, &firehose.ListTagsForDeliveryStreamInput{DeliveryStreamName: aws.String("none")})
	notFound(err)
	// So has another region.
	other := cfg.Copy()
	other.Region = "eu-west-1"
	notFound(describe(firehose.NewFromConfig(other)))
	// The quota refills at its rate: one call per 200 ms at 5 per second.
	clk.Advance(200 * time.Millisecond)
	notFound(describe(fh))
	wantCode(t, describe(fh), "LimitExceededException", "Rate exceeded")

	// EventBridge's reads have 50 per second, its endpoint writes 5; SNS
	// answers with its own code.
	eb := eventbridge.NewFromConfig(cfg)
	for range 50 {
		_, err := eb.DescribeEndpoint(ctx, &eventbridge.DescribeEndpointInput{Name: aws.String("none")})
		wantCode(t, err, "ResourceNotFoundException", "")
	}
	_, err = eb.DescribeEndpoint(ctx, &eventbridge.DescribeEndpointInput{Name: aws.String("none")})
	wantCode(t, err, "ThrottlingException", "Rate exceeded")
	sc := sns.NewFromConfig(cfg)
	arn := "arn:aws:sns:us-east-1:000000000000:none"
	for range 30 {
		_, err := sc.ListSubscriptionsByTopic(ctx, &sns.ListSubscriptionsByTopicInput{TopicArn: aws.String(arn)})
		wantCode(t, err, "NotFound", "")
	}
	_, err = sc.ListSubscriptionsByTopic(ctx, &sns.ListSubscriptionsByTopicInput{TopicArn: aws.String(arn)})
	wantCode(t, err, "Throttling", "Rate exceeded")

	if got := e.Outcomes()["firehose:DescribeDeliveryStream"][emulator.OutcomeThrottled]; got != 2 {
		t.Errorf("throttled DescribeDeliveryStream outcomes: %d, want 2", got)
	}
	e.SetQuotas(nil)
	for range 10 {
		notFound(describe(fh))
	}
}
