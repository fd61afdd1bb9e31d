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
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	"github.com/aws/aws-sdk-go-v2/service/firehose/types"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/aws/connection"
)

var ignoreSDKInternals = cmpopts.IgnoreUnexported(
	firehose.CreateDeliveryStreamInput{}, firehose.UpdateDestinationInput{}, types.HttpEndpointDestinationConfiguration{},
	types.HttpEndpointDestinationUpdate{}, types.HttpEndpointConfiguration{}, types.S3DestinationConfiguration{}, types.S3DestinationUpdate{},
	types.EncryptionConfiguration{}, types.KMSEncryptionConfig{}, types.Tag{}, types.DeliveryStreamEncryptionConfigurationInput{},
	types.CloudWatchLoggingOptions{}, types.HttpEndpointBufferingHints{}, types.BufferingHints{}, types.HttpEndpointRetryOptions{},
	types.HttpEndpointRequestConfiguration{}, types.HttpEndpointCommonAttribute{}, types.ProcessingConfiguration{}, types.Processor{},
	types.ProcessorParameter{}, types.SecretsManagerConfiguration{},
)

func params() *v1alpha1.DeliveryStreamParameters {
	return &v1alpha1.DeliveryStreamParameters{
		DeliveryStreamName:                    "s",
		DeliveryStreamType:                    aws.String("StreamAsSource"),
		DeliveryStreamEncryptionConfiguration: &v1alpha1.DeliveryStreamEncryptionConfiguration{KeyARN: aws.String("arn:aws:kms:us-east-1:000000000000:key/k")},
		Tags:                                  []common.Tag{{Key: aws.String("b"), Value: aws.String("2")}, {Key: aws.String("a"), Value: aws.String("1")}},
		HTTPEndpointDestinationConfiguration: &v1alpha1.HTTPEndpointDestinationConfiguration{
			EndpointConfiguration: &v1alpha1.HTTPEndpointConfiguration{URL: aws.String("https://e"), Name: aws.String("e")},
			BufferingHints:        &v1alpha1.BufferingHints{IntervalInSeconds: aws.Int64(60), SizeInMBs: aws.Int64(2)},
			MonitorLoggingOptions: &v1alpha1.MonitorLoggingOptions{Enabled: aws.Bool(true), LogGroupName: aws.String("g")},
			RequestConfiguration:  &v1alpha1.RequestConfiguration{ContentEncoding: aws.String("GZIP"), CommonAttributes: []v1alpha1.CommonAttribute{{AttributeName: "k", AttributeValue: "v"}}},
			StoreBackupMode:       aws.String("AllData"),
			StoreConfiguration: &v1alpha1.StoreConfiguration{
				BucketARN: aws.String("arn:aws:s3:::b"), RoleARN: aws.String("arn:aws:iam::000000000000:role/r"),
				EncryptionConfiguration: &v1alpha1.EncryptionConfiguration{KMSEncryptionConfig: &v1alpha1.KMSEncryptionConfig{VendorKMSKeyARN: aws.String("arn:aws:kms:us-east-1:000000000000:key/s3")}},
			},
		},
	}
}

