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

package ownership

import (
	"context"
	"slices"
	"testing"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/google/go-cmp/cmp"
	toolscache "k8s.io/client-go/tools/cache"

	"github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
)

func TestIndexerAsking(t *testing.T) {
	k := &Owners[*v1alpha1.DeliveryStream]{
		Identity:         func(mg *v1alpha1.DeliveryStream) string { return mg.Spec.ForProvider.DeliveryStreamName },
		PoliciesHonoured: true,
	}
	stream := func(namespace, name, identity string, policies ...xpv2.ManagementAction) *v1alpha1.DeliveryStream {
		mg := &v1alpha1.DeliveryStream{}
		mg.SetNamespace(namespace)
		mg.SetName(name)
		mg.Spec.ForProvider.DeliveryStreamName = identity
		if len(policies) == 0 {
			// The CRD's default.
			policies = []xpv2.ManagementAction{xpv2.ManagementActionAll}
		}
		mg.SetManagementPolicies(policies)
		return mg
	}
	objects := []*v1alpha1.DeliveryStream{
		stream("team-a", "orders", "orders"),
		stream("team-b", "orders-too", "orders"),
		stream("team-b", "payments", "payments"),
		// It may not create, so it asks for nothing.
		stream("team-c", "orders-watched", "orders", xpv2.ManagementActionObserve),
		stream("team-c", "unnamed", ""),
	}

	cases := map[string]struct {
		identity string
		want     []string
	}{
		"AcrossNamespaces": {identity: "orders", want: []string{"team-a/orders", "team-b/orders-too"}},
		"One":              {identity: "payments", want: []string{"team-b/payments"}},
		"None":             {identity: "invoices", want: []string{}},
	}
	idx := toolscache.NewIndexer(toolscache.MetaNamespaceKeyFunc, toolscache.Indexers{IndexField: func(o any) ([]string, error) {
		return k.Index(o.(*v1alpha1.DeliveryStream)), nil //nolint:forcetypeassert // the test stores only streams
	}})
	for _, o := range objects {
		if err := idx.Add(o); err != nil {
			t.Fatal(err)
		}
	}
	asking := IndexerAsking(idx)
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := asking(context.Background(), tc.identity)
			if err != nil {
				t.Fatal(err)
			}
			keys := []string{}
			for _, o := range got {
				keys = append(keys, o.GetNamespace()+"/"+o.GetName())
				// A reader's changes stay its own: the store's copy is shared.
				o.SetName("changed")
			}
			slices.Sort(keys)
			if diff := cmp.Diff(tc.want, keys); diff != "" {
				t.Errorf("asking(%q): -want, +got:\n%s", tc.identity, diff)
			}
		})
	}
	names := []string{}
	for _, o := range idx.List() {
		names = append(names, o.(*v1alpha1.DeliveryStream).GetName()) //nolint:forcetypeassert // the test stores only streams
	}
	slices.Sort(names)
	if diff := cmp.Diff([]string{"orders", "orders-too", "orders-watched", "payments", "unnamed"}, names); diff != "" {
		t.Errorf("the stored objects' names after reads: -want, +got:\n%s", diff)
	}
}
