//go:build integration

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

package integration

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	fhtypes "github.com/aws/aws-sdk-go-v2/service/firehose/types"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
	smtypes "github.com/aws/aws-sdk-go-v2/service/sagemaker/types"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	"sigs.k8s.io/controller-runtime/pkg/client"

	streamingv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/aws/diff"
	eb "github.com/cloudkinds/provider-aws-services/internal/aws/eventbridge"
	fh "github.com/cloudkinds/provider-aws-services/internal/aws/firehose"
	sm "github.com/cloudkinds/provider-aws-services/internal/aws/sagemaker"
	"github.com/cloudkinds/provider-aws-services/internal/aws/tags"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/ownership"
)

func streamDrift(t *testing.T, s *stack, ns string) (resource.Managed, []string, []driftCase) {
	mg := newStream(t, ns, "drift-"+ns[len(ns)-5:])
	name := mg.Spec.ForProvider.DeliveryStreamName
	lambda := "arn:aws:lambda:us-east-1:000000000000:function:enrich"
	// Firehose answers the Lambda processor with four parameters more, in
	// its own order: none is drift.
	mg.Spec.ForProvider.HTTPEndpointDestinationConfiguration.ProcessingConfiguration = &streamingv1alpha1.ProcessingConfiguration{
		Enabled:    aws.Bool(true),
		Processors: []streamingv1alpha1.Processor{{Type: "Lambda", Parameters: []streamingv1alpha1.ProcessorParameter{{ParameterName: "LambdaArn", ParameterValue: lambda}}}},
	}
	mg.Spec.ForProvider.HTTPEndpointDestinationConfiguration.RetryOptions = &streamingv1alpha1.RetryOptions{DurationInSeconds: aws.Int64(120)}
	create(t, mg)

	c := firehose.NewFromConfig(outsiderConfig(s))
	describe := func(ctx context.Context) (*fhtypes.DeliveryStreamDescription, error) {
		out, err := c.DescribeDeliveryStream(ctx, &firehose.DescribeDeliveryStreamInput{DeliveryStreamName: aws.String(name)})
		if err != nil {
			return nil, err
		}
		return out.DeliveryStreamDescription, nil
	}
	update := func(u *fhtypes.HttpEndpointDestinationUpdate) func(ctx context.Context) error {
		return func(ctx context.Context) error {
			d, err := describe(ctx)
			if err != nil {
				return err
			}
			_, err = c.UpdateDestination(ctx, &firehose.UpdateDestinationInput{
				DeliveryStreamName: aws.String(name), CurrentDeliveryStreamVersionId: d.VersionId,
				DestinationId: d.Destinations[0].DestinationId, HttpEndpointDestinationUpdate: u,
			})
			return err
		}
	}
	holds := func(check func(h *fhtypes.HttpEndpointDestinationDescription) error) func(ctx context.Context) error {
		return func(ctx context.Context) error {
			d, err := describe(ctx)
			if err != nil {
				return err
			}
			return check(fh.HTTPDestination(d))
		}
	}
	listTags := func(ctx context.Context) (map[string]string, error) {
		out, err := c.ListTagsForDeliveryStream(ctx, &firehose.ListTagsForDeliveryStreamInput{DeliveryStreamName: aws.String(name)})
		if err != nil {
			return nil, err
		}
		return fh.TagMap(out.Tags), nil
	}
	cases := []driftCase{
		{
			field:   "httpEndpointDestinationConfiguration.endpointConfiguration.url",
			drift:   update(&fhtypes.HttpEndpointDestinationUpdate{EndpointConfiguration: &fhtypes.HttpEndpointConfiguration{Url: aws.String("https://elsewhere.example.com/")}}),
			restore: "firehose:UpdateDestination",
			restored: holds(func(h *fhtypes.HttpEndpointDestinationDescription) error {
				if u := aws.ToString(h.EndpointConfiguration.Url); u != "https://collector.example.com/ingest" {
					return fmt.Errorf("url %s", u)
				}
				return nil
			}),
		},
		{
			field:   "httpEndpointDestinationConfiguration.retryOptions.durationInSeconds",
			drift:   update(&fhtypes.HttpEndpointDestinationUpdate{RetryOptions: &fhtypes.HttpEndpointRetryOptions{DurationInSeconds: aws.Int32(7200)}}),
			restore: "firehose:UpdateDestination",
			restored: holds(func(h *fhtypes.HttpEndpointDestinationDescription) error {
				if d := aws.ToInt32(h.RetryOptions.DurationInSeconds); d != 120 {
					return fmt.Errorf("retry duration %d", d)
				}
				return nil
			}),
		},
		{
			field: "httpEndpointDestinationConfiguration.processingConfiguration.processors[0].parameters",
			drift: update(&fhtypes.HttpEndpointDestinationUpdate{ProcessingConfiguration: &fhtypes.ProcessingConfiguration{Enabled: aws.Bool(true), Processors: []fhtypes.Processor{{
				Type: fhtypes.ProcessorTypeLambda, Parameters: []fhtypes.ProcessorParameter{
					{ParameterName: fhtypes.ProcessorParameterNameLambdaArn, ParameterValue: aws.String(lambda)},
					{ParameterName: fhtypes.ProcessorParameterNameLambdaNumberOfRetries, ParameterValue: aws.String("7")},
				}}}}}),
			restore: "firehose:UpdateDestination",
			restored: holds(func(h *fhtypes.HttpEndpointDestinationDescription) error {
				for _, p := range h.ProcessingConfiguration.Processors[0].Parameters {
					if p.ParameterName == fhtypes.ProcessorParameterNameLambdaNumberOfRetries && aws.ToString(p.ParameterValue) != "3" {
						return fmt.Errorf("NumberOfRetries %s", aws.ToString(p.ParameterValue))
					}
				}
				return nil
			}),
		},
		{
			field: "deliveryStreamEncryptionConfiguration",
			drift: func(ctx context.Context) error {
				_, err := c.StartDeliveryStreamEncryption(ctx, &firehose.StartDeliveryStreamEncryptionInput{DeliveryStreamName: aws.String(name),
					DeliveryStreamEncryptionConfigurationInput: &fhtypes.DeliveryStreamEncryptionConfigurationInput{KeyType: fhtypes.KeyTypeAwsOwnedCmk}})
				return err
			},
			restore: "firehose:StopDeliveryStreamEncryption",
			restored: func(ctx context.Context) error {
				d, err := describe(ctx)
				if err != nil {
					return err
				}
				// Stopped: AWS disables it after a while.
				if st := d.DeliveryStreamEncryptionConfiguration.Status; st != fhtypes.DeliveryStreamEncryptionStatusDisabled && st != fhtypes.DeliveryStreamEncryptionStatusDisabling {
					return fmt.Errorf("encryption %s", st)
				}
				return nil
			},
		},
		{
			field: "tags",
			drift: func(ctx context.Context) error {
				_, err := c.TagDeliveryStream(ctx, fh.TagInput(name, map[string]string{"team": "someone-else"}))
				return err
			},
			restore:  "firehose:TagDeliveryStream",
			restored: tagsHold(listTags, map[string]string{"team": "analytics"}),
		},
		{
			field: "tags (a tag someone else set is not the provider's)",
			drift: func(ctx context.Context) error {
				_, err := c.TagDeliveryStream(ctx, fh.TagInput(name, map[string]string{"cost-center": "42"}))
				return err
			},
			restored: tagsHold(listTags, map[string]string{"team": "analytics", "cost-center": "42"}),
		},
	}
	return mg, []string{name}, cases
}

