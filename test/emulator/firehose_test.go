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

package emulator_test

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	"github.com/aws/aws-sdk-go-v2/service/firehose/types"
	"github.com/google/go-cmp/cmp"

	"github.com/cloudkinds/provider-aws-services/test/emulator"
)

func httpDestination() *types.HttpEndpointDestinationConfiguration {
	return &types.HttpEndpointDestinationConfiguration{
		EndpointConfiguration: &types.HttpEndpointConfiguration{Url: aws.String("https://collector.example.com"), AccessKey: aws.String("s3cr3t")},
		S3Configuration: &types.S3DestinationConfiguration{
			BucketARN: aws.String("arn:aws:s3:::backup"), RoleARN: aws.String("arn:aws:iam::000000000000:role/r"),
		},
	}
}

func createStream(t *testing.T, c *firehose.Client, name string, opts ...func(*firehose.CreateDeliveryStreamInput)) {
	t.Helper()
	in := &firehose.CreateDeliveryStreamInput{DeliveryStreamName: aws.String(name), HttpEndpointDestinationConfiguration: httpDestination()}
	for _, o := range opts {
		o(in)
	}
	must(c.CreateDeliveryStream(ctx, in))(t)
}

func describeStream(t *testing.T, c *firehose.Client, name string) *types.DeliveryStreamDescription {
	t.Helper()
	return must(c.DescribeDeliveryStream(ctx, &firehose.DescribeDeliveryStreamInput{DeliveryStreamName: aws.String(name)}))(t).DeliveryStreamDescription
}

func TestFirehoseLifecycle(t *testing.T) {
	e, cfg, clk := start(t, "AKIDEMO")
	c := firehose.NewFromConfig(cfg)

	createStream(t, c, "s1", func(in *firehose.CreateDeliveryStreamInput) {
		in.Tags = []types.Tag{{Key: aws.String("team"), Value: aws.String("a")}}
	})
	d := describeStream(t, c, "s1")
	if d.DeliveryStreamStatus != types.DeliveryStreamStatusCreating {
		t.Fatalf("status right after create: %s", d.DeliveryStreamStatus)
	}
	clk.Advance(delay)
	d = describeStream(t, c, "s1")
	got := map[string]any{
		"status": string(d.DeliveryStreamStatus), "type": string(d.DeliveryStreamType), "version": aws.ToString(d.VersionId),
		"arn": aws.ToString(d.DeliveryStreamARN), "sse": string(d.DeliveryStreamEncryptionConfiguration.Status),
		"created": d.CreateTimestamp.UTC(),
	}
	want := map[string]any{
		"status": "ACTIVE", "type": "DirectPut", "version": "1", "arn": "arn:aws:firehose:us-east-1:000000000000:deliverystream/s1",
		"sse": "DISABLED", "created": time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("description: -want, +got:\n%s", diff)
	}
	h := d.Destinations[0].HttpEndpointDestinationDescription
	if h.EndpointConfiguration.Url == nil || h.EndpointConfiguration.Name != nil {
		t.Errorf("endpoint configuration: %+v", h.EndpointConfiguration)
	}
	defaults := map[string]any{
		"size": aws.ToInt32(h.BufferingHints.SizeInMBs), "interval": aws.ToInt32(h.BufferingHints.IntervalInSeconds),
		"retry": aws.ToInt32(h.RetryOptions.DurationInSeconds), "backup": string(h.S3BackupMode),
		"compression": string(h.S3DestinationDescription.CompressionFormat), "encoding": string(h.RequestConfiguration.ContentEncoding),
	}
	wantDefaults := map[string]any{"size": int32(5), "interval": int32(300), "retry": int32(300), "backup": "FailedDataOnly", "compression": "UNCOMPRESSED", "encoding": "NONE"}
	if diff := cmp.Diff(wantDefaults, defaults); diff != "" {
		t.Errorf("defaults Firehose fills in: -want, +got:\n%s", diff)
	}
	if e.StreamAccessKey("us-east-1", "s1") != "s3cr3t" {
		t.Errorf("the access key was not kept")
	}

	_, err := c.CreateDeliveryStream(ctx, &firehose.CreateDeliveryStreamInput{DeliveryStreamName: aws.String("s1"), HttpEndpointDestinationConfiguration: httpDestination()})
	wantCode(t, err, "ResourceInUseException", "already exists")

	// UpdateDestination needs the current version and bumps it.
	dest := aws.ToString(d.Destinations[0].DestinationId)
	must(c.UpdateDestination(ctx, &firehose.UpdateDestinationInput{
		DeliveryStreamName: aws.String("s1"), CurrentDeliveryStreamVersionId: aws.String("1"), DestinationId: aws.String(dest),
		HttpEndpointDestinationUpdate: &types.HttpEndpointDestinationUpdate{RetryOptions: &types.HttpEndpointRetryOptions{DurationInSeconds: aws.Int32(60)}},
	}))(t)
	d = describeStream(t, c, "s1")
	if aws.ToString(d.VersionId) != "2" || aws.ToInt32(d.Destinations[0].HttpEndpointDestinationDescription.RetryOptions.DurationInSeconds) != 60 {
		t.Errorf("after update: version %s, retry %d", aws.ToString(d.VersionId), aws.ToInt32(d.Destinations[0].HttpEndpointDestinationDescription.RetryOptions.DurationInSeconds))
	}
	if d.Destinations[0].HttpEndpointDestinationDescription.BufferingHints == nil {
		t.Errorf("an update dropped the members it did not name")
	}
	_, err = c.UpdateDestination(ctx, &firehose.UpdateDestinationInput{
		DeliveryStreamName: aws.String("s1"), CurrentDeliveryStreamVersionId: aws.String("1"), DestinationId: aws.String(dest),
		HttpEndpointDestinationUpdate: &types.HttpEndpointDestinationUpdate{},
	})
	wantCode(t, err, "ConcurrentModificationException", "version 2")

	// Tags.
	must(c.TagDeliveryStream(ctx, &firehose.TagDeliveryStreamInput{DeliveryStreamName: aws.String("s1"), Tags: []types.Tag{{Key: aws.String("env"), Value: aws.String("dev")}}}))(t)
	must(c.UntagDeliveryStream(ctx, &firehose.UntagDeliveryStreamInput{DeliveryStreamName: aws.String("s1"), TagKeys: []string{"team"}}))(t)
	tags := must(c.ListTagsForDeliveryStream(ctx, &firehose.ListTagsForDeliveryStreamInput{DeliveryStreamName: aws.String("s1")}))(t).Tags
	if len(tags) != 1 || aws.ToString(tags[0].Key) != "env" {
		t.Errorf("tags: %+v", tags)
	}
	names := must(c.ListDeliveryStreams(ctx, &firehose.ListDeliveryStreamsInput{}))(t).DeliveryStreamNames
	if diff := cmp.Diff([]string{"s1"}, names); diff != "" {
		t.Errorf("list: %s", diff)
	}

	// Delete goes through DELETING.
	must(c.DeleteDeliveryStream(ctx, &firehose.DeleteDeliveryStreamInput{DeliveryStreamName: aws.String("s1")}))(t)
	if s := describeStream(t, c, "s1").DeliveryStreamStatus; s != types.DeliveryStreamStatusDeleting {
		t.Errorf("status after delete: %s", s)
	}
	clk.Advance(delay)
	_, err = c.DescribeDeliveryStream(ctx, &firehose.DescribeDeliveryStreamInput{DeliveryStreamName: aws.String("s1")})
	wantCode(t, err, "ResourceNotFoundException", "Firehose s1 under account 000000000000 not found")

	if got := e.CallCount("firehose:DescribeDeliveryStream"); got != 5 {
		t.Errorf("DescribeDeliveryStream calls: want 5, got %d", got)
	}
}

