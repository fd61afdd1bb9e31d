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

package deliverystream

import (
	"context"
	"errors"
	"testing"

	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	"github.com/aws/aws-sdk-go-v2/service/firehose/types"
	"github.com/aws/smithy-go"
	xperrors "github.com/crossplane/crossplane-runtime/v2/pkg/errors"
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
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	fh "github.com/cloudkinds/provider-aws-services/internal/aws/firehose"
	"github.com/cloudkinds/provider-aws-services/internal/kube/secretkey"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/conditions"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/awsconfig"
)

// mockAPI is the Firehose API with one function per call a test expects;
// an unexpected call fails the test.
type mockAPI struct {
	fh.API
	t        *testing.T
	describe func(*firehose.DescribeDeliveryStreamInput) (*firehose.DescribeDeliveryStreamOutput, error)
	create   func(*firehose.CreateDeliveryStreamInput) (*firehose.CreateDeliveryStreamOutput, error)
	update   func(*firehose.UpdateDestinationInput) (*firehose.UpdateDestinationOutput, error)
	del      func(*firehose.DeleteDeliveryStreamInput) (*firehose.DeleteDeliveryStreamOutput, error)
	listTags func(*firehose.ListTagsForDeliveryStreamInput) (*firehose.ListTagsForDeliveryStreamOutput, error)
}

func (m *mockAPI) DescribeDeliveryStream(_ context.Context, in *firehose.DescribeDeliveryStreamInput, _ ...func(*firehose.Options)) (*firehose.DescribeDeliveryStreamOutput, error) {
	return m.describe(in)
}

func (m *mockAPI) CreateDeliveryStream(_ context.Context, in *firehose.CreateDeliveryStreamInput, _ ...func(*firehose.Options)) (*firehose.CreateDeliveryStreamOutput, error) {
	if m.create == nil {
		m.t.Fatal("unexpected CreateDeliveryStream")
	}
	return m.create(in)
}

func (m *mockAPI) UpdateDestination(_ context.Context, in *firehose.UpdateDestinationInput, _ ...func(*firehose.Options)) (*firehose.UpdateDestinationOutput, error) {
	if m.update == nil {
		m.t.Fatal("unexpected UpdateDestination")
	}
	return m.update(in)
}

func (m *mockAPI) DeleteDeliveryStream(_ context.Context, in *firehose.DeleteDeliveryStreamInput, _ ...func(*firehose.Options)) (*firehose.DeleteDeliveryStreamOutput, error) {
	if m.del == nil {
		m.t.Fatal("unexpected DeleteDeliveryStream")
	}
	return m.del(in)
}

func (m *mockAPI) ListTagsForDeliveryStream(_ context.Context, in *firehose.ListTagsForDeliveryStreamInput, _ ...func(*firehose.Options)) (*firehose.ListTagsForDeliveryStreamOutput, error) {
	if m.listTags == nil {
		m.t.Fatal("unexpected ListTagsForDeliveryStream")
	}
	return m.listTags(in)
}

func stream(status types.DeliveryStreamStatus) *firehose.DescribeDeliveryStreamOutput {
	return &firehose.DescribeDeliveryStreamOutput{DeliveryStreamDescription: &types.DeliveryStreamDescription{
		DeliveryStreamName: aws.String("s"), DeliveryStreamARN: aws.String("arn:aws:firehose:us-east-1:000000000000:deliverystream/s"),
		DeliveryStreamStatus: status, VersionId: aws.String("1"),
		FailureDescription: &types.FailureDescription{Type: types.DeliveryStreamFailureTypeInvalidKmsKey, Details: aws.String("key disabled")},
		Destinations: []types.DestinationDescription{{DestinationId: aws.String("d"), HttpEndpointDestinationDescription: &types.HttpEndpointDestinationDescription{
			EndpointConfiguration:    &types.HttpEndpointDescription{Url: aws.String("https://e")},
			S3DestinationDescription: &types.S3DestinationDescription{BucketARN: aws.String("arn:aws:s3:::b")},
		}}},
	}}
}

const key = "the-access-key"

