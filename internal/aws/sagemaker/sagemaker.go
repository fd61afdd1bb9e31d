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

// Package sagemaker is the AWS side of EndpointConfig: the narrow SageMaker
// API the controller uses and pure functions between the API types and the
// SDK types. The contract's neutral names are translated here:
// destinationStoreURI is DestinationS3Uri, storeFailurePath and
// storeOutputPath are S3FailurePath and S3OutputPath, enableManagerAccess is
// EnableSSMAccess.
package sagemaker

import (
	"context"
	"fmt"
	"regexp"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker/types"

	"github.com/cloudkinds/provider-aws-services/apis/mlplatform/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/aws/connection"
	"github.com/cloudkinds/provider-aws-services/internal/aws/convert"
	"github.com/cloudkinds/provider-aws-services/internal/aws/diff"
	"github.com/cloudkinds/provider-aws-services/internal/aws/tags"
)

// API is the part of the SageMaker client the controller uses.
type API interface {
	CreateEndpointConfig(ctx context.Context, in *sagemaker.CreateEndpointConfigInput, o ...func(*sagemaker.Options)) (*sagemaker.CreateEndpointConfigOutput, error)
	DescribeEndpointConfig(ctx context.Context, in *sagemaker.DescribeEndpointConfigInput, o ...func(*sagemaker.Options)) (*sagemaker.DescribeEndpointConfigOutput, error)
	DeleteEndpointConfig(ctx context.Context, in *sagemaker.DeleteEndpointConfigInput, o ...func(*sagemaker.Options)) (*sagemaker.DeleteEndpointConfigOutput, error)
	AddTags(ctx context.Context, in *sagemaker.AddTagsInput, o ...func(*sagemaker.Options)) (*sagemaker.AddTagsOutput, error)
	DeleteTags(ctx context.Context, in *sagemaker.DeleteTagsInput, o ...func(*sagemaker.Options)) (*sagemaker.DeleteTagsOutput, error)
	ListTags(ctx context.Context, in *sagemaker.ListTagsInput, o ...func(*sagemaker.Options)) (*sagemaker.ListTagsOutput, error)
}

// The keys of an EndpointConfig's connection Secret: what an endpoint made
// from the configuration needs (CreateEndpoint and UpdateEndpoint take its
// name), from DescribeEndpointConfig, or from the create, after which no
// Observe reads it (the kind is Ready at create). The configuration holds no
// secret of the user's.
const (
	ConnectionName = "endpointConfigName"
	ConnectionARN  = "endpointConfigARN"
)

// ConnectionKeys declares the keys, for the API reference.
var ConnectionKeys = connection.Keys{
	{Name: ConnectionName, Holds: "The endpoint configuration's name, which CreateEndpoint and UpdateEndpoint take."},
	{Name: ConnectionARN, Holds: "The endpoint configuration's ARN."},
}

// ConnectionDetails are the endpoint configuration's name and ARN.
func ConnectionDetails(name, arn *string) map[string][]byte {
	return connection.Details(map[string]string{ConnectionName: aws.ToString(name), ConnectionARN: aws.ToString(arn)})
}

// NotFound is how SageMaker words a missing endpoint configuration: a
// ValidationException, for awserrors.IsNotFound.
const NotFound = "ValidationException: Could not find endpoint configuration"

// localStorage matches the instance types whose hosts carry local NVMe
// storage, which SageMaker refuses to encrypt with KmsKeyId: the "d" variants
// (ml.m5d, ml.c5d, ml.r5d, ml.g4dn, ml.p3dn, ml.p4d, ...) and the families
// that have it without the letter.
var localStorage = regexp.MustCompile(`^ml\.([a-z]+[0-9]+[a-z]*d[a-z]*|g5|g6|g6e|p5|p5e|p5en|trn1|trn1n)\.`)

// LocalStorageConflict explains why a spec cannot be created, when it names
// a KMS key together with an instance type that has local storage; SageMaker
// would refuse it.
func LocalStorageConflict(p *v1alpha1.EndpointConfigParameters) error {
	if p.KMSKeyID == nil {
		return nil
	}
	for i, v := range p.ProductionVariants {
		if t := aws.ToString(v.InstanceType); localStorage.MatchString(t) {
			return fmt.Errorf("spec.forProvider.kmsKeyID cannot be used with spec.forProvider.productionVariants[%d].instanceType %s: its hosts have local storage, which SageMaker encrypts with its own keys; remove kmsKeyID or choose an instance type without local storage", i, t)
		}
	}
	return nil
}

