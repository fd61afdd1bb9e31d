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

package chaos

import (
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	agentcorev1alpha1 "github.com/cloudkinds/provider-aws-services/apis/agentcorecontrol/v1alpha1"
	eventbusv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/eventbus/v1alpha1"
	mlplatformv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/mlplatform/v1alpha1"
	notificationv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/notification/v1alpha1"
	streamingv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/aws/diff"
	snsclient "github.com/cloudkinds/provider-aws-services/internal/aws/sns"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/awsconfig"
	"github.com/cloudkinds/provider-aws-services/test/emulator"
	"github.com/cloudkinds/provider-aws-services/test/workload"
)

// awsClients reach the emulator directly, to read what AWS holds.
type awsClients struct {
	firehose  *firehose.Client
	sns       *sns.Client
	events    *eventbridge.Client
	sagemaker *sagemaker.Client
	agentcore *bedrockagentcorecontrol.Client
}

func clientsFor(url string) awsClients {
	cfg := aws.Config{Region: region, BaseEndpoint: aws.String(url), Credentials: credentials.NewStaticCredentialsProvider(checkKey, "s", "")}
	return awsClients{firehose.NewFromConfig(cfg), sns.NewFromConfig(cfg), eventbridge.NewFromConfig(cfg), sagemaker.NewFromConfig(cfg), bedrockagentcorecontrol.NewFromConfig(cfg)}
}

// version reads the version of an object's updatable field from AWS.
func (c awsClients) version(ctx context.Context, mg resource.Managed) (string, error) {
	name := meta.GetExternalName(mg)
	switch o := mg.(type) {
	case *streamingv1alpha1.DeliveryStream:
		out, err := c.firehose.ListTagsForDeliveryStream(ctx, &firehose.ListTagsForDeliveryStreamInput{DeliveryStreamName: aws.String(name)})
		if err != nil {
			return "", err
		}
		for _, t := range out.Tags {
			if aws.ToString(t.Key) == "version" {
				return aws.ToString(t.Value), nil
			}
		}
	case *notificationv1alpha1.Subscription:
		out, err := c.sns.GetSubscriptionAttributes(ctx, &sns.GetSubscriptionAttributesInput{SubscriptionArn: aws.String(name)})
		if err != nil {
			return "", err
		}
		for _, v := range []string{before, after} {
			if diff.JSONEqual(out.Attributes["FilterPolicy"], workload.FilterPolicy(v)) {
				return v, nil
			}
		}
	case *eventbusv1alpha1.Endpoint:
		out, err := c.events.DescribeEndpoint(ctx, &eventbridge.DescribeEndpointInput{Name: aws.String(name)})
		if err != nil {
			return "", err
		}
		return aws.ToString(out.Description), nil
	case *mlplatformv1alpha1.EndpointConfig:
		d, err := c.sagemaker.DescribeEndpointConfig(ctx, &sagemaker.DescribeEndpointConfigInput{EndpointConfigName: aws.String(name)})
		if err != nil {
			return "", err
		}
		out, err := c.sagemaker.ListTags(ctx, &sagemaker.ListTagsInput{ResourceArn: d.EndpointConfigArn})
		if err != nil {
			return "", err
		}
		for _, t := range out.Tags {
			if aws.ToString(t.Key) == "version" {
				return aws.ToString(t.Value), nil
			}
		}
	case *agentcorev1alpha1.APIKeyCredentialProvider:
		g, err := c.agentcore.GetApiKeyCredentialProvider(ctx, &bedrockagentcorecontrol.GetApiKeyCredentialProviderInput{Name: aws.String(name)})
		if err != nil {
			return "", err
		}
		out, err := c.agentcore.ListTagsForResource(ctx, &bedrockagentcorecontrol.ListTagsForResourceInput{ResourceArn: g.CredentialProviderArn})
		if err != nil {
			return "", err
		}
		return out.Tags["version"], nil
	default:
		return "", fmt.Errorf("unknown kind %T", o)
	}
	return "", nil
}

// awsCount counts the AWS resources an object of kind named name (or, for a
// Subscription, with that endpoint) has in inv.
func awsCount(inv emulator.Inventory, kind, name string) int {
	var in []string
	switch kind {
	case "DeliveryStream":
		in = inv.DeliveryStreams
	case "Endpoint":
		in = inv.Endpoints
	case "EndpointConfig":
		in = inv.EndpointConfigs
	case "APIKeyCredentialProvider":
		in = inv.APIKeyCredentialProviders
	case "Subscription":
		n := 0
		for _, s := range inv.Subscriptions {
			if strings.HasSuffix(s.Endpoint, ":"+name) {
				n++
			}
		}
		return n
	}
	n := 0
	for _, x := range in {
		if x == name {
			n++
		}
	}
	return n
}

// The keys the provider signs with: the storm's objects use the
// ClusterProviderConfig, whose credentials source None signs with a fixed
// key; each team of the colliding pairs has a ProviderConfig of its own
// key (pairs_test.go), so that the emulator's history tells whose behalf a
// call was made on. checkKey signs the test's own reads.
const (
	stormKey = awsconfig.NoneAccessKeyID
	checkKey = "AKIDCHECK"
	region   = "us-east-1"
)

// identityOf is the identity (emulator.Creation.Identity) of the AWS
// resource an object asks for.
func identityOf(mg resource.Managed) string {
	switch o := mg.(type) {
	case *streamingv1alpha1.DeliveryStream:
		return emulator.Identity("DeliveryStream", region, o.Spec.ForProvider.DeliveryStreamName)
	case *notificationv1alpha1.Subscription:
		p := o.Spec.ForProvider
		return emulator.Identity("Subscription", region, aws.ToString(p.TopicARN)+" "+snsclient.Protocol(p.Protocol)+" "+aws.ToString(p.Endpoint))
	case *eventbusv1alpha1.Endpoint:
		return emulator.Identity("Endpoint", region, o.Spec.ForProvider.Name)
	case *mlplatformv1alpha1.EndpointConfig:
		return emulator.Identity("EndpointConfig", region, o.Spec.ForProvider.EndpointConfigName)
	case *agentcorev1alpha1.APIKeyCredentialProvider:
		return emulator.Identity("APIKeyCredentialProvider", region, o.Spec.ForProvider.Name)
	}
	return ""
}

// keyOf is the access key the provider signs an object's calls with.
func keyOf(mg resource.Managed) string {
	if k, ok := teamKeys[mg.GetNamespace()]; ok {
		return k
	}
	return stormKey
}

func objectName(mg resource.Managed) string {
	return kindOf(mg) + "/" + mg.GetNamespace() + "/" + mg.GetName()
}

// creationsOf lists the creations of one identity, for a message.
func creationsOf(creations []emulator.Creation, identity string) string {
	var b strings.Builder
	for _, c := range creations {
		if c.Identity() == identity {
			fmt.Fprintf(&b, "[#%d %s by %s at %s] ", c.Seq, c.ARN, c.AccessKey, c.Time.Format("15:04:05.000"))
		}
	}
	return b.String()
}

func total(inv emulator.Inventory) int {
	return len(inv.DeliveryStreams) + len(inv.EndpointConfigs) + len(inv.Endpoints) + len(inv.APIKeyCredentialProviders) + len(inv.Subscriptions)
}