// published are the connection details of stream(): its name and ARN, not
// its destination's URL nor its access key.
var published = managed.ConnectionDetails{"deliveryStreamName": []byte("s"), "deliveryStreamARN": []byte("arn:aws:firehose:us-east-1:000000000000:deliverystream/s")}

var errBoom = errors.New("boom")

func newMR() *v1alpha1.DeliveryStream {
	mg := &v1alpha1.DeliveryStream{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "s", UID: "uid"}}
	meta.SetExternalName(mg, "s")
	mg.Spec.ForProvider = v1alpha1.DeliveryStreamParameters{DeliveryStreamName: "s", HTTPEndpointDestinationConfiguration: &v1alpha1.HTTPEndpointDestinationConfiguration{
		EndpointConfiguration: &v1alpha1.HTTPEndpointConfiguration{URL: aws.String("https://e"), AccessKey: &common.SecretKeyReference{Name: aws.String("k"), Key: "accessKey"}},
		StoreConfiguration:    &v1alpha1.StoreConfiguration{BucketARN: aws.String("arn:aws:s3:::b")},
	}}
	return mg
}

func newExternal(t *testing.T, api *mockAPI, mg *v1alpha1.DeliveryStream) *external {
	t.Helper()
	s := runtime.NewScheme()
	_ = clientgoscheme.AddToScheme(s)
	_ = v1alpha1.AddToScheme(s)
	kube := fake.NewClientBuilder().WithScheme(s).WithObjects(mg,
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "k"}, Data: map[string][]byte{"accessKey": []byte(key)}}).Build()
	api.t = t
	return &external{ownerTags: ownerTags, client: api, kube: kube, secrets: secretkey.NewReader(kube, fingerprintKey),
		session: &awsconfig.Session{AccountID: "000000000000", Partition: "aws", Region: "us-east-1"}}
}

