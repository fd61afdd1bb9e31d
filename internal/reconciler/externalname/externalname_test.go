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

package externalname

import (
	"context"
	"testing"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
)

func stream(annotation string) *v1alpha1.DeliveryStream {
	mg := &v1alpha1.DeliveryStream{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "s"}}
	mg.Spec.ForProvider.DeliveryStreamName = "orders"
	if annotation != "" {
		meta.SetExternalName(mg, annotation)
	}
	return mg
}

func TestFromField(t *testing.T) {
	type want struct {
		externalName string
		err          string
	}
	cases := map[string]struct {
		reason string
		mg     *v1alpha1.DeliveryStream
		want   want
	}{
		"Unset": {
			reason: "A new object's external name is set from its name field.",
			mg:     stream(""),
			want:   want{externalName: "orders"},
		},
		"Same": {
			reason: "An external name equal to the name field stays.",
			mg:     stream("orders"),
			want:   want{externalName: "orders"},
		},
		"Other": {
			reason: "An external name naming another resource is an error naming both, never a rename.",
			mg:     stream("payments"),
			want: want{externalName: "payments",
				err: `the annotation crossplane.io/external-name="payments" does not match spec.forProvider.deliveryStreamName="orders": the external name of this kind is its name field, which cannot change; remove the annotation or set it to "orders"`},
		},
	}
	init := FromField("spec.forProvider.deliveryStreamName", func(mg *v1alpha1.DeliveryStream) string { return mg.Spec.ForProvider.DeliveryStreamName })
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := want{}
			if err := init.Initialize(context.Background(), tc.mg); err != nil {
				got.err = err.Error()
			}
			got.externalName = meta.GetExternalName(tc.mg)
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("%s\n-want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
