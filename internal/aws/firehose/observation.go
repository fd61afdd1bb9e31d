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
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/aws/convert"
)

// Observation is the status of a stream as AWS describes it; the caller adds
// the resource metadata and keeps its own fingerprints.
func Observation(d *types.DeliveryStreamDescription) v1alpha1.DeliveryStreamObservation {
	o := v1alpha1.DeliveryStreamObservation{
		DeliveryStreamStatus: convert.String(d.DeliveryStreamStatus),
		VersionID:            d.VersionId,
	}
	if d.CreateTimestamp != nil {
		o.CreateTimestamp = &metav1.Time{Time: *d.CreateTimestamp}
	}
	if d.LastUpdateTimestamp != nil {
		o.LastUpdateTimestamp = &metav1.Time{Time: *d.LastUpdateTimestamp}
	}
	if e := d.DeliveryStreamEncryptionConfiguration; e != nil {
		o.DeliveryStreamEncryptionConfigurationStatus = convert.String(e.Status)
		if f := e.FailureDescription; f != nil {
			o.DeliveryStreamEncryptionConfigurationFailureDescription = &v1alpha1.FailureDescription{Details: f.Details, Type: convert.String(f.Type)}
		}
	}
	if len(d.Destinations) > 0 {
		o.DestinationID = d.Destinations[0].DestinationId
	}
	return o
}

// HTTPDestination returns the HTTP endpoint destination of a description.
func HTTPDestination(d *types.DeliveryStreamDescription) *types.HttpEndpointDestinationDescription {
	if len(d.Destinations) == 0 {
		return nil
	}
	return d.Destinations[0].HttpEndpointDestinationDescription
}

// FailureMessage explains a failed stream or encryption, as AWS words it.
func FailureMessage(f *types.FailureDescription) string {
	if f == nil {
		return ""
	}
	return fmt.Sprintf("%s: %s", f.Type, aws.ToString(f.Details))
}

// Configuration is the spec that describes the stream as AWS holds it, its
// server-side encryption included (as Encryption reads it: started, or
// starting, with its key), without what AWS never returns (the access key,
// tags).
func Configuration(d *types.DeliveryStreamDescription) v1alpha1.DeliveryStreamParameters {
	o := ObservedParameters(d)
	if e := d.DeliveryStreamEncryptionConfiguration; e != nil &&
		(e.Status == types.DeliveryStreamEncryptionStatusEnabled || e.Status == types.DeliveryStreamEncryptionStatusEnabling) {
		o.DeliveryStreamEncryptionConfiguration = &v1alpha1.DeliveryStreamEncryptionConfiguration{KeyType: convert.String(e.KeyType), KeyARN: e.KeyARN}
	}
	return o
}

// ObservedParameters is the spec that describes the stream as AWS holds it:
// the API's shape of the description, without what AWS never returns (the
// access key, tags) and without encryption, which is decided by Encryption.
func ObservedParameters(d *types.DeliveryStreamDescription) v1alpha1.DeliveryStreamParameters {
	o := v1alpha1.DeliveryStreamParameters{DeliveryStreamName: aws.ToString(d.DeliveryStreamName), DeliveryStreamType: convert.String(d.DeliveryStreamType)}
	if aws.ToString(o.DeliveryStreamType) == awsStreamAsSource {
		o.DeliveryStreamType = aws.String(streamAsSource)
	}
	h := HTTPDestination(d)
	if h == nil {
		return o
	}
	dst := &v1alpha1.HTTPEndpointDestinationConfiguration{
		BufferingHints:        hintsFrom(h.BufferingHints),
		MonitorLoggingOptions: loggingFrom(h.CloudWatchLoggingOptions),
		RoleARN:               h.RoleARN,
		StoreBackupMode:       convert.String(h.S3BackupMode),
	}
	if e := h.EndpointConfiguration; e != nil {
		dst.EndpointConfiguration = &v1alpha1.HTTPEndpointConfiguration{URL: e.Url, Name: e.Name}
	}
	if pc := h.ProcessingConfiguration; pc != nil {
		dst.ProcessingConfiguration = &v1alpha1.ProcessingConfiguration{Enabled: pc.Enabled}
		for _, pr := range pc.Processors {
			out := v1alpha1.Processor{Type: string(pr.Type)}
			for _, pa := range pr.Parameters {
				out.Parameters = append(out.Parameters, v1alpha1.ProcessorParameter{ParameterName: string(pa.ParameterName), ParameterValue: aws.ToString(pa.ParameterValue)})
			}
			dst.ProcessingConfiguration.Processors = append(dst.ProcessingConfiguration.Processors, out)
		}
	}
	if r := h.RequestConfiguration; r != nil {
		dst.RequestConfiguration = &v1alpha1.RequestConfiguration{ContentEncoding: convert.String(r.ContentEncoding)}
		for _, a := range r.CommonAttributes {
			dst.RequestConfiguration.CommonAttributes = append(dst.RequestConfiguration.CommonAttributes,
				v1alpha1.CommonAttribute{AttributeName: aws.ToString(a.AttributeName), AttributeValue: aws.ToString(a.AttributeValue)})
		}
	}
	if r := h.RetryOptions; r != nil {
		dst.RetryOptions = &v1alpha1.RetryOptions{DurationInSeconds: convert.Int64(r.DurationInSeconds)}
	}
	if sm := h.SecretsManagerConfiguration; sm != nil {
		dst.SecretsManagerConfiguration = &v1alpha1.SecretsManagerConfiguration{Enabled: sm.Enabled, RoleARN: sm.RoleARN, SecretARN: sm.SecretARN}
	}
	if s3 := h.S3DestinationDescription; s3 != nil {
		dst.StoreConfiguration = &v1alpha1.StoreConfiguration{
			BucketARN: s3.BucketARN, RoleARN: s3.RoleARN, Prefix: s3.Prefix, ErrorOutputPrefix: s3.ErrorOutputPrefix,
			BufferingHints: hintsFrom(s3.BufferingHints), MonitorLoggingOptions: loggingFrom(s3.CloudWatchLoggingOptions),
			CompressionFormat: convert.String(s3.CompressionFormat), EncryptionConfiguration: storeEncryptionFrom(s3.EncryptionConfiguration),
		}
	}
	o.HTTPEndpointDestinationConfiguration = dst
	return o
}

func hintsFrom[T types.BufferingHints | types.HttpEndpointBufferingHints](h *T) *v1alpha1.BufferingHints {
	if h == nil {
		return nil
	}
	// Both SDK shapes have the same members.
	b := types.BufferingHints(*h)
	return &v1alpha1.BufferingHints{IntervalInSeconds: convert.Int64(b.IntervalInSeconds), SizeInMBs: convert.Int64(b.SizeInMBs)}
}

func loggingFrom(c *types.CloudWatchLoggingOptions) *v1alpha1.MonitorLoggingOptions {
	if c == nil {
		return nil
	}
	return &v1alpha1.MonitorLoggingOptions{Enabled: c.Enabled, LogGroupName: c.LogGroupName, LogStreamName: c.LogStreamName}
}

func storeEncryptionFrom(e *types.EncryptionConfiguration) *v1alpha1.EncryptionConfiguration {
	if e == nil {
		return nil
	}
	out := &v1alpha1.EncryptionConfiguration{NoEncryptionConfig: convert.String(e.NoEncryptionConfig)}
	if k := e.KMSEncryptionConfig; k != nil {
		out.KMSEncryptionConfig = &v1alpha1.KMSEncryptionConfig{VendorKMSKeyARN: k.AWSKMSKeyARN}
	}
	return out
}
