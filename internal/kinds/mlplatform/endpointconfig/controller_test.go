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
	"strings"
	"testing"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	"github.com/cloudkinds/provider-aws-services/internal/tenancy/ownership"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker/types"
	"github.com/aws/smithy-go"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/apis/mlplatform/v1alpha1"
	sm "github.com/cloudkinds/provider-aws-services/internal/aws/sagemaker"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/awsconfig"
)

type fakeSageMaker struct {
	sm.API
	describe *sagemaker.DescribeEndpointConfigOutput
	err      error
	tags     []types.Tag
	calls    []string
	reads    []string
}

func (f *fakeSageMaker) DescribeEndpointConfig(context.Context, *sagemaker.DescribeEndpointConfigInput, ...func(*sagemaker.Options)) (*sagemaker.DescribeEndpointConfigOutput, error) {
	f.reads = append(f.reads, "DescribeEndpointConfig")
	return f.describe, f.err
}

func (f *fakeSageMaker) ListTags(context.Context, *sagemaker.ListTagsInput, ...func(*sagemaker.Options)) (*sagemaker.ListTagsOutput, error) {
	f.reads = append(f.reads, "ListTags")
	return &sagemaker.ListTagsOutput{Tags: f.tags}, nil
}

func (f *fakeSageMaker) CreateEndpointConfig(context.Context, *sagemaker.CreateEndpointConfigInput, ...func(*sagemaker.Options)) (*sagemaker.CreateEndpointConfigOutput, error) {
	f.calls = append(f.calls, "CreateEndpointConfig")
	return &sagemaker.CreateEndpointConfigOutput{EndpointConfigArn: aws.String("arn:aws:sagemaker:us-east-1:000000000000:endpoint-config/cfg")}, nil
}

func (f *fakeSageMaker) AddTags(context.Context, *sagemaker.AddTagsInput, ...func(*sagemaker.Options)) (*sagemaker.AddTagsOutput, error) {
	f.calls = append(f.calls, "AddTags")
	return &sagemaker.AddTagsOutput{}, nil
}

func configMR() *v1alpha1.EndpointConfig {
	mg := &v1alpha1.EndpointConfig{}
	mg.SetName("cfg")
	mg.SetNamespace("ml")
	meta.SetExternalName(mg, "cfg")
	mg.Spec.ForProvider = v1alpha1.EndpointConfigParameters{EndpointConfigName: "cfg",
		ProductionVariants: []v1alpha1.ProductionVariant{{VariantName: aws.String("primary"), ModelName: aws.String("m"), InstanceType: aws.String("ml.m5.large")}},
		Tags:               []common.Tag{{Key: aws.String("team"), Value: aws.String("ml")}}}
	return mg
}

var session = &awsconfig.Session{AccountID: "000000000000", Partition: "aws", Region: "us-east-1"}

func TestObserveNotFoundAsSageMakerWordsIt(t *testing.T) {
	f := &fakeSageMaker{err: &smithy.GenericAPIError{Code: "ValidationException", Message: `Could not find endpoint configuration "arn:aws:sagemaker:us-east-1:000000000000:endpoint-config/cfg".`}}
	obs, err := (&external{ownerTags: ownerTags, client: f, session: session}).Observe(context.Background(), configMR())
	if err != nil || obs.ResourceExists {
		t.Errorf("want not found, got exists=%v err=%v", obs.ResourceExists, err)
	}
	f.err = &smithy.GenericAPIError{Code: "ValidationException", Message: "Could not find model"}
	if _, err := (&external{ownerTags: ownerTags, client: f, session: session}).Observe(context.Background(), configMR()); err == nil {
		t.Error("another ValidationException was taken for not-found")
	}
}

func TestCreateRefusesLocalStorageWithoutCallingAWS(t *testing.T) {
	mg := configMR()
	mg.Spec.ForProvider.KMSKeyID = aws.String("alias/k")
	mg.Spec.ForProvider.ProductionVariants[0].InstanceType = aws.String("ml.c5d.xlarge")
	f := &fakeSageMaker{}
	_, err := withKube(&external{ownerTags: ownerTags, client: f, session: session}, mg).Create(context.Background(), mg)
	if err == nil || !strings.Contains(err.Error(), "spec.forProvider.kmsKeyID") || len(f.calls) != 0 {
		t.Errorf("err %v, calls %v", err, f.calls)
	}
}

// TestCreateAndObservePublish: the create publishes the configuration's name
// and ARN, since no Observe follows it (the kind is Ready at create), and an
// Observe publishes the same.
func TestCreateAndObservePublish(t *testing.T) {
	want := map[string][]byte{"endpointConfigName": []byte("cfg"), "endpointConfigARN": []byte("arn:aws:sagemaker:us-east-1:000000000000:endpoint-config/cfg")}
	mg := configMR()
	f := &fakeSageMaker{}
	cre, err := withKube(&external{ownerTags: ownerTags, client: f, session: session}, mg).Create(context.Background(), mg)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, map[string][]byte(cre.ConnectionDetails)); diff != "" {
		t.Errorf("the create's connection details: -want, +got:\n%s", diff)
	}
	f.describe = &sagemaker.DescribeEndpointConfigOutput{EndpointConfigName: aws.String("cfg"), EndpointConfigArn: aws.String("arn:aws:sagemaker:us-east-1:000000000000:endpoint-config/cfg")}
	obs, err := withKube(&external{ownerTags: ownerTags, client: f, session: session}, mg).Observe(context.Background(), mg)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, map[string][]byte(obs.ConnectionDetails)); diff != "" {
		t.Errorf("the observation's connection details: -want, +got:\n%s", diff)
	}
}

