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

package scale

import (
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	corev1 "k8s.io/api/core/v1"
	kmeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	agentcorev1alpha1 "github.com/cloudkinds/provider-aws-services/apis/agentcorecontrol/v1alpha1"
	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	eventbusv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/eventbus/v1alpha1"
	mlplatformv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/mlplatform/v1alpha1"
	notificationv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/notification/v1alpha1"
	streamingv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
)

// The objects of the benchmark, as test/integration/chaos builds them.
const (
	model   = "scale-model"
	account = "000000000000"
)

var kinds = []string{"DeliveryStream", "Subscription", "Endpoint", "EndpointConfig", "APIKeyCredentialProvider"}

// object returns the i-th object of a kind.
func object(kind, ns string, i int, topicARN string) resource.Managed {
	name := fmt.Sprintf("scale-%s-%d", strings.ToLower(kind), i)
	ref := &xpv2.ProviderConfigReference{Kind: v1alpha1.ClusterProviderConfigKind, Name: "default"}
	om := metav1.ObjectMeta{Namespace: ns, Name: name}
	switch kind {
	case "DeliveryStream":
		mg := &streamingv1alpha1.DeliveryStream{ObjectMeta: om}
		mg.Spec.ProviderConfigReference = ref
		mg.Spec.ForProvider = streamingv1alpha1.DeliveryStreamParameters{
			DeliveryStreamName: name,
			Tags:               []common.Tag{{Key: aws.String("bench"), Value: aws.String("scale")}},
			HTTPEndpointDestinationConfiguration: &streamingv1alpha1.HTTPEndpointDestinationConfiguration{
				EndpointConfiguration: &streamingv1alpha1.HTTPEndpointConfiguration{
					URL:       aws.String("https://collector.example.com/" + name),
					AccessKey: &common.SecretKeyReference{Name: aws.String("endpoint-key"), Key: "accessKey"},
				},
				RoleARN:            aws.String("arn:aws:iam::" + account + ":role/firehose"),
				StoreConfiguration: &streamingv1alpha1.StoreConfiguration{BucketARN: aws.String("arn:aws:s3:::backup"), RoleARN: aws.String("arn:aws:iam::" + account + ":role/firehose")},
			},
		}
		return mg
	case "Subscription":
		mg := &notificationv1alpha1.Subscription{ObjectMeta: om}
		mg.Spec.ProviderConfigReference = ref
		mg.Spec.ForProvider = notificationv1alpha1.SubscriptionParameters{
			Protocol: "queue", Endpoint: aws.String("arn:aws:sqs:us-east-1:" + account + ":" + name), TopicARN: aws.String(topicARN),
			FilterPolicy: aws.String(`{"bench": ["scale"]}`),
		}
		return mg
	case "Endpoint":
		mg := &eventbusv1alpha1.Endpoint{ObjectMeta: om}
		mg.Spec.ProviderConfigReference = ref
		mg.Spec.ForProvider = eventbusv1alpha1.EndpointParameters{
			Name: name, Description: aws.String("scale"),
			EventBuses: []eventbusv1alpha1.EndpointEventBus{
				{EventBusARN: "arn:aws:events:us-east-1:" + account + ":event-bus/orders"},
				{EventBusARN: "arn:aws:events:us-west-2:" + account + ":event-bus/orders"},
			},
			RoleARN: aws.String("arn:aws:iam::" + account + ":role/replication"),
			RoutingConfig: eventbusv1alpha1.RoutingConfig{FailoverConfig: &eventbusv1alpha1.FailoverConfig{
				Primary:   &eventbusv1alpha1.Primary{HealthCheck: aws.String("arn:aws:route53:::healthcheck/abc")},
				Secondary: &eventbusv1alpha1.Secondary{Route: aws.String("us-west-2")},
			}},
		}
		return mg
	case "EndpointConfig":
		mg := &mlplatformv1alpha1.EndpointConfig{ObjectMeta: om}
		mg.Spec.ProviderConfigReference = ref
		mg.Spec.ForProvider = mlplatformv1alpha1.EndpointConfigParameters{
			EndpointConfigName: name,
			ProductionVariants: []mlplatformv1alpha1.ProductionVariant{{
				VariantName: aws.String("primary"), ModelName: aws.String(model), InstanceType: aws.String("ml.m5.large"), InitialInstanceCount: aws.Int64(1),
			}},
			Tags: []common.Tag{{Key: aws.String("bench"), Value: aws.String("scale")}},
		}
		return mg
	default:
		mg := &agentcorev1alpha1.APIKeyCredentialProvider{ObjectMeta: om}
		mg.Spec.ProviderConfigReference = ref
		mg.Spec.ForProvider = agentcorev1alpha1.APIKeyCredentialProviderParameters{
			Name:   name,
			APIKey: common.SecretKeyReference{Name: aws.String("api-key"), Key: "apiKey"},
			Tags:   map[string]string{"bench": "scale"},
		}
		return mg
	}
}

// listOf returns an empty list of a kind.
func listOf(kind string) client.ObjectList {
	switch kind {
	case "DeliveryStream":
		return &streamingv1alpha1.DeliveryStreamList{}
	case "Subscription":
		return &notificationv1alpha1.SubscriptionList{}
	case "Endpoint":
		return &eventbusv1alpha1.EndpointList{}
	case "EndpointConfig":
		return &mlplatformv1alpha1.EndpointConfigList{}
	default:
		return &agentcorev1alpha1.APIKeyCredentialProviderList{}
	}
}

// settled counts, with one list per kind, the objects of namespace ns that
// are Ready and Synced, and returns one that is not, with its conditions.
func settled(ctx context.Context, kube client.Client, ns string) (int, string, error) {
	n, example := 0, ""
	for _, kind := range kinds {
		l := listOf(kind)
		if err := kube.List(ctx, l, client.InNamespace(ns)); err != nil {
			return 0, "", err
		}
		items, err := kmeta.ExtractList(l)
		if err != nil {
			return 0, "", err
		}
		for _, o := range items {
			mg, ok := o.(resource.Managed)
			if !ok {
				return 0, "", fmt.Errorf("%T is not a managed resource", o)
			}
			r, s := mg.GetCondition(xpv2.TypeReady), mg.GetCondition(xpv2.TypeSynced)
			if r.Status == corev1.ConditionTrue && s.Status == corev1.ConditionTrue {
				n++
				continue
			}
			if example == "" {
				example = fmt.Sprintf("%s/%s: Ready=%s %s %q, Synced=%s %s %q", kind, mg.GetName(), r.Status, r.Reason, r.Message, s.Status, s.Reason, s.Message)
			}
		}
	}
	return n, example, nil
}