func TestCreateInput(t *testing.T) {
	want := &firehose.CreateDeliveryStreamInput{
		DeliveryStreamName: aws.String("s"),
		DeliveryStreamType: types.DeliveryStreamTypeKinesisStreamAsSource,
		DeliveryStreamEncryptionConfigurationInput: &types.DeliveryStreamEncryptionConfigurationInput{
			KeyType: types.KeyTypeCustomerManagedCmk, KeyARN: aws.String("arn:aws:kms:us-east-1:000000000000:key/k")},
		// The tags the create is given (tags.Want.AtCreate), in key
		// order.
		Tags: []types.Tag{{Key: aws.String("a"), Value: aws.String("1")}, {Key: aws.String("b"), Value: aws.String("owner")}, {Key: aws.String("crossplane-name"), Value: aws.String("orders")}},
		HttpEndpointDestinationConfiguration: &types.HttpEndpointDestinationConfiguration{
			EndpointConfiguration:    &types.HttpEndpointConfiguration{Url: aws.String("https://e"), Name: aws.String("e"), AccessKey: aws.String("key")},
			BufferingHints:           &types.HttpEndpointBufferingHints{IntervalInSeconds: aws.Int32(60), SizeInMBs: aws.Int32(2)},
			CloudWatchLoggingOptions: &types.CloudWatchLoggingOptions{Enabled: aws.Bool(true), LogGroupName: aws.String("g")},
			RequestConfiguration: &types.HttpEndpointRequestConfiguration{ContentEncoding: types.ContentEncodingGzip,
				CommonAttributes: []types.HttpEndpointCommonAttribute{{AttributeName: aws.String("k"), AttributeValue: aws.String("v")}}},
			S3BackupMode: types.HttpEndpointS3BackupModeAllData,
			S3Configuration: &types.S3DestinationConfiguration{
				BucketARN: aws.String("arn:aws:s3:::b"), RoleARN: aws.String("arn:aws:iam::000000000000:role/r"),
				EncryptionConfiguration: &types.EncryptionConfiguration{KMSEncryptionConfig: &types.KMSEncryptionConfig{AWSKMSKeyARN: aws.String("arn:aws:kms:us-east-1:000000000000:key/s3")}},
			},
		},
	}
	if diff := cmp.Diff(want, CreateInput(params(), aws.String("key"), map[string]string{"a": "1", "crossplane-name": "orders", "b": "owner"}), ignoreSDKInternals); diff != "" {
		t.Errorf("-want, +got:\n%s", diff)
	}
}

func TestUpdateInput(t *testing.T) {
	got := UpdateInput(params(), nil, "7", "destinationId-000000000001")
	if aws.ToString(got.CurrentDeliveryStreamVersionId) != "7" || aws.ToString(got.DestinationId) != "destinationId-000000000001" {
		t.Errorf("IDs: %s %s", aws.ToString(got.CurrentDeliveryStreamVersionId), aws.ToString(got.DestinationId))
	}
	u := got.HttpEndpointDestinationUpdate
	if u.EndpointConfiguration.AccessKey != nil {
		t.Error("an unchanged access key was sent")
	}
	if u.S3Update == nil || aws.ToString(u.S3Update.BucketARN) != "arn:aws:s3:::b" || u.S3BackupMode != types.HttpEndpointS3BackupModeAllData {
		t.Errorf("store update: %+v", u.S3Update)
	}
}

func description() *types.DeliveryStreamDescription {
	created := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	return &types.DeliveryStreamDescription{
		DeliveryStreamName: aws.String("s"), DeliveryStreamARN: aws.String("arn:aws:firehose:us-east-1:000000000000:deliverystream/s"),
		DeliveryStreamStatus: types.DeliveryStreamStatusActive, DeliveryStreamType: types.DeliveryStreamTypeDirectPut, VersionId: aws.String("3"),
		CreateTimestamp: &created, LastUpdateTimestamp: &created,
		DeliveryStreamEncryptionConfiguration: &types.DeliveryStreamEncryptionConfiguration{Status: types.DeliveryStreamEncryptionStatusEnablingFailed,
			FailureDescription: &types.FailureDescription{Type: types.DeliveryStreamFailureTypeKmsAccessDenied, Details: aws.String("no grant")}},
		Destinations: []types.DestinationDescription{{DestinationId: aws.String("d-1"), HttpEndpointDestinationDescription: &types.HttpEndpointDestinationDescription{
			EndpointConfiguration:    &types.HttpEndpointDescription{Url: aws.String("https://e"), Name: aws.String("e")},
			BufferingHints:           &types.HttpEndpointBufferingHints{IntervalInSeconds: aws.Int32(300), SizeInMBs: aws.Int32(5)},
			CloudWatchLoggingOptions: &types.CloudWatchLoggingOptions{Enabled: aws.Bool(false)},
			RequestConfiguration:     &types.HttpEndpointRequestConfiguration{ContentEncoding: types.ContentEncodingNone},
			RetryOptions:             &types.HttpEndpointRetryOptions{DurationInSeconds: aws.Int32(300)},
			S3BackupMode:             types.HttpEndpointS3BackupModeFailedDataOnly,
			S3DestinationDescription: &types.S3DestinationDescription{BucketARN: aws.String("arn:aws:s3:::b"), RoleARN: aws.String("arn:aws:iam::000000000000:role/r"),
				CompressionFormat: types.CompressionFormatUncompressed, BufferingHints: &types.BufferingHints{IntervalInSeconds: aws.Int32(300), SizeInMBs: aws.Int32(5)},
				EncryptionConfiguration: &types.EncryptionConfiguration{NoEncryptionConfig: types.NoEncryptionConfigNoEncryption}},
		}}},
	}
}