func TestReplacedBodyIsReportedAfterTheTags(t *testing.T) {
	mg := configMR()
	f := &fakeSageMaker{describe: &sagemaker.DescribeEndpointConfigOutput{
		EndpointConfigArn:  aws.String("arn:aws:sagemaker:us-east-1:000000000000:endpoint-config/cfg"),
		ProductionVariants: []types.ProductionVariant{{VariantName: aws.String("primary"), ModelName: aws.String("m"), InstanceType: types.ProductionVariantInstanceTypeMlC5Large}},
	}}
	e := withKube(&external{ownerTags: ownerTags, client: f, session: session}, mg)
	obs, err := e.Observe(context.Background(), mg)
	if err != nil || obs.ResourceUpToDate || !strings.Contains(obs.Diff, "spec.forProvider.productionVariants[0].instanceType") || !strings.Contains(obs.Diff, "spec.forProvider.tags") {
		t.Fatalf("observation %+v, err %v", obs, err)
	}
	if md := mg.Status.AtProvider.ACKResourceMetadata; md == nil || md.ARN != nil {
		t.Errorf("a replaced configuration got a verified ARN: %+v", md)
	}
	_, err = e.Update(context.Background(), mg)
	if err == nil || !strings.Contains(err.Error(), "cannot change an endpoint configuration in place") || len(f.calls) != 1 || f.calls[0] != "AddTags" {
		t.Errorf("err %v, calls %v", err, f.calls)
	}
}

// withKube gives e an API server fake that holds mg, for the annotations
// that record the tag keys the provider manages.
func withKube(e *external, mg *v1alpha1.EndpointConfig) *external {
	s := runtime.NewScheme()
	_ = v1alpha1.AddToScheme(s)
	e.kube = fake.NewClientBuilder().WithScheme(s).WithObjects(mg).Build()
	return e
}

// ownerTags are the owner tags setup gives the kind's creates.
func ownerTags(mg resource.Managed) map[string]string {
	return ownership.OwnerTags(v1alpha1.EndpointConfigGroupVersionKind.GroupKind(), mg)
}

func TestObserveListsTagsOnlyOnceSeenReady(t *testing.T) {
	at := time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC)
	// created is crossplane-runtime's record of a create at generation 1.
	created := func(mg *v1alpha1.EndpointConfig) {
		mg.SetGeneration(1)
		meta.SetExternalCreatePending(mg, at)
		meta.SetExternalCreateSucceeded(mg, at)
		mg.SetConditions(xpv2.Creating().WithObservedGeneration(1), xpv2.ReconcileSuccess().WithObservedGeneration(1))
	}
	cases := map[string]struct {
		reason string
		object func(mg *v1alpha1.EndpointConfig)
		reads  []string
	}{
		"RightAfterTheCreate": {
			reason: "The create set exactly the desired tags and the resource was not seen Ready since (its answer was not kept): no tags are listed.",
			object: created,
			reads:  []string{"DescribeEndpointConfig"},
		},
		"SeenReady": {
			reason: "Once seen Ready, every poll lists the tags.",
			object: func(mg *v1alpha1.EndpointConfig) { created(mg); mg.SetConditions(xpv2.Available()) },
			reads:  []string{"DescribeEndpointConfig", "ListTags"},
		},
		"BeingDeleted": {
			reason: "A configuration being deleted is not changed: no tags are listed.",
			object: func(mg *v1alpha1.EndpointConfig) {
				now := metav1.Now()
				mg.SetDeletionTimestamp(&now)
				mg.SetConditions(xpv2.Available())
			},
			reads: []string{"DescribeEndpointConfig"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mg := configMR()
			tc.object(mg)
			f := &fakeSageMaker{
				describe: &sagemaker.DescribeEndpointConfigOutput{
					EndpointConfigArn:  aws.String("arn:aws:sagemaker:us-east-1:000000000000:endpoint-config/cfg"),
					ProductionVariants: []types.ProductionVariant{{VariantName: aws.String("primary"), ModelName: aws.String("m"), InstanceType: types.ProductionVariantInstanceTypeMlM5Large}},
				},
				tags: []types.Tag{{Key: aws.String("team"), Value: aws.String("ml")}},
			}
			var declared []string
			for _, op := range observeCalls(mg, session) {
				declared = append(declared, op.Name)
			}
			obs, err := (&external{ownerTags: ownerTags, client: f, session: session}).Observe(context.Background(), mg)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.reads, f.reads); diff != "" {
				t.Errorf("%s\ncalls made: -want, +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(f.reads, declared); diff != "" {
				t.Errorf("%s\ncalls declared (observeCalls) against calls made: -made, +declared:\n%s", tc.reason, diff)
			}
			if !obs.ResourceExists || !obs.ResourceUpToDate {
				t.Errorf("%s\nobservation %+v: want existing and up to date", tc.reason, obs)
			}
		})
	}
}
