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
	"strings"
	"testing"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
)

var streamKind = schema.GroupKind{Group: "streaming.services.k8s.aws", Kind: "DeliveryStream"}

func stream(ns, name string, opts ...func(*v1alpha1.DeliveryStream)) *v1alpha1.DeliveryStream {
	mg := &v1alpha1.DeliveryStream{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID("uid-" + ns + "-" + name)}}
	mg.Spec.ProviderConfigReference = &xpv2.ProviderConfigReference{Kind: "ClusterProviderConfig", Name: "default"}
	// The CRD's default.
	mg.SetManagementPolicies(xpv2.ManagementPolicies{xpv2.ManagementActionAll})
	for _, o := range opts {
		o(mg)
	}
	return mg
}

func adopting(mg *v1alpha1.DeliveryStream) {
	mg.SetAnnotations(map[string]string{AnnotationAdoptionPolicy: AdoptionPolicyAdopt})
}

var (
	t0     = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	kindA  = "deliverystream.streaming.services.k8s.aws"
	ownerA = Owner{Kind: kindA, Namespace: "team-a", Name: "orders", UID: "uid-team-a-orders"}
	ownerB = Owner{Kind: kindA, Namespace: "team-b", Name: "orders", UID: "uid-team-b-orders"}
)

func TestOwnerTags(t *testing.T) {
	got := OwnerTags(streamKind, stream("team-b", "orders"))
	want := map[string]string{
		"crossplane-kind": kindA, "crossplane-namespace": "team-b", "crossplane-name": "orders",
		"crossplane-providerconfig": "default", "crossplane-providerconfig-kind": "ClusterProviderConfig",
		"crossplane-uid": "uid-team-b-orders",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("-want, +got:\n%s", diff)
	}
	if len(got) != OwnerTagCount {
		t.Errorf("%d owner tags, OwnerTagCount says %d", len(got), OwnerTagCount)
	}
	o, ok := OwnerOf(got)
	if !ok || o != ownerB {
		t.Errorf("the owner tags do not name their object: %+v", o)
	}
	if _, ok := OwnerOf(map[string]string{"crossplane-name": "orders"}); ok {
		t.Error("a name alone names an owner")
	}
}

func TestAdoptionARN(t *testing.T) {
	const arn = "arn:aws:firehose:us-east-1:000000000000:deliverystream/orders"
	cases := map[string]struct {
		annotations map[string]string
		want        string
		wantErr     bool
	}{
		"NoAdoption":          {annotations: map[string]string{AnnotationAdoptionFields: `{"arn": "` + arn + `"}`}},
		"AdoptionWithoutARN":  {annotations: map[string]string{AnnotationAdoptionPolicy: AdoptionPolicyAdopt}},
		"AdoptionOfAnARN":     {annotations: map[string]string{AnnotationAdoptionPolicy: AdoptionPolicyAdopt, AnnotationAdoptionFields: `{"arn": "` + arn + `"}`}, want: arn},
		"NotJSON":             {annotations: map[string]string{AnnotationAdoptionPolicy: AdoptionPolicyAdopt, AnnotationAdoptionFields: arn}, wantErr: true},
		"NotAnARN":            {annotations: map[string]string{AnnotationAdoptionPolicy: AdoptionPolicyAdopt, AnnotationAdoptionFields: `{"arn": "orders"}`}, wantErr: true},
		"FieldsWithoutAnyARN": {annotations: map[string]string{AnnotationAdoptionPolicy: AdoptionPolicyAdopt, AnnotationAdoptionFields: `{"name": "orders"}`}, wantErr: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mg := stream("team-a", "orders")
			mg.SetAnnotations(tc.annotations)
			got, err := AdoptionARN(mg)
			if (err != nil) != tc.wantErr || got != tc.want {
				t.Errorf("AdoptionARN: got %q, %v; want %q, error %v", got, err, tc.want, tc.wantErr)
			}
			if err != nil && !strings.Contains(err.Error(), AnnotationAdoptionFields) {
				t.Errorf("the error does not name the annotation: %v", err)
			}
		})
	}
}