// CreateInput builds the CreateEndpointConfig request of a spec: every field
// of the contract, and tagSet, every tag it is created with
// (tags.Want.AtCreate: the spec's, the provider config's defaults and the
// owner tags); the spec's own tags are taken from there, not from p.
func CreateInput(p *v1alpha1.EndpointConfigParameters, tagSet map[string]string) *sagemaker.CreateEndpointConfigInput {
	in := &sagemaker.CreateEndpointConfigInput{
		EndpointConfigName:     aws.String(p.EndpointConfigName),
		EnableNetworkIsolation: p.EnableNetworkIsolation,
		ExecutionRoleArn:       p.ExecutionRoleARN,
		KmsKeyId:               p.KMSKeyID,
	}
	for _, v := range p.ProductionVariants {
		in.ProductionVariants = append(in.ProductionVariants, variant(v))
	}
	if a := p.AsyncInferenceConfig; a != nil {
		in.AsyncInferenceConfig = &types.AsyncInferenceConfig{}
		if c := a.ClientConfig; c != nil {
			in.AsyncInferenceConfig.ClientConfig = &types.AsyncInferenceClientConfig{MaxConcurrentInvocationsPerInstance: convert.Int32(c.MaxConcurrentInvocationsPerInstance)}
		}
		if o := a.OutputConfig; o != nil {
			out := &types.AsyncInferenceOutputConfig{KmsKeyId: o.KMSKeyID, S3FailurePath: o.StoreFailurePath, S3OutputPath: o.StoreOutputPath}
			if n := o.NotificationConfig; n != nil {
				out.NotificationConfig = &types.AsyncInferenceNotificationConfig{ErrorTopic: n.ErrorTopic, SuccessTopic: n.SuccessTopic}
				for _, t := range n.IncludeInferenceResponseIn {
					out.NotificationConfig.IncludeInferenceResponseIn = append(out.NotificationConfig.IncludeInferenceResponseIn, types.AsyncNotificationTopicTypes(t))
				}
			}
			in.AsyncInferenceConfig.OutputConfig = out
		}
	}
	if d := p.DataCaptureConfig; d != nil {
		in.DataCaptureConfig = &types.DataCaptureConfig{
			DestinationS3Uri: d.DestinationStoreURI, EnableCapture: d.EnableCapture,
			InitialSamplingPercentage: convert.Int32(d.InitialSamplingPercentage), KmsKeyId: d.KMSKeyID,
		}
		if h := d.CaptureContentTypeHeader; h != nil {
			in.DataCaptureConfig.CaptureContentTypeHeader = &types.CaptureContentTypeHeader{CsvContentTypes: h.CSVContentTypes, JsonContentTypes: h.JSONContentTypes}
		}
		for _, o := range d.CaptureOptions {
			in.DataCaptureConfig.CaptureOptions = append(in.DataCaptureConfig.CaptureOptions, types.CaptureOption{CaptureMode: types.CaptureMode(aws.ToString(o.CaptureMode))})
		}
	}
	if v := p.VPCConfig; v != nil {
		in.VpcConfig = &types.VpcConfig{SecurityGroupIds: v.SecurityGroupIDs, Subnets: v.Subnets}
	}
	if len(tagSet) > 0 {
		in.Tags = Tags(tagSet)
	}
	return in
}

func variant(v v1alpha1.ProductionVariant) types.ProductionVariant {
	out := types.ProductionVariant{
		VariantName:          v.VariantName,
		AcceleratorType:      types.ProductionVariantAcceleratorType(aws.ToString(v.AcceleratorType)),
		EnableSSMAccess:      v.EnableManagerAccess,
		InstanceType:         types.ProductionVariantInstanceType(aws.ToString(v.InstanceType)),
		ModelName:            v.ModelName,
		VolumeSizeInGB:       convert.Int32(v.VolumeSizeInGB),
		InitialInstanceCount: convert.Int32(v.InitialInstanceCount),
		ContainerStartupHealthCheckTimeoutInSeconds: convert.Int32(v.ContainerStartupHealthCheckTimeoutInSeconds),
		ModelDataDownloadTimeoutInSeconds:           convert.Int32(v.ModelDataDownloadTimeoutInSeconds),
	}
	if v.InitialVariantWeight != nil {
		out.InitialVariantWeight = aws.Float32(float32(*v.InitialVariantWeight))
	}
	if c := v.CapacityReservationConfig; c != nil {
		out.CapacityReservationConfig = &types.ProductionVariantCapacityReservationConfig{
			CapacityReservationPreference: types.CapacityReservationPreference(aws.ToString(c.CapacityReservationPreference)), MlReservationArn: c.MLReservationARN}
	}
	if c := v.CoreDumpConfig; c != nil {
		out.CoreDumpConfig = &types.ProductionVariantCoreDumpConfig{DestinationS3Uri: c.DestinationStoreURI, KmsKeyId: c.KMSKeyID}
	}
	if m := v.ManagedInstanceScaling; m != nil {
		out.ManagedInstanceScaling = &types.ProductionVariantManagedInstanceScaling{
			MaxInstanceCount: convert.Int32(m.MaxInstanceCount), MinInstanceCount: convert.Int32(m.MinInstanceCount), Status: types.ManagedInstanceScalingStatus(aws.ToString(m.Status))}
	}
	if r := v.RoutingConfig; r != nil {
		out.RoutingConfig = &types.ProductionVariantRoutingConfig{RoutingStrategy: types.RoutingStrategy(aws.ToString(r.RoutingStrategy))}
	}
	if s := v.ServerlessConfig; s != nil {
		out.ServerlessConfig = &types.ProductionVariantServerlessConfig{MaxConcurrency: convert.Int32(s.MaxConcurrency), MemorySizeInMB: convert.Int32(s.MemorySizeInMB), ProvisionedConcurrency: convert.Int32(s.ProvisionedConcurrency)}
	}
	return out
}

