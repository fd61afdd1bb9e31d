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

package awsconfig

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	streamingv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/aws/quota"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/budget"
)

// TestPrune: what the cache keeps for a config goes with the config, and a
// session no reconcile asks for (another region) goes once idle; the
// sessions in use stay, and the budgets of places nothing calls go.
func TestPrune(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	none := v1alpha1.ProviderConfigSpec{Region: aws.String("us-east-1"), Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceNone}}
	for _, name := range []string{"kept", "gone"} {
		if err := f.kube.Create(ctx, clusterConfig(name, f.url, none)); err != nil {
			t.Fatal(err)
		}
	}
	kept, gone := managed("ns", v1alpha1.ClusterProviderConfigKind, "kept", nil), managed("ns", v1alpha1.ClusterProviderConfigKind, "gone", nil)
	for _, mg := range []*streamingv1alpha1.DeliveryStream{kept, gone} {
		if _, err := f.cache.Session(ctx, mg, nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.cache.Session(ctx, kept, aws.String("eu-west-1")); err != nil {
		t.Fatal(err)
	}
	f.cache.budgets = budget.New(budget.Quotas{})
	_ = f.cache.budgets.Wait(ctx, "gone-account", "us-east-1", quota.Operation{Service: "SNS", Name: "Subscribe"})

	sessions := func() []string {
		var got []string
		for k := range f.cache.sessions {
			got = append(got, k.name+" "+k.region)
		}
		slices.Sort(got)
		return got
	}
	if err := f.kube.Delete(ctx, &v1alpha1.ClusterProviderConfig{ObjectMeta: metav1.ObjectMeta{Name: "gone"}}); err != nil {
		t.Fatal(err)
	}
	f.cache.Prune(ctx)
	if diff := cmp.Diff([]string{"kept eu-west-1", "kept us-east-1"}, sessions()); diff != "" {
		t.Errorf("after its config went: -want, +got:\n%s", diff)
	}
	if n := f.cache.budgets.Places(); n != 1 {
		t.Errorf("budgets of %d places kept while in use, want 1", n)
	}

	// Idle: only the session asked for since stays.
	f.cache.idleFor = time.Millisecond
	time.Sleep(5 * time.Millisecond)
	if _, err := f.cache.Session(ctx, kept, nil); err != nil {
		t.Fatal(err)
	}
	f.cache.Prune(ctx)
	if diff := cmp.Diff([]string{"kept us-east-1"}, sessions()); diff != "" {
		t.Errorf("after the other region's went idle: -want, +got:\n%s", diff)
	}
	if n := f.cache.budgets.Places(); n != 0 {
		t.Errorf("budgets of %d idle places kept, want 0", n)
	}
}
