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

// Package seed makes AWS resources of the provider's five kinds through the
// real SDK clients, as someone outside the cluster would: the resources an
// import finds, for the emulator's and the integration tests.
package seed

import (
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	ebtypes "github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	fhtypes "github.com/aws/aws-sdk-go-v2/service/firehose/types"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
	smtypes "github.com/aws/aws-sdk-go-v2/service/sagemaker/types"
	"github.com/aws/aws-sdk-go-v2/service/sns"
)

// A Resource is one resource made: its kind (the provider's), the name it
// was made with (for a subscription, the topic's), and its ARN.
type Resource struct {
	Kind, Name, ARN string
}

// APIKeyCredentialProvider makes an AgentCore API-key credential provider.
func APIKeyCredentialProvider(ctx context.Context, cfg aws.Config, name string, tags map[string]string) (Resource, error) {
	out, err := bedrockagentcorecontrol.NewFromConfig(cfg).CreateApiKeyCredentialProvider(ctx, &bedrockagentcorecontrol.CreateApiKeyCredentialProviderInput{
		Name: aws.String(name), ApiKey: aws.String("seed-key"), Tags: tags,
	})
	if err != nil {
		return Resource{}, err
	}
	return Resource{Kind: "APIKeyCredentialProvider", Name: name, ARN: aws.ToString(out.CredentialProviderArn)}, nil
}

// Model is the SageMaker model the endpoint configurations serve.
const Model = "seed-model"

// EndpointConfig makes a SageMaker endpoint configuration of one variant
// that serves Model, which it makes first if it does not exist.
func EndpointConfig(ctx context.Context, cfg aws.Config, name string, tags map[string]string) (Resource, error) {
	c := sagemaker.NewFromConfig(cfg)
	if _, err := c.CreateModel(ctx, &sagemaker.CreateModelInput{ModelName: aws.String(Model)}); err != nil && !strings.Contains(err.Error(), "already existing model") {
		return Resource{}, err
	}
	t := make([]smtypes.Tag, 0, len(tags))
	for k, v := range tags {
		t = append(t, smtypes.Tag{Key: aws.String(k), Value: aws.String(v)})
	}
	out, err := c.CreateEndpointConfig(ctx, &sagemaker.CreateEndpointConfigInput{
		EndpointConfigName: aws.String(name), Tags: t,
		ProductionVariants: []smtypes.ProductionVariant{{VariantName: aws.String("primary"), ModelName: aws.String(Model),
			InstanceType: smtypes.ProductionVariantInstanceTypeMlM5Large, InitialInstanceCount: aws.Int32(1)}},
	})
	if err != nil {
		return Resource{}, err
	}
	return Resource{Kind: "EndpointConfig", Name: name, ARN: aws.ToString(out.EndpointConfigArn)}, nil
}

// Subscription subscribes an SQS queue named after n to topic, which it
// makes if it does not exist; SQS subscriptions need no confirmation.
func Subscription(ctx context.Context, cfg aws.Config, topic string, n int) (Resource, error) {
	c := sns.NewFromConfig(cfg)
	t, err := c.CreateTopic(ctx, &sns.CreateTopicInput{Name: aws.String(topic)})
	if err != nil {
		return Resource{}, err
	}
	out, err := c.Subscribe(ctx, &sns.SubscribeInput{
		TopicArn: t.TopicArn, Protocol: aws.String("sqs"), ReturnSubscriptionArn: true,
		Endpoint: aws.String(fmt.Sprintf("arn:aws:sqs:%s:000000000000:queue-%d", cfg.Region, n)),
	})
	if err != nil {
		return Resource{}, err
	}
	return Resource{Kind: "Subscription", Name: topic, ARN: aws.ToString(out.SubscriptionArn)}, nil
}

// DeliveryStream makes a Firehose stream to an HTTP endpoint, or, with
// toS3, one to S3, which the provider does not manage.
func DeliveryStream(ctx context.Context, cfg aws.Config, name string, toS3 bool, tags map[string]string) (Resource, error) {
	in := &firehose.CreateDeliveryStreamInput{DeliveryStreamName: aws.String(name)}
	backup := &fhtypes.S3DestinationConfiguration{BucketARN: aws.String("arn:aws:s3:::backup"), RoleARN: aws.String("arn:aws:iam::000000000000:role/r")}
	if toS3 {
		in.ExtendedS3DestinationConfiguration = &fhtypes.ExtendedS3DestinationConfiguration{BucketARN: backup.BucketARN, RoleARN: backup.RoleARN}
	} else {
		in.HttpEndpointDestinationConfiguration = &fhtypes.HttpEndpointDestinationConfiguration{
			EndpointConfiguration: &fhtypes.HttpEndpointConfiguration{Url: aws.String("https://collector.example.com")},
			S3Configuration:       backup,
		}
	}
	for k, v := range tags {
		in.Tags = append(in.Tags, fhtypes.Tag{Key: aws.String(k), Value: aws.String(v)})
	}
	out, err := firehose.NewFromConfig(cfg).CreateDeliveryStream(ctx, in)
	if err != nil {
		return Resource{}, err
	}
	return Resource{Kind: "DeliveryStream", Name: name, ARN: aws.ToString(out.DeliveryStreamARN)}, nil
}

// Endpoint makes an EventBridge global endpoint that fails over from the
// config's region to us-west-2, without replication. EventBridge cannot
// tag an endpoint.
func Endpoint(ctx context.Context, cfg aws.Config, name string) (Resource, error) {
	c := eventbridge.NewFromConfig(cfg)
	out, err := c.CreateEndpoint(ctx, &eventbridge.CreateEndpointInput{
		Name: aws.String(name),
		EventBuses: []ebtypes.EndpointEventBus{
			{EventBusArn: aws.String("arn:aws:events:" + cfg.Region + ":000000000000:event-bus/orders")},
			{EventBusArn: aws.String("arn:aws:events:us-west-2:000000000000:event-bus/orders")},
		},
		RoutingConfig: &ebtypes.RoutingConfig{FailoverConfig: &ebtypes.FailoverConfig{
			Primary:   &ebtypes.Primary{HealthCheck: aws.String("arn:aws:route53:::healthcheck/x")},
			Secondary: &ebtypes.Secondary{Route: aws.String("us-west-2")},
		}},
		ReplicationConfig: &ebtypes.ReplicationConfig{State: ebtypes.ReplicationStateDisabled},
	})
	if err != nil {
		return Resource{}, err
	}
	return Resource{Kind: "Endpoint", Name: name, ARN: aws.ToString(out.Arn)}, nil
}
