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
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	"github.com/aws/aws-sdk-go-v2/service/firehose/types"

	"github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/aws/convert"
)

// CreateInput builds the CreateDeliveryStream request of a spec; accessKey is
// the endpoint's access key read from its secret, if any, and tagSet every
// tag the stream is created with (tags.Want.AtCreate: the spec's, the
// provider config's defaults and the owner tags); the spec's own tags are
// taken from there, not from p.
func CreateInput(p *v1alpha1.DeliveryStreamParameters, accessKey *string, tagSet map[string]string) *firehose.CreateDeliveryStreamInput {
	in := &firehose.CreateDeliveryStreamInput{
		DeliveryStreamName: aws.String(p.DeliveryStreamName),
		DeliveryStreamType: StreamType(p.DeliveryStreamType),
	}
	if e := p.DeliveryStreamEncryptionConfiguration; EncryptionWanted(e) {
		in.DeliveryStreamEncryptionConfigurationInput = EncryptionInput(e)
	}
	if len(tagSet) > 0 {
		in.Tags = TagsToAdd(tagSet)
	}
	if d := p.HTTPEndpointDestinationConfiguration; d != nil {
		in.HttpEndpointDestinationConfiguration = &types.HttpEndpointDestinationConfiguration{
			EndpointConfiguration:       endpoint(d.EndpointConfiguration, accessKey),
			BufferingHints:              httpHints(d.BufferingHints),
			CloudWatchLoggingOptions:    logging(d.MonitorLoggingOptions),
			ProcessingConfiguration:     processing(d.ProcessingConfiguration),
			RequestConfiguration:        request(d.RequestConfiguration),
			RetryOptions:                retry(d.RetryOptions),
			RoleARN:                     d.RoleARN,
			S3BackupMode:                types.HttpEndpointS3BackupMode(aws.ToString(d.StoreBackupMode)),
			SecretsManagerConfiguration: secrets(d.SecretsManagerConfiguration),
		}
		if s := d.StoreConfiguration; s != nil {
			in.HttpEndpointDestinationConfiguration.S3Configuration = &types.S3DestinationConfiguration{
				BucketARN: s.BucketARN, RoleARN: s.RoleARN, Prefix: s.Prefix, ErrorOutputPrefix: s.ErrorOutputPrefix,
				BufferingHints: storeHints(s.BufferingHints), CloudWatchLoggingOptions: logging(s.MonitorLoggingOptions),
				CompressionFormat: types.CompressionFormat(aws.ToString(s.CompressionFormat)), EncryptionConfiguration: storeEncryption(s.EncryptionConfiguration),
			}
		}
	}
	return in
}

// UpdateInput builds the UpdateDestination request that makes the
// destination match the spec. It carries the current version and destination
// IDs, which Firehose requires; accessKey is set only when the key changed.
func UpdateInput(p *v1alpha1.DeliveryStreamParameters, accessKey *string, versionID, destinationID string) *firehose.UpdateDestinationInput {
	d := p.HTTPEndpointDestinationConfiguration
	u := &types.HttpEndpointDestinationUpdate{
		EndpointConfiguration:       endpoint(d.EndpointConfiguration, accessKey),
		BufferingHints:              httpHints(d.BufferingHints),
		CloudWatchLoggingOptions:    logging(d.MonitorLoggingOptions),
		ProcessingConfiguration:     processing(d.ProcessingConfiguration),
		RequestConfiguration:        request(d.RequestConfiguration),
		RetryOptions:                retry(d.RetryOptions),
		RoleARN:                     d.RoleARN,
		S3BackupMode:                types.HttpEndpointS3BackupMode(aws.ToString(d.StoreBackupMode)),
		SecretsManagerConfiguration: secrets(d.SecretsManagerConfiguration),
	}
	if s := d.StoreConfiguration; s != nil {
		u.S3Update = &types.S3DestinationUpdate{
			BucketARN: s.BucketARN, RoleARN: s.RoleARN, Prefix: s.Prefix, ErrorOutputPrefix: s.ErrorOutputPrefix,
			BufferingHints: storeHints(s.BufferingHints), CloudWatchLoggingOptions: logging(s.MonitorLoggingOptions),
			CompressionFormat: types.CompressionFormat(aws.ToString(s.CompressionFormat)), EncryptionConfiguration: storeEncryption(s.EncryptionConfiguration),
		}
	}
	return &firehose.UpdateDestinationInput{
		DeliveryStreamName:             aws.String(p.DeliveryStreamName),
		CurrentDeliveryStreamVersionId: aws.String(versionID),
		DestinationId:                  aws.String(destinationID),
		HttpEndpointDestinationUpdate:  u,
	}
}

