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
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	agentcorev1alpha1 "github.com/cloudkinds/provider-aws-services/apis/agentcorecontrol/v1alpha1"
	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	eventbusv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/eventbus/v1alpha1"
	mlplatformv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/mlplatform/v1alpha1"
	notificationv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/notification/v1alpha1"
	streamingv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	ac "github.com/cloudkinds/provider-aws-services/internal/aws/agentcore"
	eb "github.com/cloudkinds/provider-aws-services/internal/aws/eventbridge"
	fh "github.com/cloudkinds/provider-aws-services/internal/aws/firehose"
	sm "github.com/cloudkinds/provider-aws-services/internal/aws/sagemaker"
	snsclient "github.com/cloudkinds/provider-aws-services/internal/aws/sns"
)

// An ownedKind is one kind in the ownership table: how to make an object that
// asks for a given AWS identity, and how to see that identity in AWS as
// someone outside the provider.
type ownedKind struct {
	name string
	// object returns an object of namespace ns named name, asking for the
	// AWS identity that name stands for (the same in every namespace).
	object func(t *testing.T, ns, name string) resource.Managed
	// vary changes an object's spec in a value AWS holds, so that an
	// object that wrote it would show on AWS.
	vary func(mg resource.Managed)
	// outside makes the resource mg asks for, as someone outside the
	// cluster would: without owner tags.
	outside func(ctx context.Context, mg resource.Managed) error
	// state is everything AWS says of the resource mg asks for (with its
	// version and timestamps), read with an uncounted key.
	state func(ctx context.Context, mg resource.Managed) (string, error)
	// tags are the resource's tags; nil for a kind AWS cannot tag.
	tags func(ctx context.Context, mg resource.Managed) (map[string]string, error)
	// counted names the resource in the emulator's per-resource counts.
	counted func(mg resource.Managed) []string
	// creates is the kind's create operation.
	creates string
	// arn is the ARN of the resource mg asks for, read as someone outside
	// the provider.
	arn func(ctx context.Context, mg resource.Managed) (string, error)
}

func asJSON(v any, err error) (string, error) {
	if err != nil {
		return "", err
	}
	b, err := json.Marshal(v)
	return string(b), err
}