func TestObservation(t *testing.T) {
	created := metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	want := v1alpha1.DeliveryStreamObservation{
		CreateTimestamp: &created, LastUpdateTimestamp: &created, DeliveryStreamStatus: aws.String("ACTIVE"),
		DeliveryStreamEncryptionConfigurationStatus:             aws.String("ENABLING_FAILED"),
		DeliveryStreamEncryptionConfigurationFailureDescription: &v1alpha1.FailureDescription{Details: aws.String("no grant"), Type: aws.String("KMS_ACCESS_DENIED")},
		DestinationID: aws.String("d-1"), VersionID: aws.String("3"),
	}
	if diff := cmp.Diff(want, Observation(description())); diff != "" {
		t.Errorf("-want, +got:\n%s", diff)
	}
}

// AWS's defaults are not copied into the spec (that would cost a write to
// the object that only restates them): a spec that leaves them out does not
// differ from a stream that has them.
func TestAWSDefaultsAreNoDrift(t *testing.T) {
	p := &v1alpha1.DeliveryStreamParameters{DeliveryStreamName: "s", HTTPEndpointDestinationConfiguration: &v1alpha1.HTTPEndpointDestinationConfiguration{
		EndpointConfiguration: &v1alpha1.HTTPEndpointConfiguration{URL: aws.String("https://e"), Name: aws.String("e")},
		StoreConfiguration:    &v1alpha1.StoreConfiguration{BucketARN: aws.String("arn:aws:s3:::b")},
	}}
	if d := DestinationDiff(p, description(), ""); len(d) != 0 {
		t.Errorf("a spec without AWS's defaults differs: %v", d)
	}
}

