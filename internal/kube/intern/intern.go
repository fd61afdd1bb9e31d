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

// Package intern keeps one copy of the strings that the objects in the
// provider's cache repeat: every object of a kind decodes its own copy of the
// kind, its namespace, its finalizers, and the keys and many values of its
// labels and annotations, which together are a fifth of a cached managed
// resource.
package intern

import (
	"unique"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// String returns the one copy of s.
func String(s string) string {
	if s == "" {
		return s
	}
	return unique.Make(s).Value()
}

// An Internable is what Meta interns the strings of: a Kubernetes object.
type Internable interface {
	metav1.Object
	GetObjectKind() schema.ObjectKind
}

// Meta interns, in place, the strings of o's type and metadata that objects
// share: its kind, namespace, finalizers, owners' kinds, and its labels and
// annotations, values too (a config's name, a key's fingerprint, a purpose).
// A string only o holds costs nothing to intern once the next collection
// has passed: its one copy replaces o's own.
func Meta(o Internable) {
	o.SetNamespace(String(o.GetNamespace()))
	o.SetLabels(entries(o.GetLabels()))
	o.SetAnnotations(entries(o.GetAnnotations()))
	f := o.GetFinalizers()
	for i := range f {
		f[i] = String(f[i])
	}
	refs := o.GetOwnerReferences()
	for i := range refs {
		refs[i].APIVersion, refs[i].Kind = String(refs[i].APIVersion), String(refs[i].Kind)
	}
	if t, ok := o.GetObjectKind().(*metav1.TypeMeta); ok {
		t.APIVersion, t.Kind = String(t.APIVersion), String(t.Kind)
	}
}

// entries returns m with its keys and values interned: a new map, since a
// map keeps the key it was first given.
func entries(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[String(k)] = String(v)
	}
	return out
}
