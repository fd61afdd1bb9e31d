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

package subscription

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/cloudkinds/provider-aws-services/apis/notification/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/test/conformance"
)

func TestConformance(t *testing.T) {
	const topic = "conformance"
	conformance.Run(t, conformance.Case[*v1alpha1.Subscription]{
		Definition: definition,
		Object: func(name string) *v1alpha1.Subscription {
			mg := &v1alpha1.Subscription{ObjectMeta: metav1.ObjectMeta{Namespace: "conformance", Name: name}}
			mg.Spec.ForProvider = v1alpha1.SubscriptionParameters{
				Region: aws.String(conformance.Region), Protocol: "queue",
				Endpoint:     aws.String("arn:aws:sqs:us-east-1:000000000000:" + name),
				TopicARN:     aws.String("arn:aws:sns:us-east-1:000000000000:" + topic),
				FilterPolicy: aws.String(`{"team": ["conformance"]}`),
			}
			return mg
		},
		// The topic the object subscribes to (SQS subscriptions need no
		// confirmation, so the object becomes Ready at once).
		Prepare: func(ctx context.Context, cfg aws.Config) error {
			_, err := sns.NewFromConfig(cfg).CreateTopic(ctx, &sns.CreateTopicInput{Name: aws.String(topic)})
			return err
		},
	})
}
