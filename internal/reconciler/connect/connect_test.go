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

package connect

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/test"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	streamingv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/awsconfig"
	"github.com/cloudkinds/provider-aws-services/test/emulator"
)

// external is the external client Connect hands out in these tests.
type external struct {
	managed.TypedExternalClient[*streamingv1alpha1.DeliveryStream]
}

func TestConnect(t *testing.T) {
	type want struct {
		err    error
		usages []string
		calls  int
	}
	cases := map[string]struct {
		reason  string
		ns      string
		deleted bool
		want    want
	}{
		"AdmittedDeleting": {
			reason:  "A resource being deleted records no usage (its namespace may be terminating, where nothing can be made), and still gets a client.",
			ns:      "team-a",
			deleted: true,
			want:    want{calls: 1},
		},
		"RefusedDeleting": {
			reason:  "A deletion that cannot connect says how to let the object go without deleting anything.",
			ns:      "team-b",
			deleted: true,
			want:    want{err: errors.Wrap(errors.New(`ClusterProviderConfig "default" does not admit namespace "team-b" (spec.namespaces): use a provider config that does`), WayOut)},
		},
		"Admitted": {
			reason: "A resource of a namespace its config admits records its usage, then gets a client on a session.",
			ns:     "team-a",
			want:   want{usages: []string{"team-a/uid-1"}, calls: 1},
		},
		"Refused": {
			reason: "A resource of a namespace its config does not admit is refused before it records a usage or calls AWS.",
			ns:     "team-b",
			want:   want{err: errors.New(`ClusterProviderConfig "default" does not admit namespace "team-b" (spec.namespaces): use a provider config that does`)},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e := emulator.New(emulator.Options{})
			srv := httptest.NewServer(e)
			defer srv.Close()
			s := runtime.NewScheme()
			_ = clientgoscheme.AddToScheme(s)
			_ = v1alpha1.AddToScheme(s)
			_ = streamingv1alpha1.AddToScheme(s)
			pc := &v1alpha1.ClusterProviderConfig{ObjectMeta: metav1.ObjectMeta{Name: "default"}, Spec: v1alpha1.ClusterProviderConfigSpec{
				ProviderConfigSpec: v1alpha1.ProviderConfigSpec{
					Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceNone},
					Region:      aws.String("us-east-1"),
					Endpoint:    &v1alpha1.EndpointOverride{URL: srv.URL},
				},
				Namespaces: &v1alpha1.NamespaceSelector{Names: []string{"team-a"}},
			}}
			kube := fake.NewClientBuilder().WithScheme(s).WithObjects(pc,
				&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "team-a"}},
				&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "team-b"}}).Build()
			mg := &streamingv1alpha1.DeliveryStream{ObjectMeta: metav1.ObjectMeta{Namespace: tc.ns, Name: "s", UID: "uid-1"}}
			mg.SetGroupVersionKind(streamingv1alpha1.DeliveryStreamGroupVersionKind)
			mg.Spec.ProviderConfigReference = &xpv2.ProviderConfigReference{Kind: v1alpha1.ClusterProviderConfigKind, Name: "default"}
			if tc.deleted {
				now := metav1.Now()
				mg.SetDeletionTimestamp(&now)
			}

			c := New(kube, awsconfig.NewCache(kube), func(*streamingv1alpha1.DeliveryStream) *string { return nil },
				func(*streamingv1alpha1.DeliveryStream, *awsconfig.Session) managed.TypedExternalClient[*streamingv1alpha1.DeliveryStream] {
					return external{}
				})
			got, err := c.Connect(context.Background(), mg)
			if diff := cmp.Diff(tc.want.err, err, test.EquateErrors()); diff != "" {
				t.Errorf("%s\nConnect(...): -want error, +got error:\n%s", tc.reason, diff)
			}
			if (err == nil) != (got != nil) {
				t.Errorf("%s\nConnect(...): client %v with error %v", tc.reason, got, err)
			}
			l := &v1alpha1.ProviderConfigUsageList{}
			if err := kube.List(context.Background(), l); err != nil {
				t.Fatal(err)
			}
			var usages []string
			for _, u := range l.Items {
				usages = append(usages, u.Namespace+"/"+u.Name)
			}
			if diff := cmp.Diff(tc.want.usages, usages); diff != "" {
				t.Errorf("%s\nProviderConfigUsages: -want, +got:\n%s", tc.reason, diff)
			}
			calls := 0
			for _, n := range e.Calls() {
				calls += n
			}
			if diff := cmp.Diff(tc.want.calls, calls); diff != "" {
				t.Errorf("%s\nAWS calls: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
