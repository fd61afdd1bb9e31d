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

package resolver

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
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
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/reference"
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
	endpoint := func(ref string, age time.Duration) *v1alpha1.Endpoint {
		mg := &v1alpha1.Endpoint{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "orders", UID: "u1",
			CreationTimestamp: metav1.NewTime(now.Add(-age))}}
		mg.Spec.ForProvider.RoleRef = &common.ResourceReference{From: &common.ObjectReference{Name: aws.String(ref)}}
		return mg
	}

	type want struct {
		conflict bool    // requeued without a status write (or the write refused)
		waiting  bool    // reported as a reference that waits
		err      string  // the field the error names
		roleARN  *string // in memory after resolving
		stored   *string // the role ARN the API server holds after the Observe
		current  bool    // the object's resourceVersion and generation are the API server's
	}
	cases := map[string]struct {
		reason   string
		mg       *v1alpha1.Endpoint
		creates  bool                     // the Observe found nothing, a create follows
		meantime func(*v1alpha1.Endpoint) // a write by someone else during the Observe
		want     want
	}{
		"NewObjectWaitsQuietly": {
			reason: "A new object whose Role is not Ready yet is requeued as a conflict is: no status write, no event.",
			mg:     endpoint("creating", 5*time.Second),
			want:   want{conflict: true, err: "spec.forProvider.roleRef", current: true},
		},
		"LongWaitIsReported": {
			reason: "After referenceWait the wait is an error crossplane-runtime reports in the Synced condition.",
			mg:     endpoint("creating", time.Minute),
			want:   want{waiting: true, err: "spec.forProvider.roleRef", current: true},
		},
		"MissingTargetOfNewObject": {
			reason: "A Role that does not exist yet is waited for as one that is not Ready.",
			mg:     endpoint("absent", time.Second),
			want:   want{conflict: true, err: "spec.forProvider.roleRef", current: true},
		},
		"WrittenByTheCreatePendingUpdate": {
			reason:  "When a create follows, the create-pending update writes the resolved ARN: nothing else does.",
			mg:      endpoint("ready", time.Second),
			creates: true,
			want:    want{roleARN: aws.String(roleARN), current: true},
		},
		"WrittenAfterTheLook": {
			reason: "When no create follows, a patch writes the resolved ARN after the Observe, and the object takes its resourceVersion and generation.",
			mg:     endpoint("ready", time.Hour),
			want:   want{roleARN: aws.String(roleARN), stored: aws.String(roleARN), current: true},
		},
		"ChangedDuringTheLook": {
			reason: "A write by someone else since the read makes the patch conflict, so that this reconcile's later writes cannot undo it.",
			mg:     endpoint("ready", time.Hour),
			meantime: func(e *v1alpha1.Endpoint) {
				e.Spec.ForProvider.Description = aws.String("changed by its user")
			},
			want: want{conflict: true, err: "cannot write what the references resolved to", roleARN: aws.String(roleARN)},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := runtime.NewScheme()
			if err := v1alpha1.SchemeBuilder.AddToScheme(s); err != nil {
				t.Fatal(err)
			}
			kube := fake.NewClientBuilder().WithScheme(s).WithObjects(role("ready", true), role("creating", false), tc.mg).Build()
			if err := kube.Get(context.Background(), client.ObjectKeyFromObject(tc.mg), tc.mg); err != nil {
				t.Fatal(err)
			}
			r := NewWithClock(kube, clocktesting.NewFakePassiveClock(now))
			err := r.ResolveReferences(context.Background(), tc.mg)
			if tc.meantime != nil {
				other := &v1alpha1.Endpoint{}
				if err := kube.Get(context.Background(), client.ObjectKeyFromObject(tc.mg), other); err != nil {
					t.Fatal(err)
				}
				tc.meantime(other)
				if err := kube.Update(context.Background(), other); err != nil {
					t.Fatal(err)
				}
			}
			if err == nil {
				err = r.WriteResolved(context.Background(), tc.mg, tc.creates)
			} else {
				r.Forget(tc.mg.UID)
			}
			stored := &v1alpha1.Endpoint{}
			if err := kube.Get(context.Background(), client.ObjectKeyFromObject(tc.mg), stored); err != nil {
				t.Fatal(err)
			}
			got := want{roleARN: tc.mg.Spec.ForProvider.RoleARN, stored: stored.Spec.ForProvider.RoleARN,
				current: stored.ResourceVersion == tc.mg.ResourceVersion && stored.Generation == tc.mg.Generation}
			if err != nil {
				got.err = fieldIn(err.Error())
			}
			got.conflict, got.waiting = kerrors.IsConflict(err), reference.IsWaiting(err)
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("%s\n-want, +got:\n%s", tc.reason, diff)
			}
			if r.ResolvedAnew(tc.mg.UID) {
				t.Errorf("%s\nthe resolved values are still kept after the Observe", tc.reason)
			}
		})
	}
}

// fieldIn returns the reference field a message names.
func fieldIn(msg string) string {
	for _, f := range []string{"spec.forProvider.roleRef", "cannot write what the references resolved to"} {
		if strings.Contains(msg, f) {
			return f
		}
	}
	return msg
}