// BodyDiff lists the spec paths of the body's members that differ from the
// endpoint configuration SageMaker holds. Members the spec leaves out are
// SageMaker's defaults (an initial variant weight of 1, for example) and never
// differ. A difference means the configuration was replaced outside
// Kubernetes: SageMaker cannot update it in place.
func BodyDiff(p *v1alpha1.EndpointConfigParameters, d *sagemaker.DescribeEndpointConfigOutput) []string {
	// The name is the configuration's identity, checked by the external
	// name; the region is where it is; the tags are compared on their own.
	want, got := p.DeepCopy(), ObservedParameters(d)
	want.Region, want.Tags = nil, nil
	got.EndpointConfigName = want.EndpointConfigName
	return diff.Paths("spec.forProvider", want, got)
}

// ObservedParameters is the spec that describes the endpoint configuration
// as SageMaker holds it, without tags (the description has none).
func ObservedParameters(d *sagemaker.DescribeEndpointConfigOutput) v1alpha1.EndpointConfigParameters {
	o := v1alpha1.EndpointConfigParameters{
		EndpointConfigName:     aws.ToString(d.EndpointConfigName),
		EnableNetworkIsolation: d.EnableNetworkIsolation,
		ExecutionRoleARN:       d.ExecutionRoleArn,
		KMSKeyID:               d.KmsKeyId,
	}
	for _, v := range d.ProductionVariants {
		o.ProductionVariants = append(o.ProductionVariants, variantFrom(v))
	}
	if a := d.AsyncInferenceConfig; a != nil {
		o.AsyncInferenceConfig = &v1alpha1.AsyncInferenceConfig{}
		if c := a.ClientConfig; c != nil {
			o.AsyncInferenceConfig.ClientConfig = &v1alpha1.ClientConfig{MaxConcurrentInvocationsPerInstance: convert.Int64(c.MaxConcurrentInvocationsPerInstance)}
		}
		if out := a.OutputConfig; out != nil {
			oc := &v1alpha1.AsyncInferenceOutputConfig{KMSKeyID: out.KmsKeyId, StoreFailurePath: out.S3FailurePath, StoreOutputPath: out.S3OutputPath}
			if n := out.NotificationConfig; n != nil {
				oc.NotificationConfig = &v1alpha1.NotificationConfig{ErrorTopic: n.ErrorTopic, SuccessTopic: n.SuccessTopic}
				for _, t := range n.IncludeInferenceResponseIn {
					oc.NotificationConfig.IncludeInferenceResponseIn = append(oc.NotificationConfig.IncludeInferenceResponseIn, string(t))
				}
			}
			o.AsyncInferenceConfig.OutputConfig = oc
		}
	}
	if c := d.DataCaptureConfig; c != nil {
		o.DataCaptureConfig = &v1alpha1.DataCaptureConfig{
			DestinationStoreURI: c.DestinationS3Uri, EnableCapture: c.EnableCapture,
			InitialSamplingPercentage: convert.Int64(c.InitialSamplingPercentage), KMSKeyID: c.KmsKeyId,
		}
		if h := c.CaptureContentTypeHeader; h != nil {
			o.DataCaptureConfig.CaptureContentTypeHeader = &v1alpha1.CaptureContentTypeHeader{CSVContentTypes: h.CsvContentTypes, JSONContentTypes: h.JsonContentTypes}
		}
		for _, m := range c.CaptureOptions {
			o.DataCaptureConfig.CaptureOptions = append(o.DataCaptureConfig.CaptureOptions, v1alpha1.CaptureOption{CaptureMode: convert.String(m.CaptureMode)})
		}
	}
	if v := d.VpcConfig; v != nil {
		o.VPCConfig = &v1alpha1.VPCConfig{SecurityGroupIDs: v.SecurityGroupIds, Subnets: v.Subnets}
	}
	return o
}

