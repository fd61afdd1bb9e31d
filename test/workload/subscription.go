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

	notificationv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/notification/v1alpha1"
)

// The chaos and scale tests' Subscriptions: queue subscriptions to the Set's topic; the filter policy holds version.
func init() {
	register("Subscription", func(s Set, ref *xpv2.ProviderConfigReference, om metav1.ObjectMeta, name, version string) resource.Managed {
		mg := &notificationv1alpha1.Subscription{ObjectMeta: om}
		mg.Spec.ProviderConfigReference = ref
		mg.Spec.ForProvider = notificationv1alpha1.SubscriptionParameters{
			Protocol: "queue", Endpoint: aws.String("arn:aws:sqs:us-east-1:" + Account + ":" + name), TopicARN: aws.String(s.TopicARN),
			FilterPolicy: aws.String(FilterPolicy(version)),
		}
		return mg
	}, func() client.ObjectList { return &notificationv1alpha1.SubscriptionList{} })
}
