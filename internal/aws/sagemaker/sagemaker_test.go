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

package sagemaker

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker/types"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/apis/mlplatform/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/aws/connection"
)

func spec() *v1alpha1.EndpointConfigParameters {
	return &v1alpha1.EndpointConfigParameters{
		EndpointConfigName: "cfg",
		ProductionVariants: []v1alpha1.ProductionVariant{{
			VariantName: aws.String("primary"), ModelName: aws.String("m"), InstanceType: aws.String("ml.m5.large"),
			InitialInstanceCount: aws.Int64(1), EnableManagerAccess: aws.Bool(true),
			CoreDumpConfig: &v1alpha1.CoreDumpConfig{DestinationStoreURI: aws.String("s3://dumps/")},
		}},
		DataCaptureConfig: &v1alpha1.DataCaptureConfig{DestinationStoreURI: aws.String("s3://capture/"), InitialSamplingPercentage: aws.Int64(10),
			CaptureOptions: []v1alpha1.CaptureOption{{CaptureMode: aws.String("Input")}}},
		AsyncInferenceConfig: &v1alpha1.AsyncInferenceConfig{OutputConfig: &v1alpha1.AsyncInferenceOutputConfig{StoreOutputPath: aws.String("s3://out/"), StoreFailurePath: aws.String("s3://failed/")}},
		Tags:                 []common.Tag{{Key: aws.String("team"), Value: aws.String("ml")}},
	}
}

func TestCreateInputTranslatesNeutralNames(t *testing.T) {
	in := CreateInput(spec(), map[string]string{"team": "ml"})
	v := in.ProductionVariants[0]
	got := map[string]string{
		"EnableSSMAccess":              aws.ToString(aws.String(map[bool]string{true: "true"}[aws.ToBool(v.EnableSSMAccess)])),
		"CoreDump.DestinationS3Uri":    aws.ToString(v.CoreDumpConfig.DestinationS3Uri),
		"DataCapture.DestinationS3Uri": aws.ToString(in.DataCaptureConfig.DestinationS3Uri),
		"S3OutputPath":                 aws.ToString(in.AsyncInferenceConfig.OutputConfig.S3OutputPath),
		"S3FailurePath":                aws.ToString(in.AsyncInferenceConfig.OutputConfig.S3FailurePath),
		"InstanceType":                 string(v.InstanceType),
		"Tag":                          aws.ToString(in.Tags[0].Key),
	}
	want := map[string]string{"EnableSSMAccess": "true", "CoreDump.DestinationS3Uri": "s3://dumps/", "DataCapture.DestinationS3Uri": "s3://capture/",
		"S3OutputPath": "s3://out/", "S3FailurePath": "s3://failed/", "InstanceType": "ml.m5.large", "Tag": "team"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("-want, +got:\n%s", diff)
	}
}

// described is what SageMaker returns for spec(): the same body plus its
// defaults.
func described() *sagemaker.DescribeEndpointConfigOutput {
	in := CreateInput(spec(), nil)
	in.ProductionVariants[0].InitialVariantWeight = aws.Float32(1)
	in.ProductionVariants[0].VolumeSizeInGB = aws.Int32(4)
	return &sagemaker.DescribeEndpointConfigOutput{EndpointConfigName: in.EndpointConfigName, ProductionVariants: in.ProductionVariants,
		DataCaptureConfig: in.DataCaptureConfig, AsyncInferenceConfig: in.AsyncInferenceConfig}
}

func TestBodyDiff(t *testing.T) {
	cases := map[string]struct {
		change func(*sagemaker.DescribeEndpointConfigOutput)
		want   []string
	}{
		"DefaultsAreNotDrift": {change: func(*sagemaker.DescribeEndpointConfigOutput) {}},
		"InstanceReplaced": {change: func(d *sagemaker.DescribeEndpointConfigOutput) {
			d.ProductionVariants[0].InstanceType = types.ProductionVariantInstanceTypeMlC5Large
		}, want: []string{"spec.forProvider.productionVariants[0].instanceType"}},
		"VariantAdded": {change: func(d *sagemaker.DescribeEndpointConfigOutput) {
			d.ProductionVariants = append(d.ProductionVariants, types.ProductionVariant{VariantName: aws.String("b")})
		}, want: []string{"spec.forProvider.productionVariants"}},
		"NetworkIsolationDefault": {change: func(d *sagemaker.DescribeEndpointConfigOutput) { d.EnableNetworkIsolation = aws.Bool(false) }},
		"RoleReplaced": {change: func(d *sagemaker.DescribeEndpointConfigOutput) {
			d.ProductionVariants[0].CoreDumpConfig.DestinationS3Uri = aws.String("s3://elsewhere/")
		}, want: []string{"spec.forProvider.productionVariants[0].coreDumpConfig.destinationStoreURI"}},
		"CaptureRemoved": {change: func(d *sagemaker.DescribeEndpointConfigOutput) { d.DataCaptureConfig = nil },
			want: []string{"spec.forProvider.dataCaptureConfig.captureOptions", "spec.forProvider.dataCaptureConfig.destinationStoreURI", "spec.forProvider.dataCaptureConfig.initialSamplingPercentage"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			d := described()
			tc.change(d)
			if diff := cmp.Diff(tc.want, BodyDiff(spec(), d), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("-want, +got:\n%s", diff)
			}
		})
	}
}

func TestLocalStorageConflict(t *testing.T) {
	cases := map[string]struct {
		instance string
		kms      bool
		refused  bool
	}{
		"NoKey":         {instance: "ml.m5d.large", kms: false},
		"PlainInstance": {instance: "ml.m5.large", kms: true},
		"DVariant":      {instance: "ml.m5d.xlarge", kms: true, refused: true},
		"GPUWithNVMe":   {instance: "ml.g4dn.xlarge", kms: true, refused: true},
		"LocalWithoutD": {instance: "ml.g5.2xlarge", kms: true, refused: true},
		"InferenceChip": {instance: "ml.inf1.xlarge", kms: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			p := spec()
			p.ProductionVariants[0].InstanceType = aws.String(tc.instance)
			if tc.kms {
				p.KMSKeyID = aws.String("alias/k")
			}
			err := LocalStorageConflict(p)
			if (err != nil) != tc.refused {
				t.Fatalf("refused: want %v, got %v", tc.refused, err)
			}
			if err != nil && !strings.Contains(err.Error(), "spec.forProvider.productionVariants[0].instanceType "+tc.instance) {
				t.Errorf("message does not name the field: %v", err)
			}
		})
	}
}

func TestConnectionDetails(t *testing.T) {
	const arn = "arn:aws:sagemaker:us-east-1:000000000000:endpoint-config/churn-model"
	cases := map[string]struct {
		reason    string
		name, arn *string
		want      map[string][]byte
	}{
		"NameAndARN": {
			reason: "An endpoint configuration publishes its name and ARN.",
			name:   aws.String("churn-model"), arn: aws.String(arn),
			want: map[string][]byte{"endpointConfigName": []byte("churn-model"), "endpointConfigARN": []byte(arn)},
		},
		"NoARN": {
			reason: "What SageMaker does not answer is not published, not even empty.",
			name:   aws.String("churn-model"),
			want:   map[string][]byte{"endpointConfigName": []byte("churn-model")},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := ConnectionDetails(tc.name, tc.arn)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nConnectionDetails(...): -want, +got:\n%s", tc.reason, diff)
			}
			if u := connection.Undeclared(ConnectionKeys, got); len(u) != 0 {
				t.Errorf("published keys that ConnectionKeys does not declare: %v", u)
			}
		})
	}
}
