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

package ownership

import (
	"context"
	"net/http"
	"testing"
	"time"

	smithy "github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/aws/tags"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/sendonce"
)

// awsStream is a fake external client: a stream that exists in AWS with
// tags, and the calls made to it.
type awsStream struct {
	exists  bool
	tags    map[string]string
	created time.Time
	calls   []string
	// createErr is Create's answer.
	createErr error
	// untagged makes it a kind AWS cannot tag.
	untagged bool
	// observeErr is Observe's answer when set.
	observeErr error
	// sentOnce records, for each create, whether its calls were to be sent
	// once (sendonce).
	sentOnce []bool
	// makes makes the create make the resource before it answers
	// createErr, owner tags included for mg (when tagged).
	makes *v1alpha1.DeliveryStream
}

func (a *awsStream) Observe(_ context.Context, mg *v1alpha1.DeliveryStream) (managed.ExternalObservation, error) {
	a.calls = append(a.calls, "Observe")
	if a.observeErr != nil {
		return managed.ExternalObservation{}, a.observeErr
	}
	if !a.exists {
		return managed.ExternalObservation{}, nil
	}
	// What a kind's Observe does to the object: status and late-init.
	mg.Status.AtProvider.ACKResourceMetadata = &common.ResourceMetadata{ARN: new("arn:aws:firehose:us-east-1:000000000000:deliverystream/orders")}
	mg.SetConditions(xpv2.Available())
	return managed.ExternalObservation{ResourceExists: true, ResourceUpToDate: true}, nil
}

func (a *awsStream) Create(ctx context.Context, _ *v1alpha1.DeliveryStream) (managed.ExternalCreation, error) {
	a.calls = append(a.calls, "Create")
	a.sentOnce = append(a.sentOnce, sendonce.IsCreating(ctx))
	if a.makes != nil {
		a.exists, a.created = true, time.Now()
		if !a.untagged {
			a.tags = OwnerTags(streamKind, a.makes)
		}
	}
	return managed.ExternalCreation{}, a.createErr
}

func (a *awsStream) Update(context.Context, *v1alpha1.DeliveryStream) (managed.ExternalUpdate, error) {
	a.calls = append(a.calls, "Update")
	return managed.ExternalUpdate{}, nil
}

func (a *awsStream) Delete(context.Context, *v1alpha1.DeliveryStream) (managed.ExternalDelete, error) {
	a.calls = append(a.calls, "Delete")
	return managed.ExternalDelete{}, nil
}

func (a *awsStream) Disconnect(context.Context) error { return nil }

func (a *awsStream) LastObserved() Observed {
	if a.untagged {
		return Observed{Created: a.created}
	}
	return Observed{Created: a.created, Tags: &tags.Service{
		List: func(context.Context) (map[string]string, error) {
			a.calls = append(a.calls, "ListTags")
			return a.tags, nil
		},
		Set: func(_ context.Context, set map[string]string) error {
			a.calls = append(a.calls, "Tag")
			for k, v := range set {
				a.tags[k] = v
			}
			return nil
		},
	}}
}

// cluster is a fake API server holding objs, and the stream kind's ownership
// on it.
func cluster(t *testing.T, objs ...client.Object) (client.Client, *Owners[*v1alpha1.DeliveryStream]) {
	t.Helper()
	s := testScheme(t)
	newStream := func() *v1alpha1.DeliveryStream { return &v1alpha1.DeliveryStream{} }
	k := &Owners[*v1alpha1.DeliveryStream]{
		GroupKind: streamKind,
		Identity:  func(mg *v1alpha1.DeliveryStream) string { return mg.Spec.ForProvider.DeliveryStreamName },
		// Management policies are honoured.
		PoliciesHonoured: true,
	}
	kube := fake.NewClientBuilder().WithScheme(s).WithIndex(&v1alpha1.DeliveryStream{}, IndexField, k.Index).WithObjects(objs...).Build()
	return kube, &Owners[*v1alpha1.DeliveryStream]{
		Asking:    listAsking(kube),
		GroupKind: streamKind,
		Terms:     MessageTerms{Noun: "delivery stream", Field: "spec.forProvider.deliveryStreamName", Another: "another name"},
		Identity:  func(mg *v1alpha1.DeliveryStream) string { return mg.Spec.ForProvider.DeliveryStreamName },
		Metadata: func(mg *v1alpha1.DeliveryStream) *common.ResourceMetadata {
			return mg.Status.AtProvider.ACKResourceMetadata
		},
		Claims:           NewClaims("provider", streamKind.WithVersion("v1alpha1"), func() client.Object { return newStream() }, kube, kube, kube),
		Objects:          kube,
		New:              newStream,
		PoliciesHonoured: true,
		PlaceOf:          placeOf,
	}
}

// listAsking reads the objects asking for an identity through the fake
// client's copy of IndexField.
func listAsking(kube client.Reader) Asking {
	return func(ctx context.Context, id string) ([]client.Object, error) {
		l := &v1alpha1.DeliveryStreamList{}
		if err := kube.List(ctx, l, client.MatchingFields{IndexField: id}); err != nil {
			return nil, err
		}
		out := make([]client.Object, 0, len(l.Items))
		for i := range l.Items {
			out = append(out, &l.Items[i])
		}
		return out, nil
	}
}

