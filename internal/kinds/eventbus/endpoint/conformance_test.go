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

package endpoint

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/cloudkinds/provider-aws-services/apis/eventbus/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/test/conformance"
)

func TestConformance(t *testing.T) {
	conformance.Run(t, conformance.Case[*v1alpha1.Endpoint]{
		Definition: definition,
		Object: func(name string) *v1alpha1.Endpoint {
			mg := &v1alpha1.Endpoint{ObjectMeta: metav1.ObjectMeta{Namespace: "conformance", Name: name}}
			mg.Spec.ForProvider = v1alpha1.EndpointParameters{
				Name: name, Region: aws.String(conformance.Region), RoleARN: aws.String("arn:aws:iam::000000000000:role/r"),
				EventBuses: []v1alpha1.EndpointEventBus{{EventBusARN: "arn:aws:events:us-east-1:000000000000:event-bus/b"}, {EventBusARN: "arn:aws:events:us-west-2:000000000000:event-bus/b"}},
				RoutingConfig: &v1alpha1.RoutingConfig{FailoverConfig: &v1alpha1.FailoverConfig{
					Primary: &v1alpha1.Primary{HealthCheck: aws.String("arn:aws:route53:::healthcheck/hc")}, Secondary: &v1alpha1.Secondary{Route: aws.String("us-west-2")},
				}},
			}
			return mg
		},
	})
}
