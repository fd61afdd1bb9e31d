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
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol"
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/google/go-cmp/cmp"

	"github.com/cloudkinds/provider-aws-services/test/emulator"
)

// TestAnswerResource: an answer scoped to one resource meets the calls
// that name it, by their resource or anywhere in their path or body, and
// no others; those run as usual.
func TestAnswerResource(t *testing.T) {
	cases := map[string]struct {
		// setup makes the resources and returns the calls about the
		// answered one and about the other, and the answer's Resource.
		setup func(t *testing.T, cfg aws.Config) (resource string, about, other func() error)
		op    string
	}{
		"query: SNS subscription ARNs, percent-encoded in the body": {
			op: "sns:GetSubscriptionAttributes",
			setup: func(t *testing.T, cfg aws.Config) (string, func() error, func() error) {
				c := sns.NewFromConfig(cfg)
				topic := must(c.CreateTopic(ctx, &sns.CreateTopicInput{Name: aws.String("orders")}))(t).TopicArn
				subscribe := func(q string) *string {
					return must(c.Subscribe(ctx, &sns.SubscribeInput{TopicArn: topic, Protocol: aws.String("sqs"),
						Endpoint: aws.String("arn:aws:sqs:us-east-1:000000000000:" + q), ReturnSubscriptionArn: true}))(t).SubscriptionArn
				}
				a, b := subscribe("a"), subscribe("b")
				get := func(arn *string) func() error {
					return func() error {
						_, err := c.GetSubscriptionAttributes(ctx, &sns.GetSubscriptionAttributesInput{SubscriptionArn: arn})
						return err
					}
				}
				return aws.ToString(a), get(a), get(b)
			},
		},
		"query: an SNS parameter that is not the resource, percent-encoded": {
			op: "sns:Subscribe",
			setup: func(t *testing.T, cfg aws.Config) (string, func() error, func() error) {
				c := sns.NewFromConfig(cfg)
				topic := must(c.CreateTopic(ctx, &sns.CreateTopicInput{Name: aws.String("orders")}))(t).TopicArn
				subscribe := func(q string) func() error {
					return func() error {
						_, err := c.Subscribe(ctx, &sns.SubscribeInput{TopicArn: topic, Protocol: aws.String("sqs"),
							Endpoint: aws.String("arn:aws:sqs:us-east-1:000000000000:" + q)})
						return err
					}
				}
				return "arn:aws:sqs:us-east-1:000000000000:a", subscribe("a"), subscribe("b")
			},
		},
		"JSON 1.1: Firehose stream names": {
			op: "firehose:DescribeDeliveryStream",
			setup: func(t *testing.T, cfg aws.Config) (string, func() error, func() error) {
				c := firehose.NewFromConfig(cfg)
				createStream(t, c, "orders")
				createStream(t, c, "payments")
				describe := func(name string) func() error {
					return func() error {
						_, err := c.DescribeDeliveryStream(ctx, &firehose.DescribeDeliveryStreamInput{DeliveryStreamName: aws.String(name)})
						return err
					}
				}
				return "orders", describe("orders"), describe("payments")
			},
		},
		"REST-JSON: AgentCore ARNs, percent-encoded in the path": {
			op: "bedrock-agentcore:TagResource",
			setup: func(t *testing.T, cfg aws.Config) (string, func() error, func() error) {
				c := bedrockagentcorecontrol.NewFromConfig(cfg)
				create := func(name string) *string {
					return must(c.CreateApiKeyCredentialProvider(ctx, &bedrockagentcorecontrol.CreateApiKeyCredentialProviderInput{
						Name: aws.String(name), ApiKey: aws.String("k")}))(t).CredentialProviderArn
				}
				a, b := create("search"), create("maps")
				tag := func(arn *string) func() error {
					return func() error {
						_, err := c.TagResource(ctx, &bedrockagentcorecontrol.TagResourceInput{ResourceArn: arn, Tags: map[string]string{"env": "dev"}})
						return err
					}
				}
				return aws.ToString(a), tag(a), tag(b)
			},
		},
		"a part of the body that is not the resource": {
			op: "firehose:DescribeDeliveryStream",
			setup: func(t *testing.T, cfg aws.Config) (string, func() error, func() error) {
				c := firehose.NewFromConfig(cfg)
				createStream(t, c, "orders")
				createStream(t, c, "payments")
				describe := func(start string) func() error {
					return func() error {
						_, err := c.DescribeDeliveryStream(ctx, &firehose.DescribeDeliveryStreamInput{DeliveryStreamName: aws.String("orders"),
							ExclusiveStartDestinationId: aws.String(start)})
						return err
					}
				}
				return "destinationId-000000000042", describe("destinationId-000000000042"), describe("destinationId-000000000001")
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e, _, cfg := serve(t, emulator.Options{})
			resource, about, other := tc.setup(t, cfg)
			e.ResetCalls()
			e.InjectAnswer(emulator.Answer{Operation: tc.op, Resource: resource, Code: "AccessDeniedException", Status: 403, Count: 2})
			if err := other(); err != nil {
				t.Errorf("a call about another resource: %v", err)
			}
			wantCode(t, about(), "AccessDeniedException", "injected by the emulator")
			if err := other(); err != nil {
				t.Errorf("a call about another resource, again: %v", err)
			}
			// Only the call about the resource counted down.
			if a := e.Answers(); len(a) != 1 || a[0].Count != 1 {
				t.Errorf("answers left: %+v", a)
			}
			wantCode(t, about(), "AccessDeniedException", "injected by the emulator")
			if err := about(); err != nil {
				t.Errorf("after the count: %v", err)
			}
			if diff := cmp.Diff(outcomes(3, 0, 0, 2), e.Outcomes()[tc.op]); diff != "" {
				t.Errorf("outcomes: -want, +got:\n%s", diff)
			}
		})
	}
}
