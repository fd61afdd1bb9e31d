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
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	kerrors "k8s.io/apimachinery/pkg/api/errors"

	agentcorev1alpha1 "github.com/cloudkinds/provider-aws-services/apis/agentcorecontrol/v1alpha1"
	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	eventbusv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/eventbus/v1alpha1"
	mlplatformv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/mlplatform/v1alpha1"
	notificationv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/notification/v1alpha1"
	streamingv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/test/emulator"
)

// A modeledKind is what the table over AWS's models needs of a kind.
type modeledKind struct {
	// service is the emulator's name of the kind's service (its signing
	// name), sdk the SDK's, as awserrors.Modeled keys operations.
	service, sdk string
	// object makes an object whose every AWS call names id, which no
	// other object's name contains.
	object func(t *testing.T, s *stack, ns, id string) resource.Managed
	// change changes its spec in a way the update calls make on AWS.
	change func(mg resource.Managed)
	// count is how many resources AWS has of the object.
	count func(inv emulator.Inventory, mg resource.Managed) int
}

func modeledKinds() map[string]modeledKind {
	return map[string]modeledKind{
		"DeliveryStream": {
			service: "firehose", sdk: "Firehose",
			object: func(t *testing.T, _ *stack, ns, id string) resource.Managed { return newStream(t, ns, id) },
			change: func(mg resource.Managed) {
				p := &mg.(*streamingv1alpha1.DeliveryStream).Spec.ForProvider
				p.Tags = []common.Tag{{Key: aws.String("team"), Value: aws.String("changed")}}
				p.HTTPEndpointDestinationConfiguration.EndpointConfiguration.URL = aws.String("https://collector.example.com/changed")
			},
			count: func(inv emulator.Inventory, mg resource.Managed) int { return named(inv.DeliveryStreams, mg.GetName()) },
		},
		"Subscription": {
			service: "sns", sdk: "SNS",
			object: func(t *testing.T, s *stack, ns, id string) resource.Managed {
				return newSubscription(ns, id, topic(t, s, id+"-topic"))
			},
			change: func(mg resource.Managed) {
				mg.(*notificationv1alpha1.Subscription).Spec.ForProvider.FilterPolicy = aws.String(`{"type": ["order_changed"]}`)
			},
			count: subscribed,
		},
		"Endpoint": {
			service: "events", sdk: "EventBridge",
			object: func(_ *testing.T, _ *stack, ns, id string) resource.Managed { return newEndpoint(ns, id) },
			change: func(mg resource.Managed) {
				mg.(*eventbusv1alpha1.Endpoint).Spec.ForProvider.Description = aws.String("changed")
			},
			count: func(inv emulator.Inventory, mg resource.Managed) int { return named(inv.Endpoints, mg.GetName()) },
		},
		"EndpointConfig": {
			service: "sagemaker", sdk: "SageMaker",
			object: func(t *testing.T, s *stack, ns, id string) resource.Managed {
				model(t, s, id+"-model")
				return newEndpointConfig(ns, id, id+"-model")
			},
			change: func(mg resource.Managed) {
				mg.(*mlplatformv1alpha1.EndpointConfig).Spec.ForProvider.Tags = []common.Tag{{Key: aws.String("team"), Value: aws.String("changed")}}
			},
			count: func(inv emulator.Inventory, mg resource.Managed) int { return named(inv.EndpointConfigs, mg.GetName()) },
		},
		"APIKeyCredentialProvider": {
			service: "bedrock-agentcore", sdk: "Bedrock AgentCore Control",
			object: func(t *testing.T, _ *stack, ns, id string) resource.Managed {
				if err := cp.Client.Create(t.Context(), secretWith(ns, "search-key", "apiKey", firstKey)); err != nil && !kerrors.IsAlreadyExists(err) {
					t.Fatal(err)
				}
				return newAPIKeyProvider(ns, id)
			},
			change: func(mg resource.Managed) {
				mg.(*agentcorev1alpha1.APIKeyCredentialProvider).Spec.ForProvider.Tags = map[string]string{"team": "changed"}
			},
			count: func(inv emulator.Inventory, mg resource.Managed) int {
				return named(inv.APIKeyCredentialProviders, mg.GetName())
			},
		},
	}
}

// The phases of an object's life an error is answered in.
const (
	phaseCreate = "create"
	phaseUpdate = "update"
	phaseDelete = "delete"
)

// commonErrors are the answers every service can give any call, beside
// what its model lists: throttling, a server error, a call denied, and
// credentials AWS no longer takes, each as the service words it.
func commonErrors(service string) []emulator.Answer {
	throttle := emulator.Answer{Code: "ThrottlingException", Status: 400, Message: "Rate exceeded"}
	denied := emulator.Answer{Code: "AccessDeniedException", Status: 403, Message: "User is not authorized to perform this action"}
	expired := emulator.Answer{Code: "ExpiredTokenException", Status: 400, Message: "The security token included in the request is expired"}
	switch service {
	case "sns":
		throttle.Code, denied.Code, expired.Code, expired.Status = "Throttling", "AuthorizationError", "ExpiredToken", 403
	case "firehose":
		throttle = emulator.Answer{Code: "LimitExceededException", Status: 400, Message: "Rate exceeded for operation."}
	case "events", "bedrock-agentcore":
		throttle.Status = 429
	}
	return []emulator.Answer{throttle, {Code: "InternalFailure", Status: 500, Message: "The request processing has failed"}, denied, expired}
}
