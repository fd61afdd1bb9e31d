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
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	"github.com/aws/aws-sdk-go-v2/service/firehose/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/clients/tags"
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
// the endpoint's access key read from its secret, if any.
func CreateInput(p *v1alpha1.DeliveryStreamParameters, accessKey *string) *firehose.CreateDeliveryStreamInput {
	in := &firehose.CreateDeliveryStreamInput{
		DeliveryStreamName: aws.String(p.DeliveryStreamName),
		DeliveryStreamType: StreamType(p.DeliveryStreamType),
	}
	if e := p.DeliveryStreamEncryptionConfiguration; e != nil {
		in.DeliveryStreamEncryptionConfigurationInput = EncryptionInput(e)
	}
	if len(p.Tags) > 0 {
		in.Tags = TagsToAdd(tags.FromList(p.Tags))
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
	return &types.HttpEndpointBufferingHints{IntervalInSeconds: int32p(h.IntervalInSeconds), SizeInMBs: int32p(h.SizeInMBs)}
}

func storeHints(h *v1alpha1.BufferingHints) *types.BufferingHints {
	if h == nil {
		return nil
	}
	return &types.BufferingHints{IntervalInSeconds: int32p(h.IntervalInSeconds), SizeInMBs: int32p(h.SizeInMBs)}
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
	return &types.HttpEndpointRetryOptions{DurationInSeconds: int32p(r.DurationInSeconds)}
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

func int32p(v *int64) *int32 {
	if v == nil {
		return nil
	}
	return aws.Int32(int32(*v)) //nolint:gosec // CRD bounds keep the values small
}

func int64p(v *int32) *int64 {
	if v == nil {
		return nil
	}
	return aws.Int64(int64(*v))
}

func strp[T ~string](v T) *string {
	if v == "" {
		return nil
	}
	return aws.String(string(v))
}

// Observation is the status of a stream as AWS describes it; the caller adds
// the resource metadata and keeps its own fingerprints.
func Observation(d *types.DeliveryStreamDescription) v1alpha1.DeliveryStreamObservation {
	o := v1alpha1.DeliveryStreamObservation{
		DeliveryStreamStatus: strp(d.DeliveryStreamStatus),
		VersionID:            d.VersionId,
	}
	if d.CreateTimestamp != nil {
		o.CreateTimestamp = &metav1.Time{Time: *d.CreateTimestamp}
	}
	if d.LastUpdateTimestamp != nil {
		o.LastUpdateTimestamp = &metav1.Time{Time: *d.LastUpdateTimestamp}
	}
	if e := d.DeliveryStreamEncryptionConfiguration; e != nil {
		o.DeliveryStreamEncryptionConfigurationStatus = strp(e.Status)
		if f := e.FailureDescription; f != nil {
			o.DeliveryStreamEncryptionConfigurationFailureDescription = &v1alpha1.FailureDescription{Details: f.Details, Type: strp(f.Type)}
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

// LateInitialize fills the members of the spec that AWS defaulted, and
// reports whether it changed anything.
func LateInitialize(p *v1alpha1.DeliveryStreamParameters, d *types.DeliveryStreamDescription) bool {
	h := HTTPDestination(d)
	dst := p.HTTPEndpointDestinationConfiguration
	if h == nil || dst == nil {
		return false
	}
	li := &lateInit{}
	if p.DeliveryStreamType == nil && d.DeliveryStreamType != "" {
		t := string(d.DeliveryStreamType)
		if t == awsStreamAsSource {
			t = streamAsSource
		}
		li.str(&p.DeliveryStreamType, &t)
	}
	if dst.BufferingHints == nil && h.BufferingHints != nil {
		li.set(func() {
			dst.BufferingHints = &v1alpha1.BufferingHints{IntervalInSeconds: int64p(h.BufferingHints.IntervalInSeconds), SizeInMBs: int64p(h.BufferingHints.SizeInMBs)}
		})
	}
	if dst.MonitorLoggingOptions == nil && h.CloudWatchLoggingOptions != nil {
		li.set(func() { dst.MonitorLoggingOptions = loggingFrom(h.CloudWatchLoggingOptions) })
	}
	if dst.RetryOptions == nil && h.RetryOptions != nil {
		li.set(func() {
			dst.RetryOptions = &v1alpha1.RetryOptions{DurationInSeconds: int64p(h.RetryOptions.DurationInSeconds)}
		})
	}
	if h.RequestConfiguration != nil && h.RequestConfiguration.ContentEncoding != "" {
		if dst.RequestConfiguration == nil {
			li.set(func() { dst.RequestConfiguration = &v1alpha1.RequestConfiguration{} })
		}
		li.str(&dst.RequestConfiguration.ContentEncoding, strp(h.RequestConfiguration.ContentEncoding))
	}
	li.str(&dst.StoreBackupMode, strp(h.S3BackupMode))
	if s, o := dst.StoreConfiguration, h.S3DestinationDescription; s != nil && o != nil {
		if s.BufferingHints == nil && o.BufferingHints != nil {
			li.set(func() {
				s.BufferingHints = &v1alpha1.BufferingHints{IntervalInSeconds: int64p(o.BufferingHints.IntervalInSeconds), SizeInMBs: int64p(o.BufferingHints.SizeInMBs)}
			})
		}
		if s.MonitorLoggingOptions == nil && o.CloudWatchLoggingOptions != nil {
			li.set(func() { s.MonitorLoggingOptions = loggingFrom(o.CloudWatchLoggingOptions) })
		}
		li.str(&s.CompressionFormat, strp(o.CompressionFormat))
		if s.EncryptionConfiguration == nil && o.EncryptionConfiguration != nil && o.EncryptionConfiguration.NoEncryptionConfig != "" {
			li.set(func() {
				s.EncryptionConfiguration = &v1alpha1.EncryptionConfiguration{NoEncryptionConfig: strp(o.EncryptionConfiguration.NoEncryptionConfig)}
			})
		}
	}
	return li.changed
}

type lateInit struct{ changed bool }

func (l *lateInit) set(fn func()) { fn(); l.changed = true }

func (l *lateInit) str(dst **string, v *string) {
	if *dst == nil && v != nil {
		*dst = v
		l.changed = true
	}
}

func loggingFrom(c *types.CloudWatchLoggingOptions) *v1alpha1.MonitorLoggingOptions {
	return &v1alpha1.MonitorLoggingOptions{Enabled: c.Enabled, LogGroupName: c.LogGroupName, LogStreamName: c.LogStreamName}
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

// DestinationDiff lists the members of the spec's destination that differ
// from AWS's; members the spec leaves out are AWS's to choose. Buffering
// hints that were sent as they are (hintsSent) count as applied even if AWS
// replaced them with better values.
func DestinationDiff(p *v1alpha1.DeliveryStreamParameters, h *types.HttpEndpointDestinationDescription, hintsSent string) []string {
	d := p.HTTPEndpointDestinationConfiguration
	if d == nil || h == nil {
		return nil
	}
	c := &differ{}
	if e := d.EndpointConfiguration; e != nil && h.EndpointConfiguration != nil {
		c.str("endpointConfiguration.url", e.URL, h.EndpointConfiguration.Url)
		c.str("endpointConfiguration.name", e.Name, h.EndpointConfiguration.Name)
	}
	hintsApplied := hintsSent == BufferingHintsSent(p)
	if b := d.BufferingHints; b != nil && h.BufferingHints != nil && !hintsApplied {
		c.num("bufferingHints.intervalInSeconds", b.IntervalInSeconds, h.BufferingHints.IntervalInSeconds)
		c.num("bufferingHints.sizeInMBs", b.SizeInMBs, h.BufferingHints.SizeInMBs)
	}
	c.logging("monitorLoggingOptions", d.MonitorLoggingOptions, h.CloudWatchLoggingOptions)
	if pc := d.ProcessingConfiguration; pc != nil {
		c.eq("processingConfiguration", processing(pc), h.ProcessingConfiguration)
	}
	if r := d.RequestConfiguration; r != nil {
		want, got := request(r), h.RequestConfiguration
		if got == nil {
			got = &types.HttpEndpointRequestConfiguration{}
		}
		if r.ContentEncoding != nil && want.ContentEncoding != got.ContentEncoding {
			c.add("requestConfiguration.contentEncoding")
		}
		c.eq("requestConfiguration.commonAttributes", attributeStrings(want.CommonAttributes), attributeStrings(got.CommonAttributes))
	}
	if r := d.RetryOptions; r != nil && h.RetryOptions != nil {
		c.num("retryOptions.durationInSeconds", r.DurationInSeconds, h.RetryOptions.DurationInSeconds)
	}
	c.str("roleARN", d.RoleARN, h.RoleARN)
	c.str("storeBackupMode", d.StoreBackupMode, strp(h.S3BackupMode))
	if s := d.SecretsManagerConfiguration; s != nil {
		got := h.SecretsManagerConfiguration
		if got == nil {
			got = &types.SecretsManagerConfiguration{}
		}
		c.boolean("secretsManagerConfiguration.enabled", s.Enabled, got.Enabled)
		c.str("secretsManagerConfiguration.roleARN", s.RoleARN, got.RoleARN)
		c.str("secretsManagerConfiguration.secretARN", s.SecretARN, got.SecretARN)
	}
	if s, o := d.StoreConfiguration, h.S3DestinationDescription; s != nil && o != nil {
		c.str("storeConfiguration.bucketARN", s.BucketARN, o.BucketARN)
		c.str("storeConfiguration.roleARN", s.RoleARN, o.RoleARN)
		c.str("storeConfiguration.prefix", s.Prefix, o.Prefix)
		c.str("storeConfiguration.errorOutputPrefix", s.ErrorOutputPrefix, o.ErrorOutputPrefix)
		c.str("storeConfiguration.compressionFormat", s.CompressionFormat, strp(o.CompressionFormat))
		if b := s.BufferingHints; b != nil && o.BufferingHints != nil && !hintsApplied {
			c.num("storeConfiguration.bufferingHints.intervalInSeconds", b.IntervalInSeconds, o.BufferingHints.IntervalInSeconds)
			c.num("storeConfiguration.bufferingHints.sizeInMBs", b.SizeInMBs, o.BufferingHints.SizeInMBs)
		}
		c.logging("storeConfiguration.monitorLoggingOptions", s.MonitorLoggingOptions, o.CloudWatchLoggingOptions)
		if e := s.EncryptionConfiguration; e != nil {
			c.eq("storeConfiguration.encryptionConfiguration", storeEncryption(e), o.EncryptionConfiguration)
		}
	}
	return c.diffs
}

func attributeStrings(attrs []types.HttpEndpointCommonAttribute) []string {
	out := make([]string, 0, len(attrs))
	for _, a := range attrs {
		out = append(out, aws.ToString(a.AttributeName)+"="+aws.ToString(a.AttributeValue))
	}
	sort.Strings(out)
	return out
}

// differ collects the names of members whose desired value (set in the
// spec) differs from the observed one.
type differ struct{ diffs []string }

func (c *differ) add(name string) {
	c.diffs = append(c.diffs, "httpEndpointDestinationConfiguration."+name)
}

func (c *differ) str(name string, want, got *string) {
	if want != nil && aws.ToString(want) != aws.ToString(got) {
		c.add(name)
	}
}

func (c *differ) num(name string, want *int64, got *int32) {
	if want != nil && (got == nil || *want != int64(*got)) {
		c.add(name)
	}
}

func (c *differ) boolean(name string, want, got *bool) {
	if want != nil && *want != aws.ToBool(got) {
		c.add(name)
	}
}

func (c *differ) logging(name string, want *v1alpha1.MonitorLoggingOptions, got *types.CloudWatchLoggingOptions) {
	if want == nil {
		return
	}
	if got == nil {
		got = &types.CloudWatchLoggingOptions{}
	}
	c.boolean(name+".enabled", want.Enabled, got.Enabled)
	c.str(name+".logGroupName", want.LogGroupName, got.LogGroupName)
	c.str(name+".logStreamName", want.LogStreamName, got.LogStreamName)
}

func (c *differ) eq(name string, want, got any) {
	if fmt.Sprintf("%+v", deref(want)) != fmt.Sprintf("%+v", deref(got)) {
		c.add(name)
	}
}

// deref prints pointers by value, so that equal members compare equal.
func deref(v any) any {
	switch t := v.(type) {
	case *types.ProcessingConfiguration:
		if t == nil {
			return "<nil>"
		}
		var procs []string
		for _, p := range t.Processors {
			var params []string
			for _, pa := range p.Parameters {
				params = append(params, string(pa.ParameterName)+"="+aws.ToString(pa.ParameterValue))
			}
			procs = append(procs, string(p.Type)+"("+strings.Join(params, ",")+")")
		}
		return fmt.Sprintf("enabled=%v processors=%v", aws.ToBool(t.Enabled), procs)
	case *types.EncryptionConfiguration:
		if t == nil {
			return "<nil>"
		}
		key := ""
		if t.KMSEncryptionConfig != nil {
			key = aws.ToString(t.KMSEncryptionConfig.AWSKMSKeyARN)
		}
		return fmt.Sprintf("none=%s kms=%s", t.NoEncryptionConfig, key)
	}
	return v
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
	if want == nil {
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

// TagsToAdd turns tags into Firehose's shape, in key order.
func TagsToAdd(m map[string]string) []types.Tag {
	out := make([]types.Tag, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, types.Tag{Key: aws.String(k), Value: aws.String(m[k])})
	}
	return out
}

// TagMap turns Firehose's tags into a map.
func TagMap(ts []types.Tag) map[string]string {
	out := make(map[string]string, len(ts))
	for _, t := range ts {
		out[aws.ToString(t.Key)] = aws.ToString(t.Value)
	}
	return out
}
