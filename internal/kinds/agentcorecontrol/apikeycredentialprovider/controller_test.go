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

package apikeycredentialprovider

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	"github.com/cloudkinds/provider-aws-services/internal/tenancy/ownership"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol/types"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/test"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/cloudkinds/provider-aws-services/apis/agentcorecontrol/v1alpha1"
	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	ac "github.com/cloudkinds/provider-aws-services/internal/aws/agentcore"
	"github.com/cloudkinds/provider-aws-services/internal/kube/secretkey"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/awsconfig"
)

const key = "sk-unit-test-key"

type fakeAgentCore struct {
	ac.API
	sent []string
	// calls are the reads made; onAWS are the tags on AWS.
	calls []string
	onAWS map[string]string
}

func (f *fakeAgentCore) ListTagsForResource(context.Context, *bedrockagentcorecontrol.ListTagsForResourceInput, ...func(*bedrockagentcorecontrol.Options)) (*bedrockagentcorecontrol.ListTagsForResourceOutput, error) {
	f.calls = append(f.calls, "ListTagsForResource")
	return &bedrockagentcorecontrol.ListTagsForResourceOutput{Tags: f.onAWS}, nil
}

func (f *fakeAgentCore) GetApiKeyCredentialProvider(context.Context, *bedrockagentcorecontrol.GetApiKeyCredentialProviderInput, ...func(*bedrockagentcorecontrol.Options)) (*bedrockagentcorecontrol.GetApiKeyCredentialProviderOutput, error) {
	f.calls = append(f.calls, "GetApiKeyCredentialProvider")
	return &bedrockagentcorecontrol.GetApiKeyCredentialProviderOutput{CredentialProviderArn: aws.String("arn:p"), ApiKeySecretArn: &types.Secret{SecretArn: aws.String("arn:s")}}, nil
}

func (f *fakeAgentCore) CreateApiKeyCredentialProvider(_ context.Context, in *bedrockagentcorecontrol.CreateApiKeyCredentialProviderInput, _ ...func(*bedrockagentcorecontrol.Options)) (*bedrockagentcorecontrol.CreateApiKeyCredentialProviderOutput, error) {
	f.sent = append(f.sent, aws.ToString(in.ApiKey))
	return &bedrockagentcorecontrol.CreateApiKeyCredentialProviderOutput{Name: in.Name, CredentialProviderArn: aws.String("arn:p"), ApiKeySecretArn: &types.Secret{SecretArn: aws.String("arn:s")}}, nil
}

func (f *fakeAgentCore) UpdateApiKeyCredentialProvider(_ context.Context, in *bedrockagentcorecontrol.UpdateApiKeyCredentialProviderInput, _ ...func(*bedrockagentcorecontrol.Options)) (*bedrockagentcorecontrol.UpdateApiKeyCredentialProviderOutput, error) {
	f.sent = append(f.sent, aws.ToString(in.ApiKey))
	return &bedrockagentcorecontrol.UpdateApiKeyCredentialProviderOutput{}, nil
}

func newFixture(t *testing.T, withSecret bool) (*v1alpha1.APIKeyCredentialProvider, *external, *fakeAgentCore) {
	t.Helper()
	mg := &v1alpha1.APIKeyCredentialProvider{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p", UID: "uid"}}
	meta.SetExternalName(mg, "p")
	mg.Spec.ForProvider = v1alpha1.APIKeyCredentialProviderParameters{Name: "p", APIKey: &common.SecretKeyReference{Name: aws.String("k"), Key: "apiKey"}}
	s := runtime.NewScheme()
	_ = clientgoscheme.AddToScheme(s)
	_ = v1alpha1.AddToScheme(s)
	objs := []client.Object{mg}
	if withSecret {
		objs = append(objs, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "k"}, Data: map[string][]byte{"apiKey": []byte(key)}})
	}
	kube := fake.NewClientBuilder().WithScheme(s).WithObjects(objs...).Build()
	f := &fakeAgentCore{}
	return mg, &external{ownerTags: ownerTags, client: f, kube: kube, secrets: secretkey.NewReader(kube, fingerprintKey), session: &awsconfig.Session{AccountID: "000000000000", Partition: "aws", Region: "us-east-1"}}, f
}

