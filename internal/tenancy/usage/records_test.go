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

package usage

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/cloudkinds/provider-aws-services/apis"
	streamingv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
)

const (
	ns    = "team-a"
	mgUID = "0b6f6a2e-mg"
)

func stream(mod ...func(*streamingv1alpha1.DeliveryStream)) *streamingv1alpha1.DeliveryStream {
	mg := &streamingv1alpha1.DeliveryStream{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "logs", UID: mgUID}}
	mg.SetProviderConfigReference(&xpv2.ProviderConfigReference{Kind: v1alpha1.ClusterProviderConfigKind, Name: "shared"})
	for _, m := range mod {
		m(mg)
	}
	return mg
}

// record is the usage the tracker writes for mg.
func record(mg *streamingv1alpha1.DeliveryStream, mod ...func(*v1alpha1.ProviderConfigUsage)) *v1alpha1.ProviderConfigUsage {
	gvk := streamingv1alpha1.DeliveryStreamGroupVersionKind
	ref := mg.GetProviderConfigReference()
	u := &v1alpha1.ProviderConfigUsage{ObjectMeta: metav1.ObjectMeta{Namespace: mg.Namespace, Name: string(mg.UID),
		Labels:          map[string]string{xpv2.LabelKeyProviderName: ref.Name, xpv2.LabelKeyProviderKind: ref.Kind},
		OwnerReferences: []metav1.OwnerReference{meta.AsController(meta.TypedReferenceTo(mg, gvk))}}}
	u.SetProviderConfigReference(xpv2.ProviderConfigReference{Kind: ref.Kind, Name: ref.Name})
	u.SetResourceReference(xpv2.TypedReference{APIVersion: gvk.GroupVersion().String(), Kind: gvk.Kind, Name: mg.Name})
	for _, m := range mod {
		m(u)
	}
	return u
}

func ownedByConfigMap(u *v1alpha1.ProviderConfigUsage) {
	u.OwnerReferences = []metav1.OwnerReference{meta.AsController(&xpv2.TypedReference{APIVersion: "v1", Kind: "ConfigMap", Name: "mine", UID: "cm-uid"})}
}

