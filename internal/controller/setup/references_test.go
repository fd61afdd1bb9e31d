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

package setup

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	"github.com/google/go-cmp/cmp"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/apis/eventbus/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/reference"
)

func TestReferences(t *testing.T) {
	const roleARN = "arn:aws:iam::111122223333:role/replication"
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	role := func(name string, ready bool) client.Object {
		u := &unstructured.Unstructured{}
		u.SetGroupVersionKind(reference.Role.GroupVersionKind)
		u.SetNamespace("team-a")
		u.SetName(name)
		if ready {
			u.Object["status"] = map[string]any{
				"atProvider": map[string]any{"arn": roleARN},
				"conditions": []any{map[string]any{"type": "Ready", "status": "True"}},
			}
		}
		return u
	}
	kube := fake.NewClientBuilder().WithScheme(runtime.NewScheme()).WithObjects(role("ready", true), role("creating", false)).Build()
	endpoint := func(ref string, age time.Duration) *v1alpha1.Endpoint {
		mg := &v1alpha1.Endpoint{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "orders", UID: "u1", ResourceVersion: "7",
			CreationTimestamp: metav1.NewTime(now.Add(-age))}}
		mg.Spec.ForProvider.RoleRef = &common.ResourceReference{From: &common.ObjectReference{Name: aws.String(ref)}}
		return mg
	}

	type want struct {
		conflict bool    // requeued without a status write
		waiting  bool    // reported as a reference that waits
		err      string  // the field the error names
		roleARN  *string // in memory after resolving
		written  *string // the role ARN crossplane-runtime's resolver wrote, if it was called
		rv       string  // the object's resourceVersion after the look
	}
	cases := map[string]struct {
		reason  string
		mg      *v1alpha1.Endpoint
		creates bool // the look found nothing to observe, a create follows
		want    want
	}{
		"NewObjectWaitsQuietly": {
			reason: "A new object whose Role is not Ready yet is requeued as a conflict is: no status write, no event.",
			mg:     endpoint("creating", 5*time.Second),
			want:   want{conflict: true, err: "spec.forProvider.roleRef", rv: "7"},
		},
		"LongWaitIsReported": {
			reason: "After referenceWait the wait is an error crossplane-runtime reports in the Synced condition.",
			mg:     endpoint("creating", time.Minute),
			want:   want{waiting: true, err: "spec.forProvider.roleRef", rv: "7"},
		},
		"MissingTargetOfNewObject": {
			reason: "A Role that does not exist yet is waited for as one that is not Ready.",
			mg:     endpoint("absent", time.Second),
			want:   want{conflict: true, err: "spec.forProvider.roleRef", rv: "7"},
		},
		"WrittenByTheCreatePendingUpdate": {
			reason:  "When a create follows, the create-pending update writes the resolved ARN: the resolver writes nothing.",
			mg:      endpoint("ready", time.Second),
			creates: true,
			want:    want{roleARN: aws.String(roleARN), rv: "7"},
		},
		"WrittenAfterTheLook": {
			reason: "When no create follows, crossplane-runtime's resolver writes the resolved ARN after the look, and the object takes the write's resourceVersion.",
			mg:     endpoint("ready", time.Hour),
			want:   want{roleARN: aws.String(roleARN), written: aws.String(roleARN), rv: "8"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var written *string
			r := &references{kube: kube, clock: clocktesting.NewFakePassiveClock(now),
				write: managed.ReferenceResolverFn(func(ctx context.Context, mg resource.Managed) error {
					e := mg.(*v1alpha1.Endpoint) //nolint:forcetypeassert // the test's only kind
					if e.Spec.ForProvider.RoleARN != nil {
						t.Errorf("the resolver is given the object as resolved, not as read")
					}
					if err := e.ResolveReferences(ctx, kube); err != nil {
						return err
					}
					written = e.Spec.ForProvider.RoleARN
					mg.SetResourceVersion("8")
					return nil
				})}
			got := want{rv: tc.mg.ResourceVersion}
			err := r.ResolveReferences(context.Background(), tc.mg)
			if err == nil {
				err = r.settle(context.Background(), tc.mg, tc.creates)
			} else {
				r.forget(tc.mg.UID)
			}
			if err != nil {
				got.err = fieldIn(err.Error())
			}
			got.conflict, got.waiting = kerrors.IsConflict(err), reference.IsWaiting(err)
			got.roleARN, got.written, got.rv = tc.mg.Spec.ForProvider.RoleARN, written, tc.mg.ResourceVersion
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("%s\n-want, +got:\n%s", tc.reason, diff)
			}
			if r.resolvedAnew(tc.mg.UID) {
				t.Errorf("%s\nthe resolved values are still kept after the look", tc.reason)
			}
		})
	}
}

// fieldIn returns the reference field a message names.
func fieldIn(msg string) string {
	if strings.Contains(msg, "spec.forProvider.roleRef") {
		return "spec.forProvider.roleRef"
	}
	return msg
}