func TestFirehoseCreationFailure(t *testing.T) {
	e, cfg, clk := start(t, "AKIDEMO")
	c := firehose.NewFromConfig(cfg)
	e.FailStreamCreation("broken", emulator.FailureDescription{Type: "INVALID_KMS_KEY", Details: "the key is disabled"})
	createStream(t, c, "broken")
	clk.Advance(delay)
	clk.Advance(time.Hour)
	d := describeStream(t, c, "broken")
	if d.DeliveryStreamStatus != types.DeliveryStreamStatusCreatingFailed || d.FailureDescription == nil || aws.ToString(d.FailureDescription.Details) != "the key is disabled" {
		t.Fatalf("want CREATING_FAILED with its description, got %s %+v", d.DeliveryStreamStatus, d.FailureDescription)
	}
	_, err := c.CreateDeliveryStream(ctx, &firehose.CreateDeliveryStreamInput{DeliveryStreamName: aws.String("broken"), HttpEndpointDestinationConfiguration: httpDestination()})
	wantCode(t, err, "ResourceInUseException", "already exists")
	must(c.DeleteDeliveryStream(ctx, &firehose.DeleteDeliveryStreamInput{DeliveryStreamName: aws.String("broken")}))(t)
	clk.Advance(delay)
	if s := e.StreamStatus("us-east-1", "broken"); s != "" {
		t.Errorf("a deleted stream is still %s", s)
	}
}

