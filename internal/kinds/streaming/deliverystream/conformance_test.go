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

package deliverystream

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/test/conformance"
)

func TestConformance(t *testing.T) {
	conformance.Run(t, conformance.Case[*v1alpha1.DeliveryStream]{
		Definition: definition,
		Object: func(name string) *v1alpha1.DeliveryStream {
			role := aws.String("arn:aws:iam::000000000000:role/firehose")
			mg := &v1alpha1.DeliveryStream{ObjectMeta: metav1.ObjectMeta{Namespace: "conformance", Name: name}}
			mg.Spec.ForProvider = v1alpha1.DeliveryStreamParameters{
				DeliveryStreamName: name, Region: aws.String(conformance.Region),
				Tags: []common.Tag{{Key: aws.String("team"), Value: aws.String("conformance")}},
				HTTPEndpointDestinationConfiguration: &v1alpha1.HTTPEndpointDestinationConfiguration{
					EndpointConfiguration: &v1alpha1.HTTPEndpointConfiguration{
						URL: aws.String("https://collector.example.com/" + name), AccessKey: &common.SecretKeyReference{Name: aws.String("endpoint-key"), Key: "accessKey"},
					},
					RoleARN:            role,
					StoreConfiguration: &v1alpha1.StoreConfiguration{BucketARN: aws.String("arn:aws:s3:::backup"), RoleARN: role},
				},
			}
			return mg
		},
		Secrets: []*corev1.Secret{{ObjectMeta: metav1.ObjectMeta{Namespace: "conformance", Name: "endpoint-key"}, Data: map[string][]byte{"accessKey": []byte("the-access-key")}}},
	})
}
