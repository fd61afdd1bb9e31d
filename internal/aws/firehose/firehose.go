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
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	"github.com/aws/aws-sdk-go-v2/service/firehose/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/aws/connection"
	"github.com/cloudkinds/provider-aws-services/internal/aws/convert"
	"github.com/cloudkinds/provider-aws-services/internal/aws/diff"
	"github.com/cloudkinds/provider-aws-services/internal/aws/tags"
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

// EncryptionWanted reports whether a spec asks for server-side encryption: an
// empty block (keyType and keyARN null, as the AWS controllers disable it)
// asks for none, like no block.
func EncryptionWanted(e *v1alpha1.DeliveryStreamEncryptionConfiguration) bool {
	return e != nil && (e.KeyType != nil || e.KeyARN != nil)
}

// EncryptionInput is the server-side encryption request of a spec: a key
// ARN without a key type means a customer managed key.
func EncryptionInput(e *v1alpha1.DeliveryStreamEncryptionConfiguration) *types.DeliveryStreamEncryptionConfigurationInput {
	keyType := types.KeyType(aws.ToString(e.KeyType))
	if keyType == "" {
		keyType = types.KeyTypeAwsOwnedCmk
		if e.KeyARN != nil {
			keyType = types.KeyTypeCustomerManagedCmk
		}
	}
	return &types.DeliveryStreamEncryptionConfigurationInput{KeyType: keyType, KeyARN: e.KeyARN}
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

// An EncryptionAction is what server-side encryption needs.
type EncryptionAction int

// The encryption actions.
const (
	EncryptionNone EncryptionAction = iota
	EncryptionStart
	EncryptionStop
)

// Encryption decides whether server-side encryption must be started (or its
// key changed) or stopped to match the spec. While AWS is enabling or
// disabling, nothing is done; a failed attempt with the same key is not
// repeated, since it would fail the same way.
func Encryption(want *v1alpha1.DeliveryStreamEncryptionConfiguration, got *types.DeliveryStreamEncryptionConfiguration) EncryptionAction {
	status := types.DeliveryStreamEncryptionStatusDisabled
	if got != nil {
		status = got.Status
	}
	switch status {
	case types.DeliveryStreamEncryptionStatusEnabling, types.DeliveryStreamEncryptionStatusDisabling:
		return EncryptionNone
	}
	if !EncryptionWanted(want) {
		if status == types.DeliveryStreamEncryptionStatusEnabled || status == types.DeliveryStreamEncryptionStatusEnablingFailed {
			return EncryptionStop
		}
		return EncryptionNone
	}
	in := EncryptionInput(want)
	sameKey := got != nil && in.KeyType == got.KeyType && aws.ToString(in.KeyARN) == aws.ToString(got.KeyARN)
	switch {
	case sameKey && (status == types.DeliveryStreamEncryptionStatusEnabled || status == types.DeliveryStreamEncryptionStatusEnablingFailed):
		return EncryptionNone
	default:
		return EncryptionStart
	}
}

// StartEncryptionInput starts (or rekeys) the server-side encryption a spec
// asks for.
func StartEncryptionInput(p *v1alpha1.DeliveryStreamParameters) *firehose.StartDeliveryStreamEncryptionInput {
	return &firehose.StartDeliveryStreamEncryptionInput{
		DeliveryStreamName:                         aws.String(p.DeliveryStreamName),
		DeliveryStreamEncryptionConfigurationInput: EncryptionInput(p.DeliveryStreamEncryptionConfiguration),
	}
}

// StopEncryptionInput stops server-side encryption.
func StopEncryptionInput(p *v1alpha1.DeliveryStreamParameters) *firehose.StopDeliveryStreamEncryptionInput {
	return &firehose.StopDeliveryStreamEncryptionInput{DeliveryStreamName: aws.String(p.DeliveryStreamName)}
}

// TagInput sets tags on a stream.
func TagInput(name string, set map[string]string) *firehose.TagDeliveryStreamInput {
	return &firehose.TagDeliveryStreamInput{DeliveryStreamName: aws.String(name), Tags: TagsToAdd(set)}
}

// UntagInput removes tags from a stream.
func UntagInput(name string, keys []string) *firehose.UntagDeliveryStreamInput {
	return &firehose.UntagDeliveryStreamInput{DeliveryStreamName: aws.String(name), TagKeys: keys}
}

// TagsToAdd turns tags into Firehose's shape, in key order.
func TagsToAdd(m map[string]string) []types.Tag {
	return tags.Sorted(m, func(k, v string) types.Tag { return types.Tag{Key: aws.String(k), Value: aws.String(v)} })
}

// TagMap turns Firehose's tags into a map.
func TagMap(ts []types.Tag) map[string]string {
	return tags.Map(ts, func(t types.Tag) (*string, *string) { return t.Key, t.Value })
}

// TagService is how Firehose lists, removes and sets the tags of the
// delivery stream name.
func TagService(api API, name string) tags.Service {
	return tags.Service{
		Of: "delivery stream",
		List: func(ctx context.Context) (map[string]string, error) {
			out, err := api.ListTagsForDeliveryStream(ctx, &firehose.ListTagsForDeliveryStreamInput{DeliveryStreamName: aws.String(name)})
			if err != nil {
				return nil, err
			}
			return TagMap(out.Tags), nil
		},
		Remove: func(ctx context.Context, keys []string) error {
			return tags.Err(api.UntagDeliveryStream(ctx, UntagInput(name, keys)))
		},
		Set: func(ctx context.Context, set map[string]string) error {
			return tags.Err(api.TagDeliveryStream(ctx, TagInput(name, set)))
		},
	}
}
