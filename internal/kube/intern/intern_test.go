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

package intern

import (
	"encoding/json"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	coordinationv1 "k8s.io/api/coordination/v1"
)

const lease = `{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{
	"name":"claim","namespace":"crossplane-system","finalizers":["example.org/in-use"],
	"labels":{"example.org/claim":"true","example.org/holder":"uid-1"},
	"annotations":{"example.org/purpose":"created"},
	"ownerReferences":[{"apiVersion":"example.org/v1","kind":"Thing","name":"a","uid":"u"}]}}`

// decoded returns a fresh decoding of lease: every string a copy of its own,
// as the informers' decoder makes them.
func decoded(t *testing.T) *coordinationv1.Lease {
	t.Helper()
	l := &coordinationv1.Lease{}
	if err := json.Unmarshal([]byte(lease), l); err != nil {
		t.Fatal(err)
	}
	return l
}

func TestMeta(t *testing.T) {
	a, b := decoded(t), decoded(t)
	Meta(a)
	Meta(b)

	if diff := cmp.Diff(decoded(t), a); diff != "" {
		t.Errorf("Meta(...): -want, +got:\n%s", diff)
	}

	// What the two objects repeat must be one copy.
	shared := map[string]func(l *coordinationv1.Lease) string{
		"namespace":        func(l *coordinationv1.Lease) string { return l.Namespace },
		"kind":             func(l *coordinationv1.Lease) string { return l.Kind },
		"apiVersion":       func(l *coordinationv1.Lease) string { return l.APIVersion },
		"finalizer":        func(l *coordinationv1.Lease) string { return l.Finalizers[0] },
		"owner's kind":     func(l *coordinationv1.Lease) string { return l.OwnerReferences[0].Kind },
		"label value":      func(l *coordinationv1.Lease) string { return l.Labels["example.org/claim"] },
		"annotation value": func(l *coordinationv1.Lease) string { return l.Annotations["example.org/purpose"] },
		"label key": func(l *coordinationv1.Lease) string {
			for k := range l.Labels {
				if k == "example.org/holder" {
					return k
				}
			}
			return ""
		},
	}
	for name, field := range shared {
		t.Run(name, func(t *testing.T) {
			if unsafe.StringData(field(a)) != unsafe.StringData(field(b)) {
				t.Errorf("%s: two copies of %q, want one", name, field(a))
			}
		})
	}
}
