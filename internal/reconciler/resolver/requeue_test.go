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

package resolver

import (
	"context"
	"errors"
	"testing"

	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	resourcefake "github.com/crossplane/crossplane-runtime/v2/pkg/resource/fake"
	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/cloudkinds/provider-aws-services/apis/eventbus/v1alpha1"
)

// events counts the events crossplane-runtime records.
type events struct{ n int }

func (e *events) Event(runtime.Object, event.Event)        { e.n++ }
func (e *events) WithAnnotations(...string) event.Recorder { return e }

// TestRequeueQuietly runs crossplane-runtime's own managed reconciler with a
// resolver that returns RequeueQuietly. The provider relies on that
// reconciler requeueing such an object with backoff while writing nothing
// to it and recording no event (a waiting reference of a new object costs
// its composite no watch event): this test fails if a new
// crossplane-runtime stops doing so.
func TestRequeueQuietly(t *testing.T) {
	s := runtime.NewScheme()
	if err := v1alpha1.SchemeBuilder.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	obj := &v1alpha1.Endpoint{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "orders", UID: "u1"}}
	type got struct {
		Result        reconcile.Result
		Err           bool
		Writes, Event int
	}
	cases := map[string]struct {
		reason  string
		resolve error
		want    got
	}{
		"Waiting": {
			reason:  "A reference that waits, returned as RequeueQuietly, is requeued with no write and no event.",
			resolve: RequeueQuietly(obj, errors.New("the referenced Role is not Ready")),
			want:    got{Result: reconcile.Result{Requeue: true}},
		},
		"Failing": {
			reason:  "A reference that fails otherwise is reported: a status write and an event. This case shows that the test can see both.",
			resolve: errors.New("cannot resolve"),
			want:    got{Result: reconcile.Result{Requeue: true}, Writes: 1, Event: 1},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			writes := 0
			count := func() { writes++ }
			kube := fake.NewClientBuilder().WithScheme(s).WithObjects(obj.DeepCopy()).WithStatusSubresource(obj).
				WithInterceptorFuncs(interceptor.Funcs{
					Update: func(ctx context.Context, c client.WithWatch, o client.Object, opts ...client.UpdateOption) error {
						count()
						return c.Update(ctx, o, opts...)
					},
					Patch: func(ctx context.Context, c client.WithWatch, o client.Object, p client.Patch, opts ...client.PatchOption) error {
						count()
						return c.Patch(ctx, o, p, opts...)
					},
					SubResourceUpdate: func(ctx context.Context, c client.Client, sub string, o client.Object, opts ...client.SubResourceUpdateOption) error {
						count()
						return c.SubResource(sub).Update(ctx, o, opts...)
					},
					SubResourcePatch: func(ctx context.Context, c client.Client, sub string, o client.Object, p client.Patch, opts ...client.SubResourcePatchOption) error {
						count()
						return c.SubResource(sub).Patch(ctx, o, p, opts...)
					},
				}).Build()
			recorded := &events{}
			r := managed.NewReconciler(&resourcefake.Manager{Client: kube, Scheme: s}, resource.ManagedKind(v1alpha1.EndpointGroupVersionKind),
				managed.WithInitializers(),
				managed.WithRecorder(recorded),
				managed.WithReferenceResolver(managed.ReferenceResolverFn(func(context.Context, resource.Managed) error { return tc.resolve })),
				managed.WithExternalConnector(managed.ExternalConnectorFn(func(context.Context, resource.Managed) (managed.ExternalClient, error) {
					t.Fatal("connected to AWS while a reference waits")
					return nil, nil
				})),
			)
			res, err := r.Reconcile(context.Background(), reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "team-a", Name: "orders"}})
			if diff := cmp.Diff(tc.want, got{Result: res, Err: err != nil, Writes: writes, Event: recorded.n}); diff != "" {
				t.Errorf("%s\n-want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
