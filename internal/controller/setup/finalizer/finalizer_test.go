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

	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/google/go-cmp/cmp"
	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/ownership"
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
			f := &Deferred{Finalizer: resource.NewAPIFinalizer(kube, managed.FinalizerName), ToCreate: NewToCreate(), PoliciesHonoured: true, Claims: claims}
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
