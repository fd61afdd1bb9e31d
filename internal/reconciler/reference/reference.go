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

// Package reference resolves the provider's reference wrappers
// (<x>Ref: {from: {name, namespace}}) and selectors (<x>Selector) into the
// ARN of the object they point to. The targets are the namespaced managed
// resources of the upjet AWS provider family (*.aws.m.upbound.io), the kinds a
// Crossplane user already composes; their ARN is status.atProvider.arn, and
// only a Ready target is resolved.
package reference

import (
	"context"
	"sort"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
)

// A Target is a kind that references may point to.
type Target struct {
	schema.GroupVersionKind
}

// The kinds references resolve, with the upjet AWS provider family's groups.
var (
	Role                 = Target{schema.GroupVersionKind{Group: "iam.aws.m.upbound.io", Version: "v1beta1", Kind: "Role"}}
	KMSKey               = Target{schema.GroupVersionKind{Group: "kms.aws.m.upbound.io", Version: "v1beta1", Kind: "Key"}}
	Bucket               = Target{schema.GroupVersionKind{Group: "s3.aws.m.upbound.io", Version: "v1beta1", Kind: "Bucket"}}
	Topic                = Target{schema.GroupVersionKind{Group: "sns.aws.m.upbound.io", Version: "v1beta1", Kind: "Topic"}}
	SecretsManagerSecret = Target{schema.GroupVersionKind{Group: "secretsmanager.aws.m.upbound.io", Version: "v1beta1", Kind: "Secret"}}
)

// Targets are all the kinds references resolve; the package asks for read
// access to exactly these.
var Targets = []Target{Role, KMSKey, Bucket, Topic, SecretsManagerSecret}

// A waiting error says that a reference names an object that does not exist
// or is not Ready yet, or that a selector matches no Ready object yet: what
// an object composed beside its target sees at first, and what resolves by
// itself once the target is Ready.
type waiting struct{ error }

func (w waiting) Unwrap() error { return w.error }

// IsWaiting reports whether err says that a reference waits for its target
// to exist or be Ready, rather than that it cannot resolve.
func IsWaiting(err error) bool {
	var w waiting
	return errors.As(err, &w)
}

// A Field is an ARN field with its reference and selector.
type Field struct {
	// Path of the ARN field, for messages: spec.forProvider.roleARN.
	Path     string
	Target   Target
	ARN      **string
	Ref      **common.ResourceReference
	Selector *xpv2.Selector
}

// Resolve fills each field's ARN from its reference, or from the first Ready
// object its selector matches (then recording the match in the reference).
// A field with neither is left alone.
func Resolve(ctx context.Context, r client.Reader, mg metav1.Object, fields ...Field) error {
	for _, f := range fields {
		if err := resolve(ctx, r, mg, f); err != nil {
			return err
		}
	}
	return nil
}

func resolve(ctx context.Context, r client.Reader, mg metav1.Object, f Field) error {
	switch {
	case *f.Ref != nil:
		from := (*f.Ref).From
		if from == nil || from.Name == nil {
			return errors.Errorf("%s: the reference names no object (from.name)", refPath(f))
		}
		if ns := aws.ToString(from.Namespace); ns != "" && ns != mg.GetNamespace() {
			return errors.Errorf("%s.from.namespace %q: references resolve only in the resource's own namespace %q", refPath(f), ns, mg.GetNamespace())
		}
		u := newObject(f.Target)
		if err := r.Get(ctx, types.NamespacedName{Namespace: mg.GetNamespace(), Name: *from.Name}, u); err != nil {
			if kerrors.IsNotFound(err) {
				return waiting{errors.Errorf("%s: %s %s/%s does not exist", refPath(f), f.Target.Kind, mg.GetNamespace(), *from.Name)}
			}
			return errors.Wrapf(err, "%s: cannot get %s %s/%s", refPath(f), f.Target.Kind, mg.GetNamespace(), *from.Name)
		}
		arn, err := readyARN(u)
		if err != nil {
			return waiting{errors.Wrapf(err, "%s: %s %s/%s", refPath(f), f.Target.Kind, mg.GetNamespace(), *from.Name)}
		}
		*f.ARN = aws.String(arn)
		return nil

	case f.Selector != nil:
		l := &unstructured.UnstructuredList{}
		l.SetGroupVersionKind(f.Target.GroupVersion().WithKind(f.Target.Kind + "List"))
		if err := r.List(ctx, l, client.InNamespace(mg.GetNamespace()), client.MatchingLabels(f.Selector.MatchLabels)); err != nil {
			return errors.Wrapf(err, "%s: cannot list %s objects", selectorPath(f), f.Target.Kind)
		}
		sort.Slice(l.Items, func(i, j int) bool { return l.Items[i].GetName() < l.Items[j].GetName() })
		for i := range l.Items {
			u := &l.Items[i]
			if aws.ToBool(f.Selector.MatchControllerRef) && !sameController(mg, u) {
				continue
			}
			arn, err := readyARN(u)
			if err != nil {
				continue
			}
			*f.ARN = aws.String(arn)
			*f.Ref = &common.ResourceReference{From: &common.ObjectReference{Name: aws.String(u.GetName())}}
			return nil
		}
		return waiting{errors.Errorf("%s: no Ready %s in namespace %s matches", selectorPath(f), f.Target.Kind, mg.GetNamespace())}
	}
	return nil
}

func newObject(t Target) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(t.GroupVersionKind)
	return u
}

// readyARN returns the ARN of a target whose Ready condition is True.
func readyARN(u *unstructured.Unstructured) (string, error) {
	conditions, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	ready := false
	for _, c := range conditions {
		m, _ := c.(map[string]any)
		if m["type"] == string(xpv2.TypeReady) && m["status"] == "True" {
			ready = true
		}
	}
	if !ready {
		return "", errors.New("is not Ready yet")
	}
	arn, _, _ := unstructured.NestedString(u.Object, "status", "atProvider", "arn")
	if arn == "" {
		return "", errors.New("has no status.atProvider.arn")
	}
	return arn, nil
}

func sameController(a, b metav1.Object) bool {
	ca, cb := metav1.GetControllerOf(a), metav1.GetControllerOf(b)
	return ca != nil && cb != nil && ca.UID == cb.UID
}

func refPath(f Field) string      { return strings.TrimSuffix(f.Path, "ARN") + "Ref" }
func selectorPath(f Field) string { return strings.TrimSuffix(f.Path, "ARN") + "Selector" }
