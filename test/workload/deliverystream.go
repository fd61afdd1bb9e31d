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

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	streamingv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
)

// The chaos and scale tests' DeliveryStreams: streams to an HTTP endpoint, whose access key is in AccessKeySecret; the tag "version" holds version.
func init() {
	register("DeliveryStream", func(_ Set, ref *xpv2.ProviderConfigReference, om metav1.ObjectMeta, name, version string) resource.Managed {
		role := aws.String("arn:aws:iam::" + Account + ":role/firehose")
		mg := &streamingv1alpha1.DeliveryStream{ObjectMeta: om}
		mg.Spec.ProviderConfigReference = ref
		mg.Spec.ForProvider = streamingv1alpha1.DeliveryStreamParameters{
			DeliveryStreamName: name,
			Tags:               []common.Tag{{Key: aws.String("version"), Value: aws.String(version)}},
			HTTPEndpointDestinationConfiguration: &streamingv1alpha1.HTTPEndpointDestinationConfiguration{
				EndpointConfiguration: &streamingv1alpha1.HTTPEndpointConfiguration{
					URL:       aws.String("https://collector.example.com/" + name),
					AccessKey: &common.SecretKeyReference{Name: aws.String(AccessKeySecret), Key: AccessKeyKey},
				},
				RoleARN:            role,
				StoreConfiguration: &streamingv1alpha1.StoreConfiguration{BucketARN: aws.String("arn:aws:s3:::backup"), RoleARN: role},
			},
		}
		return mg
	}, func() client.ObjectList { return &streamingv1alpha1.DeliveryStreamList{} })
}
