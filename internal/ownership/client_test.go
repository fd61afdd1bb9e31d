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
	"errors"
	"strings"
	"testing"
	"time"

	smithy "github.com/aws/smithy-go"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/clients/tags"
)

// awsStream is a fake external client: a stream that exists in AWS with
// tags, and the calls made to it.
type awsStream struct {
	exists  bool
	tags    map[string]string
	created time.Time
	calls   []string
	// createErr is Create's answer; observeErr fails Observe half-way,
	// after it marked the object Available.
	createErr, observeErr error
}

func (a *awsStream) Observe(_ context.Context, mg *v1alpha1.DeliveryStream) (managed.ExternalObservation, error) {
	a.calls = append(a.calls, "Observe")
	if !a.exists {
		return managed.ExternalObservation{}, nil
	}
	// What a kind's Observe does to the object: status and late-init.
	mg.Status.AtProvider.ACKResourceMetadata = &common.ResourceMetadata{ARN: new("arn:aws:firehose:us-east-1:000000000000:deliverystream/orders")}
	mg.Spec.ForProvider.DeliveryStreamType = new("DirectPut")
	if a.observeErr != nil {
		mg.SetConditions(xpv2.Available())
		return managed.ExternalObservation{}, a.observeErr
	}
	return managed.ExternalObservation{ResourceExists: true, ResourceUpToDate: true}, nil
}