// tagsHold checks that AWS holds exactly want, beside the owner tags.
func tagsHold(list func(ctx context.Context) (map[string]string, error), want map[string]string) func(ctx context.Context) error {
	return func(ctx context.Context) error {
		got, err := list(ctx)
		if err != nil {
			return err
		}
		if _, ok := ownership.OwnerOf(got); !ok {
			return fmt.Errorf("tags %v have no owner tags", got)
		}
		maps.DeleteFunc(got, func(k, _ string) bool { return ownership.IsOwnerTag(k) })
		if !maps.Equal(got, want) {
			return fmt.Errorf("tags %v, want %v", got, want)
		}
		return nil
	}
}

func subscriptionDrift(t *testing.T, s *stack, ns string) (resource.Managed, []string, []driftCase) {
	topicARN := topic(t, s, "drift-"+ns[len(ns)-5:])
	mg := newSubscription(ns, "drift-queue", topicARN)
	// The scope is SNS's default, set in the spec so that it counts.
	mg.Spec.ForProvider.FilterPolicyScope = aws.String("MessageAttributes")
	create(t, mg)
	eventually(t, 30*time.Second, "subscribed", func() error {
		if err := cp.Client.Get(context.Background(), client.ObjectKeyFromObject(mg), mg); err != nil {
			return err
		}
		if !strings.HasPrefix(meta.GetExternalName(mg), topicARN+":") {
			return fmt.Errorf("no ARN yet")
		}
		return nil
	})
	arn := meta.GetExternalName(mg)
	c := sns.NewFromConfig(outsiderConfig(s))
	set := func(name, value string) func(ctx context.Context) error {
		return func(ctx context.Context) error {
			_, err := c.SetSubscriptionAttributes(ctx, &sns.SetSubscriptionAttributesInput{SubscriptionArn: aws.String(arn), AttributeName: aws.String(name), AttributeValue: aws.String(value)})
			return err
		}
	}
	holds := func(name, want string) func(ctx context.Context) error {
		return func(ctx context.Context) error {
			out, err := c.GetSubscriptionAttributes(ctx, &sns.GetSubscriptionAttributesInput{SubscriptionArn: aws.String(arn)})
			if err != nil {
				return err
			}
			if got := out.Attributes[name]; !diff.JSONEqual(got, want) {
				return fmt.Errorf("%s is %s", name, got)
			}
			return nil
		}
	}
	cases := []driftCase{
		{field: "filterPolicy", drift: set("FilterPolicy", `{"type": ["order_cancelled"]}`), restore: "sns:SetSubscriptionAttributes", restored: holds("FilterPolicy", `{"type": ["order_placed"]}`)},
		{field: "rawMessageDelivery", drift: set("RawMessageDelivery", "false"), restore: "sns:SetSubscriptionAttributes", restored: holds("RawMessageDelivery", "true")},
		{field: "filterPolicyScope", drift: set("FilterPolicyScope", "MessageBody"), restore: "sns:SetSubscriptionAttributes", restored: holds("FilterPolicyScope", "MessageAttributes")},
	}
	return mg, []string{arn}, cases
}

