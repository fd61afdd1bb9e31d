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
	"strings"
	"testing"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
)

// TestClientDeleteBelievesOnlyItsOwnDelete: an object being deleted whose
// read does not find what it made calls its own Delete, whose answer is the
// evidence that it is gone; then the read is believed. One that made
// nothing is let go at once.
func TestClientDeleteBelievesOnlyItsOwnDelete(t *testing.T) {
	deleting := func(mg *v1alpha1.DeliveryStream) {
		now := metav1.Now()
		mg.DeletionTimestamp = &now
		mg.Finalizers = []string{"finalizer.managedresource.crossplane.io"}
		meta.SetExternalName(mg, "orders")
	}
	type want struct {
		exists []bool // each Observe's ResourceExists, a Delete after each that found it
		calls  []string
	}
	cases := map[string]struct {
		reason  string
		purpose Purpose // the claim self holds; "" for none
		want    want
	}{
		"MadeIt": {
			reason:  "What the object made is deleted by its own Delete, whatever a read says; after it, the read is believed.",
			purpose: Created,
			want:    want{exists: []bool{true, false}, calls: []string{"Observe", "Delete", "Observe"}},
		},
		"MadeNothing": {
			reason:  "An object whose create AWS refused for good made nothing: a read that finds nothing lets it go.",
			purpose: Denied,
			want:    want{exists: []bool{false}, calls: []string{"Observe"}},
		},
		"HoldsNothing": {
			reason: "An object that holds no claim made nothing the provider knows of.",
			want:   want{exists: []bool{false}, calls: []string{"Observe"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			self := named("team-a", "orders", deleting)
			kube, k := cluster(t, self)
			if tc.purpose != "" {
				claimFor(t, kube, self, tc.purpose)
			}
			aws := &awsStream{}
			got := want{}
			for range 3 {
				c := Wrap(ExternalClient[*v1alpha1.DeliveryStream](aws), k, askerAt)
				o, err := c.Observe(context.Background(), self)
				if err != nil {
					t.Fatal(err)
				}
				got.exists = append(got.exists, o.ResourceExists)
				if !o.ResourceExists {
					break
				}
				if _, err := c.Delete(context.Background(), self); err != nil {
					t.Fatal(err)
				}
			}
			got.calls = aws.calls
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("%s\n-want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestClientNotShownIsNotCreatedAgain: a read that does not find what the
// object made (AWS's reads can say not-found for a moment after a write)
// creates nothing for ConsistencyWindow; after it, the resource is taken as
// gone and created again.
func TestClientNotShownIsNotCreatedAgain(t *testing.T) {
	self := named("team-a", "orders", func(mg *v1alpha1.DeliveryStream) { meta.SetExternalName(mg, "orders") })
	kube, k := cluster(t, self)
	claimFor(t, kube, self, Created)
	aws := &awsStream{}
	observe := func() error {
		_, err := Wrap(ExternalClient[*v1alpha1.DeliveryStream](aws), k, askerAt).Observe(context.Background(), self)
		return err
	}
	for range 2 {
		if err := observe(); err == nil || !strings.Contains(err.Error(), "which this object made") {
			t.Fatalf("a read that does not find what the object made, within the window: %v", err)
		}
	}
	if diff := cmp.Diff(Created, purposeOf(t, kube)); diff != "" {
		t.Errorf("the claim within the window: -want, +got:\n%s", diff)
	}
	defer func(w time.Duration) { ConsistencyWindow = w }(ConsistencyWindow)
	ConsistencyWindow = 0
	if err := observe(); err != nil {
		t.Fatalf("after the window: %v", err)
	}
	if diff := cmp.Diff(ToCreate, purposeOf(t, kube)); diff != "" {
		t.Errorf("the claim after the window, for the create that follows: -want, +got:\n%s", diff)
	}
}
