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

package endpointconfig

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/apis/mlplatform/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/test/conformance"
)

func TestConformance(t *testing.T) {
	const model = "conformance-model"
	conformance.Run(t, conformance.Case[*v1alpha1.EndpointConfig]{
		Definition: definition,
		Object: func(name string) *v1alpha1.EndpointConfig {
			mg := &v1alpha1.EndpointConfig{ObjectMeta: metav1.ObjectMeta{Namespace: "conformance", Name: name}}
			mg.Spec.ForProvider = v1alpha1.EndpointConfigParameters{
				EndpointConfigName: name, Region: aws.String(conformance.Region),
				ProductionVariants: []v1alpha1.ProductionVariant{{
					VariantName: aws.String("primary"), ModelName: aws.String(model), InstanceType: aws.String("ml.m5.large"), InitialInstanceCount: aws.Int64(1),
				}},
				Tags: []common.Tag{{Key: aws.String("team"), Value: aws.String("conformance")}},
			}
			return mg
		},
		// The model the configuration serves.
		Prepare: func(ctx context.Context, cfg aws.Config) error {
			_, err := sagemaker.NewFromConfig(cfg).CreateModel(ctx, &sagemaker.CreateModelInput{ModelName: aws.String(model)})
			return err
		},
	})
}