func (a *awsStream) Create(context.Context, *v1alpha1.DeliveryStream) (managed.ExternalCreation, error) {
	a.calls = append(a.calls, "Create")
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

func (a *awsStream) Found() Finding {
	return Finding{Created: a.created, Tags: &tags.Service{
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

func streamOwnership() *Kind[*v1alpha1.DeliveryStream] {
	return &Kind[*v1alpha1.DeliveryStream]{
		GroupKind: streamKind,
		Words:     Words{Noun: "delivery stream", Field: "spec.forProvider.deliveryStreamName", Another: "another name"},
		Identity:  func(mg *v1alpha1.DeliveryStream) string { return mg.Spec.ForProvider.DeliveryStreamName },
		Metadata: func(mg *v1alpha1.DeliveryStream) *common.ResourceMetadata {
			return mg.Status.AtProvider.ACKResourceMetadata
		},
		AlreadyExists:    []string{"ResourceInUseException: already exists"},
		List:             &v1alpha1.DeliveryStreamList{},
		PoliciesHonoured: true,
	}
}

func named(ns, name string, opts ...func(*v1alpha1.DeliveryStream)) *v1alpha1.DeliveryStream {
	mg := stream(ns, name, opts...)
	mg.Spec.ForProvider.DeliveryStreamName = "orders"
	mg.CreationTimestamp = metav1.NewTime(t0)
	return mg
}

func cluster(t *testing.T, k *Kind[*v1alpha1.DeliveryStream], objs ...client.Object) client.Client {
	t.Helper()
	s := runtime.NewScheme()
	if err := v1alpha1.SchemeBuilder.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	return fake.NewClientBuilder().WithScheme(s).WithIndex(&v1alpha1.DeliveryStream{}, IndexField, k.Index).WithObjects(objs...).Build()
}

func TestClientObserve(t *testing.T) {
	teamAOwner := named("team-a", "orders", func(mg *v1alpha1.DeliveryStream) { meta.SetExternalCreateSucceeded(mg, t0) })
	observeOnly := func(mg *v1alpha1.DeliveryStream) {
		mg.SetManagementPolicies(xpv2.ManagementPolicies{xpv2.ManagementActionObserve})
	}
	type want struct {
		exists, upToDate bool
		err              string
		calls            []string
		ready            xpv2.ConditionReason
		arn              bool // the object shows an ARN afterwards
	}
	cases := map[string]struct {
		mg     *v1alpha1.DeliveryStream
		others []client.Object
		aws    *awsStream
		want   want
	}{
		"NothingInAWS": {mg: named("team-b", "orders"), aws: &awsStream{},
			want: want{calls: []string{"Observe"}}},
		"HeldByAnotherObjectRefusedWithoutReadingTags": {mg: named("team-b", "orders"), others: []client.Object{teamAOwner}, aws: &awsStream{exists: true},
			want: want{err: "managed by team-a/orders of this cluster", calls: []string{"Observe"}, ready: ReasonNotOwned}},
		"HeldByAnObserveOnlyObjectIsNotHeld": {mg: named("team-b", "orders", adopting), others: []client.Object{named("team-a", "orders", observeOnly, func(mg *v1alpha1.DeliveryStream) {
			meta.SetExternalCreateSucceeded(mg, t0)
		})}, aws: &awsStream{exists: true, tags: map[string]string{}},
			want: want{exists: true, calls: []string{"Observe", "ListTags"}, arn: true}},
		"ObserveOnlyReadsWithoutOwning": {mg: named("team-b", "orders", observeOnly), others: []client.Object{teamAOwner}, aws: &awsStream{exists: true},
			want: want{exists: true, upToDate: true, calls: []string{"Observe"}, arn: true}},
		"ARefusedObjectBeingDeletedIsLetGo": {mg: named("team-b", "orders", func(mg *v1alpha1.DeliveryStream) {
			mg.SetDeletionTimestamp(&metav1.Time{Time: t0})
		}), others: []client.Object{teamAOwner}, aws: &awsStream{exists: true},
			want: want{calls: []string{"Observe"}}},
		"OwnTagsAfterALostCreate": {mg: named("team-b", "orders", func(mg *v1alpha1.DeliveryStream) { meta.SetExternalCreatePending(mg, t0) }),
			aws:  &awsStream{exists: true, tags: OwnerTags(streamKind, named("team-b", "orders"))},
			want: want{exists: true, upToDate: true, calls: []string{"Observe", "ListTags"}, arn: true}},
		"AdoptionNeedsAnUpdateForTheOwnerTags": {mg: named("team-b", "orders", adopting), aws: &awsStream{exists: true, tags: map[string]string{"team": "x"}},
			want: want{exists: true, calls: []string{"Observe", "ListTags"}, arn: true}},
		"MadeOutsideRefused": {mg: named("team-b", "orders"), aws: &awsStream{exists: true, tags: map[string]string{}},
			want: want{err: "made outside this cluster", calls: []string{"Observe", "ListTags"}, ready: ReasonNotOwned}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			k := streamOwnership()
			c := Wrap(tc.aws, k, cluster(t, k, tc.others...), "000000000000", "us-east-1")
			mg := tc.mg.DeepCopy()
			before := mg.DeepCopy()
			o, err := c.Observe(context.Background(), mg)
			got := want{exists: o.ResourceExists, upToDate: o.ResourceUpToDate, calls: tc.aws.calls, ready: mg.GetCondition(xpv2.TypeReady).Reason,
				arn: mg.Status.AtProvider.ACKResourceMetadata != nil}
			if err != nil {
				got.err = tc.want.err
				if !strings.Contains(err.Error(), tc.want.err) {
					got.err = err.Error()
				}
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("-want, +got:\n%s", diff)
			}
			if tc.want.err != "" || (!tc.want.exists && tc.aws.exists) {
				// Nothing read of a resource the object does not own is
				// kept: neither the ARN nor a late-initialized value.
				mg.Status.Conditions = before.Status.Conditions
				if diff := cmp.Diff(before, mg); diff != "" {
					t.Errorf("a refused object kept what was read: -before, +after:\n%s", diff)
				}
			}
		})
	}
}

// A look that fails half-way at a resource the object has no record of keeps
// nothing it read: not a Ready condition set before the failure (the crash
// storm saw a refused object Ready after a throttled tag read).
func TestClientAFailedLookKeepsNothingWithoutARecord(t *testing.T) {
	k := streamOwnership()
	for name, tc := range map[string]struct {
		mg    *v1alpha1.DeliveryStream
		ready bool
	}{
		"NoRecord": {mg: named("team-b", "orders"), ready: false},
		"Created":  {mg: named("team-a", "orders", func(mg *v1alpha1.DeliveryStream) { meta.SetExternalCreateSucceeded(mg, t0) }), ready: true},
	} {
		t.Run(name, func(t *testing.T) {
			c := Wrap(&awsStream{exists: true, observeErr: errors.New("ThrottlingException")}, k, cluster(t, k), "000000000000", "us-east-1")
			mg := tc.mg.DeepCopy()
			if _, err := c.Observe(context.Background(), mg); err == nil {
				t.Fatal("the failed look succeeded")
			}
			if got := mg.GetCondition(xpv2.TypeReady).Status == corev1.ConditionTrue; got != tc.ready {
				t.Errorf("Ready after a failed look: got %v, want %v", got, tc.ready)
			}
		})
	}
}

func TestClientUpdateSetsTheOwnerTagsOfAnAdoption(t *testing.T) {
	k := streamOwnership()
	a := &awsStream{exists: true, tags: map[string]string{
		"crossplane-kind": "deliverystream.streaming.services.k8s.aws", "crossplane-namespace": "team-a", "crossplane-name": "orders", "team": "x",
	}}
	c := Wrap(a, k, cluster(t, k), "000000000000", "us-east-1")
	mg := named("team-b", "orders", adopting)
	if _, err := c.Observe(context.Background(), mg); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Update(context.Background(), mg); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"Observe", "ListTags", "Tag", "Update"}, a.calls); diff != "" {
		t.Errorf("calls -want, +got:\n%s", diff)
	}
	if o, ok := OwnerOf(a.tags); !ok || !o.Is(streamKind, mg) || a.tags["team"] != "x" {
		t.Errorf("after adoption the tags are %v", a.tags)
	}
}

func TestClientCreate(t *testing.T) {
	alreadyExists := &smithy.GenericAPIError{Code: "ResourceInUseException", Message: "Firehose orders under account 000000000000 already exists."}
	teamAOwner := named("team-a", "orders", func(mg *v1alpha1.DeliveryStream) { meta.SetExternalCreateSucceeded(mg, t0) })
	cases := map[string]struct {
		others []client.Object
		aws    *awsStream
		err    string
		calls  []string
	}{
		"Created":                     {aws: &awsStream{}, calls: []string{"Create"}},
		"HeldByAnotherIsNeverCreated": {others: []client.Object{teamAOwner}, aws: &awsStream{}, err: "managed by team-a/orders", calls: nil},
		"AlreadyExistsOwnLostCreate": {aws: &awsStream{exists: true, createErr: alreadyExists, tags: OwnerTags(streamKind, named("team-b", "orders"))},
			calls: []string{"Create", "Observe", "ListTags"}},
		"AlreadyExistsSomeoneElses": {aws: &awsStream{exists: true, createErr: alreadyExists, tags: OwnerTags(streamKind, named("team-c", "orders"))},
			err: "created by team-c/orders (its crossplane-namespace and crossplane-name tags)", calls: []string{"Create", "Observe", "ListTags"}},
		"AlreadyExistsButHidden": {aws: &awsStream{createErr: alreadyExists}, err: "does not show it yet", calls: []string{"Create", "Observe"}},
		"OtherErrorsPassThrough": {aws: &awsStream{createErr: errors.New("boom")}, err: "boom", calls: []string{"Create"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			k := streamOwnership()
			c := Wrap(tc.aws, k, cluster(t, k, tc.others...), "000000000000", "us-east-1")
			mg := named("team-b", "orders", func(mg *v1alpha1.DeliveryStream) { meta.SetExternalCreatePending(mg, t0) })
			_, err := c.Create(context.Background(), mg)
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if (tc.err == "") != (gotErr == "") || !strings.Contains(gotErr, tc.err) {
				t.Errorf("error: want %q in %q", tc.err, gotErr)
			}
			if diff := cmp.Diff(tc.calls, tc.aws.calls); diff != "" {
				t.Errorf("calls -want, +got:\n%s", diff)
			}
		})
	}
}

func TestIndexSkipsObserveOnlyObjects(t *testing.T) {
	k := streamOwnership()
	if got := k.Index(named("team-a", "orders")); !cmp.Equal(got, []string{"orders"}) {
		t.Errorf("index of a managing object: %v", got)
	}
	ro := named("team-a", "orders")
	ro.SetManagementPolicies(xpv2.ManagementPolicies{xpv2.ManagementActionObserve})
	if got := k.Index(ro); got != nil {
		t.Errorf("index of an observe-only object: %v", got)
	}
	if got := k.Index(&corev1.Secret{}); got != nil {
		t.Errorf("index of another kind: %v", got)
	}
}