func endpointDrift(t *testing.T, s *stack, ns string) (resource.Managed, []string, []driftCase) {
	name := "drift-" + ns[len(ns)-5:]
	mg := newEndpoint(ns, name)
	create(t, mg)
	c := eventbridge.NewFromConfig(outsiderConfig(s))
	update := func(fn func(in *eventbridge.UpdateEndpointInput)) func(ctx context.Context) error {
		return func(ctx context.Context) error {
			in := eb.UpdateInput(&newEndpoint(ns, name).Spec.ForProvider)
			fn(in)
			_, err := c.UpdateEndpoint(ctx, in)
			return err
		}
	}
	holds := func(check func(d *eventbridge.DescribeEndpointOutput) error) func(ctx context.Context) error {
		return func(ctx context.Context) error {
			d, err := c.DescribeEndpoint(ctx, &eventbridge.DescribeEndpointInput{Name: aws.String(name)})
			if err != nil {
				return err
			}
			return check(d)
		}
	}
	want := newEndpoint(ns, name).Spec.ForProvider
	cases := []driftCase{
		{
			field: "description", restore: "events:UpdateEndpoint",
			drift: update(func(in *eventbridge.UpdateEndpointInput) { in.Description = aws.String("changed by hand") }),
			restored: holds(func(d *eventbridge.DescribeEndpointOutput) error {
				if aws.ToString(d.Description) != aws.ToString(want.Description) {
					return fmt.Errorf("description %q", aws.ToString(d.Description))
				}
				return nil
			}),
		},
		{
			field: "routingConfig.failoverConfig.secondary.route", restore: "events:UpdateEndpoint",
			drift: update(func(in *eventbridge.UpdateEndpointInput) {
				in.RoutingConfig.FailoverConfig.Secondary.Route = aws.String("eu-west-1")
			}),
			restored: holds(func(d *eventbridge.DescribeEndpointOutput) error {
				if r := aws.ToString(d.RoutingConfig.FailoverConfig.Secondary.Route); r != "us-west-2" {
					return fmt.Errorf("route %s", r)
				}
				return nil
			}),
		},
	}
	return mg, []string{name}, cases
}

