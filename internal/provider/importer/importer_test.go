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

package importer

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	"github.com/google/go-cmp/cmp"
	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/cloudkinds/provider-aws-services/apis"
	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/aws/listing"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/ownership"
)

func kind(name string) Kind {
	for _, k := range Kinds {
		if k.Kind == name {
			return k
		}
	}
	panic(name)
}

const subARN = "arn:aws:sns:eu-west-3:111122223333:orders:0b7e2a4c-1f7d-4c1e-9a0e-2b1f3c4d5e6f"

func TestObjectName(t *testing.T) {
	cases := map[string]struct {
		kind, id string
		want     string
	}{
		"AValidLabelIsKept":        {kind: "DeliveryStream", id: "orders-2026", want: "orders-2026"},
		"CapitalsAreHashed":        {kind: "DeliveryStream", id: "Orders", want: "orders-" + sha("Orders")},
		"UnderscoresAndDots":       {kind: "DeliveryStream", id: "team_a.orders", want: "team-a-orders-" + sha("team_a.orders")},
		"TooLongIsCutAndHashed":    {kind: "Endpoint", id: strings.Repeat("a", 64), want: strings.Repeat("a", 52) + "-" + sha(strings.Repeat("a", 64))},
		"NothingReadableIsAHash":   {kind: "Endpoint", id: "___", want: sha("___")},
		"ASubscriptionIsItsTopics": {kind: "Subscription", id: subARN, want: "orders-" + sha(subARN)},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := ObjectName(kind(tc.kind), tc.id)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ObjectName(%q): -want +got:\n%s", tc.id, diff)
			}
			if errs := validation.IsDNS1123Label(got); len(errs) > 0 {
				t.Errorf("ObjectName(%q) = %q: %v", tc.id, got, errs)
			}
		})
	}
	// Identifiers that differ only where a DNS label cannot tell them
	// apart get names of their own.
	names := map[string]string{}
	for _, id := range []string{"a_b", "a-b", "A-b", "a.b", "a--b"} {
		n := ObjectName(kind("DeliveryStream"), id)
		if other, ok := names[n]; ok {
			t.Errorf("%q and %q are both named %q", other, id, n)
		}
		names[n] = id
	}
}

// sha is the hash an object name ends with.
func sha(id string) string {
	sum := sha256.Sum256([]byte(id))
	return hex.EncodeToString(sum[:])[:hashLength]
}

func TestManifest(t *testing.T) {
	cluster := Options{Namespace: "team-a", ProviderConfigKind: "ClusterProviderConfig", ProviderConfigName: "default", Region: "eu-west-3"}
	cases := map[string]struct {
		kind, id string
		o        Options
		want     map[string]any
	}{
		"ANameKeyedKindNamesItsNameField": {
			kind: "EndpointConfig", id: "churn", o: cluster,
			want: map[string]any{
				"apiVersion": "mlplatform.services.k8s.aws/v1alpha1", "kind": "EndpointConfig",
				"metadata": map[string]any{"name": "churn", "namespace": "team-a"},
				"spec": map[string]any{
					"managementPolicies": []any{"Observe"},
					"providerConfigRef":  map[string]any{"kind": "ClusterProviderConfig", "name": "default"},
					"forProvider":        map[string]any{"region": "eu-west-3", "endpointConfigName": "churn"},
				},
			},
		},
		"ASubscriptionNamesItsARNAsExternalName": {
			kind: "Subscription", id: subARN, o: Options{Namespace: "team-b", ProviderConfigKind: "ProviderConfig", ProviderConfigName: "aws", Region: "eu-west-3"},
			want: map[string]any{
				"apiVersion": "notification.services.k8s.aws/v1alpha1", "kind": "Subscription",
				"metadata": map[string]any{"name": "orders-" + sha(subARN), "namespace": "team-b",
					"annotations": map[string]any{"crossplane.io/external-name": subARN}},
				"spec": map[string]any{
					"managementPolicies": []any{"Observe"},
					"providerConfigRef":  map[string]any{"kind": "ProviderConfig", "name": "aws"},
					"forProvider":        map[string]any{"region": "eu-west-3"},
				},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Manifest(kind(tc.kind), tc.id, tc.o)); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}

func TestRender(t *testing.T) {
	o := Options{Namespace: "ns", ProviderConfigKind: "ClusterProviderConfig", ProviderConfigName: "default", Region: "us-east-1"}
	got, err := Render([]map[string]any{Manifest(kind("Endpoint"), "failover", o)})
	if err != nil {
		t.Fatal(err)
	}
	want := `---
apiVersion: eventbus.services.k8s.aws/v1alpha1
kind: Endpoint
metadata:
  name: failover
  namespace: ns
spec:
  forProvider:
    name: failover
    region: us-east-1
  managementPolicies:
  - Observe
  providerConfigRef:
    kind: ClusterProviderConfig
    name: default
`
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("-want +got:\n%s", diff)
	}
	if _, err := Render([]map[string]any{Manifest(kind("Endpoint"), "x", o), Manifest(kind("Endpoint"), "x", o)}); err == nil {
		t.Error("two objects of one name: want an error")
	}
}

func object(k Kind, namespace, name string, forProvider map[string]any, annotations map[string]string, configRef map[string]any) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{"spec": map[string]any{"forProvider": forProvider}}}
	if configRef != nil {
		u.Object["spec"].(map[string]any)["providerConfigRef"] = configRef
	}
	u.SetGroupVersionKind(k.GroupVersionKind)
	u.SetNamespace(namespace)
	u.SetName(name)
	u.SetAnnotations(annotations)
	return u
}

