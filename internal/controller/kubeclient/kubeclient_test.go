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
