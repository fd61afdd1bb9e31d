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
	"testing"

	"github.com/google/go-cmp/cmp"
	coordinationv1 "k8s.io/api/coordination/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
)

// TestClaimNames: a claim on AWS's own endpoint keeps the name it had before
// endpoints told identities apart (the claims of an upgraded provider stay
// held), and the same name, account and region at another endpoint is
// another claim.
func TestClaimNames(t *testing.T) {
	aws := Identity{Account: "111122223333", Region: "us-east-1", Kind: schema.GroupKind{Group: "streaming.services.k8s.aws", Kind: "DeliveryStream"}, Fields: "orders"}
	tenant, other := aws, aws
	tenant.Endpoint, other.Endpoint = "https://tenant.example", "https://other.example"

	got := map[string]string{"aws": claimName(aws), "tenant": claimName(tenant), "other": claimName(other)}
	want := map[string]string{
		// sha256 of "111122223333\x00us-east-1\x00DeliveryStream.streaming.services.k8s.aws\x00orders", as claims were named before.
		"aws":    "aws-owner-e418678763efc1d3bb10c2f1c55baa3b6e30b417",
		"tenant": got["tenant"], "other": got["other"],
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("claim names: -want, +got:\n%s", diff)
	}
	if got["tenant"] == got["aws"] || got["tenant"] == got["other"] {
		t.Errorf("endpoints share a claim: %v", got)
	}
}

// TestRepurposeHeld: a claim the holder took in this reconcile changes its
// purpose with one write and no read; one changed meanwhile, or not held as
// answered, is read first, and one another object took is not written.
func TestRepurposeHeld(t *testing.T) {
	teamA := named("team-a", "orders")
	cases := map[string]struct {
		held    bool
		between func(t *testing.T, kube client.Client) // after the Take, before the Repurpose
		err     bool
		want    []string // the requests, after the Take's
		purpose Purpose
	}{
		"HeldAsAnswered": {
			held:    true,
			want:    []string{"update"},
			purpose: Created,
		},
		"NotHeld": {
			want:    []string{"get", "update"},
			purpose: Created,
		},
		"ChangedMeanwhile": {
			held:    true,
			between: changeClaim(func(l *coordinationv1.Lease) { l.Annotations[AnnotationHandedTo] = "team-b" }),
			want:    []string{"update", "get", "update"},
			purpose: Created,
		},
		"TakenByAnother": {
			held:    true,
			between: changeClaim(func(l *coordinationv1.Lease) { l.Labels[LabelHolder] = "another" }),
			err:     true,
			want:    []string{"update", "get"},
			purpose: ToCreate,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var requests []string
			counting := false
			kube := fake.NewClientBuilder().WithInterceptorFuncs(interceptor.Funcs{
				Get: func(ctx context.Context, c client.WithWatch, key client.ObjectKey, o client.Object, opts ...client.GetOption) error {
					if counting {
						requests = append(requests, "get")
					}
					return c.Get(ctx, key, o, opts...)
				},
				Update: func(ctx context.Context, c client.WithWatch, o client.Object, opts ...client.UpdateOption) error {
					if counting {
						requests = append(requests, "update")
					}
					return c.Update(ctx, o, opts...)
				},
			}).Build()
			c := NewClaims("provider", streamKind.WithVersion("v1alpha1"), func() client.Object { return &v1alpha1.DeliveryStream{} }, kube, kube, kube)
			cl, err := c.Take(context.Background(), ordersID, OwnerFor(streamKind, teamA), teamA.GetUID(), ToCreate)
			if err != nil {
				t.Fatal(err)
			}
			if tc.between != nil {
				tc.between(t, kube)
			}
			counting = true
			if !tc.held {
				cl = nil
			}
			err = c.Repurpose(context.Background(), ordersID, teamA.GetUID(), Created, cl)
			if (err != nil) != tc.err {
				t.Errorf("Repurpose(...): error %v, want an error: %t", err, tc.err)
			}
			if diff := cmp.Diff(tc.want, requests); diff != "" {
				t.Errorf("requests: -want, +got:\n%s", diff)
			}
			counting = false
			if diff := cmp.Diff(tc.purpose, purposeOf(t, kube)); diff != "" {
				t.Errorf("the claim's purpose: -want, +got:\n%s", diff)
			}
		})
	}
}

