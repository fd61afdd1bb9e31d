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

package metadata

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	"github.com/google/go-cmp/cmp"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	streamingv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/awsconfig"
)

func TestMetadata(t *testing.T) {
	s := &awsconfig.Session{AccountID: "123456789012", Partition: "aws-cn", Region: "cn-north-1"}
	const a = "arn:aws-cn:firehose:cn-north-1:123456789012:deliverystream/s"
	cases := map[string]struct {
		arn  string
		want *common.PartitionedResourceMetadata
	}{
		"Unverified": {want: &common.PartitionedResourceMetadata{ResourceMetadata: common.ResourceMetadata{OwnerAccountID: "123456789012", Region: "cn-north-1"}, Partition: aws.String("aws-cn")}},
		"Verified":   {arn: a, want: &common.PartitionedResourceMetadata{ResourceMetadata: common.ResourceMetadata{ARN: aws.String(a), OwnerAccountID: "123456789012", Region: "cn-north-1"}, Partition: aws.String("aws-cn")}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, WithPartition(s, tc.arn)); diff != "" {
				t.Errorf("-want, +got:\n%s", diff)
			}
			if diff := cmp.Diff(&tc.want.ResourceMetadata, For(s, tc.arn)); diff != "" {
				t.Errorf("For: -want, +got:\n%s", diff)
			}
		})
	}
}

func TestVerifiedARN(t *testing.T) {
	const a = "arn:aws:firehose:us-east-1:000000000000:deliverystream/s"
	created := &streamingv1alpha1.DeliveryStream{}
	meta.SetExternalCreateSucceeded(created, time.Now())
	cases := map[string]struct {
		mg       resource.Managed
		previous *common.ResourceMetadata
		matches  bool
		want     string
	}{
		"AdoptedAndDiffering": {mg: &streamingv1alpha1.DeliveryStream{}, want: ""},
		"AdoptedAndMatching":  {mg: &streamingv1alpha1.DeliveryStream{}, matches: true, want: a},
		"CreatedByUs":         {mg: created, want: a},
		"VerifiedBefore":      {mg: &streamingv1alpha1.DeliveryStream{}, previous: &common.ResourceMetadata{ARN: aws.String(a)}, want: a},
		"PreviousWithoutARN":  {mg: &streamingv1alpha1.DeliveryStream{}, previous: &common.ResourceMetadata{}, want: ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := VerifiedARN(tc.mg, tc.previous, a, tc.matches); got != tc.want {
				t.Errorf("want %q, got %q", tc.want, got)
			}
		})
	}
}