func ownedKinds(t *testing.T, s *stack) []ownedKind {
	t.Helper()
	cfg := outsiderConfig(s)
	fhc, snc, ebc, smc, acc := firehose.NewFromConfig(cfg), sns.NewFromConfig(cfg), eventbridge.NewFromConfig(cfg), sagemaker.NewFromConfig(cfg), bedrockagentcorecontrol.NewFromConfig(cfg)
	topicARN := topic(t, s, short("owners"))
	modelName := short("owners-model")
	model(t, s, modelName)
	return []ownedKind{
		{
			name:   "DeliveryStream",
			object: func(t *testing.T, ns, name string) resource.Managed { return newStream(t, ns, name) },
			vary: func(mg resource.Managed) {
				mg.(*streamingv1alpha1.DeliveryStream).Spec.ForProvider.HTTPEndpointDestinationConfiguration.EndpointConfiguration.URL = aws.String("https://team-b.example.com/ingest")
			},
			outside: func(ctx context.Context, mg resource.Managed) error {
				_, err := fhc.CreateDeliveryStream(ctx, fh.CreateInput(&mg.(*streamingv1alpha1.DeliveryStream).Spec.ForProvider, aws.String("outsider-key"), createTags(mg, nil)))
				return err
			},
			state: func(ctx context.Context, mg resource.Managed) (string, error) {
				out, err := fhc.DescribeDeliveryStream(ctx, &firehose.DescribeDeliveryStreamInput{DeliveryStreamName: aws.String(nameOf(mg))})
				if err != nil {
					return "", err
				}
				return asJSON(out.DeliveryStreamDescription, nil)
			},
			tags: func(ctx context.Context, mg resource.Managed) (map[string]string, error) {
				out, err := fhc.ListTagsForDeliveryStream(ctx, &firehose.ListTagsForDeliveryStreamInput{DeliveryStreamName: aws.String(nameOf(mg))})
				if err != nil {
					return nil, err
				}
				return fh.TagMap(out.Tags), nil
			},
			counted: func(mg resource.Managed) []string { return []string{nameOf(mg)} },
			creates: "firehose:CreateDeliveryStream",
			arn: func(ctx context.Context, mg resource.Managed) (string, error) {
				out, err := fhc.DescribeDeliveryStream(ctx, &firehose.DescribeDeliveryStreamInput{DeliveryStreamName: aws.String(nameOf(mg))})
				if err != nil {
					return "", err
				}
				return aws.ToString(out.DeliveryStreamDescription.DeliveryStreamARN), nil
			},
		},
		{
			name: "Subscription",
			object: func(_ *testing.T, ns, name string) resource.Managed {
				return newSubscription(ns, name, topicARN)
			},
			vary: func(mg resource.Managed) {
				mg.(*notificationv1alpha1.Subscription).Spec.ForProvider.FilterPolicy = aws.String(`{"type": ["team_b"]}`)
			},
			outside: func(ctx context.Context, mg resource.Managed) error {
				_, err := snc.Subscribe(ctx, snsclient.SubscribeInput(&mg.(*notificationv1alpha1.Subscription).Spec.ForProvider))
				return err
			},
			state: func(ctx context.Context, mg resource.Managed) (string, error) {
				p := &mg.(*notificationv1alpha1.Subscription).Spec.ForProvider
				var found []string
				pages := sns.NewListSubscriptionsByTopicPaginator(snc, &sns.ListSubscriptionsByTopicInput{TopicArn: p.TopicARN})
				for pages.HasMorePages() {
					page, err := pages.NextPage(ctx)
					if err != nil {
						return "", err
					}
					for _, sub := range page.Subscriptions {
						if aws.ToString(sub.Endpoint) != aws.ToString(p.Endpoint) {
							continue
						}
						attrs, err := snc.GetSubscriptionAttributes(ctx, &sns.GetSubscriptionAttributesInput{SubscriptionArn: sub.SubscriptionArn})
						if err != nil {
							return "", err
						}
						s, _ := asJSON(attrs.Attributes, nil)
						found = append(found, s)
					}
				}
				if len(found) == 0 {
					return "", fmt.Errorf("no subscription of %s", aws.ToString(p.Endpoint))
				}
				return strings.Join(found, "\n"), nil
			},
			counted: func(mg resource.Managed) []string {
				return []string{topicARN, meta.GetExternalName(mg)}
			},
			creates: "sns:Subscribe",
			arn: func(ctx context.Context, mg resource.Managed) (string, error) {
				p := &mg.(*notificationv1alpha1.Subscription).Spec.ForProvider
				out, err := snc.ListSubscriptionsByTopic(ctx, &sns.ListSubscriptionsByTopicInput{TopicArn: p.TopicARN})
				if err != nil {
					return "", err
				}
				if arn, ok := snsclient.Find(p, out.Subscriptions); ok {
					return arn, nil
				}
				return "", fmt.Errorf("no subscription of %s", aws.ToString(p.Endpoint))
			},
		},
		{
			name:   "Endpoint",
			object: func(_ *testing.T, ns, name string) resource.Managed { return newEndpoint(ns, name) },
			vary: func(mg resource.Managed) {
				mg.(*eventbusv1alpha1.Endpoint).Spec.ForProvider.Description = aws.String("team b's")
			},
			outside: func(ctx context.Context, mg resource.Managed) error {
				_, err := ebc.CreateEndpoint(ctx, eb.CreateInput(&mg.(*eventbusv1alpha1.Endpoint).Spec.ForProvider))
				return err
			},
			state: func(ctx context.Context, mg resource.Managed) (string, error) {
				return asJSON(ebc.DescribeEndpoint(ctx, &eventbridge.DescribeEndpointInput{Name: aws.String(nameOf(mg))}))
			},
			counted: func(mg resource.Managed) []string { return []string{nameOf(mg)} },
			creates: "events:CreateEndpoint",
			arn: func(ctx context.Context, mg resource.Managed) (string, error) {
				out, err := ebc.DescribeEndpoint(ctx, &eventbridge.DescribeEndpointInput{Name: aws.String(nameOf(mg))})
				if err != nil {
					return "", err
				}
				return aws.ToString(out.Arn), nil
			},
		},
		{
			name:   "EndpointConfig",
			object: func(_ *testing.T, ns, name string) resource.Managed { return newEndpointConfig(ns, name, modelName) },
			vary: func(mg resource.Managed) {
				mg.(*mlplatformv1alpha1.EndpointConfig).Spec.ForProvider.Tags = []common.Tag{{Key: aws.String("team"), Value: aws.String("b")}}
			},
			outside: func(ctx context.Context, mg resource.Managed) error {
				_, err := smc.CreateEndpointConfig(ctx, sm.CreateInput(&mg.(*mlplatformv1alpha1.EndpointConfig).Spec.ForProvider, createTags(mg, nil)))
				return err
			},
			state: func(ctx context.Context, mg resource.Managed) (string, error) {
				return asJSON(smc.DescribeEndpointConfig(ctx, &sagemaker.DescribeEndpointConfigInput{EndpointConfigName: aws.String(nameOf(mg))}))
			},
			tags: func(ctx context.Context, mg resource.Managed) (map[string]string, error) {
				d, err := smc.DescribeEndpointConfig(ctx, &sagemaker.DescribeEndpointConfigInput{EndpointConfigName: aws.String(nameOf(mg))})
				if err != nil {
					return nil, err
				}
				out, err := smc.ListTags(ctx, &sagemaker.ListTagsInput{ResourceArn: d.EndpointConfigArn})
				if err != nil {
					return nil, err
				}
				return sm.TagMap(out.Tags), nil
			},
			counted: func(mg resource.Managed) []string {
				return []string{nameOf(mg), "arn:aws:sagemaker:us-east-1:000000000000:endpoint-config/" + nameOf(mg)}
			},
			creates: "sagemaker:CreateEndpointConfig",
			arn: func(ctx context.Context, mg resource.Managed) (string, error) {
				out, err := smc.DescribeEndpointConfig(ctx, &sagemaker.DescribeEndpointConfigInput{EndpointConfigName: aws.String(nameOf(mg))})
				if err != nil {
					return "", err
				}
				return aws.ToString(out.EndpointConfigArn), nil
			},
		},
		{
			name: "APIKeyCredentialProvider",
			object: func(t *testing.T, ns, name string) resource.Managed {
				ensureSecret(t, secretWith(ns, "search-key", "apiKey", "sk-"+ns))
				return newAPIKeyProvider(ns, name)
			},
			vary: func(mg resource.Managed) {
				mg.(*agentcorev1alpha1.APIKeyCredentialProvider).Spec.ForProvider.Tags = map[string]string{"team": "b"}
			},
			outside: func(ctx context.Context, mg resource.Managed) error {
				_, err := acc.CreateApiKeyCredentialProvider(ctx, ac.CreateInput(&mg.(*agentcorev1alpha1.APIKeyCredentialProvider).Spec.ForProvider, []byte("sk-outsider"), createTags(mg, nil)))
				return err
			},
			state: func(ctx context.Context, mg resource.Managed) (string, error) {
				out, err := acc.GetApiKeyCredentialProvider(ctx, &bedrockagentcorecontrol.GetApiKeyCredentialProviderInput{Name: aws.String(nameOf(mg))})
				if err != nil {
					return "", err
				}
				// The key AWS holds, which the describe call never
				// shows: a key sent by the wrong object must show.
				key, updates, _ := s.aws.APIKey("us-east-1", nameOf(mg))
				return asJSON(map[string]any{"get": out, "key": key, "keyUpdates": updates}, nil)
			},
			tags: func(ctx context.Context, mg resource.Managed) (map[string]string, error) {
				out, err := acc.GetApiKeyCredentialProvider(ctx, &bedrockagentcorecontrol.GetApiKeyCredentialProviderInput{Name: aws.String(nameOf(mg))})
				if err != nil {
					return nil, err
				}
				tags, err := acc.ListTagsForResource(ctx, &bedrockagentcorecontrol.ListTagsForResourceInput{ResourceArn: out.CredentialProviderArn})
				if err != nil {
					return nil, err
				}
				return tags.Tags, nil
			},
			counted: func(mg resource.Managed) []string { return []string{nameOf(mg)} },
			creates: "bedrock-agentcore:CreateApiKeyCredentialProvider",
			arn: func(ctx context.Context, mg resource.Managed) (string, error) {
				out, err := acc.GetApiKeyCredentialProvider(ctx, &bedrockagentcorecontrol.GetApiKeyCredentialProviderInput{Name: aws.String(nameOf(mg))})
				if err != nil {
					return "", err
				}
				return aws.ToString(out.CredentialProviderArn), nil
			},
		},
	}
}
