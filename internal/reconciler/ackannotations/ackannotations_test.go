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

package ackannotations

import (
	"context"
	"testing"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource/fake"
	"github.com/crossplane/crossplane-runtime/v2/pkg/test"
	"github.com/google/go-cmp/cmp"
	authorizationv1 "k8s.io/api/authorization/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kfake "sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	streamingv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
)

const group = "streaming.services.k8s.aws"

// recorder keeps the events recorded.
type recorder struct{ events []event.Event }

func (r *recorder) Event(_ runtime.Object, e event.Event) { r.events = append(r.events, e) }

func (r *recorder) WithAnnotations(...string) event.Recorder { return r }

func object(annotations map[string]string, deleted bool) *fake.ModernManaged {
	mg := &fake.ModernManaged{}
	mg.SetNamespace("team-a")
	mg.SetName("orders")
	mg.SetUID("uid-1")
	mg.SetAnnotations(annotations)
	if deleted {
		now := metav1.Now()
		mg.SetDeletionTimestamp(&now)
	}
	return mg
}

func TestUnsupported(t *testing.T) {
	cases := map[string]struct {
		reason      string
		annotations map[string]string
		want        []string
	}{
		"Honoured": {
			reason: "The annotations the provider honours are no warning.",
			annotations: map[string]string{
				AnnotationDeletionPolicy:            "retain",
				"services.k8s.aws/adoption-policy":  "adopt",
				"services.k8s.aws/adoption-fields":  "{}",
				"services.k8s.aws/managed-tag-keys": "[]",
			},
		},
		"OtherDomains": {
			reason: "A group's own annotations and other prefixes are not ACK's.",
			annotations: map[string]string{
				"streaming.services.k8s.aws/access-key-fingerprint": "x",
				"crossplane.io/external-name":                       "orders",
				"example.com/services.k8s.aws/region":               "x",
			},
		},
		"Unsupported": {
			reason: "Every other annotation of the prefix is named, sorted.",
			annotations: map[string]string{
				"services.k8s.aws/region":           "eu-west-1",
				"services.k8s.aws/owner-account-id": "111122223333",
				AnnotationDeletionPolicy:            "retain",
			},
			want: []string{"services.k8s.aws/owner-account-id", "services.k8s.aws/region"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Unsupported(tc.annotations)); diff != "" {
				t.Errorf("%s\nUnsupported(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestInitialize(t *testing.T) {
	unsupported := func(k string) event.Event {
		return event.Warning(ReasonUnsupported, errors.New("annotation "+k+" has no effect: of ACK's annotations this provider honours only "+
			"services.k8s.aws/deletion-policy, services.k8s.aws/adoption-policy and services.k8s.aws/adoption-fields"))
	}
	invalidPolicy := func(v string) event.Event {
		return event.Warning(ReasonInvalidPolicy, errors.New(`annotation services.k8s.aws/deletion-policy is "`+v+`": want "retain" or "delete"; `+
			`until it is one of them, deleting this object waits and deletes nothing`))
	}
	type step struct {
		annotations map[string]string
		deleted     bool
		err         error
	}
	cases := map[string]struct {
		reason string
		steps  []step
		want   []event.Event
	}{
		"OncePerAnnotation": {
			reason: "Each unsupported annotation is warned of at the first reconcile that sees it, and never again.",
			steps: []step{
				{annotations: map[string]string{"services.k8s.aws/region": "eu-west-1"}},
				{annotations: map[string]string{"services.k8s.aws/region": "eu-west-1"}},
				{annotations: map[string]string{"services.k8s.aws/region": "eu-west-2", "services.k8s.aws/read-only": "true"}},
				{annotations: map[string]string{"services.k8s.aws/region": "eu-west-2", "services.k8s.aws/read-only": "true"}},
			},
			want: []event.Event{unsupported("services.k8s.aws/region"), unsupported("services.k8s.aws/read-only")},
		},
		"InvalidPolicyOncePerValue": {
			reason: "An invalid deletion policy is warned of once per value, before any deletion.",
			steps: []step{
				{annotations: map[string]string{AnnotationDeletionPolicy: "Retain"}},
				{annotations: map[string]string{AnnotationDeletionPolicy: "Retain"}},
				{annotations: map[string]string{AnnotationDeletionPolicy: "keep"}},
				{annotations: map[string]string{AnnotationDeletionPolicy: "retain"}},
			},
			want: []event.Event{invalidPolicy("Retain"), invalidPolicy("keep")},
		},
		"DeletedInvalid": {
			reason: "The deletion of an object whose policy is invalid stops at the initializer, naming it; it warns of nothing else.",
			steps: []step{
				{annotations: map[string]string{AnnotationDeletionPolicy: "keep", "services.k8s.aws/region": "x"}, deleted: true, err: invalid(AnnotationDeletionPolicy, "keep", "")},
			},
		},
		"DeletedValid": {
			reason: "The deletion of an object whose policy is valid goes on.",
			steps: []step{
				{annotations: map[string]string{AnnotationDeletionPolicy: "retain"}, deleted: true},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			r := &recorder{}
			a := New(group, nil, r)
			for i, s := range tc.steps {
				err := a.Initialize(context.Background(), object(s.annotations, s.deleted))
				if diff := cmp.Diff(s.err, err, test.EquateErrors()); diff != "" {
					t.Errorf("%s\nstep %d: Initialize(...): -want error, +got error:\n%s", tc.reason, i, diff)
				}
			}
			if diff := cmp.Diff(tc.want, r.events); diff != "" {
				t.Errorf("%s\nevents: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestForgetOnDeletion(t *testing.T) {
	a := New(group, nil, &recorder{})
	ann := map[string]string{"services.k8s.aws/region": "x", AnnotationDeletionPolicy: "retain"}
	if err := a.Initialize(context.Background(), object(ann, false)); err != nil {
		t.Fatal(err)
	}
	if got := a.warned.len(); got != 1 {
		t.Errorf("objects remembered after a warning: want 1, got %d", got)
	}
	if err := a.Initialize(context.Background(), object(ann, true)); err != nil {
		t.Fatal(err)
	}
	if got := a.warned.len(); got != 0 {
		t.Errorf("objects remembered after the deletion was seen: want 0, got %d", got)
	}
}

// inner is the managed reconciler in these tests: it counts its
// reconciles.
type inner struct{ reconciles int }

func (r *inner) Reconcile(context.Context, reconcile.Request) (reconcile.Result, error) {
	r.reconciles++
	return reconcile.Result{}, nil
}

func TestRetaining(t *testing.T) {
	errForbidden := errors.New("namespaces is forbidden")
	errConflict := errors.New("conflict")
	type want struct {
		reconciles int
		removed    int
		released   int
		events     []event.Event
		err        error
	}
	cases := map[string]struct {
		reason      string
		annotations map[string]string
		deleted     bool
		gone        bool
		namespace   map[string]string
		nsErr       error
		removeErr   error
		want        want
	}{
		"Gone": {
			reason: "An object that is gone is the managed reconciler's to ignore.",
			gone:   true,
			want:   want{reconciles: 1},
		},
		"Live": {
			reason:      "An object that is not being deleted goes to the managed reconciler, whatever its policy.",
			annotations: map[string]string{AnnotationDeletionPolicy: "retain"},
			want:        want{reconciles: 1},
		},
		"DeletedWithoutPolicy": {
			reason:  "A deleted object without a policy goes to the managed reconciler, which deletes its resource.",
			deleted: true,
			want:    want{reconciles: 1},
		},
		"DeletedDelete": {
			reason:      "A deleted object whose own policy is delete goes to the managed reconciler, whatever its namespace says.",
			annotations: map[string]string{AnnotationDeletionPolicy: "delete"},
			deleted:     true,
			namespace:   map[string]string{group + "/deletion-policy": "retain"},
			want:        want{reconciles: 1},
		},
		"DeletedPaused": {
			reason:      "A paused object stays as it is, as crossplane-runtime keeps it, even when deleted with retain.",
			annotations: map[string]string{AnnotationDeletionPolicy: "retain", "crossplane.io/paused": "true"},
			deleted:     true,
			want:        want{reconciles: 1},
		},
		"DeletedRetain": {
			reason:      "A deleted object whose policy is retain is let go, its finalizer removed, without the managed reconciler.",
			annotations: map[string]string{AnnotationDeletionPolicy: "retain"},
			deleted:     true,
			want: want{removed: 1, released: 1, events: []event.Event{
				event.Normal(ReasonRetained, "The AWS resource is kept: annotation services.k8s.aws/deletion-policy is retain"),
			}},
		},
		"DeletedInRetainingNamespace": {
			reason:    "A deleted object of a namespace whose policy for its group is retain is let go, the namespace read from the cache.",
			deleted:   true,
			namespace: map[string]string{group + "/deletion-policy": "retain", "kubectl.kubernetes.io/last-applied-configuration": "{}"},
			want: want{removed: 1, released: 1, events: []event.Event{
				event.Normal(ReasonRetained, `The AWS resource is kept: annotation streaming.services.k8s.aws/deletion-policy of namespace "team-a" is retain`),
			}},
		},
		"DeletedRemoveFails": {
			reason:      "A finalizer that cannot be removed is an error, retried; nothing is said kept yet.",
			annotations: map[string]string{AnnotationDeletionPolicy: "retain"},
			deleted:     true,
			removeErr:   errConflict,
			want:        want{removed: 1, err: errors.Wrap(errConflict, errRemoveFinalizer)},
		},
		"DeletedInvalid": {
			reason:      "A deleted object whose policy is invalid goes to the managed reconciler, whose initializer reports it.",
			annotations: map[string]string{AnnotationDeletionPolicy: "retian"},
			deleted:     true,
			want:        want{reconciles: 1},
		},
		"DeletedNamespaceUnreadable": {
			reason:  "A deleted object whose namespace cannot be read goes to the managed reconciler, whose initializer reports it.",
			deleted: true,
			nsErr:   errForbidden,
			want:    want{reconciles: 1},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := runtime.NewScheme()
			_ = clientgoscheme.AddToScheme(s)
			_ = streamingv1alpha1.AddToScheme(s)
			objs := []client.Object{&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "team-a", Annotations: tc.namespace}}}
			if !tc.gone {
				mg := &streamingv1alpha1.DeliveryStream{ObjectMeta: metav1.ObjectMeta{
					Namespace: "team-a", Name: "orders", UID: "uid-1", Annotations: tc.annotations,
					Finalizers: []string{managed.FinalizerName},
				}}
				if tc.deleted {
					now := metav1.Now()
					mg.SetDeletionTimestamp(&now)
				}
				objs = append(objs, mg)
			}
			kube := kfake.NewClientBuilder().WithScheme(s).WithObjects(objs...).
				WithInterceptorFuncs(interceptor.Funcs{Get: func(ctx context.Context, c client.WithWatch, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
					if _, ok := obj.(*metav1.PartialObjectMetadata); ok && tc.nsErr != nil {
						return tc.nsErr
					}
					return c.Get(ctx, key, obj, opts...)
				}}).Build()
			rec := &recorder{}
			in := &inner{}
			removed, released := 0, 0
			r := Retaining(New(group, kube, rec), in, RetainingOptions[*streamingv1alpha1.DeliveryStream]{
				New:  func() *streamingv1alpha1.DeliveryStream { return &streamingv1alpha1.DeliveryStream{} },
				Kube: kube,
				Finalizer: resource.FinalizerFns{RemoveFinalizerFn: func(context.Context, resource.Object) error {
					removed++
					return tc.removeErr
				}},
				Released: func(*streamingv1alpha1.DeliveryStream) { released++ },
			})
			_, err := r.Reconcile(context.Background(), reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "team-a", Name: "orders"}})
			got := want{reconciles: in.reconciles, removed: removed, released: released, events: rec.events, err: err}
			if diff := cmp.Diff(tc.want, got, test.EquateErrors(), cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("%s\nReconcile(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestNamespacesReadable(t *testing.T) {
	// allowing answers a SelfSubjectAccessReview as the API server does
	// for a provider allowed the verbs allowed.
	allowing := func(allowed ...string) client.Client {
		return &test.MockClient{MockCreate: func(_ context.Context, obj client.Object, _ ...client.CreateOption) error {
			r, ok := obj.(*authorizationv1.SelfSubjectAccessReview)
			if !ok {
				return errors.New("not a SelfSubjectAccessReview")
			}
			for _, v := range allowed {
				if r.Spec.ResourceAttributes.Verb == v && r.Spec.ResourceAttributes.Resource == "namespaces" {
					r.Status.Allowed = true
				}
			}
			return nil
		}}
	}
	type want struct {
		readable bool
		err      bool
	}
	cases := map[string]struct {
		reason string
		kube   client.Client
		want   want
	}{
		"Granted": {
			reason: "With get, list and watch on namespaces (cluster/rbac/namespaces.yaml), their deletion policies are read.",
			kube:   allowing("get", "list", "watch"),
			want:   want{readable: true},
		},
		"CrossplaneRolesOnly": {
			reason: "Crossplane's RBAC manager grants nothing on namespaces: their deletion policies are not read, so that no deletion waits for a cache that never fills.",
			kube:   allowing(),
			want:   want{},
		},
		"NoWatch": {
			reason: "Without watch the cache of namespaces cannot fill either.",
			kube:   allowing("get", "list"),
			want:   want{},
		},
		"CannotAsk": {
			reason: "A question the API server does not answer is an error, not a no.",
			kube:   &test.MockClient{MockCreate: test.NewMockCreateFn(errors.New("boom"))},
			want:   want{err: true},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			readable, err := NamespacesReadable(context.Background(), tc.kube)
			if diff := cmp.Diff(tc.want, want{readable: readable, err: err != nil}, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("%s\n-want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
