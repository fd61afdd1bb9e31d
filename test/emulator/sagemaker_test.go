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

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker/types"
	"github.com/google/go-cmp/cmp"
)

func TestSageMakerEndpointConfig(t *testing.T) {
	_, cfg, _ := start(t, "AKIDEMO")
	c := sagemaker.NewFromConfig(cfg)
	variant := types.ProductionVariant{VariantName: aws.String("primary"), ModelName: aws.String("churn"), InstanceType: types.ProductionVariantInstanceTypeMlM5Large, InitialInstanceCount: aws.Int32(1)}

	_, err := c.CreateEndpointConfig(ctx, &sagemaker.CreateEndpointConfigInput{EndpointConfigName: aws.String("cfg"), ProductionVariants: []types.ProductionVariant{variant}})
	wantCode(t, err, "ValidationException", `Could not find model "arn:aws:sagemaker:us-east-1:000000000000:model/churn"`)

	must(c.CreateModel(ctx, &sagemaker.CreateModelInput{ModelName: aws.String("churn")}))(t)
	local := variant
	local.InstanceType = types.ProductionVariantInstanceTypeMlM5dLarge
	_, err = c.CreateEndpointConfig(ctx, &sagemaker.CreateEndpointConfigInput{EndpointConfigName: aws.String("cfg"), KmsKeyId: aws.String("alias/k"), ProductionVariants: []types.ProductionVariant{local}})
	wantCode(t, err, "ValidationException", "ml.m5d.large, which has local storage")

	out := must(c.CreateEndpointConfig(ctx, &sagemaker.CreateEndpointConfigInput{
		EndpointConfigName: aws.String("Cfg-1"), KmsKeyId: aws.String("alias/k"), ProductionVariants: []types.ProductionVariant{variant},
		Tags: []types.Tag{{Key: aws.String("team"), Value: aws.String("ml")}},
	}))(t)
	arn := aws.ToString(out.EndpointConfigArn)
	if arn != "arn:aws:sagemaker:us-east-1:000000000000:endpoint-config/cfg-1" {
		t.Errorf("ARN: %s", arn)
	}
	_, err = c.CreateEndpointConfig(ctx, &sagemaker.CreateEndpointConfigInput{EndpointConfigName: aws.String("Cfg-1"), ProductionVariants: []types.ProductionVariant{variant}})
	wantCode(t, err, "ValidationException", "Cannot create already existing endpoint configuration")

	d := must(c.DescribeEndpointConfig(ctx, &sagemaker.DescribeEndpointConfigInput{EndpointConfigName: aws.String("Cfg-1")}))(t)
	if aws.ToFloat32(d.ProductionVariants[0].InitialVariantWeight) != 1 || aws.ToString(d.KmsKeyId) != "alias/k" || d.CreationTime == nil {
		t.Errorf("description: weight %v, key %s", aws.ToFloat32(d.ProductionVariants[0].InitialVariantWeight), aws.ToString(d.KmsKeyId))
	}

	must(c.AddTags(ctx, &sagemaker.AddTagsInput{ResourceArn: aws.String(arn), Tags: []types.Tag{{Key: aws.String("env"), Value: aws.String("dev")}}}))(t)
	must(c.DeleteTags(ctx, &sagemaker.DeleteTagsInput{ResourceArn: aws.String(arn), TagKeys: []string{"team"}}))(t)
	tags := must(c.ListTags(ctx, &sagemaker.ListTagsInput{ResourceArn: aws.String(arn)}))(t).Tags
	if diff := cmp.Diff([]string{"env=dev"}, tagStrings(tags)); diff != "" {
		t.Errorf("tags: %s", diff)
	}
	list := must(c.ListEndpointConfigs(ctx, &sagemaker.ListEndpointConfigsInput{}))(t).EndpointConfigs
	if len(list) != 1 {
		t.Errorf("list: %d configs", len(list))
	}

	must(c.DeleteEndpointConfig(ctx, &sagemaker.DeleteEndpointConfigInput{EndpointConfigName: aws.String("Cfg-1")}))(t)
	must(c.DeleteModel(ctx, &sagemaker.DeleteModelInput{ModelName: aws.String("churn")}))(t)
	_, err = c.DeleteModel(ctx, &sagemaker.DeleteModelInput{ModelName: aws.String("churn")})
	wantCode(t, err, "ValidationException", "Could not find model")
	_, err = c.DescribeEndpointConfig(ctx, &sagemaker.DescribeEndpointConfigInput{EndpointConfigName: aws.String("Cfg-1")})
	wantCode(t, err, "ValidationException", `Could not find endpoint configuration "arn:aws:sagemaker:us-east-1:000000000000:endpoint-config/cfg-1"`)
}

func tagStrings(tags []types.Tag) []string {
	out := []string{}
	for _, t := range tags {
		out = append(out, aws.ToString(t.Key)+"="+aws.ToString(t.Value))
	}
	return out
}