func TestObserve(t *testing.T) {
	notFound := &smithy.GenericAPIError{Code: "ResourceNotFoundException", Message: "Firehose s under account 000000000000 not found."}
	type want struct {
		obs       managed.ExternalObservation
		err       error
		ready     xpv2.Condition
		statusSet bool
	}
	cases := map[string]struct {
		describe    func(*firehose.DescribeDeliveryStreamInput) (*firehose.DescribeDeliveryStreamOutput, error)
		fingerprint bool
		spec        func(*v1alpha1.DeliveryStreamParameters)
		want        want
	}{
		"NotFound": {
			describe: func(*firehose.DescribeDeliveryStreamInput) (*firehose.DescribeDeliveryStreamOutput, error) {
				return nil, notFound
			},
			want: want{obs: managed.ExternalObservation{ResourceExists: false}},
		},
		"DescribeFails": {
			describe: func(*firehose.DescribeDeliveryStreamInput) (*firehose.DescribeDeliveryStreamOutput, error) {
				return nil, errBoom
			},
			want: want{err: xperrors.Wrap(errBoom, errDescribe)},
		},
		"Creating": {
			describe: func(*firehose.DescribeDeliveryStreamInput) (*firehose.DescribeDeliveryStreamOutput, error) {
				return stream("CREATING"), nil
			},
			want: want{obs: managed.ExternalObservation{ResourceExists: true, ConnectionDetails: published, ResourceUpToDate: true}, ready: xpv2.Creating(), statusSet: true},
		},
		"CreatingFailedIsNeverCreatedAgain": {
			describe: func(*firehose.DescribeDeliveryStreamInput) (*firehose.DescribeDeliveryStreamOutput, error) {
				return stream("CREATING_FAILED"), nil
			},
			want: want{obs: managed.ExternalObservation{ResourceExists: true, ConnectionDetails: published, ResourceUpToDate: true}, ready: conditions.Failed("CREATING_FAILED: INVALID_KMS_KEY: key disabled"), statusSet: true},
		},
		"ActiveWithUnsentKey": {
			describe: func(*firehose.DescribeDeliveryStreamInput) (*firehose.DescribeDeliveryStreamOutput, error) {
				return stream("ACTIVE"), nil
			},
			want: want{obs: managed.ExternalObservation{ResourceExists: true, ConnectionDetails: published, ResourceUpToDate: false,
				Diff: "spec.forProvider.httpEndpointDestinationConfiguration.endpointConfiguration.accessKey"}, ready: xpv2.Available(), statusSet: true},
		},
		"EncryptionFailureShownNotRetried": {
			describe: func(*firehose.DescribeDeliveryStreamInput) (*firehose.DescribeDeliveryStreamOutput, error) {
				out := stream("ACTIVE")
				out.DeliveryStreamDescription.DeliveryStreamEncryptionConfiguration = &types.DeliveryStreamEncryptionConfiguration{
					Status: types.DeliveryStreamEncryptionStatusEnablingFailed, KeyType: types.KeyTypeCustomerManagedCmk, KeyARN: aws.String("arn:aws:kms:us-east-1:000000000000:key/k"),
					FailureDescription: &types.FailureDescription{Type: types.DeliveryStreamFailureTypeKmsAccessDenied, Details: aws.String("no grant")},
				}
				return out, nil
			},
			fingerprint: true,
			spec: func(p *v1alpha1.DeliveryStreamParameters) {
				p.DeliveryStreamEncryptionConfiguration = &v1alpha1.DeliveryStreamEncryptionConfiguration{KeyARN: aws.String("arn:aws:kms:us-east-1:000000000000:key/k")}
			},
			want: want{obs: managed.ExternalObservation{ResourceExists: true, ConnectionDetails: published, ResourceUpToDate: true},
				ready: conditions.Failed("server-side encryption ENABLING_FAILED: KMS_ACCESS_DENIED: no grant"), statusSet: true},
		},
		"ActiveAndUpToDate": {
			describe: func(*firehose.DescribeDeliveryStreamInput) (*firehose.DescribeDeliveryStreamOutput, error) {
				return stream("ACTIVE"), nil
			},
			fingerprint: true,
			want:        want{obs: managed.ExternalObservation{ResourceExists: true, ConnectionDetails: published, ResourceUpToDate: true}, ready: xpv2.Available(), statusSet: true},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mg := newMR()
			if tc.spec != nil {
				tc.spec(&mg.Spec.ForProvider)
			}
			if tc.fingerprint {
				meta.AddAnnotations(mg, map[string]string{AnnotationAccessKeyFingerprint: fingerprintKey.Fingerprint("uid", []byte(key))})
			}
			e := newExternal(t, &mockAPI{describe: tc.describe}, mg)
			obs, err := e.Observe(context.Background(), mg)
			if diff := cmp.Diff(tc.want.err, err, test.EquateErrors()); diff != "" {
				t.Fatalf("error: -want, +got:\n%s", diff)
			}
			if diff := cmp.Diff(tc.want.obs, obs); diff != "" {
				t.Errorf("observation: -want, +got:\n%s", diff)
			}
			if tc.want.statusSet {
				if diff := cmp.Diff(tc.want.ready, mg.GetCondition(xpv2.TypeReady), test.EquateConditions()); diff != "" {
					t.Errorf("Ready: -want, +got:\n%s", diff)
				}
				if mg.Status.AtProvider.ACKResourceMetadata == nil || mg.Status.AtProvider.ACKResourceMetadata.OwnerAccountID != "000000000000" {
					t.Errorf("metadata: %+v", mg.Status.AtProvider.ACKResourceMetadata)
				}
			}
		})
	}
}

func TestCreateSendsTheKeyAndRecordsItsFingerprintOnly(t *testing.T) {
	mg := newMR()
	var sent *firehose.CreateDeliveryStreamInput
	e := newExternal(t, &mockAPI{create: func(in *firehose.CreateDeliveryStreamInput) (*firehose.CreateDeliveryStreamOutput, error) {
		sent = in
		return &firehose.CreateDeliveryStreamOutput{}, nil
	}}, mg)
	if _, err := e.Create(context.Background(), mg); err != nil {
		t.Fatal(err)
	}
	if aws.ToString(sent.HttpEndpointDestinationConfiguration.EndpointConfiguration.AccessKey) != key {
		t.Error("the access key was not sent")
	}
	if got := mg.GetAnnotations()[AnnotationAccessKeyFingerprint]; got != fingerprintKey.Fingerprint("uid", []byte(key)) {
		t.Errorf("fingerprint annotation %q", got)
	}
	for k, v := range mg.GetAnnotations() {
		if v == key {
			t.Errorf("annotation %s holds the key", k)
		}
	}
}

