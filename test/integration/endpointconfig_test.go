//go:build integration

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
package integration

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
	smtypes "github.com/aws/aws-sdk-go-v2/service/sagemaker/types"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/apis/mlplatform/v1alpha1"
	sm "github.com/cloudkinds/provider-aws-services/internal/aws/sagemaker"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/ownership"
)

func sageMakerClient(s *stack) *sagemaker.Client {
	return sagemaker.NewFromConfig(aws.Config{Region: "us-east-1", BaseEndpoint: aws.String(s.url), Credentials: credentials.NewStaticCredentialsProvider("AKIDSETUP", "s", "")})
}

func model(t *testing.T, s *stack, name string) {
	t.Helper()
	if _, err := sageMakerClient(s).CreateModel(context.Background(), &sagemaker.CreateModelInput{ModelName: aws.String(name)}); err != nil {
		t.Fatal(err)
	}
}

func newEndpointConfig(ns, name, modelName string) *v1alpha1.EndpointConfig {
	mg := &v1alpha1.EndpointConfig{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	mg.Spec.ProviderConfigReference = emulatorConfig()
	mg.Spec.ForProvider = v1alpha1.EndpointConfigParameters{
		EndpointConfigName: name,
		ProductionVariants: []v1alpha1.ProductionVariant{{
			VariantName: aws.String("primary"), ModelName: aws.String(modelName), InstanceType: aws.String("ml.m5.large"), InitialInstanceCount: aws.Int64(1),
		}},
		DataCaptureConfig: &v1alpha1.DataCaptureConfig{EnableCapture: aws.Bool(true), InitialSamplingPercentage: aws.Int64(20), DestinationStoreURI: aws.String("s3://capture/"),
			CaptureOptions: []v1alpha1.CaptureOption{{CaptureMode: aws.String("Input")}, {CaptureMode: aws.String("Output")}}},
		Tags: []common.Tag{{Key: aws.String("team"), Value: aws.String("ml")}},
	}
	return mg
}

func TestEndpointConfigLifecycle(t *testing.T) {
	s := provider(t)
	ns := namespace(t)
	name := "churn-" + ns[len(ns)-5:]
	model(t, s, name)
	mg := newEndpointConfig(ns, name, name)
	mg.Spec.WriteConnectionSecretToReference = &xpv2.LocalSecretReference{Name: "churn-config"}
	create(t, mg)

	eventually(t, 30*time.Second, "Ready", func() error { return isReady(t, mg) })
	calls := s.aws.CallsFor(name)
	t.Logf("AWS calls from create to Ready: %v", calls)
	if calls["sagemaker:CreateEndpointConfig"] != 1 {
		t.Errorf("create: %v", calls)
	}
	arn := "arn:aws:sagemaker:us-east-1:000000000000:endpoint-config/" + name
	if md := mg.Status.AtProvider.ACKResourceMetadata; md == nil || aws.ToString(md.ARN) != arn || md.OwnerAccountID != "000000000000" {
		t.Errorf("metadata: %+v", md)
	}

	// Its name and ARN as SageMaker holds them: published from the create's
	// answer (the kind is Ready at create), then by every Observe.
	d, err := sagemaker.NewFromConfig(outsiderConfig(s)).DescribeEndpointConfig(context.Background(), &sagemaker.DescribeEndpointConfigInput{EndpointConfigName: aws.String(name)})
	if err != nil {
		t.Fatal(err)
	}
	requireConnectionDetails(t, ns, "churn-config", sm.ConnectionKeys, map[string]string{
		"endpointConfigName": aws.ToString(d.EndpointConfigName), "endpointConfigARN": aws.ToString(d.EndpointConfigArn),
	})

	// A fresh configuration, with SageMaker's defaults filled in, is never
	// reported as drifted: one describe and one tag read per poll.
	steady := settle(s, name, 3)
	if len(writes(steady, "sagemaker")) != 0 || steady["sagemaker:DescribeEndpointConfig"] == 0 {
		t.Errorf("steady state over 3 polls: %v", steady)
	}
	t.Logf("AWS calls over 3 steady-state polls: %v, and on its ARN %v", steady, s.aws.CallsFor(arn))

	change(t, mg, func(mg *v1alpha1.EndpointConfig) {
		mg.Spec.ForProvider.Tags = []common.Tag{{Key: aws.String("env"), Value: aws.String("prod")}}
	})
	eventually(t, 20*time.Second, "tags in SageMaker", func() error {
		c := s.aws.CallsFor(arn)
		if c["sagemaker:AddTags"] != 1 || c["sagemaker:DeleteTags"] != 1 {
			return fmt.Errorf("calls %v", c)
		}
		return nil
	})
	tags, err := sageMakerClient(s).ListTags(context.Background(), &sagemaker.ListTagsInput{ResourceArn: aws.String(arn)})
	if got := sm.TagMap(tags.Tags); err != nil || len(got) != 1+ownership.OwnerTagCount || got["env"] == "" || got["crossplane-name"] != mg.Name || got[ownership.TagKeyUID] != string(mg.UID) {
		t.Errorf("tags in SageMaker (env and the %d owner tags): %v %v", ownership.OwnerTagCount, got, err)
	}

	remove(t, mg)
	if n := s.aws.CallsFor(name)["sagemaker:DeleteEndpointConfig"]; n != 1 {
		t.Errorf("DeleteEndpointConfig calls: %d", n)
	}
	t.Logf("AWS calls over the whole life: %v, and on its ARN %v", s.aws.CallsFor(name), s.aws.CallsFor(arn))
}

func TestEndpointConfigRefusals(t *testing.T) {
	s := provider(t)
	ns := namespace(t)

	// Judged before calling AWS: no call is made.
	local := newEndpointConfig(ns, "local-"+ns[len(ns)-5:], "any")
	local.Spec.ForProvider.KMSKeyID = aws.String("alias/ml-volumes")
	local.Spec.ForProvider.ProductionVariants[0].InstanceType = aws.String("ml.m5d.large")
	create(t, local)
	eventually(t, 20*time.Second, "local storage refused", func() error {
		return syncedMessage(t, local, "spec.forProvider.kmsKeyID cannot be used with spec.forProvider.productionVariants[0].instanceType ml.m5d.large")
	})
	if n := s.aws.CallsFor(local.Spec.ForProvider.EndpointConfigName)["sagemaker:CreateEndpointConfig"]; n != 0 {
		t.Errorf("%d calls for a configuration that was known to fail", n)
	}

	// Only SageMaker can judge that a model is missing: its message is shown.
	missing := newEndpointConfig(ns, "nomodel-"+ns[len(ns)-5:], "no-such-model")
	create(t, missing)
	eventually(t, 20*time.Second, "SageMaker's refusal shown", func() error {
		return syncedMessage(t, missing, `Could not find model "arn:aws:sagemaker:us-east-1:000000000000:model/no-such-model"`)
	})
	remove(t, local)
	remove(t, missing)
}

func syncedMessage(t *testing.T, mg interface {
	client.Object
	GetCondition(xpv2.ConditionType) xpv2.Condition
}, want string) error {
	if err := cp.Client.Get(context.Background(), client.ObjectKeyFromObject(mg), mg); err != nil {
		return err
	}
	if c := mg.GetCondition(xpv2.TypeSynced); !strings.Contains(c.Message, want) {
		return fmt.Errorf("Synced: %s %q", c.Status, c.Message)
	}
	return nil
}

func TestEndpointConfigAdoptionObserveOnlyAndReplacement(t *testing.T) {
	s := provider(t)
	ns := namespace(t)
	name := "adopted-" + ns[len(ns)-5:]
	model(t, s, name)
	_, err := sageMakerClient(s).CreateEndpointConfig(context.Background(), &sagemaker.CreateEndpointConfigInput{
		EndpointConfigName: aws.String(name),
		ProductionVariants: []smtypes.ProductionVariant{{VariantName: aws.String("primary"), ModelName: aws.String(name), InstanceType: smtypes.ProductionVariantInstanceTypeMlM5Large, InitialInstanceCount: aws.Int32(1)}},
	})
	if err != nil {
		t.Fatal(err)
	}

	observer := newEndpointConfig(ns, name, name)
	observer.Name = "observer"
	observer.Spec.ForProvider.DataCaptureConfig = nil
	observer.Spec.ForProvider.Tags = nil
	observer.Spec.ManagementPolicies = xpv2.ManagementPolicies{xpv2.ManagementActionObserve}
	create(t, observer)
	eventually(t, 20*time.Second, "observed", func() error {
		if err := cp.Client.Get(context.Background(), client.ObjectKeyFromObject(observer), observer); err != nil {
			return err
		}
		if md := observer.Status.AtProvider.ACKResourceMetadata; md == nil || md.ARN == nil {
			return fmt.Errorf("metadata %+v", md)
		}
		return nil
	})
	remove(t, observer)

	adopter := newEndpointConfig(ns, name, name)
	adopter.Name = "adopter"
	adopter.Spec.ForProvider.DataCaptureConfig = nil
	adopter.SetAnnotations(map[string]string{ownership.AnnotationAdoptionPolicy: ownership.AdoptionPolicyAdopt})
	create(t, adopter)
	eventually(t, 20*time.Second, "adopted and Ready", func() error { return isReady(t, adopter) })
	if c := s.aws.CallsFor(name); c["sagemaker:CreateEndpointConfig"] != 1 {
		t.Errorf("adoption created: %v", c)
	}

	// Someone replaces the configuration outside Kubernetes: SageMaker
	// cannot update it, and the resource says so.
	c := sageMakerClient(s)
	if _, err := c.DeleteEndpointConfig(context.Background(), &sagemaker.DeleteEndpointConfigInput{EndpointConfigName: aws.String(name)}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateEndpointConfig(context.Background(), &sagemaker.CreateEndpointConfigInput{
		EndpointConfigName: aws.String(name),
		ProductionVariants: []smtypes.ProductionVariant{{VariantName: aws.String("primary"), ModelName: aws.String(name), InstanceType: smtypes.ProductionVariantInstanceTypeMlC5Xlarge, InitialInstanceCount: aws.Int32(1)}},
		Tags:               []smtypes.Tag{{Key: aws.String("team"), Value: aws.String("ml")}},
	}); err != nil {
		t.Fatal(err)
	}
	eventually(t, 20*time.Second, "replacement reported", func() error {
		return syncedMessage(t, adopter, "differs from the spec in spec.forProvider.productionVariants[0].instanceType; SageMaker cannot change an endpoint configuration in place")
	})
	remove(t, adopter)
}
