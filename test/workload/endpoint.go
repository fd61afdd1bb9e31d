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

package workload

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	eventbusv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/eventbus/v1alpha1"
)

// The chaos and scale tests' Endpoints: global endpoints; the description holds version.
func init() {
	register("Endpoint", func(_ Set, ref *xpv2.ProviderConfigReference, om metav1.ObjectMeta, name, version string) resource.Managed {
		mg := &eventbusv1alpha1.Endpoint{ObjectMeta: om}
		mg.Spec.ProviderConfigReference = ref
		mg.Spec.ForProvider = eventbusv1alpha1.EndpointParameters{
			Name: name, Description: aws.String(version),
			EventBuses: []eventbusv1alpha1.EndpointEventBus{
				{EventBusARN: "arn:aws:events:us-east-1:" + Account + ":event-bus/orders"},
				{EventBusARN: "arn:aws:events:us-west-2:" + Account + ":event-bus/orders"},
			},
			RoleARN: aws.String("arn:aws:iam::" + Account + ":role/replication"),
			RoutingConfig: &eventbusv1alpha1.RoutingConfig{FailoverConfig: &eventbusv1alpha1.FailoverConfig{
				Primary:   &eventbusv1alpha1.Primary{HealthCheck: aws.String("arn:aws:route53:::healthcheck/abc")},
				Secondary: &eventbusv1alpha1.Secondary{Route: aws.String("us-west-2")},
			}},
		}
		return mg
	}, func() client.ObjectList { return &eventbusv1alpha1.EndpointList{} })
}
