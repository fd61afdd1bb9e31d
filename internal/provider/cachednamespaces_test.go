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

package provider

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestCachedMetadata(t *testing.T) {
	full := func() *metav1.PartialObjectMetadata {
		m := namespaceMetadata()
		m.ObjectMeta = metav1.ObjectMeta{
			Name: "team-a", UID: "uid", ResourceVersion: "7",
			Labels: map[string]string{"tenant": "platform"},
			Annotations: map[string]string{
				"kubectl.kubernetes.io/last-applied-configuration": "{...}",
				"streaming.services.k8s.aws/deletion-policy":       "retain",
				"services.k8s.aws/deletion-policy":                 "delete",
				"services.k8s.aws/region":                          "eu-west-1",
			},
			OwnerReferences: []metav1.OwnerReference{{Name: "owner"}},
			Finalizers:      []string{"kubernetes"},
			ManagedFields:   []metav1.ManagedFieldsEntry{{Manager: "kubectl"}},
		}
		return m
	}
	identity := metav1.ObjectMeta{Name: "team-a", UID: "uid", ResourceVersion: "7"}
	labelled := identity
	labelled.Labels = map[string]string{"tenant": "platform"}
	labelled.Annotations = map[string]string{"streaming.services.k8s.aws/deletion-policy": "retain", "services.k8s.aws/deletion-policy": "delete"}
	cases := map[string]struct {
		reason    string
		transform func(any) (any, error)
		want      metav1.ObjectMeta
	}{
		"Namespace": {
			reason:    "A cached Namespace keeps its identity, its labels, which spec.namespaces.selector matches, and its deletion policies, and nothing else.",
			transform: labelledMetadata,
			want:      labelled,
		},
		"Other": {
			reason:    "Any other object cached as metadata keeps only its identity.",
			transform: leanObject,
			want:      identity,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := tc.transform(full())
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got.(*metav1.PartialObjectMetadata).ObjectMeta); diff != "" {
				t.Errorf("%s\n-want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
