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

package firehose

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/firehose/types"

	"github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/aws/diff"
)

// BufferingHintsSent fingerprints the buffering hints of a spec, as recorded
// after they were sent.
func BufferingHintsSent(p *v1alpha1.DeliveryStreamParameters) string {
	d := p.HTTPEndpointDestinationConfiguration
	if d == nil {
		return ""
	}
	hint := func(h *v1alpha1.BufferingHints) string {
		if h == nil {
			return "-"
		}
		return fmt.Sprintf("%d/%d", aws.ToInt64(h.SizeInMBs), aws.ToInt64(h.IntervalInSeconds))
	}
	store := "-"
	if d.StoreConfiguration != nil {
		store = hint(d.StoreConfiguration.BufferingHints)
	}
	return "endpoint=" + hint(d.BufferingHints) + ",store=" + store
}

// The spec paths of the stream's parts that are changed by their own calls.
const (
	DestinationPath = "spec.forProvider.httpEndpointDestinationConfiguration"
	EncryptionPath  = "spec.forProvider.deliveryStreamEncryptionConfiguration"
	AccessKeyPath   = DestinationPath + ".endpointConfiguration.accessKey"
)

// lambdaDefaults are the parameters Firehose adds to a Lambda processor when
// the request leaves them out (the Firehose API reference, ProcessorParameter:
// "3 for NumberOfRetries and 60 for the BufferIntervalInSeconds", a 1 MB
// buffer; and the stream's role as RoleArn).
var lambdaDefaults = map[string]string{"NumberOfRetries": "3", "BufferSizeInMBs": "1", "BufferIntervalInSeconds": "60"}

// DestinationDiff lists the spec paths of the destination's members that
// differ from AWS's; members the spec leaves out are AWS's to choose.
// Buffering hints that were sent as they are (hintsSent) count as applied
// even if AWS replaced them with better values.
func DestinationDiff(p *v1alpha1.DeliveryStreamParameters, d *types.DeliveryStreamDescription, hintsSent string) []string {
	want := p.HTTPEndpointDestinationConfiguration.DeepCopy()
	got := ObservedParameters(d).HTTPEndpointDestinationConfiguration
	if want == nil || got == nil {
		return nil
	}
	// AWS never returns the key: its changes are noticed by fingerprint.
	if want.EndpointConfiguration != nil {
		want.EndpointConfiguration.AccessKey = nil
	}
	if hintsSent == BufferingHintsSent(p) {
		want.BufferingHints = nil
		if want.StoreConfiguration != nil {
			want.StoreConfiguration.BufferingHints = nil
		}
	}
	isDefault := func(m map[string]any) bool {
		name, _ := m["parameterName"].(string)
		value, _ := m["parameterValue"].(string)
		if name == "RoleArn" {
			return value == aws.ToString(got.RoleARN)
		}
		return lambdaDefaults[name] == value
	}
	return diff.Paths(DestinationPath, want, got,
		diff.Keyed("processingConfiguration.processors[].parameters", "parameterName").DefaultMembers(isDefault),
		diff.Keyed("requestConfiguration.commonAttributes", "attributeName"),
	)
}