func TestDestinationDiff(t *testing.T) {
	base := func() *v1alpha1.DeliveryStreamParameters {
		return &v1alpha1.DeliveryStreamParameters{DeliveryStreamName: "s", HTTPEndpointDestinationConfiguration: &v1alpha1.HTTPEndpointDestinationConfiguration{
			EndpointConfiguration: &v1alpha1.HTTPEndpointConfiguration{URL: aws.String("https://e"), Name: aws.String("e")},
			BufferingHints:        &v1alpha1.BufferingHints{IntervalInSeconds: aws.Int64(300), SizeInMBs: aws.Int64(5)},
			StoreConfiguration:    &v1alpha1.StoreConfiguration{BucketARN: aws.String("arn:aws:s3:::b")},
		}}
	}
	lambda := func(params ...v1alpha1.ProcessorParameter) *v1alpha1.ProcessingConfiguration {
		return &v1alpha1.ProcessingConfiguration{Enabled: aws.Bool(true), Processors: []v1alpha1.Processor{{Type: "Lambda", Parameters: params}}}
	}
	param := func(name, value string) v1alpha1.ProcessorParameter {
		return v1alpha1.ProcessorParameter{ParameterName: name, ParameterValue: value}
	}
	// withProcessing is the description of a stream whose Lambda processor
	// has the parameters Firehose returns: the one sent and its defaults, in
	// Firehose's order.
	withProcessing := func(params ...string) func() *types.DeliveryStreamDescription {
		return func() *types.DeliveryStreamDescription {
			d := description()
			h := HTTPDestination(d)
			h.RoleARN = aws.String("arn:aws:iam::000000000000:role/firehose")
			pr := types.Processor{Type: types.ProcessorTypeLambda}
			for i := 0; i < len(params); i += 2 {
				pr.Parameters = append(pr.Parameters, types.ProcessorParameter{ParameterName: types.ProcessorParameterName(params[i]), ParameterValue: aws.String(params[i+1])})
			}
			h.ProcessingConfiguration = &types.ProcessingConfiguration{Enabled: aws.Bool(true), Processors: []types.Processor{pr}}
			return d
		}
	}
	defaults := withProcessing("LambdaArn", "arn:aws:lambda:us-east-1:000000000000:function:f", "NumberOfRetries", "3",
		"RoleArn", "arn:aws:iam::000000000000:role/firehose", "BufferSizeInMBs", "1", "BufferIntervalInSeconds", "60")
	cases := map[string]struct {
		change    func(*v1alpha1.DeliveryStreamParameters)
		described func() *types.DeliveryStreamDescription
		hintsSent bool
		want      []string
	}{
		"ProcessorDefaultsAreNotDrift": {change: func(p *v1alpha1.DeliveryStreamParameters) {
			p.HTTPEndpointDestinationConfiguration.ProcessingConfiguration = lambda(param("LambdaArn", "arn:aws:lambda:us-east-1:000000000000:function:f"))
		}, described: defaults},
		"ProcessorDefaultSetInSpec": {change: func(p *v1alpha1.DeliveryStreamParameters) {
			p.HTTPEndpointDestinationConfiguration.ProcessingConfiguration = lambda(param("NumberOfRetries", "3"), param("LambdaArn", "arn:aws:lambda:us-east-1:000000000000:function:f"))
		}, described: defaults},
		"ProcessorParameterChangedOnAWS": {change: func(p *v1alpha1.DeliveryStreamParameters) {
			p.HTTPEndpointDestinationConfiguration.ProcessingConfiguration = lambda(param("LambdaArn", "arn:aws:lambda:us-east-1:000000000000:function:f"))
		}, described: withProcessing("LambdaArn", "arn:aws:lambda:us-east-1:000000000000:function:f", "NumberOfRetries", "7"),
			want: []string{"spec.forProvider.httpEndpointDestinationConfiguration.processingConfiguration.processors[0].parameters"}},
		"ProcessorLambdaChanged": {change: func(p *v1alpha1.DeliveryStreamParameters) {
			p.HTTPEndpointDestinationConfiguration.ProcessingConfiguration = lambda(param("LambdaArn", "arn:aws:lambda:us-east-1:000000000000:function:g"))
		}, described: defaults,
			want: []string{"spec.forProvider.httpEndpointDestinationConfiguration.processingConfiguration.processors[0].parameters[0].parameterValue"}},
		"AccessKeyIsNotCompared": {change: func(p *v1alpha1.DeliveryStreamParameters) {
			p.HTTPEndpointDestinationConfiguration.EndpointConfiguration.AccessKey = &common.SecretKeyReference{Key: "k"}
		}},
		"Same": {change: func(*v1alpha1.DeliveryStreamParameters) {}},
		"URL": {change: func(p *v1alpha1.DeliveryStreamParameters) {
			p.HTTPEndpointDestinationConfiguration.EndpointConfiguration.URL = aws.String("https://f")
		}, want: []string{"spec.forProvider.httpEndpointDestinationConfiguration.endpointConfiguration.url"}},
		"Bucket": {change: func(p *v1alpha1.DeliveryStreamParameters) {
			p.HTTPEndpointDestinationConfiguration.StoreConfiguration.BucketARN = aws.String("arn:aws:s3:::c")
		}, want: []string{"spec.forProvider.httpEndpointDestinationConfiguration.storeConfiguration.bucketARN"}},
		"HintsChanged": {change: func(p *v1alpha1.DeliveryStreamParameters) {
			p.HTTPEndpointDestinationConfiguration.BufferingHints.IntervalInSeconds = aws.Int64(60)
		}, want: []string{"spec.forProvider.httpEndpointDestinationConfiguration.bufferingHints.intervalInSeconds"}},
		"HintsReplacedByAWS": {change: func(p *v1alpha1.DeliveryStreamParameters) {
			p.HTTPEndpointDestinationConfiguration.BufferingHints.IntervalInSeconds = aws.Int64(60)
		}, hintsSent: true},
		"UnsetMembersAreAWSs": {change: func(p *v1alpha1.DeliveryStreamParameters) { p.HTTPEndpointDestinationConfiguration.RetryOptions = nil }},
		"AttributesAdded": {change: func(p *v1alpha1.DeliveryStreamParameters) {
			p.HTTPEndpointDestinationConfiguration.RequestConfiguration = &v1alpha1.RequestConfiguration{CommonAttributes: []v1alpha1.CommonAttribute{{AttributeName: "a", AttributeValue: "b"}}}
		}, want: []string{"spec.forProvider.httpEndpointDestinationConfiguration.requestConfiguration.commonAttributes[0]"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			p := base()
			tc.change(p)
			if tc.described == nil {
				tc.described = description
			}
			sent := ""
			if tc.hintsSent {
				sent = BufferingHintsSent(p)
			}
			if diff := cmp.Diff(tc.want, DestinationDiff(p, tc.described(), sent), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("-want, +got:\n%s", diff)
			}
		})
	}
}

