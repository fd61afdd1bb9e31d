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

package reference

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/google/go-cmp/cmp"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/yaml"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
)

func role(namespace, name, arn string, ready bool, labels map[string]string, controller string) *unstructured.Unstructured {
	u := newObject(Role)
	u.SetNamespace(namespace)
	u.SetName(name)
	u.SetLabels(labels)
	if controller != "" {
		u.SetOwnerReferences([]metav1.OwnerReference{{APIVersion: "x/v1", Kind: "XR", Name: "xr", UID: "uid-" + "x", Controller: aws.Bool(true)}})
		if controller != "x" {
			u.SetOwnerReferences([]metav1.OwnerReference{{APIVersion: "x/v1", Kind: "XR", Name: "other", UID: "uid-" + "y", Controller: aws.Bool(true)}})
		}
	}
	status := "False"
	if ready {
		status = "True"
	}
	u.Object["status"] = map[string]any{
		"atProvider": map[string]any{"arn": arn},
		"conditions": []any{map[string]any{"type": "Ready", "status": status}},
	}
	return u
}

func TestResolve(t *testing.T) {
	s := runtime.NewScheme()
	objs := []client.Object{
		role("team-a", "ready", "arn:aws:iam::000000000000:role/ready", true, map[string]string{"app": "x"}, "x"),
		role("team-a", "creating", "", false, map[string]string{"app": "x"}, ""),
		role("team-a", "b-other-xr", "arn:aws:iam::000000000000:role/other", true, map[string]string{"app": "y"}, "y"),
		role("team-b", "elsewhere", "arn:aws:iam::000000000000:role/elsewhere", true, nil, ""),
	}
	kube := fake.NewClientBuilder().WithScheme(s).WithObjects(objs...).Build()
	mg := &metav1.ObjectMeta{Namespace: "team-a", Name: "mr",
		OwnerReferences: []metav1.OwnerReference{{APIVersion: "x/v1", Kind: "XR", Name: "xr", UID: "uid-x", Controller: aws.Bool(true)}}}

	type want struct {
		arn     *string
		ref     *common.ResourceReference
		err     string
		waiting bool // the error resolves by itself once the target is Ready
	}
	cases := map[string]struct {
		arn      *string
		ref      *common.ResourceReference
		selector *xpv2.Selector
		want     want
	}{
		"Nothing": {want: want{}},
		"ARNAlone": {arn: aws.String("arn:aws:iam::000000000000:role/given"),
			want: want{arn: aws.String("arn:aws:iam::000000000000:role/given")}},
		"ReadyRef": {ref: ref("ready"),
			want: want{arn: aws.String("arn:aws:iam::000000000000:role/ready"), ref: ref("ready")}},
		"NotReadyRef": {ref: ref("creating"),
			want: want{ref: ref("creating"), err: "spec.forProvider.roleRef: Role team-a/creating: is not Ready yet", waiting: true}},
		"MissingRef": {ref: ref("nope"),
			want: want{ref: ref("nope"), err: "spec.forProvider.roleRef: Role team-a/nope does not exist", waiting: true}},
		"CrossNamespaceRef": {ref: &common.ResourceReference{From: &common.ObjectReference{Name: aws.String("elsewhere"), Namespace: aws.String("team-b")}},
			want: want{ref: &common.ResourceReference{From: &common.ObjectReference{Name: aws.String("elsewhere"), Namespace: aws.String("team-b")}},
				err: `spec.forProvider.roleRef.from.namespace "team-b": references resolve only in the resource's own namespace "team-a"`}},
		"SelectorByLabel": {selector: &xpv2.Selector{MatchLabels: map[string]string{"app": "y"}},
			want: want{arn: aws.String("arn:aws:iam::000000000000:role/other"), ref: ref("b-other-xr")}},
		"SelectorSkipsNotReady": {selector: &xpv2.Selector{MatchLabels: map[string]string{"app": "x"}},
			want: want{arn: aws.String("arn:aws:iam::000000000000:role/ready"), ref: ref("ready")}},
		"SelectorByController": {selector: &xpv2.Selector{MatchControllerRef: aws.Bool(true)},
			want: want{arn: aws.String("arn:aws:iam::000000000000:role/ready"), ref: ref("ready")}},
		"SelectorWithoutMatch": {selector: &xpv2.Selector{MatchLabels: map[string]string{"app": "z"}},
			want: want{err: "spec.forProvider.roleSelector: no Ready Role in namespace team-a matches", waiting: true}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			arn, r := tc.arn, tc.ref
			err := Resolve(context.Background(), kube, mg, Field{Path: "spec.forProvider.roleARN", Target: Role, ARN: &arn, Ref: &r, Selector: tc.selector})
			got := want{arn: arn, ref: r}
			if err != nil {
				got.err, got.waiting = err.Error(), IsWaiting(err)
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("-want, +got:\n%s", diff)
			}
		})
	}
}

func ref(name string) *common.ResourceReference {
	return &common.ResourceReference{From: &common.ObjectReference{Name: aws.String(name)}}
}

// TestClusterRoleCoversExactlyTheTargets keeps the ClusterRole a cluster admin
// applies in step with the kinds references resolve.
func TestClusterRoleCoversExactlyTheTargets(t *testing.T) {
	b, err := os.ReadFile("../../../cluster/rbac/reference-targets.yaml")
	if err != nil {
		t.Fatal(err)
	}
	role := &rbacv1.ClusterRole{}
	if err := yaml.UnmarshalStrict(b, role); err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, r := range role.Rules {
		if diff := cmp.Diff([]string{"get", "list", "watch"}, r.Verbs); diff != "" {
			t.Errorf("verbs: %s", diff)
		}
		for _, g := range r.APIGroups {
			for _, res := range r.Resources {
				got[g+"/"+res] = true
			}
		}
	}
	want := map[string]bool{}
	for _, target := range Targets {
		plural := strings.ToLower(target.Kind) + "s"
		want[target.Group+"/"+plural] = true
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("-targets, +ClusterRole:\n%s", diff)
	}
}
