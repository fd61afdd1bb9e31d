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

package safestart

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	"github.com/google/go-cmp/cmp"
	extv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	agentcorev1alpha1 "github.com/cloudkinds/provider-aws-services/apis/agentcorecontrol/v1alpha1"
	eventbusv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/eventbus/v1alpha1"
	mlplatformv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/mlplatform/v1alpha1"
	notificationv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/notification/v1alpha1"
	streamingv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
)

type recordingGate map[schema.GroupVersionKind]bool

func (g recordingGate) Set(gvk schema.GroupVersionKind, ready bool) bool { g[gvk] = ready; return true }

func crd(gvk schema.GroupVersionKind, established, served bool) *extv1.CustomResourceDefinition {
	status := extv1.ConditionFalse
	if established {
		status = extv1.ConditionTrue
	}
	return &extv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: CRDName(gvk)},
		Spec:       extv1.CustomResourceDefinitionSpec{Group: gvk.Group, Versions: []extv1.CustomResourceDefinitionVersion{{Name: gvk.Version, Served: served}}},
		Status:     extv1.CustomResourceDefinitionStatus{Conditions: []extv1.CustomResourceDefinitionCondition{{Type: extv1.Established, Status: status}}},
	}
}

func TestOpen(t *testing.T) {
	stream, sub, endpoint := streamingv1alpha1.DeliveryStreamGroupVersionKind, notificationv1alpha1.SubscriptionGroupVersionKind, eventbusv1alpha1.EndpointGroupVersionKind
	config := mlplatformv1alpha1.EndpointConfigGroupVersionKind
	cases := map[string]struct {
		crds        []client.Object
		wantOpen    recordingGate
		wantPending []schema.GroupVersionKind
	}{
		"EstablishedAndServedOpens": {crds: []client.Object{crd(stream, true, true)}, wantOpen: recordingGate{stream: true},
			wantPending: []schema.GroupVersionKind{sub, endpoint, config}},
		"NotEstablishedWaits": {crds: []client.Object{crd(stream, true, true), crd(sub, false, true)}, wantOpen: recordingGate{stream: true},
			wantPending: []schema.GroupVersionKind{sub, endpoint, config}},
		"VersionNotServedWaits": {crds: []client.Object{crd(endpoint, true, false), crd(config, true, true)}, wantOpen: recordingGate{config: true},
			wantPending: []schema.GroupVersionKind{stream, sub, endpoint}},
	}
	s := runtime.NewScheme()
	_ = extv1.AddToScheme(s)
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			g := recordingGate{}
			w := New(fake.NewClientBuilder().WithScheme(s).WithObjects(tc.crds...).Build(), g, logging.NewNopLogger())
			pending := w.open(context.Background(), []schema.GroupVersionKind{stream, sub, endpoint, config})
			if diff := cmp.Diff(tc.wantOpen, g); diff != "" {
				t.Errorf("open gates: -want, +got:\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantPending, pending); diff != "" {
				t.Errorf("pending: -want, +got:\n%s", diff)
			}
		})
	}
}

// Every kind's CRD name is the one controller-gen writes.
func TestCRDNameIsTheGeneratedCRDs(t *testing.T) {
	for _, gvk := range []schema.GroupVersionKind{
		streamingv1alpha1.DeliveryStreamGroupVersionKind, notificationv1alpha1.SubscriptionGroupVersionKind, eventbusv1alpha1.EndpointGroupVersionKind,
		mlplatformv1alpha1.EndpointConfigGroupVersionKind, agentcorev1alpha1.APIKeyCredentialProviderGroupVersionKind,
	} {
		name := CRDName(gvk)
		group, plural := gvk.Group, name[:len(name)-len(gvk.Group)-1]
		if _, err := os.Stat(filepath.Join("..", "..", "..", "package", "crds", group+"_"+plural+".yaml")); err != nil {
			t.Errorf("%s: no generated CRD for %s: %v", gvk.Kind, name, err)
		}
	}
}