func TestCounts(t *testing.T) {
	cases := map[string]struct {
		reason string
		u      *v1alpha1.ProviderConfigUsage
		mg     user
		want   bool
	}{
		"TrackersRecord": {
			reason: "The usage the tracker writes for an existing resource that uses the config counts.",
			u:      record(stream()), mg: stream(), want: true,
		},
		"NoResource": {
			reason: "A usage whose resource does not exist counts for nothing.",
			u:      record(stream()), mg: nil, want: false,
		},
		"OwnedByAConfigMap": {
			reason: "A usage whose controller is not the resource it names is not the tracker's.",
			u:      record(stream(), ownedByConfigMap), mg: stream(), want: false,
		},
		"NoController": {
			reason: "A usage without a controller is not the tracker's.",
			u:      record(stream(), func(u *v1alpha1.ProviderConfigUsage) { u.OwnerReferences = nil }), mg: stream(), want: false,
		},
		"NamedByAnotherUID": {
			reason: "A usage is named by its resource's UID.",
			u: record(stream(), func(u *v1alpha1.ProviderConfigUsage) {
				u.Name = "another"
				u.OwnerReferences[0].UID = "another"
			}), mg: stream(), want: false,
		},
		"ResourceOfAnotherUID": {
			reason: "A resource of the same name but another UID (deleted and made again) is not the usage's.",
			u:      record(stream()), mg: stream(func(mg *streamingv1alpha1.DeliveryStream) { mg.UID = "new" }), want: false,
		},
		"ResourceOfAnotherNamespace": {
			reason: "A resource of another namespace is not the usage's, whatever its UID.",
			u:      record(stream(), func(u *v1alpha1.ProviderConfigUsage) { u.Namespace = "team-b" }), mg: stream(), want: false,
		},
		"LabelledForAnotherConfig": {
			reason: "A usage labelled for a config its resource does not name counts for nothing.",
			u: record(stream(), func(u *v1alpha1.ProviderConfigUsage) {
				u.Labels[xpv2.LabelKeyProviderName] = "other"
			}), mg: stream(), want: false,
		},
		"LabelledForAnotherKind": {
			reason: "The config's kind counts too: a ProviderConfig shared is not the ClusterProviderConfig shared.",
			u: record(stream(), func(u *v1alpha1.ProviderConfigUsage) {
				u.Labels[xpv2.LabelKeyProviderKind] = v1alpha1.ProviderConfigKind
			}), mg: stream(), want: false,
		},
		"UnknownConfigKind": {
			reason: "A usage labelled for no config kind of the provider's counts for nothing.",
			u:      record(stream(func(mg *streamingv1alpha1.DeliveryStream) { mg.Spec.ProviderConfigReference.Kind = "Other" })),
			mg:     stream(func(mg *streamingv1alpha1.DeliveryStream) { mg.Spec.ProviderConfigReference.Kind = "Other" }), want: false,
		},
		"ResourceWithoutConfig": {
			reason: "A resource that names no config uses none.",
			u:      record(stream()), mg: stream(func(mg *streamingv1alpha1.DeliveryStream) { mg.Spec.ProviderConfigReference = nil }), want: false,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var mg user
			if tc.mg != nil {
				mg = tc.mg
			}
			if diff := cmp.Diff(tc.want, Counts(tc.u, mg)); diff != "" {
				t.Errorf("%s\nCounts(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestKindLabel(t *testing.T) {
	cases := map[string]struct {
		ref  xpv2.TypedReference
		want string
	}{
		"OwnKind":               {ref: xpv2.TypedReference{APIVersion: "streaming.services.k8s.aws/v1alpha1", Kind: "DeliveryStream"}, want: "DeliveryStream"},
		"ConfigMap":             {ref: xpv2.TypedReference{APIVersion: "v1", Kind: "ConfigMap"}, want: OtherKind},
		"MadeUp":                {ref: xpv2.TypedReference{APIVersion: "streaming.services.k8s.aws/v1alpha1", Kind: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}, want: OtherKind},
		"OwnKindInAnotherGroup": {ref: xpv2.TypedReference{APIVersion: "example.org/v1", Kind: "DeliveryStream"}, want: OtherKind},
		"BadAPIVersion":         {ref: xpv2.TypedReference{APIVersion: "a/b/c", Kind: "DeliveryStream"}, want: OtherKind},
		"ConfigKind":            {ref: xpv2.TypedReference{APIVersion: "aws.services.k8s.aws/v1alpha1", Kind: "ProviderConfig"}, want: OtherKind},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, KindLabel(tc.ref)); diff != "" {
				t.Errorf("KindLabel(...): -want, +got:\n%s", diff)
			}
		})
	}
}

func scheme(t *testing.T) *runtime.Scheme {
	t.Helper()
	s := runtime.NewScheme()
	if err := apis.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	if err := corev1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	return s
}

func config(sel *v1alpha1.NamespaceSelector) *v1alpha1.ClusterProviderConfig {
	pc := &v1alpha1.ClusterProviderConfig{ObjectMeta: metav1.ObjectMeta{Name: "shared"}}
	pc.Spec.Namespaces = sel
	return pc
}

func namespaceLabelled(labels map[string]string) *corev1.Namespace {
	return &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns, Labels: labels}}
}