// changeClaim changes the claim of "orders" at the API server as change
// says, as another writer would.
func changeClaim(change func(*coordinationv1.Lease)) func(*testing.T, client.Client) {
	return func(t *testing.T, kube client.Client) {
		t.Helper()
		l := &coordinationv1.Lease{}
		if err := kube.Get(context.Background(), client.ObjectKey{Namespace: "provider", Name: claimName(ordersID)}, l); err != nil {
			t.Fatal(err)
		}
		change(l)
		if err := kube.Update(context.Background(), l); err != nil {
			t.Fatal(err)
		}
	}
}

// TestHoldsAny: an object holds a claim only where the claim names it; a
// UID, which is no secret, names nothing of another object.
func TestHoldsAny(t *testing.T) {
	teamA := named("team-a", "orders")
	kube := fake.NewClientBuilder().Build()
	c := NewClaims("provider", streamKind.WithVersion("v1alpha1"), func() client.Object { return &v1alpha1.DeliveryStream{} }, kube, kube, kube)
	if _, err := c.Take(context.Background(), ordersID, OwnerFor(streamKind, teamA), teamA.GetUID(), ToCreate); err != nil {
		t.Fatal(err)
	}
	self := OwnerFor(streamKind, teamA)
	asked := map[string]Owner{
		"itself":                       self,
		"its UID in another namespace": {Kind: self.Kind, Namespace: "team-b", Name: self.Name, UID: self.UID},
		"its UID under another name":   {Kind: self.Kind, Namespace: self.Namespace, Name: "ghost", UID: self.UID},
	}
	got := map[string]bool{}
	for what, o := range asked {
		held, err := HoldsAny(context.Background(), kube, "provider", o)
		if err != nil {
			t.Fatal(err)
		}
		got[what] = held
	}
	if diff := cmp.Diff(map[string]bool{"itself": true, "its UID in another namespace": false, "its UID under another name": false}, got); diff != "" {
		t.Errorf("holds a claim, by the object asked: -want, +got:\n%s", diff)
	}
}

// TestTakeOfADeniedClaimRetakenMeanwhile: an object takes over a claim that
// holds nothing (Denied) only as it read it: if its holder takes it again to
// create meanwhile, the holder keeps it.
func TestTakeOfADeniedClaimRetakenMeanwhile(t *testing.T) {
	teamA, teamB := named("team-a", "orders"), named("team-b", "orders")
	var c *Claims
	retaken := false
	kube := fake.NewClientBuilder().WithScheme(testScheme(t)).WithObjects(teamA, teamB).WithInterceptorFuncs(interceptor.Funcs{
		Delete: func(ctx context.Context, cl client.WithWatch, o client.Object, opts ...client.DeleteOption) error {
			if !retaken {
				// Team B's next create takes its claim again first.
				retaken = true
				if err := c.Repurpose(ctx, ordersID, teamB.GetUID(), ToCreate, nil); err != nil {
					t.Fatal(err)
				}
			}
			return cl.Delete(ctx, o, opts...)
		},
	}).Build()
	c = NewClaims("provider", streamKind.WithVersion("v1alpha1"), func() client.Object { return &v1alpha1.DeliveryStream{} }, kube, kube, kube)
	if _, err := c.Take(context.Background(), ordersID, OwnerFor(streamKind, teamB), teamB.GetUID(), ToCreate); err != nil {
		t.Fatal(err)
	}
	if err := c.Repurpose(context.Background(), ordersID, teamB.GetUID(), Denied, nil); err != nil {
		t.Fatal(err)
	}
	got, err := c.Take(context.Background(), ordersID, OwnerFor(streamKind, teamA), teamA.GetUID(), ToCreate)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(teamB.GetUID(), got.Holder); diff != "" {
		t.Errorf("the claim Take answers: -want, +got:\n%s", diff)
	}
	if diff := cmp.Diff("uid-team-b-orders", holder(t, kube)); diff != "" {
		t.Errorf("the claim at the API server: -want, +got:\n%s", diff)
	}
}