func variantFrom(v types.ProductionVariant) v1alpha1.ProductionVariant {
	out := v1alpha1.ProductionVariant{
		VariantName:          v.VariantName,
		AcceleratorType:      convert.String(v.AcceleratorType),
		EnableManagerAccess:  v.EnableSSMAccess,
		InstanceType:         convert.String(v.InstanceType),
		ModelName:            v.ModelName,
		VolumeSizeInGB:       convert.Int64(v.VolumeSizeInGB),
		InitialInstanceCount: convert.Int64(v.InitialInstanceCount),
		ContainerStartupHealthCheckTimeoutInSeconds: convert.Int64(v.ContainerStartupHealthCheckTimeoutInSeconds),
		ModelDataDownloadTimeoutInSeconds:           convert.Int64(v.ModelDataDownloadTimeoutInSeconds),
	}
	if v.InitialVariantWeight != nil {
		out.InitialVariantWeight = aws.Float64(float64(*v.InitialVariantWeight))
	}
	if c := v.CapacityReservationConfig; c != nil {
		out.CapacityReservationConfig = &v1alpha1.CapacityReservationConfig{CapacityReservationPreference: convert.String(c.CapacityReservationPreference), MLReservationARN: c.MlReservationArn}
	}
	if c := v.CoreDumpConfig; c != nil {
		out.CoreDumpConfig = &v1alpha1.CoreDumpConfig{DestinationStoreURI: c.DestinationS3Uri, KMSKeyID: c.KmsKeyId}
	}
	if m := v.ManagedInstanceScaling; m != nil {
		out.ManagedInstanceScaling = &v1alpha1.ManagedInstanceScaling{MaxInstanceCount: convert.Int64(m.MaxInstanceCount), MinInstanceCount: convert.Int64(m.MinInstanceCount), Status: convert.String(m.Status)}
	}
	if r := v.RoutingConfig; r != nil {
		out.RoutingConfig = &v1alpha1.ProductionVariantRoutingConfig{RoutingStrategy: convert.String(r.RoutingStrategy)}
	}
	if s := v.ServerlessConfig; s != nil {
		out.ServerlessConfig = &v1alpha1.ServerlessConfig{MaxConcurrency: convert.Int64(s.MaxConcurrency), MemorySizeInMB: convert.Int64(s.MemorySizeInMB), ProvisionedConcurrency: convert.Int64(s.ProvisionedConcurrency)}
	}
	return out
}

// TagInput sets tags on an endpoint configuration.
func TagInput(arn string, set map[string]string) *sagemaker.AddTagsInput {
	return &sagemaker.AddTagsInput{ResourceArn: aws.String(arn), Tags: Tags(set)}
}

// UntagInput removes tags from an endpoint configuration.
func UntagInput(arn string, keys []string) *sagemaker.DeleteTagsInput {
	return &sagemaker.DeleteTagsInput{ResourceArn: aws.String(arn), TagKeys: keys}
}

// Tags turns tags into SageMaker's shape, in key order.
func Tags(m map[string]string) []types.Tag {
	return tags.Sorted(m, func(k, v string) types.Tag { return types.Tag{Key: aws.String(k), Value: aws.String(v)} })
}

// TagMap turns SageMaker's tags into a map.
func TagMap(ts []types.Tag) map[string]string {
	return tags.Map(ts, func(t types.Tag) (*string, *string) { return t.Key, t.Value })
}

// TagService is how SageMaker lists, removes and sets the tags of the
// endpoint configuration arn.
func TagService(api API, arn string) tags.Service {
	return tags.Service{
		Of: "endpoint configuration",
		List: func(ctx context.Context) (map[string]string, error) {
			out, err := api.ListTags(ctx, &sagemaker.ListTagsInput{ResourceArn: aws.String(arn)})
			if err != nil {
				return nil, err
			}
			return TagMap(out.Tags), nil
		},
		Remove: func(ctx context.Context, keys []string) error {
			return tags.Err(api.DeleteTags(ctx, UntagInput(arn, keys)))
		},
		Set: func(ctx context.Context, set map[string]string) error {
			return tags.Err(api.AddTags(ctx, TagInput(arn, set)))
		},
	}
}