func endpointConfigDrift(t *testing.T, s *stack, ns string) (resource.Managed, []string, []driftCase) {
	name := "drift-" + ns[len(ns)-5:]
	model(t, s, name)
	mg := newEndpointConfig(ns, name, name)
	create(t, mg)
	arn := "arn:aws:sagemaker:us-east-1:000000000000:endpoint-config/" + name
	c := sagemaker.NewFromConfig(outsiderConfig(s))
	listTags := func(ctx context.Context) (map[string]string, error) {
		out, err := c.ListTags(ctx, &sagemaker.ListTagsInput{ResourceArn: aws.String(arn)})
		if err != nil {
			return nil, err
		}
		return sm.TagMap(out.Tags), nil
	}
	cases := []driftCase{
		{
			field: "tags", restore: "sagemaker:AddTags",
			drift: func(ctx context.Context) error {
				_, err := c.AddTags(ctx, sm.TagInput(arn, map[string]string{"team": "someone-else"}))
				return err
			},
			restored: tagsHold(listTags, map[string]string{"team": "ml"}),
		},
		{
			// SageMaker cannot change a configuration in place: one replaced
			// outside Kubernetes is reported by its spec path, never written.
			field: "productionVariants[0].instanceType",
			drift: func(ctx context.Context) error {
				spec := newEndpointConfig(ns, name, name).Spec.ForProvider
				in := sm.CreateInput(&spec, tags.FromList(spec.Tags))
				in.ProductionVariants[0].InstanceType = smtypes.ProductionVariantInstanceTypeMlC5Large
				if _, err := c.DeleteEndpointConfig(ctx, &sagemaker.DeleteEndpointConfigInput{EndpointConfigName: aws.String(name)}); err != nil {
					return err
				}
				_, err := c.CreateEndpointConfig(ctx, in)
				return err
			},
			restored: func(context.Context) error {
				return syncedMessage(t, mg, "spec.forProvider.productionVariants[0].instanceType")
			},
		},
	}
	return mg, []string{name, arn}, cases
}

func apiKeyDrift(t *testing.T, s *stack, ns string) (resource.Managed, []string, []driftCase) {
	name := "drift-" + ns[len(ns)-5:]
	create(t, secretWith(ns, "search-key", "apiKey", firstKey))
	mg := newAPIKeyProvider(ns, name)
	create(t, mg)
	arn := "arn:aws:bedrock-agentcore:us-east-1:000000000000:token-vault/default/apikeycredentialprovider/" + name
	c := bedrockagentcorecontrol.NewFromConfig(outsiderConfig(s))
	listTags := func(ctx context.Context) (map[string]string, error) {
		out, err := c.ListTagsForResource(ctx, &bedrockagentcorecontrol.ListTagsForResourceInput{ResourceArn: aws.String(arn)})
		if err != nil {
			return nil, err
		}
		return out.Tags, nil
	}
	cases := []driftCase{{
		field: "tags", restore: "bedrock-agentcore:TagResource",
		drift: func(ctx context.Context) error {
			_, err := c.TagResource(ctx, &bedrockagentcorecontrol.TagResourceInput{ResourceArn: aws.String(arn), Tags: map[string]string{"team": "someone-else"}})
			return err
		},
		restored: tagsHold(listTags, map[string]string{"team": "agents"}),
	}}
	return mg, []string{name, arn}, cases
}