func TestCreateThenRotate(t *testing.T) {
	mg, e, f := newFixture(t, true)
	cre, err := e.Create(context.Background(), mg)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string][]byte{"credentialProviderName": []byte(mg.Spec.ForProvider.Name), "credentialProviderARN": []byte("arn:p"), "apiKeySecretARN": []byte("arn:s")}, map[string][]byte(cre.ConnectionDetails)); diff != "" {
		t.Errorf("connection details: -want, +got:\n%s", diff)
	}
	for k, v := range cre.ConnectionDetails {
		if string(v) == key {
			t.Errorf("connection detail %s is the key", k)
		}
	}
	obs, err := e.Observe(context.Background(), mg)
	if err != nil || !obs.ResourceUpToDate {
		t.Fatalf("right after create: %+v %v", obs, err)
	}
	// The Secret's value changes in place: one update carries the new key.
	sec := &corev1.Secret{}
	_ = e.kube.Get(context.Background(), client.ObjectKey{Namespace: "ns", Name: "k"}, sec)
	sec.Data["apiKey"] = []byte("rotated")
	_ = e.kube.Update(context.Background(), sec)
	obs, err = e.Observe(context.Background(), mg)
	if err != nil || obs.ResourceUpToDate || obs.Diff != "spec.forProvider.apiKey" {
		t.Fatalf("after rotation: %+v %v", obs, err)
	}
	upd, err := e.Update(context.Background(), mg)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(obs.ConnectionDetails, upd.ConnectionDetails); diff != "" || len(upd.ConnectionDetails) == 0 {
		t.Errorf("the rotation's details: -observed, +updated:\n%s", diff)
	}
	for k, v := range upd.ConnectionDetails {
		if string(v) == "rotated" {
			t.Errorf("connection detail %s is the key", k)
		}
	}
	if strings.Join(f.sent, ",") != key+",rotated" {
		t.Errorf("keys sent: %d", len(f.sent))
	}
	if obs, _ := e.Observe(context.Background(), mg); !obs.ResourceUpToDate {
		t.Error("still not up to date after the rotation")
	}
}

func TestAMissingSecretIsClearAndDoesNotBlockDeletion(t *testing.T) {
	mg, e, _ := newFixture(t, false)
	_, err := e.Observe(context.Background(), mg)
	if err == nil || err.Error() != "spec.forProvider.apiKey: secret ns/k does not exist" {
		t.Fatalf("want a clear error, got %v", err)
	}
	now := metav1.NewTime(time.Now())
	mg.SetDeletionTimestamp(&now)
	if obs, err := e.Observe(context.Background(), mg); err != nil || !obs.ResourceExists {
		t.Errorf("deletion is blocked: %+v %v", obs, err)
	}
}

// fingerprintKey is the provider's fingerprint key in these tests.
var fingerprintKey = secretkey.NewKey([]byte("0123456789abcdef0123456789abcdef"))

// ownerTags are the owner tags setup gives the kind's creates.
func ownerTags(mg resource.Managed) map[string]string {
	return ownership.OwnerTags(v1alpha1.APIKeyCredentialProviderGroupVersionKind.GroupKind(), mg)
}

func TestObserveListsTagsOnlyOnceSeenReady(t *testing.T) {
	at := time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC)
	// created is crossplane-runtime's record of a create at generation 1.
	created := func(mg *v1alpha1.APIKeyCredentialProvider) {
		mg.SetGeneration(1)
		meta.SetExternalCreatePending(mg, at)
		meta.SetExternalCreateSucceeded(mg, at)
		mg.SetConditions(xpv2.Creating().WithObservedGeneration(1), xpv2.ReconcileSuccess().WithObservedGeneration(1))
	}
	cases := map[string]struct {
		reason string
		object func(mg *v1alpha1.APIKeyCredentialProvider)
		calls  []string
	}{
		"RightAfterTheCreate": {
			reason: "The create set exactly the desired tags and the resource was not seen Ready since: no tags are listed.",
			object: created,
			calls:  []string{"GetApiKeyCredentialProvider"},
		},
		"SeenReady": {
			reason: "Once seen Ready, every poll lists the tags.",
			object: func(mg *v1alpha1.APIKeyCredentialProvider) { created(mg); mg.SetConditions(xpv2.Available()) },
			calls:  []string{"GetApiKeyCredentialProvider", "ListTagsForResource"},
		},
		"NotCreatedHere": {
			reason: "A resource this object did not create may have any tags: they are listed.",
			object: func(*v1alpha1.APIKeyCredentialProvider) {},
			calls:  []string{"GetApiKeyCredentialProvider", "ListTagsForResource"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mg, e, f := newFixture(t, true)
			mg.Spec.ForProvider.Tags = map[string]string{"team": "a"}
			f.onAWS = map[string]string{"team": "a"}
			meta.AddAnnotations(mg, map[string]string{AnnotationAPIKeyFingerprint: fingerprintKey.Fingerprint("uid", []byte(key))})
			tc.object(mg)
			var declared []string
			for _, op := range observeCalls(mg, e.session) {
				declared = append(declared, op.Name)
			}
			obs, err := e.Observe(context.Background(), mg)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.calls, f.calls); diff != "" {
				t.Errorf("%s\ncalls made: -want, +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(f.calls, declared); diff != "" {
				t.Errorf("%s\ncalls declared (observeCalls) against calls made: -made, +declared:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(managed.ExternalObservation{ResourceExists: true, ResourceUpToDate: true}, obs, cmpopts.IgnoreFields(managed.ExternalObservation{}, "ConnectionDetails")); diff != "" {
				t.Errorf("%s\nobservation: -want, +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(xpv2.Available(), mg.GetCondition(xpv2.TypeReady), test.EquateConditions()); diff != "" {
				t.Errorf("%s\nReady: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