// askerAt is where the objects the tests wrap call: ordersID's account and
// region, through the config "shared".
var askerAt = Place{Account: ordersID.Account, Region: ordersID.Region, Config: "shared"}

// placeOf places an object by its provider config's name: "missing" has no
// session (a config that does not exist or refuses it), "tenant-endpoint"
// calls an endpoint of its own, "not-built" calls through the asker's
// config, in ordersID's region, an account not known yet,
// "not-built-own-config" the same through a config of its own,
// "not-built-tenant-endpoint" the same at an endpoint of its own; every
// other calls where ordersID is, through the asker's config.
func placeOf(_ context.Context, mg *v1alpha1.DeliveryStream) (Place, bool) {
	aws := askerAt
	if ref := mg.GetProviderConfigReference(); ref != nil {
		switch ref.Name {
		case "missing":
			return Place{}, false
		case "tenant-endpoint":
			aws.Endpoint, aws.Config = "https://tenant.example", "tenant-endpoint"
		case "not-built":
			aws.Account = ""
		case "not-built-own-config":
			aws.Account, aws.Config = "", "own"
		case "not-built-tenant-endpoint":
			aws.Account, aws.Endpoint, aws.Config = "", "https://tenant.example", "not-built-tenant-endpoint"
		}
	}
	return aws, true
}

// configured sets the object's provider config.
func configured(name string) func(*v1alpha1.DeliveryStream) {
	return func(mg *v1alpha1.DeliveryStream) {
		mg.SetProviderConfigReference(&xpv2.ProviderConfigReference{Kind: "ProviderConfig", Name: name})
	}
}

func named(ns, name string, opts ...func(*v1alpha1.DeliveryStream)) *v1alpha1.DeliveryStream {
	mg := stream(ns, name, opts...)
	mg.Spec.ForProvider.DeliveryStreamName = "orders"
	return mg
}

var ordersID = Identity{Account: "000000000000", Region: "us-east-1", Kind: streamKind, Fields: "orders"}

// holder is who holds the claim of "orders"; "" when no one does.
func holder(t *testing.T, kube client.Client) string {
	t.Helper()
	l := &coordinationv1.Lease{}
	err := kube.Get(context.Background(), client.ObjectKey{Namespace: "provider", Name: claimName(ordersID)}, l)
	if err != nil {
		return ""
	}
	return l.Labels[LabelHolder]
}

// purposeOf is what the claim of "orders" is for; "" when there is none.
func purposeOf(t *testing.T, kube client.Client) Purpose {
	t.Helper()
	l := &coordinationv1.Lease{}
	if err := kube.Get(context.Background(), client.ObjectKey{Namespace: "provider", Name: claimName(ordersID)}, l); err != nil {
		return ""
	}
	return claimOf(l).Purpose
}

func claimFor(t *testing.T, kube client.Client, mg *v1alpha1.DeliveryStream, p Purpose) {
	t.Helper()
	c := NewClaims("provider", streamKind.WithVersion("v1alpha1"), func() client.Object { return &v1alpha1.DeliveryStream{} }, kube, kube, kube)
	if _, err := c.Take(context.Background(), ordersID, OwnerFor(streamKind, mg), mg.GetUID(), p); err != nil {
		t.Fatal(err)
	}
}

// markEra records that the provider keeps claims since at.
func markEra(t *testing.T, kube client.Client, at time.Time) {
	t.Helper()
	l := &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Namespace: "provider", Name: EraLease, Labels: map[string]string{LabelClaim: "true"},
		Annotations: map[string]string{AnnotationClaimsSince: at.Format(time.RFC3339Nano)}}}
	if err := kube.Create(context.Background(), l); err != nil {
		t.Fatal(err)
	}
}

// answered is an error AWS answered with.
func answered(code int) error {
	return answeredWith(code, "ServiceUnavailableException")
}

// answeredWith is AWS's answer to a create with an HTTP status and code.
func answeredWith(code int, apiCode string) error {
	return &smithy.OperationError{ServiceID: "Firehose", OperationName: "CreateDeliveryStream", Err: &smithyhttp.ResponseError{
		Response: &smithyhttp.Response{Response: &http.Response{StatusCode: code}}, Err: &smithy.GenericAPIError{Code: apiCode},
	}}
}

// testScheme knows the streams and Kubernetes' own kinds.
func testScheme(t *testing.T) *runtime.Scheme {
	t.Helper()
	s := runtime.NewScheme()
	if err := v1alpha1.SchemeBuilder.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	if err := clientgoscheme.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	return s
}

// streamCreateAnswer is Firehose's answer to a CreateDeliveryStream with
// ResourceInUseException, as the SDK returns it: what it means depends on
// the operation it answers (awserrors).
func streamCreateAnswer(message string) error {
	return &smithy.OperationError{ServiceID: "Firehose", OperationName: "CreateDeliveryStream", Err: &smithy.GenericAPIError{Code: "ResourceInUseException", Message: message}}
}