func TestDecide(t *testing.T) {
	scheme := runtime.NewScheme()
	_ = clientgoscheme.AddToScheme(scheme)
	_ = apis.AddToScheme(scheme)
	at := Place{Endpoint: "http://127.0.0.1:4566", Account: "111122223333", Region: "eu-west-3"}
	ds, sub := kind("DeliveryStream"), kind("Subscription")
	clusterConfig := &unstructured.Unstructured{Object: map[string]any{"spec": map[string]any{"region": "eu-west-3"}}}
	clusterConfig.SetGroupVersionKind(v1alpha1.ClusterProviderConfigGroupVersionKind)
	clusterConfig.SetName("default")
	claimed := ownership.Identity{Endpoint: at.Endpoint, Account: at.Account, Region: at.Region, Kind: ds.GroupKind(), Fields: "claimed"}
	retained := ownership.Identity{Endpoint: at.Endpoint, Account: at.Account, Region: at.Region, Kind: ds.GroupKind(), Fields: "retained"}
	objs := []client.Object{
		clusterConfig,
		object(ds, "team-a", "named", map[string]any{"deliveryStreamName": "named", "region": "eu-west-3"}, nil, nil),
		object(ds, "team-a", "elsewhere", map[string]any{"deliveryStreamName": "elsewhere", "region": "us-east-1"}, nil, nil),
		// No region of its own: its ClusterProviderConfig's.
		object(ds, "team-b", "by-config", map[string]any{"deliveryStreamName": "by-config"}, nil, map[string]any{"kind": "ClusterProviderConfig", "name": "default"}),
		// Its config's region is another, but an ARN says its own.
		object(sub, "team-c", "by-arn", map[string]any{"region": "us-east-1"}, map[string]string{"crossplane.io/external-name": subARN}, nil),
		object(sub, "team-c", "lost-answer", map[string]any{"protocol": "queue", "endpoint": "arn:aws:sqs:eu-west-3:111122223333:q", "topicARN": "arn:aws:sns:eu-west-3:111122223333:orders"}, nil, nil),
		lease(ownership.ClaimName(claimed), "crossplane-system", "deliverystream.streaming.services.k8s.aws team-d/claimer", ownership.Created),
		lease(ownership.ClaimName(retained), "crossplane-system", "deliverystream.streaming.services.k8s.aws team-e/gone", ownership.Retained),
	}
	kube := fake.NewClientBuilder().WithScheme(scheme).WithObjects(objs...).Build()
	c, err := ReadCluster(context.Background(), kube, "crossplane-system")
	if err != nil {
		t.Fatal(err)
	}
	owner := map[string]string{resource.ExternalResourceTagKeyKind: "deliverystream.streaming.services.k8s.aws", resource.ExternalResourceTagKeyNamespace: "other", resource.ExternalResourceTagKeyName: "theirs", ownership.TagKeyUID: "u-1"}
	cases := map[string]struct {
		kind Kind
		f    listing.Found
		want string
	}{
		"Free":                                 {kind: ds, f: listing.Found{ID: "free", Identity: "free", Tags: map[string]string{"team": "a"}}},
		"NamedByAnObject":                      {kind: ds, f: listing.Found{ID: "named", Identity: "named"}, want: "managed by DeliveryStream team-a/named"},
		"NamedInAnotherRegionOnly":             {kind: ds, f: listing.Found{ID: "elsewhere", Identity: "elsewhere"}},
		"NamedThroughItsConfigsRegion":         {kind: ds, f: listing.Found{ID: "by-config", Identity: "by-config"}, want: "managed by DeliveryStream team-b/by-config"},
		"ASubscriptionNamedByItsARN":           {kind: sub, f: listing.Found{ID: subARN, Identity: "sqs:x on y"}, want: "managed by Subscription team-c/by-arn"},
		"ASubscriptionAnObjectSubscribed":      {kind: sub, f: listing.Found{ID: subARN + "2", Identity: "sqs:arn:aws:sqs:eu-west-3:111122223333:q on arn:aws:sns:eu-west-3:111122223333:orders"}, want: "managed by Subscription team-c/lost-answer"},
		"Claimed":                              {kind: ds, f: listing.Found{ID: "claimed", Identity: "claimed"}, want: "held by deliverystream.streaming.services.k8s.aws team-d/claimer (ownership claim crossplane-system/" + ownership.ClaimName(claimed) + ", created)"},
		"Retained":                             {kind: ds, f: listing.Found{ID: "retained", Identity: "retained"}, want: "kept by namespace team-e, whose object let it go when it was deleted (ownership claim crossplane-system/" + ownership.ClaimName(retained) + "); an admin hands it over by deleting the claim"},
		"ClaimedAtAnotherEndpointIsNotThisOne": {kind: ds, f: listing.Found{ID: "claimed", Identity: "claimed"}},
		"OwnerTags":                            {kind: ds, f: listing.Found{ID: "tagged", Identity: "tagged", Tags: owner}, want: `its owner tags say deliverystream.streaming.services.k8s.aws other/theirs (UID "u-1") made it, an object of another cluster or one deleted that left it; remove its crossplane-* tags to import it here`},
		"UnreadableTags":                       {kind: ds, f: listing.Found{ID: "dark", Identity: "dark", Unreadable: "cannot read its tags"}, want: "cannot read its tags"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			where := at
			if name == "ClaimedAtAnotherEndpointIsNotThisOne" {
				where.Endpoint = ""
			}
			if diff := cmp.Diff(tc.want, c.Decide(tc.kind, where, tc.f)); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}

func lease(name, namespace, holder string, purpose ownership.Purpose) *coordinationv1.Lease {
	return &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name,
		Labels:      map[string]string{ownership.LabelClaim: "true", ownership.LabelHolder: "uid"},
		Annotations: map[string]string{"ownership.services.k8s.aws/holder": holder, "ownership.services.k8s.aws/purpose": string(purpose)},
	}}
}
