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

// Package firehose is the AWS side of DeliveryStream: the narrow Firehose
// API the controller uses, and pure functions between the API types and the
// SDK types. The contract's neutral names are translated here:
// storeConfiguration is S3Configuration (S3Update on update),
// storeBackupMode is S3BackupMode, monitorLoggingOptions is
// CloudWatchLoggingOptions, vendorKMSKeyARN is AWSKMSKeyARN, and the stream
// type StreamAsSource is KinesisStreamAsSource.
package firehose

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	"github.com/aws/aws-sdk-go-v2/service/firehose/types"

	"github.com/cloudkinds/provider-aws-services/internal/aws/connection"
)

// API is the part of the Firehose client the controller uses.
type API interface {
	CreateDeliveryStream(ctx context.Context, in *firehose.CreateDeliveryStreamInput, o ...func(*firehose.Options)) (*firehose.CreateDeliveryStreamOutput, error)
	DescribeDeliveryStream(ctx context.Context, in *firehose.DescribeDeliveryStreamInput, o ...func(*firehose.Options)) (*firehose.DescribeDeliveryStreamOutput, error)
	UpdateDestination(ctx context.Context, in *firehose.UpdateDestinationInput, o ...func(*firehose.Options)) (*firehose.UpdateDestinationOutput, error)
	DeleteDeliveryStream(ctx context.Context, in *firehose.DeleteDeliveryStreamInput, o ...func(*firehose.Options)) (*firehose.DeleteDeliveryStreamOutput, error)
	StartDeliveryStreamEncryption(ctx context.Context, in *firehose.StartDeliveryStreamEncryptionInput, o ...func(*firehose.Options)) (*firehose.StartDeliveryStreamEncryptionOutput, error)
	StopDeliveryStreamEncryption(ctx context.Context, in *firehose.StopDeliveryStreamEncryptionInput, o ...func(*firehose.Options)) (*firehose.StopDeliveryStreamEncryptionOutput, error)
	TagDeliveryStream(ctx context.Context, in *firehose.TagDeliveryStreamInput, o ...func(*firehose.Options)) (*firehose.TagDeliveryStreamOutput, error)
	UntagDeliveryStream(ctx context.Context, in *firehose.UntagDeliveryStreamInput, o ...func(*firehose.Options)) (*firehose.UntagDeliveryStreamOutput, error)
	ListTagsForDeliveryStream(ctx context.Context, in *firehose.ListTagsForDeliveryStreamInput, o ...func(*firehose.Options)) (*firehose.ListTagsForDeliveryStreamOutput, error)
}

// The keys of a DeliveryStream's connection Secret: what a producer needs to
// put records into the stream (PutRecord takes its name; a policy, its ARN),
// both AWS's answer to DescribeDeliveryStream.
//
// The destination is not published. Its access key is the user's secret,
// which AWS never answers. Its URL is the user's own input, which a producer
// does not need (it writes to the stream, not to the destination), and which
// may carry a credential: in its userinfo (https://user:password@host) or in
// its query, as the URLs some HTTP endpoint vendors hand out do; publishing
// it would copy that credential into a Secret an application reads, beside
// the access key the spec keeps out.
const (
	ConnectionName = "deliveryStreamName"
	ConnectionARN  = "deliveryStreamARN"
)

// ConnectionKeys declares the keys, for the API reference.
var ConnectionKeys = connection.Keys{
	{Name: ConnectionName, Holds: "The delivery stream's name, which PutRecord and PutRecordBatch take."},
	{Name: ConnectionARN, Holds: "The delivery stream's ARN."},
}

// ConnectionDetails are the stream's name and ARN.
func ConnectionDetails(d *types.DeliveryStreamDescription) map[string][]byte {
	return connection.Details(map[string]string{ConnectionName: aws.ToString(d.DeliveryStreamName), ConnectionARN: aws.ToString(d.DeliveryStreamARN)})
}

// The stream type as the API names it and as AWS does.
const (
	streamAsSource    = "StreamAsSource"
	awsStreamAsSource = string(types.DeliveryStreamTypeKinesisStreamAsSource)
)

// StreamType translates the API's stream type to AWS's.
func StreamType(t *string) types.DeliveryStreamType {
	switch aws.ToString(t) {
	case "":
		return ""
	case streamAsSource:
		return types.DeliveryStreamTypeKinesisStreamAsSource
	default:
		return types.DeliveryStreamType(*t)
	}
}