func endpoint(e *v1alpha1.HTTPEndpointConfiguration, accessKey *string) *types.HttpEndpointConfiguration {
	if e == nil {
		return nil
	}
	return &types.HttpEndpointConfiguration{Url: e.URL, Name: e.Name, AccessKey: accessKey}
}

func httpHints(h *v1alpha1.BufferingHints) *types.HttpEndpointBufferingHints {
	if h == nil {
		return nil
	}
	return &types.HttpEndpointBufferingHints{IntervalInSeconds: convert.Int32(h.IntervalInSeconds), SizeInMBs: convert.Int32(h.SizeInMBs)}
}

func storeHints(h *v1alpha1.BufferingHints) *types.BufferingHints {
	if h == nil {
		return nil
	}
	return &types.BufferingHints{IntervalInSeconds: convert.Int32(h.IntervalInSeconds), SizeInMBs: convert.Int32(h.SizeInMBs)}
}

func logging(l *v1alpha1.MonitorLoggingOptions) *types.CloudWatchLoggingOptions {
	if l == nil {
		return nil
	}
	return &types.CloudWatchLoggingOptions{Enabled: l.Enabled, LogGroupName: l.LogGroupName, LogStreamName: l.LogStreamName}
}

func processing(p *v1alpha1.ProcessingConfiguration) *types.ProcessingConfiguration {
	if p == nil {
		return nil
	}
	out := &types.ProcessingConfiguration{Enabled: p.Enabled}
	for _, pr := range p.Processors {
		sp := types.Processor{Type: types.ProcessorType(pr.Type)}
		for _, pa := range pr.Parameters {
			sp.Parameters = append(sp.Parameters, types.ProcessorParameter{ParameterName: types.ProcessorParameterName(pa.ParameterName), ParameterValue: aws.String(pa.ParameterValue)})
		}
		out.Processors = append(out.Processors, sp)
	}
	return out
}

func request(r *v1alpha1.RequestConfiguration) *types.HttpEndpointRequestConfiguration {
	if r == nil {
		return nil
	}
	out := &types.HttpEndpointRequestConfiguration{ContentEncoding: types.ContentEncoding(aws.ToString(r.ContentEncoding))}
	for _, a := range r.CommonAttributes {
		out.CommonAttributes = append(out.CommonAttributes, types.HttpEndpointCommonAttribute{AttributeName: aws.String(a.AttributeName), AttributeValue: aws.String(a.AttributeValue)})
	}
	return out
}

func retry(r *v1alpha1.RetryOptions) *types.HttpEndpointRetryOptions {
	if r == nil {
		return nil
	}
	return &types.HttpEndpointRetryOptions{DurationInSeconds: convert.Int32(r.DurationInSeconds)}
}

func secrets(s *v1alpha1.SecretsManagerConfiguration) *types.SecretsManagerConfiguration {
	if s == nil {
		return nil
	}
	return &types.SecretsManagerConfiguration{Enabled: s.Enabled, RoleARN: s.RoleARN, SecretARN: s.SecretARN}
}

func storeEncryption(e *v1alpha1.EncryptionConfiguration) *types.EncryptionConfiguration {
	if e == nil {
		return nil
	}
	out := &types.EncryptionConfiguration{NoEncryptionConfig: types.NoEncryptionConfig(aws.ToString(e.NoEncryptionConfig))}
	if k := e.KMSEncryptionConfig; k != nil {
		out.KMSEncryptionConfig = &types.KMSEncryptionConfig{AWSKMSKeyARN: k.VendorKMSKeyARN}
	}
	return out
}
