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

package finalizer

import (
	"context"
	"testing"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/ownership"
)

// TestRemoveFinalizerLetsClaimsGoOrKeepsThem: a deletion that finished
// releases the object's claims; one that leaves the resource behind (deletion
// policy retain, management policies without Delete) keeps them for the
// object's namespace.
func TestRemoveFinalizerLetsClaimsGoOrKeepsThem(t *testing.T) {
	observeOnly := xpv2.ManagementPolicies{xpv2.ManagementActionObserve, xpv2.ManagementActionCreate, xpv2.ManagementActionUpdate}
	cases := map[string]struct {
		reason    string
		policies  xpv2.ManagementPolicies
		retaining bool
		want      ownership.Purpose // "" for released
	}{
		"Deleted":                {reason: "The resource was deleted: the claim is released.", want: ""},
		"PoliciesWithoutDelete":  {reason: "Management policies without Delete leave the resource: kept for the namespace.", policies: observeOnly, want: ownership.Retained},
		"DeletionPolicyRetained": {reason: "Deletion policy retain leaves the resource: kept for the namespace.", retaining: true, want: ownership.Retained},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := runtime.NewScheme()
			_ = clientgoscheme.AddToScheme(s)
			_ = v1alpha1.SchemeBuilder.AddToScheme(s)
			now := metav1.Now()
			mg := &v1alpha1.DeliveryStream{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "orders", UID: "uid-orders",
				DeletionTimestamp: &now, Finalizers: []string{managed.FinalizerName}}}
			mg.SetManagementPolicies(tc.policies)
			if tc.policies == nil {
				mg.SetManagementPolicies(xpv2.ManagementPolicies{xpv2.ManagementActionAll})
			}
			kube := fake.NewClientBuilder().WithScheme(s).WithObjects(mg).Build()
			gk := v1alpha1.DeliveryStreamGroupVersionKind.GroupKind()
			claims := ownership.NewClaims("provider", gk.WithVersion("v1alpha1"), func() client.Object { return &v1alpha1.DeliveryStream{} }, kube, kube, kube)
			id := ownership.Identity{Account: "111122223333", Region: "us-east-1", Kind: gk, Fields: "orders"}
			if _, err := claims.Take(context.Background(), id, ownership.OwnerFor(gk, mg), mg.UID, ownership.ToCreate); err != nil {
				t.Fatal(err)
			}
			f := &Batched{Finalizer: resource.NewAPIFinalizer(kube, managed.FinalizerName), ToCreate: NewToCreate(), PoliciesHonoured: true, Claims: claims}
			var fin resource.Finalizer = f
			if tc.retaining {
				fin = f.Retaining()
			}
			if err := fin.RemoveFinalizer(context.Background(), mg); err != nil {
				t.Fatal(err)
			}
			var got ownership.Purpose
			l := &coordinationv1.LeaseList{}
			if err := kube.List(context.Background(), l, client.InNamespace("provider")); err != nil {
				t.Fatal(err)
			}
			for _, lease := range l.Items {
				got = ownership.Purpose(lease.Annotations["ownership.services.k8s.aws/purpose"])
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n-want, +got:\n%s", tc.reason, diff)
			}
			if len(mg.GetFinalizers()) != 0 {
				t.Errorf("the finalizer stays: %v", mg.GetFinalizers())
			}
		})
	}
}

// TestAddFinalizerLabels: the labels the work needs ride on the write that
// adds the finalizer, or on the create's when it is deferred; an object
// that has its finalizer is written only when a label is missing or wrong.
func TestAddFinalizerLabels(t *testing.T) {
	shard := map[string]string{"shards.services.k8s.aws/shard": "3"}
	type want struct {
		inMemory, stored map[string]string
		finalizerStored  bool
		writes           int
	}
	cases := map[string]struct {
		reason    string
		labels    map[string]string // the object's before
		finalizer bool
		toCreate  bool
		want      want
	}{
		"NewObjectAboutToCreate": {
			reason:   "Before a create, the labels and the finalizer stay in memory for the create's own write.",
			toCreate: true,
			want:     want{inMemory: shard},
		},
		"NewObjectThatExistsOnAWS": {
			reason: "An object whose resource exists gets the finalizer and the labels in one write.",
			want:   want{inMemory: shard, stored: shard, finalizerStored: true, writes: 1},
		},
		"LabelledAlready": {
			reason: "An object with its finalizer and labels is not written.", labels: shard, finalizer: true,
			want: want{inMemory: shard, stored: shard, finalizerStored: true},
		},
		"LabelledWithAnotherShard": {
			reason: "An object whose account's shard changed is written once, with the new one.", labels: map[string]string{"shards.services.k8s.aws/shard": "5", "team": "a"}, finalizer: true,
			want: want{inMemory: map[string]string{"shards.services.k8s.aws/shard": "3", "team": "a"}, stored: map[string]string{"shards.services.k8s.aws/shard": "3", "team": "a"}, finalizerStored: true, writes: 1},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := runtime.NewScheme()
			_ = v1alpha1.SchemeBuilder.AddToScheme(s)
			mg := &v1alpha1.DeliveryStream{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "orders", UID: "uid-orders", Labels: tc.labels}}
			if tc.finalizer {
				mg.Finalizers = []string{managed.FinalizerName}
			}
			mg.SetManagementPolicies(xpv2.ManagementPolicies{xpv2.ManagementActionAll})
			writes := 0
			kube := fake.NewClientBuilder().WithScheme(s).WithObjects(mg.DeepCopy()).WithInterceptorFuncs(interceptor.Funcs{
				Update: func(ctx context.Context, c client.WithWatch, obj client.Object, o ...client.UpdateOption) error {
					writes++
					return c.Update(ctx, obj, o...)
				},
			}).Build()
			if err := kube.Get(context.Background(), client.ObjectKeyFromObject(mg), mg); err != nil {
				t.Fatal(err)
			}
			toCreate := NewToCreate()
			if tc.toCreate {
				toCreate.Observed(mg, managed.ExternalObservation{ResourceExists: false}, nil)
			}
			f := &Batched{Finalizer: resource.NewAPIFinalizer(kube, managed.FinalizerName), ToCreate: toCreate, PoliciesHonoured: true, Kube: kube,
				Labels: func(context.Context) map[string]string { return shard }}
			if err := f.AddFinalizer(context.Background(), mg); err != nil {
				t.Fatal(err)
			}
			stored := &v1alpha1.DeliveryStream{}
			if err := kube.Get(context.Background(), client.ObjectKeyFromObject(mg), stored); err != nil {
				t.Fatal(err)
			}
			got := want{inMemory: mg.GetLabels(), stored: stored.GetLabels(), finalizerStored: len(stored.GetFinalizers()) > 0, writes: writes}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{}), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("%s\n-want, +got:\n%s", tc.reason, diff)
			}
			if !meta.FinalizerExists(mg, managed.FinalizerName) {
				t.Error("the object has no finalizer in memory")
			}
		})
	}
}
