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

package persist

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
)

func TestAnnotations(t *testing.T) {
	ctx := context.Background()
	kube := fake.NewClientBuilder().WithObjects(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "cm"}, Data: map[string]string{"spec": "v1"}}).Build()

	// A reconcile read the object ...
	read := &corev1.ConfigMap{}
	if err := kube.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "cm"}, read); err != nil {
		t.Fatal(err)
	}
	// ... records what it sent, and then writes the object again: no
	// conflict with its own record.
	if err := Annotations(ctx, kube, read, map[string]string{"example.org/sent": "a"}); err != nil {
		t.Fatal(err)
	}
	read.Data["status"] = "written"
	if err := kube.Update(ctx, read); err != nil {
		t.Fatalf("the reconcile's next write conflicts with its own record: %v", err)
	}

	// A user changes the object while the reconcile works on an older read:
	// the record conflicts, and the user's change is not undone.
	stale := &corev1.ConfigMap{}
	if err := kube.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "cm"}, stale); err != nil {
		t.Fatal(err)
	}
	user := stale.DeepCopy()
	user.Data["spec"] = "v2"
	user.Generation = stale.Generation + 1 // what the API server does to a spec change
	if err := kube.Update(ctx, user); err != nil {
		t.Fatal(err)
	}
	if err := Annotations(ctx, kube, stale, map[string]string{"example.org/sent": "b"}); !kerrors.IsConflict(err) {
		t.Fatalf("a record on a stale read: want a conflict, got %v", err)
	}
	now := &corev1.ConfigMap{}
	if err := kube.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "cm"}, now); err != nil {
		t.Fatal(err)
	}
	if now.Data["spec"] != "v2" || now.Annotations["example.org/sent"] != "a" {
		t.Errorf("after a stale record: %v %v", now.Data, now.Annotations)
	}
}

func TestAnnotationsOnAReadThatWasOnlyBehind(t *testing.T) {
	ctx := context.Background()
	kube := fake.NewClientBuilder().WithObjects(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "cm", Generation: 3, Annotations: map[string]string{"a": "b"}}, Data: map[string]string{"spec": "v1"}}).Build()
	stale := &corev1.ConfigMap{}
	if err := kube.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "cm"}, stale); err != nil {
		t.Fatal(err)
	}
	// The reconcile's own earlier write, which its read had not seen: the
	// spec (generation) is the same.
	own := stale.DeepCopy()
	own.Data["status"] = "written"
	if err := kube.Update(ctx, own); err != nil {
		t.Fatal(err)
	}
	if err := Annotations(ctx, kube, stale, map[string]string{"example.org/sent": "b"}); err != nil {
		t.Fatalf("a record on a read that was only behind: %v", err)
	}
	now := &corev1.ConfigMap{}
	if err := kube.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "cm"}, now); err != nil {
		t.Fatal(err)
	}
	if now.Annotations["example.org/sent"] != "b" || now.Data["status"] != "written" || stale.ResourceVersion != now.ResourceVersion {
		t.Errorf("after the record: %v %v, in memory at %s, stored at %s", now.Data, now.Annotations, stale.ResourceVersion, now.ResourceVersion)
	}
}
