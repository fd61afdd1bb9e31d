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
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker/types"

	"github.com/cloudkinds/provider-aws-services/apis/mlplatform/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/clients/tags"
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

func int32p(v *int64) *int32 {
	if v == nil {
		return nil
	}
	return aws.Int32(int32(*v)) //nolint:gosec // CRD bounds keep the values small
}

// CreateInput builds the CreateEndpointConfig request of a spec: every field
// of the contract.
func CreateInput(p *v1alpha1.EndpointConfigParameters) *sagemaker.CreateEndpointConfigInput {
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
			in.AsyncInferenceConfig.ClientConfig = &types.AsyncInferenceClientConfig{MaxConcurrentInvocationsPerInstance: int32p(c.MaxConcurrentInvocationsPerInstance)}
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
			InitialSamplingPercentage: int32p(d.InitialSamplingPercentage), KmsKeyId: d.KMSKeyID,
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
	if len(p.Tags) > 0 {
		in.Tags = Tags(tags.FromList(p.Tags))
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
		VolumeSizeInGB:       int32p(v.VolumeSizeInGB),
		InitialInstanceCount: int32p(v.InitialInstanceCount),
		ContainerStartupHealthCheckTimeoutInSeconds: int32p(v.ContainerStartupHealthCheckTimeoutInSeconds),
		ModelDataDownloadTimeoutInSeconds:           int32p(v.ModelDataDownloadTimeoutInSeconds),
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
			MaxInstanceCount: int32p(m.MaxInstanceCount), MinInstanceCount: int32p(m.MinInstanceCount), Status: types.ManagedInstanceScalingStatus(aws.ToString(m.Status))}
	}
	if r := v.RoutingConfig; r != nil {
		out.RoutingConfig = &types.ProductionVariantRoutingConfig{RoutingStrategy: types.RoutingStrategy(aws.ToString(r.RoutingStrategy))}
	}
	if s := v.ServerlessConfig; s != nil {
		out.ServerlessConfig = &types.ProductionVariantServerlessConfig{MaxConcurrency: int32p(s.MaxConcurrency), MemorySizeInMB: int32p(s.MemorySizeInMB), ProvisionedConcurrency: int32p(s.ProvisionedConcurrency)}
	}
	return out
}

// BodyDiff lists the members of the spec's body that differ from the
// endpoint configuration SageMaker holds. Members the spec leaves out are
// SageMaker's defaults (an initial variant weight of 1, for example) and never
// differ. A difference means the configuration was replaced outside
// Kubernetes: SageMaker cannot update it in place.
func BodyDiff(p *v1alpha1.EndpointConfigParameters, d *sagemaker.DescribeEndpointConfigOutput) []string {
	want := CreateInput(p)
	want.EndpointConfigName, want.Tags = nil, nil
	got := &sagemaker.CreateEndpointConfigInput{
		ProductionVariants: d.ProductionVariants, AsyncInferenceConfig: d.AsyncInferenceConfig, DataCaptureConfig: d.DataCaptureConfig,
		EnableNetworkIsolation: d.EnableNetworkIsolation, ExecutionRoleArn: d.ExecutionRoleArn, KmsKeyId: d.KmsKeyId, VpcConfig: d.VpcConfig,
	}
	var diffs []string
	subset("", tree(want), tree(got), &diffs)
	sort.Strings(diffs)
	return diffs
}

// tree turns a value into its JSON tree, without empty members.
func tree(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return prune(out)
}

func prune(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			if p := prune(x); p == nil {
				delete(t, k)
			} else {
				t[k] = p
			}
		}
		if len(t) == 0 {
			return nil
		}
		return t
	case []any:
		if len(t) == 0 {
			return nil
		}
		for i := range t {
			t[i] = prune(t[i])
		}
		return t
	case string:
		if t == "" {
			return nil
		}
	}
	return v
}

// subset records under path every member of want that got lacks or holds
// with another value.
func subset(path string, want, got any, diffs *[]string) {
	switch w := want.(type) {
	case nil:
		return
	case map[string]any:
		g, _ := got.(map[string]any)
		for k, v := range w {
			subset(join(path, k), v, g[k], diffs)
		}
	case []any:
		g, _ := got.([]any)
		if len(g) != len(w) {
			*diffs = append(*diffs, path)
			return
		}
		for i := range w {
			subset(fmt.Sprintf("%s[%d]", path, i), w[i], g[i], diffs)
		}
	default:
		if fmt.Sprint(want) != fmt.Sprint(got) {
			*diffs = append(*diffs, path)
		}
	}
}

func join(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

// Tags turns tags into SageMaker's shape, in key order.
func Tags(m map[string]string) []types.Tag {
	out := make([]types.Tag, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, types.Tag{Key: aws.String(k), Value: aws.String(m[k])})
	}
	return out
}

// TagMap turns SageMaker's tags into a map.
func TagMap(ts []types.Tag) map[string]string {
	out := make(map[string]string, len(ts))
	for _, t := range ts {
		out[aws.ToString(t.Key)] = aws.ToString(t.Value)
	}
	return out
}