func TestEncryption(t *testing.T) {
	key := "arn:aws:kms:us-east-1:000000000000:key/k"
	customer := &v1alpha1.DeliveryStreamEncryptionConfiguration{KeyARN: aws.String(key)}
	observed := func(s types.DeliveryStreamEncryptionStatus, keyARN string) *types.DeliveryStreamEncryptionConfiguration {
		o := &types.DeliveryStreamEncryptionConfiguration{Status: s}
		if keyARN != "" {
			o.KeyARN, o.KeyType = aws.String(keyARN), types.KeyTypeCustomerManagedCmk
		}
		return o
	}
	cases := map[string]struct {
		want *v1alpha1.DeliveryStreamEncryptionConfiguration
		got  *types.DeliveryStreamEncryptionConfiguration
		do   EncryptionAction
	}{
		"OffAndWantedOff":      {got: observed("DISABLED", ""), do: EncryptionNone},
		"TurnOn":               {want: customer, got: observed("DISABLED", ""), do: EncryptionStart},
		"On":                   {want: customer, got: observed("ENABLED", key), do: EncryptionNone},
		"ChangeKey":            {want: customer, got: observed("ENABLED", "arn:aws:kms:us-east-1:000000000000:key/old"), do: EncryptionStart},
		"TurnOff":              {got: observed("ENABLED", key), do: EncryptionStop},
		"WaitWhileEnabling":    {want: customer, got: observed("ENABLING", "arn:aws:kms:us-east-1:000000000000:key/old"), do: EncryptionNone},
		"FailedWithSameKey":    {want: customer, got: observed("ENABLING_FAILED", key), do: EncryptionNone},
		"FailedThenOtherKey":   {want: customer, got: observed("ENABLING_FAILED", "arn:aws:kms:us-east-1:000000000000:key/old"), do: EncryptionStart},
		"FailedThenTurnedOff":  {got: observed("ENABLING_FAILED", key), do: EncryptionStop},
		"EmptyBlockIsNone":     {want: &v1alpha1.DeliveryStreamEncryptionConfiguration{}, got: &types.DeliveryStreamEncryptionConfiguration{Status: "ENABLED", KeyType: types.KeyTypeAwsOwnedCmk}, do: EncryptionStop},
		"EmptyBlockWhenOff":    {want: &v1alpha1.DeliveryStreamEncryptionConfiguration{}, got: observed("DISABLED", ""), do: EncryptionNone},
		"AWSOwned":             {want: &v1alpha1.DeliveryStreamEncryptionConfiguration{KeyType: aws.String("AWS_OWNED_CMK")}, got: &types.DeliveryStreamEncryptionConfiguration{Status: "ENABLED", KeyType: types.KeyTypeAwsOwnedCmk}, do: EncryptionNone},
		"DisablingFailedStays": {got: observed("DISABLING_FAILED", key), do: EncryptionNone},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := Encryption(tc.want, tc.got); got != tc.do {
				t.Errorf("want %d, got %d", tc.do, got)
			}
		})
	}
}