func TestFirehoseEncryption(t *testing.T) {
	e, cfg, clk := start(t, "AKIDEMO")
	c := firehose.NewFromConfig(cfg)
	createStream(t, c, "enc")
	clk.Advance(delay)

	key := "arn:aws:kms:us-east-1:000000000000:key/good"
	must(c.StartDeliveryStreamEncryption(ctx, &firehose.StartDeliveryStreamEncryptionInput{
		DeliveryStreamName:                         aws.String("enc"),
		DeliveryStreamEncryptionConfigurationInput: &types.DeliveryStreamEncryptionConfigurationInput{KeyType: types.KeyTypeCustomerManagedCmk, KeyARN: aws.String(key)},
	}))(t)
	if s := describeStream(t, c, "enc").DeliveryStreamEncryptionConfiguration.Status; s != types.DeliveryStreamEncryptionStatusEnabling {
		t.Fatalf("want ENABLING, got %s", s)
	}
	clk.Advance(delay)
	sse := describeStream(t, c, "enc").DeliveryStreamEncryptionConfiguration
	if sse.Status != types.DeliveryStreamEncryptionStatusEnabled || aws.ToString(sse.KeyARN) != key {
		t.Fatalf("want ENABLED with the key, got %s %s", sse.Status, aws.ToString(sse.KeyARN))
	}
	must(c.StopDeliveryStreamEncryption(ctx, &firehose.StopDeliveryStreamEncryptionInput{DeliveryStreamName: aws.String("enc")}))(t)
	clk.Advance(delay)
	if s := describeStream(t, c, "enc").DeliveryStreamEncryptionConfiguration.Status; s != types.DeliveryStreamEncryptionStatusDisabled {
		t.Fatalf("want DISABLED, got %s", s)
	}

	bad := "arn:aws:kms:us-east-1:000000000000:key/revoked"
	e.FailKey(bad, emulator.FailureDescription{Type: "KMS_ACCESS_DENIED", Details: "grant revoked"})
	must(c.StartDeliveryStreamEncryption(ctx, &firehose.StartDeliveryStreamEncryptionInput{
		DeliveryStreamName:                         aws.String("enc"),
		DeliveryStreamEncryptionConfigurationInput: &types.DeliveryStreamEncryptionConfigurationInput{KeyType: types.KeyTypeCustomerManagedCmk, KeyARN: aws.String(bad)},
	}))(t)
	clk.Advance(delay)
	sse = describeStream(t, c, "enc").DeliveryStreamEncryptionConfiguration
	if sse.Status != types.DeliveryStreamEncryptionStatusEnablingFailed || sse.FailureDescription == nil || sse.FailureDescription.Type != types.DeliveryStreamFailureTypeKmsAccessDenied {
		t.Fatalf("want ENABLING_FAILED with KMS_ACCESS_DENIED, got %s %+v", sse.Status, sse.FailureDescription)
	}
	must(c.StopDeliveryStreamEncryption(ctx, &firehose.StopDeliveryStreamEncryptionInput{DeliveryStreamName: aws.String("enc")}))(t)
	clk.Advance(delay)
	if s := describeStream(t, c, "enc").DeliveryStreamEncryptionConfiguration.Status; s != types.DeliveryStreamEncryptionStatusDisablingFailed {
		t.Fatalf("want DISABLING_FAILED, got %s", s)
	}
}

func TestFirehoseValidation(t *testing.T) {
	e, cfg, _ := start(t, "AKIDNOTAG")
	c := firehose.NewFromConfig(cfg)
	tags := make([]types.Tag, 51)
	for i := range tags {
		tags[i] = types.Tag{Key: aws.String(string(rune('a'+i%26)) + string(rune('a'+i/26)))}
	}
	_, err := c.CreateDeliveryStream(ctx, &firehose.CreateDeliveryStreamInput{DeliveryStreamName: aws.String("many"), HttpEndpointDestinationConfiguration: httpDestination(), Tags: tags})
	wantCode(t, err, "InvalidArgumentException", "at most 50 tags")

	_, err = c.CreateDeliveryStream(ctx, &firehose.CreateDeliveryStreamInput{DeliveryStreamName: aws.String("bad name"), HttpEndpointDestinationConfiguration: httpDestination()})
	wantCode(t, err, "ValidationException", "deliveryStreamName")

	dest := httpDestination()
	dest.BufferingHints = &types.HttpEndpointBufferingHints{SizeInMBs: aws.Int32(5)}
	_, err = c.CreateDeliveryStream(ctx, &firehose.CreateDeliveryStreamInput{DeliveryStreamName: aws.String("hints"), HttpEndpointDestinationConfiguration: dest})
	wantCode(t, err, "InvalidArgumentException", "both SizeInMBs and IntervalInSeconds")

	e.Deny("AKIDNOTAG", "firehose:TagDeliveryStream")
	_, err = c.CreateDeliveryStream(ctx, &firehose.CreateDeliveryStreamInput{DeliveryStreamName: aws.String("tagged"), HttpEndpointDestinationConfiguration: httpDestination(),
		Tags: []types.Tag{{Key: aws.String("k"), Value: aws.String("v")}}})
	wantCode(t, err, "AccessDeniedException", "firehose:TagDeliveryStream")
	createStream(t, c, "untagged") // the same principal may create without tags
}
