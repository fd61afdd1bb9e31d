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
	"testing"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/test"
	"github.com/google/go-cmp/cmp"
)

func TestDecide(t *testing.T) {
	errBoom := errors.New("boom")
	notRead := func() (map[string]string, error) { return nil, errors.New("the namespace was read") }
	ns := func(a map[string]string) func() (map[string]string, error) {
		return func() (map[string]string, error) { return a, nil }
	}
	type want struct {
		d   DeletionPolicy
		err error
	}
	cases := map[string]struct {
		reason string
		object map[string]string
		ns     func() (map[string]string, error)
		want   want
	}{
		"None": {
			reason: "Without a policy anywhere the AWS resource is deleted.",
			ns:     ns(nil),
			want:   want{d: DeletionPolicy{}},
		},
		"ObjectRetain": {
			reason: "The object's own retain decides without reading the namespace.",
			object: map[string]string{AnnotationDeletionPolicy: "retain"},
			ns:     notRead,
			want:   want{d: DeletionPolicy{Retain: true, By: "annotation services.k8s.aws/deletion-policy"}},
		},
		"ObjectDeleteInARetainingNamespace": {
			reason: "The object's own delete wins over its namespace's retain, as in ACK.",
			object: map[string]string{AnnotationDeletionPolicy: "delete"},
			ns:     notRead,
			want:   want{d: DeletionPolicy{By: "annotation services.k8s.aws/deletion-policy"}},
		},
		"ObjectInvalid": {
			reason: "A value neither retain nor delete decides nothing and names the annotation and the value.",
			object: map[string]string{AnnotationDeletionPolicy: "Retain"},
			ns:     notRead,
			want: want{err: errors.New(`annotation services.k8s.aws/deletion-policy is "Retain": want "retain" or "delete"; ` +
				`until it is one of them, deleting this object waits and deletes nothing`)},
		},
		"ObjectEmpty": {
			reason: "An empty value is not the absence of a policy.",
			object: map[string]string{AnnotationDeletionPolicy: ""},
			ns:     notRead,
			want: want{err: errors.New(`annotation services.k8s.aws/deletion-policy is "": want "retain" or "delete"; ` +
				`until it is one of them, deleting this object waits and deletes nothing`)},
		},
		"ObjectGroupAnnotationIsNotRead": {
			reason: "On the object only services.k8s.aws/deletion-policy counts, as in ACK.",
			object: map[string]string{group + "/deletion-policy": "retain"},
			ns:     ns(nil),
			want:   want{d: DeletionPolicy{}},
		},
		"NamespaceOfTheGroup": {
			reason: "The namespace's <group>/deletion-policy decides for an object without its own, as in ACK.",
			ns:     ns(map[string]string{group + "/deletion-policy": "retain"}),
			want:   want{d: DeletionPolicy{Retain: true, By: `annotation streaming.services.k8s.aws/deletion-policy of namespace "team-a"`}},
		},
		"NamespaceOfAnotherGroup": {
			reason: "Another group's policy is for that group's objects.",
			ns:     ns(map[string]string{"notification.services.k8s.aws/deletion-policy": "retain"}),
			want:   want{d: DeletionPolicy{}},
		},
		"NamespaceUnprefixed": {
			reason: "The namespace's services.k8s.aws/deletion-policy decides when its group's does not.",
			ns:     ns(map[string]string{AnnotationDeletionPolicy: "retain"}),
			want:   want{d: DeletionPolicy{Retain: true, By: `annotation services.k8s.aws/deletion-policy of namespace "team-a"`}},
		},
		"NamespaceGroupWins": {
			reason: "The group's policy wins over the unprefixed one.",
			ns:     ns(map[string]string{group + "/deletion-policy": "delete", AnnotationDeletionPolicy: "retain"}),
			want:   want{d: DeletionPolicy{By: `annotation streaming.services.k8s.aws/deletion-policy of namespace "team-a"`}},
		},
		"NamespaceInvalid": {
			reason: "An invalid namespace policy decides nothing and names the namespace, the annotation and the value.",
			ns:     ns(map[string]string{group + "/deletion-policy": "keep"}),
			want: want{err: errors.New(`annotation streaming.services.k8s.aws/deletion-policy of namespace "team-a" is "keep": want "retain" or "delete"; ` +
				`until it is one of them, or the object's own annotation services.k8s.aws/deletion-policy decides, deleting this object waits and deletes nothing`)},
		},
		"NamespaceUnreadable": {
			reason: "A namespace that cannot be read decides nothing: it may say retain.",
			ns:     func() (map[string]string, error) { return nil, errBoom },
			want: want{err: errors.Wrap(errBoom, `cannot read the deletion policy of namespace "team-a" (annotations streaming.services.k8s.aws/deletion-policy and services.k8s.aws/deletion-policy): `+
				`the provider needs get, list and watch on namespaces (cluster/rbac/namespaces.yaml), or the object's own annotation services.k8s.aws/deletion-policy decides without it; deleting this object waits and deletes nothing`)},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			d, err := decide(tc.object, group, "team-a", tc.ns)
			if diff := cmp.Diff(tc.want.err, err, test.EquateErrors()); diff != "" {
				t.Errorf("%s\ndecide(...): -want error, +got error:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want.d, d); diff != "" {
				t.Errorf("%s\ndecide(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