func TestMessage(t *testing.T) {
	w := MessageTerms{Noun: "delivery stream", Field: "spec.forProvider.deliveryStreamName", Another: "another name"}
	cases := map[string]struct {
		d Decision
		// reader is the namespace of the object refused; team-b when "".
		reader string
		want   []string
		not    []string
	}{
		"Held": {d: Decision{HeldBy: &ownerA, Lease: "crossplane-system/aws-owner-1"},
			want: []string{`delivery stream "orders" (spec.forProvider.deliveryStreamName) belongs to an object of another namespace of this cluster`, "cannot adopt it while", "choose another name", "An admin sees which object in the ownership claim, the Lease crossplane-system/aws-owner-1"},
			not:  []string{"adopt it with", "team-a"}},
		"HeldInItsNamespace": {d: Decision{HeldBy: &ownerA}, reader: "team-a",
			want: []string{`delivery stream "orders" (spec.forProvider.deliveryStreamName) belongs to team-a/orders of this cluster`}},
		"AskedFirst": {d: Decision{AskedFirst: &ownerA},
			want: []string{"was asked for first by an object of another namespace of this cluster", "choose another name"}, not: []string{"team-a"}},
		"AskedFirstInItsNamespace": {d: Decision{AskedFirst: &ownerA}, reader: "team-a",
			want: []string{"was asked for first by team-a/orders of this cluster"}},
		"TaggedByAnObjectStillHere": {d: Decision{Evidence: MakerEvidence{Owner: &ownerA, InCluster: true}},
			want: []string{"created by an object of another namespace (its crossplane-namespace and crossplane-name tags)", "cannot adopt it while that object exists"}, not: []string{"adopt it with", "team-a"}},
		"TaggedByAnObjectOfItsNamespace": {d: Decision{Evidence: MakerEvidence{Owner: &ownerA, InCluster: true}}, reader: "team-a",
			want: []string{"created by team-a/orders (its crossplane-namespace and crossplane-name tags)"}},
		"TaggedElsewhere": {d: Decision{Evidence: MakerEvidence{Owner: &ownerA}},
			want: []string{"created by an object of another namespace of another cluster or by an earlier object of that name", "choose another name", "can tell whether it is still managed; only then adopt it (annotation services.k8s.aws/adoption-policy=adopt)"},
			not:  []string{"if no other object manages it", "team-a"}},
		"MadeOutside": {d: Decision{}, want: []string{"made outside this cluster", "choose another name", "only once they hand it over, adopt it (annotation services.k8s.aws/adoption-policy=adopt)"},
			not: []string{"if no other object manages it"}},
		"RetainedByAnotherNamespace": {d: Decision{HeldBy: &ownerA, Retained: true, Lease: "crossplane-system/aws-owner-1"},
			want: []string{`delivery stream "orders" (spec.forProvider.deliveryStreamName) was kept on AWS for its namespace by an object of another namespace`, "cannot adopt it", "choose another name", "annotating the claim, the Lease crossplane-system/aws-owner-1, with ownership.services.k8s.aws/handed-to: <namespace>"},
			not:  []string{"adopt it with", "belongs to", "team-a"}},
		"TaggedForAnotherNamespace": {d: Decision{Evidence: MakerEvidence{Owner: &ownerA}, OtherNamespace: "team-a"},
			want: []string{"tagged for another namespace", "an object of another namespace cannot adopt it", "choose another name"}, not: []string{"adopt it with", "team-a"}},
		"AdoptionOfAnotherARN": {d: Decision{AdoptARN: "arn:want", Evidence: MakerEvidence{ARN: "arn:found"}},
			want: []string{"the adoption asks for arn:want (annotation services.k8s.aws/adoption-fields)", "is arn:found", "this object does not manage it"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			reader := tc.reader
			if reader == "" {
				reader = "team-b"
			}
			m := tc.d.Message(w, "orders", reader)
			for _, s := range tc.want {
				if !strings.Contains(m, s) {
					t.Errorf("%q does not say %q", m, s)
				}
			}
			for _, s := range tc.not {
				if strings.Contains(m, s) {
					t.Errorf("%q says %q", m, s)
				}
			}
			if strings.Contains(m, "delete") {
				t.Errorf("%q advises deleting", m)
			}
		})
	}
}

func TestMayWrite(t *testing.T) {
	cases := map[string]struct {
		policies xpv2.ManagementPolicies
		honoured bool
		want     bool
	}{
		"Default":                  {policies: xpv2.ManagementPolicies{xpv2.ManagementActionAll}, honoured: true, want: true},
		"ObserveOnly":              {policies: xpv2.ManagementPolicies{xpv2.ManagementActionObserve}, honoured: true, want: false},
		"ObserveAndDelete":         {policies: xpv2.ManagementPolicies{xpv2.ManagementActionObserve, xpv2.ManagementActionDelete}, honoured: true, want: true},
		"ObserveOnlyNotHonoured":   {policies: xpv2.ManagementPolicies{xpv2.ManagementActionObserve}, honoured: false, want: true},
		"ObserveAndLateInitialize": {policies: xpv2.ManagementPolicies{xpv2.ManagementActionObserve, xpv2.ManagementActionLateInitialize}, honoured: true, want: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mg := stream("team-a", "orders")
			mg.SetManagementPolicies(tc.policies)
			if got := MayWrite(mg, tc.honoured); got != tc.want {
				t.Errorf("Writes: got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestShowsConfiguration(t *testing.T) {
	cases := map[string]struct {
		reason   string
		policies xpv2.ManagementPolicies
		adopts   bool
		want     bool
	}{
		"Default":          {reason: "An object that manages its resource has its configuration in its spec.", policies: xpv2.ManagementPolicies{xpv2.ManagementActionAll}},
		"NoPolicies":       {reason: "No policies are the CRD's default, all of them."},
		"ObserveOnly":      {reason: "An import shows what its user copies into its spec.", policies: xpv2.ManagementPolicies{xpv2.ManagementActionObserve}, want: true},
		"ObserveAndDelete": {reason: "Without Update the spec does not manage the configuration.", policies: xpv2.ManagementPolicies{xpv2.ManagementActionObserve, xpv2.ManagementActionDelete}, want: true},
		"ObserveAndUpdate": {reason: "An object that updates manages the configuration.", policies: xpv2.ManagementPolicies{xpv2.ManagementActionObserve, xpv2.ManagementActionUpdate}},
		"Adopting":         {reason: "An object that adopts shows what it adopts.", policies: xpv2.ManagementPolicies{xpv2.ManagementActionAll}, adopts: true, want: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mg := stream("team-a", "orders")
			mg.SetManagementPolicies(tc.policies)
			if tc.adopts {
				meta.AddAnnotations(mg, map[string]string{AnnotationAdoptionPolicy: AdoptionPolicyAdopt})
			}
			if diff := cmp.Diff(tc.want, ShowsConfiguration(mg)); diff != "" {
				t.Errorf("%s\nShowsConfiguration(): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