// TestCheck: what a usage is, read from a cache and an API server that may
// hold more than it.
func TestCheck(t *testing.T) {
	tenant := &v1alpha1.NamespaceSelector{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"tenant": "yes"}}}
	cases := map[string]struct {
		reason    string
		cached    []client.Object
		live      []client.Object
		u         *v1alpha1.ProviderConfigUsage
		want      Verdict
		wantLists int
		wantGets  int
	}{
		"Cached": {
			reason: "The resource in the cache, its config open to every namespace: it counts, and the API server is not asked.",
			cached: []client.Object{stream(), config(nil)}, live: []client.Object{stream()},
			u: record(stream()), want: Genuine,
		},
		"OnlyAtTheAPIServer": {
			reason: "A resource the cache does not hold (another shard's) is listed, then read, at the API server.",
			cached: []client.Object{config(nil)}, live: []client.Object{stream()},
			u: record(stream()), want: Genuine, wantLists: 1, wantGets: 1,
		},
		"Gone": {
			reason: "A resource neither holds is gone: one listing tells.",
			cached: []client.Object{config(nil)},
			u:      record(stream()), want: ResourceGone, wantLists: 1,
		},
		"NamesAConfigMap": {
			reason: "A usage of a ConfigMap, with the ConfigMap's UID, is no record of the provider's: nothing is read.",
			cached: []client.Object{config(nil), &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "mine", UID: "cm-uid"}}},
			u: record(stream(), func(u *v1alpha1.ProviderConfigUsage) {
				u.Name = "cm-uid"
				u.ResourceReference = xpv2.TypedReference{APIVersion: "v1", Kind: "ConfigMap", Name: "mine"}
				ownedByConfigMap(u)
			}), want: NotARecord,
		},
		"AdmittedByName": {
			reason: "A ClusterProviderConfig that names the namespace admits it.",
			cached: []client.Object{stream(), config(&v1alpha1.NamespaceSelector{Names: []string{ns}})},
			u:      record(stream()), want: Genuine,
		},
		"AdmittedByLabel": {
			reason: "A ClusterProviderConfig whose selector matches the namespace's labels admits it.",
			cached: []client.Object{stream(), config(tenant), namespaceLabelled(map[string]string{"tenant": "yes"})},
			u:      record(stream()), want: Genuine,
		},
		"NotAdmitted": {
			reason: "A resource whose namespace the ClusterProviderConfig does not admit uses nothing of it.",
			cached: []client.Object{stream(), config(tenant), namespaceLabelled(map[string]string{"tenant": "no"})},
			u:      record(stream()), want: NotARecord,
		},
		"ConfigGone": {
			reason: "A ClusterProviderConfig that is gone admits nothing.",
			cached: []client.Object{stream()},
			u:      record(stream()), want: NotARecord,
		},
		"ForgedForAnotherConfig": {
			reason: "A usage named by a real resource's UID, labelled for a config the resource does not use, counts for nothing.",
			cached: []client.Object{stream(func(mg *streamingv1alpha1.DeliveryStream) {
				mg.SetProviderConfigReference(&xpv2.ProviderConfigReference{Kind: v1alpha1.ProviderConfigKind, Name: "own"})
			}), config(nil)},
			u: record(stream()), want: NotARecord,
		},
		"RecreatedUnderTheSameName": {
			reason: "The cache holds a resource of the name with another UID: the listing shows the same, the old usage's resource is gone.",
			cached: []client.Object{stream(func(mg *streamingv1alpha1.DeliveryStream) { mg.UID = "new" }), config(nil)},
			live:   []client.Object{stream(func(mg *streamingv1alpha1.DeliveryStream) { mg.UID = "new" })},
			u:      record(stream()), want: ResourceGone, wantLists: 1,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := scheme(t)
			var lists, gets atomic.Int32
			cached := fake.NewClientBuilder().WithScheme(s).WithObjects(tc.cached...).Build()
			live := fake.NewClientBuilder().WithScheme(s).WithObjects(tc.live...).WithInterceptorFuncs(interceptor.Funcs{
				Get: func(ctx context.Context, c client.WithWatch, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
					gets.Add(1)
					return c.Get(ctx, key, obj, opts...)
				},
				List: func(ctx context.Context, c client.WithWatch, l client.ObjectList, opts ...client.ListOption) error {
					lists.Add(1)
					return c.List(ctx, l, opts...)
				},
			}).Build()
			got, err := NewRecords(cached, live).Pass().Check(context.Background(), tc.u)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nCheck(...): -want, +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff([2]int32{int32(tc.wantLists), int32(tc.wantGets)}, [2]int32{lists.Load(), gets.Load()}); diff != "" {
				t.Errorf("%s\nlists and gets at the API server: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestAFloodCostsOneListingPerKind: however many forged usages a pass
// checks, the API server is asked for one listing per kind they name, and
// reads no object.
func TestAFloodCostsOneListingPerKind(t *testing.T) {
	s := scheme(t)
	var lists, gets atomic.Int32
	cached := fake.NewClientBuilder().WithScheme(s).WithObjects(config(nil)).Build()
	live := fake.NewClientBuilder().WithScheme(s).WithInterceptorFuncs(interceptor.Funcs{
		Get: func(ctx context.Context, c client.WithWatch, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
			gets.Add(1)
			return c.Get(ctx, key, obj, opts...)
		},
		List: func(ctx context.Context, c client.WithWatch, l client.ObjectList, opts ...client.ListOption) error {
			lists.Add(1)
			return c.List(ctx, l, opts...)
		},
	}).Build()
	forged := make([]v1alpha1.ProviderConfigUsage, 0, 1000)
	for i := range 1000 {
		forged = append(forged, *record(stream(func(mg *streamingv1alpha1.DeliveryStream) {
			mg.UID = types.UID(string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + string(rune('a'+i/676)))
		})))
	}
	kept, err := NewRecords(cached, live).Pass().Filter(context.Background(), forged)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([3]int{0, 1, 0}, [3]int{len(kept), int(lists.Load()), int(gets.Load())}); diff != "" {
		t.Errorf("kept, listings, reads: -want, +got:\n%s", diff)
	}
}