func TestUpdateCarriesVersionAndDestination(t *testing.T) {
	mg := newMR()
	var sent *firehose.UpdateDestinationInput
	api := &mockAPI{
		describe: func(*firehose.DescribeDeliveryStreamInput) (*firehose.DescribeDeliveryStreamOutput, error) {
			return stream("ACTIVE"), nil
		},
		update: func(in *firehose.UpdateDestinationInput) (*firehose.UpdateDestinationOutput, error) {
			sent = in
			return &firehose.UpdateDestinationOutput{}, nil
		},
	}
	e := newExternal(t, api, mg)
	if _, err := e.Observe(context.Background(), mg); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Update(context.Background(), mg); err != nil {
		t.Fatal(err)
	}
	if aws.ToString(sent.CurrentDeliveryStreamVersionId) != "1" || aws.ToString(sent.DestinationId) != "d" ||
		aws.ToString(sent.HttpEndpointDestinationUpdate.EndpointConfiguration.AccessKey) != key {
		t.Errorf("update: %+v", sent)
	}
}

func TestDelete(t *testing.T) {
	type want struct {
		// sent is the DeleteDeliveryStream sent, nil for none.
		sent *firehose.DeleteDeliveryStreamInput
		left []string
	}
	failedDeletion := stream(types.DeliveryStreamStatusDeletingFailed).DeliveryStreamDescription
	failedDeletion.FailureDescription = &types.FailureDescription{Type: types.DeliveryStreamFailureTypeRetireKmsGrantFailed, Details: aws.String("key disabled")}
	failedDeletion.DeliveryStreamEncryptionConfiguration = &types.DeliveryStreamEncryptionConfiguration{KeyARN: aws.String("arn:aws:kms:us-east-1:000000000000:key/k")}
	cases := map[string]struct {
		reason    string
		status    string
		described *types.DeliveryStreamDescription
		want      want
	}{
		"BeingDeleted": {reason: "A stream AWS is deleting already is not deleted again.", status: "DELETING"},
		"CreationFailed": {reason: "A stream whose creation failed is deleted like any other.", status: "CREATING_FAILED",
			described: stream(types.DeliveryStreamStatusCreatingFailed).DeliveryStreamDescription,
			want:      want{sent: &firehose.DeleteDeliveryStreamInput{DeliveryStreamName: aws.String("s")}}},
		"DeletionFailed": {reason: "A stream whose key grant Firehose could not retire is deleted by force, saying that the grant may remain.", status: "DELETING_FAILED",
			described: failedDeletion,
			want: want{sent: &firehose.DeleteDeliveryStreamInput{DeliveryStreamName: aws.String("s"), AllowForceDelete: aws.Bool(true)},
				left: []string{"Firehose could not retire the grant it holds on KMS key arn:aws:kms:us-east-1:000000000000:key/k (RETIRE_KMS_GRANT_FAILED: key disabled), so the stream was deleted by force: the grant may remain on the key, for the key's owner to revoke (kms:RevokeGrant)"}}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mg := newMR()
			mg.Status.AtProvider.DeliveryStreamStatus = aws.String(tc.status)
			var got want
			e := newExternal(t, &mockAPI{t: t, del: func(in *firehose.DeleteDeliveryStreamInput) (*firehose.DeleteDeliveryStreamOutput, error) {
				got.sent = in
				return &firehose.DeleteDeliveryStreamOutput{}, nil
			}}, mg)
			e.described = tc.described
			e.left = func(_ resource.Managed, what string) { got.left = append(got.left, what) }
			if _, err := e.Delete(context.Background(), mg); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{}), cmpopts.IgnoreUnexported(firehose.DeleteDeliveryStreamInput{})); diff != "" {
				t.Errorf("%s\n-want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// fingerprintKey is the provider's fingerprint key in these tests.
var fingerprintKey = secretkey.NewKey([]byte("0123456789abcdef0123456789abcdef"))
