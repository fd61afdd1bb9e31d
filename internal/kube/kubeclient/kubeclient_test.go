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

package kubeclient

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
)

// TestMetadataFromCache: a metadata read goes to the cache, any other read
// to the client.
func TestMetadataFromCache(t *testing.T) {
	s := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	secret := func(rv string) *corev1.Secret {
		return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "key", Labels: map[string]string{"from": rv}}}
	}
	live := fake.NewClientBuilder().WithScheme(s).WithObjects(secret("api-server")).Build()
	cached := fake.NewClientBuilder().WithScheme(s).WithObjects(secret("cache")).Build()
	c := metadataFromCache{Client: live, cache: cached}
	key := client.ObjectKey{Namespace: "ns", Name: "key"}
	ctx := context.Background()

	got := map[string]string{}
	m := &metav1.PartialObjectMetadata{}
	m.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("Secret"))
	if err := c.Get(ctx, key, m); err != nil {
		t.Fatal(err)
	}
	got["metadata"] = m.Labels["from"]
	full := &corev1.Secret{}
	if err := c.Get(ctx, key, full); err != nil {
		t.Fatal(err)
	}
	got["object"] = full.Labels["from"]
	if diff := cmp.Diff(map[string]string{"metadata": "cache", "object": "api-server"}, got); diff != "" {
		t.Errorf("where each read went: -want, +got:\n%s", diff)
	}
}

// TestListsWithoutCopies: every List asks the cache for its own objects,
// keeping the caller's options; a Get is left as it was.
func TestListsWithoutCopies(t *testing.T) {
	var got []string
	record := func(o []client.ListOption) {
		lo := &client.ListOptions{}
		lo.ApplyOptions(o)
		got = append(got, fmt.Sprintf("namespace %q, no copies %v", lo.Namespace, lo.UnsafeDisableDeepCopy != nil && *lo.UnsafeDisableDeepCopy))
	}
	inner := fake.NewClientBuilder().WithInterceptorFuncs(interceptor.Funcs{
		List: func(ctx context.Context, c client.WithWatch, l client.ObjectList, o ...client.ListOption) error {
			record(o)
			return c.List(ctx, l, o...)
		},
	}).Build()
	c := ListsWithoutCopies(inner)
	ctx := context.Background()
	if err := c.List(ctx, &corev1.SecretList{}); err != nil {
		t.Fatal(err)
	}
	if err := c.List(ctx, &corev1.SecretList{}, client.InNamespace("team-a")); err != nil {
		t.Fatal(err)
	}
	if err := inner.List(ctx, &corev1.SecretList{}); err != nil {
		t.Fatal(err)
	}
	want := []string{`namespace "", no copies true`, `namespace "team-a", no copies true`, `namespace "", no copies false`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the lists' options: -want, +got:\n%s", diff)
	}
}

// TestStatusWrittenWhenChanged: a status update is sent unless the cache
// holds the object at the same version with the same status.
func TestStatusWrittenWhenChanged(t *testing.T) {
	s := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	pod := func(phase corev1.PodPhase) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p", UID: "uid-1"}, Status: corev1.PodStatus{Phase: phase}}
	}
	cases := map[string]struct {
		change func(p *corev1.Pod)
		opts   []client.SubResourceUpdateOption
		want   int // status updates sent
	}{
		"Unchanged":      {change: func(*corev1.Pod) {}, want: 0},
		"StatusChanged":  {change: func(p *corev1.Pod) { p.Status.Phase = corev1.PodSucceeded }, want: 1},
		"AnotherVersion": {change: func(p *corev1.Pod) { p.ResourceVersion = "1" }, want: 1},
		"AnotherObject":  {change: func(p *corev1.Pod) { p.UID = "uid-2" }, want: 1},
		"WithOptions":    {change: func(*corev1.Pod) {}, opts: []client.SubResourceUpdateOption{client.DryRunAll}, want: 1},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			sent := 0
			kube := fake.NewClientBuilder().WithScheme(s).WithObjects(pod(corev1.PodRunning)).WithStatusSubresource(&corev1.Pod{}).
				WithInterceptorFuncs(interceptor.Funcs{
					SubResourceUpdate: func(ctx context.Context, c client.Client, sub string, o client.Object, opts ...client.SubResourceUpdateOption) error {
						sent++
						return c.SubResource(sub).Update(ctx, o, opts...)
					},
				}).Build()
			c := StatusWrittenWhenChanged(kube, kube)
			p := &corev1.Pod{}
			if err := c.Get(context.Background(), client.ObjectKey{Namespace: "ns", Name: "p"}, p); err != nil {
				t.Fatal(err)
			}
			tc.change(p)
			_ = c.Status().Update(context.Background(), p, tc.opts...)
			if diff := cmp.Diff(tc.want, sent); diff != "" {
				t.Errorf("status updates sent: -want, +got:\n%s", diff)
			}
		})
	}
}

// TestStatusWrittenWhenChangedBehindItsOwnWrite: an update read from a cache
// behind this client's own last write is sent, so that the API server's
// conflict says the cache was behind, though it equals what the cache holds.
func TestStatusWrittenWhenChangedBehindItsOwnWrite(t *testing.T) {
	s := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p", UID: "uid-1"}, Status: corev1.PodStatus{Phase: corev1.PodRunning}}
	sent := 0
	live := fake.NewClientBuilder().WithScheme(s).WithObjects(pod.DeepCopy()).WithStatusSubresource(&corev1.Pod{}).
		WithInterceptorFuncs(interceptor.Funcs{
			SubResourceUpdate: func(ctx context.Context, c client.Client, sub string, o client.Object, opts ...client.SubResourceUpdateOption) error {
				sent++
				return c.SubResource(sub).Update(ctx, o, opts...)
			},
		}).Build()
	behind := fake.NewClientBuilder().WithScheme(s).WithObjects(pod.DeepCopy()).Build() // never sees the write
	c := StatusWrittenWhenChanged(live, behind)
	ctx := context.Background()

	read := &corev1.Pod{}
	if err := behind.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "p"}, read); err != nil {
		t.Fatal(err)
	}
	failed := read.DeepCopy()
	failed.Status.Phase = corev1.PodFailed
	if err := c.Status().Update(ctx, failed); err != nil {
		t.Fatal(err)
	}
	// The next reconcile reads the cache, still before that write, and
	// finds the status it holds.
	_ = c.Status().Update(ctx, read.DeepCopy())
	if diff := cmp.Diff(2, sent); diff != "" {
		t.Errorf("status updates sent: -want, +got:\n%s", diff)
	}
}