func TestCreateInputEmptyEncryption(t *testing.T) {
	p := params()
	p.DeliveryStreamEncryptionConfiguration = &v1alpha1.DeliveryStreamEncryptionConfiguration{}
	if in := CreateInput(p, nil, nil); in.DeliveryStreamEncryptionConfigurationInput != nil {
		t.Errorf("an empty encryption block asked for encryption: %+v", in.DeliveryStreamEncryptionConfigurationInput)
	}
}

func TestConnectionDetails(t *testing.T) {
	const arn = "arn:aws:firehose:us-east-1:000000000000:deliverystream/s"
	cases := map[string]struct {
		reason string
		d      *types.DeliveryStreamDescription
		want   map[string][]byte
	}{
		"NameAndARN": {
			reason: "A stream publishes its name and ARN; neither its destination's URL (which may carry a credential) nor its access key (which AWS never answers).",
			d: &types.DeliveryStreamDescription{
				DeliveryStreamName: aws.String("s"), DeliveryStreamARN: aws.String(arn), DeliveryStreamStatus: types.DeliveryStreamStatusActive,
				Destinations: []types.DestinationDescription{{DestinationId: aws.String("destinationId-000000000001"), HttpEndpointDestinationDescription: &types.HttpEndpointDestinationDescription{
					EndpointConfiguration: &types.HttpEndpointDescription{Name: aws.String("collector"), Url: aws.String("https://user:password@collector.example.com/?token=t")},
				}}},
			},
			want: map[string][]byte{"deliveryStreamName": []byte("s"), "deliveryStreamARN": []byte(arn)},
		},
		"NoARN": {
			reason: "What AWS does not answer is not published, not even empty.",
			d:      &types.DeliveryStreamDescription{DeliveryStreamName: aws.String("s")},
			want:   map[string][]byte{"deliveryStreamName": []byte("s")},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := ConnectionDetails(tc.d)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nConnectionDetails(...): -want, +got:\n%s", tc.reason, diff)
			}
			if u := connection.Undeclared(ConnectionKeys, got); len(u) != 0 {
				t.Errorf("published keys that ConnectionKeys does not declare: %v", u)
			}
		})
	}
}

func TestConfigurationEncryption(t *testing.T) {
	cases := map[string]struct {
		reason string
		got    *types.DeliveryStreamEncryptionConfiguration
		want   *v1alpha1.DeliveryStreamEncryptionConfiguration
	}{
		"None":     {reason: "A stream without encryption shows none."},
		"Disabled": {reason: "Disabled encryption is no encryption.", got: &types.DeliveryStreamEncryptionConfiguration{Status: types.DeliveryStreamEncryptionStatusDisabled, KeyType: types.KeyTypeAwsOwnedCmk}},
		"Enabled": {
			reason: "Enabled encryption shows its key, as Encryption compares it.",
			got:    &types.DeliveryStreamEncryptionConfiguration{Status: types.DeliveryStreamEncryptionStatusEnabled, KeyType: types.KeyTypeCustomerManagedCmk, KeyARN: aws.String("arn:aws:kms:us-east-1:000000000000:key/k")},
			want:   &v1alpha1.DeliveryStreamEncryptionConfiguration{KeyType: aws.String("CUSTOMER_MANAGED_CMK"), KeyARN: aws.String("arn:aws:kms:us-east-1:000000000000:key/k")},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			d := &types.DeliveryStreamDescription{DeliveryStreamName: aws.String("s"), DeliveryStreamEncryptionConfiguration: tc.got}
			c := Configuration(d)
			if diff := cmp.Diff(tc.want, c.DeliveryStreamEncryptionConfiguration); diff != "" {
				t.Errorf("%s\nConfiguration(): -want, +got:\n%s", tc.reason, diff)
			}
			if tc.want != nil && Encryption(c.DeliveryStreamEncryptionConfiguration, tc.got) != EncryptionNone {
				t.Errorf("%s\nthe configuration shown, copied into the spec, would change the encryption", tc.reason)
			}
		})
	}
}
