//go:build integration

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

package integration

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/prometheus/client_golang/prometheus/testutil"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	ctrlmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"

	apisv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/kube/sweep"
	"github.com/cloudkinds/provider-aws-services/internal/provider/config"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/usage"
)

// forgedUsage is a ProviderConfigUsage a tenant writes in namespace ns:
// labelled for the config ref, controlled by one of its own ConfigMaps,
// naming a resource of kind, with finalizers of its choice.
func forgedUsage(t *testing.T, ns, name string, ref xpv2.ProviderConfigReference, apiVersion, kind string, finalizers ...string) *apisv1alpha1.ProviderConfigUsage {
	t.Helper()
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "owner-" + name}}
	create(t, cm)
	u := &apisv1alpha1.ProviderConfigUsage{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name,
		Labels:          map[string]string{xpv2.LabelKeyProviderName: ref.Name, xpv2.LabelKeyProviderKind: ref.Kind},
		OwnerReferences: []metav1.OwnerReference{meta.AsController(&xpv2.TypedReference{APIVersion: "v1", Kind: "ConfigMap", Name: cm.Name, UID: cm.UID})},
		Finalizers:      finalizers,
	}}
	u.SetProviderConfigReference(ref)
	u.SetResourceReference(xpv2.TypedReference{APIVersion: apiVersion, Kind: kind, Name: cm.Name})
	create(t, u)
	return u
}

// TestAForgedUsageHoldsNothing: a namespace the ClusterProviderConfig does
// not admit writes a usage labelled for it. The usage counts for nothing:
// the config counts its one real user, then none, and its deletion
// completes; its credentials Secret loses the provider's finalizer and goes;
// the forged usage never gets the provider's finalizer.
func TestAForgedUsageHoldsNothing(t *testing.T) {
	s := provider(t)
	ctx := context.Background()
	admitted, forger, secrets := namespace(t), namespace(t), namespace(t)

	create(t, secretWith(secrets, "aws", "credentials", "[default]\naws_access_key_id = AKIDFORGED\naws_secret_access_key = s\n"))
	pc := &apisv1alpha1.ClusterProviderConfig{
		ObjectMeta: metav1.ObjectMeta{Name: short("shared")},
		Spec: apisv1alpha1.ClusterProviderConfigSpec{
			ProviderConfigSpec: apisv1alpha1.ProviderConfigSpec{
				Credentials: apisv1alpha1.ProviderCredentials{Source: apisv1alpha1.CredentialsSourceSecret,
					SecretRef: &xpv2.SecretKeySelector{SecretReference: xpv2.SecretReference{Namespace: secrets, Name: "aws"}, Key: "credentials"}},
				Region:   aws.String("us-east-1"),
				Endpoint: &apisv1alpha1.EndpointOverride{URL: s.url},
			},
			Namespaces: &apisv1alpha1.NamespaceSelector{Names: []string{admitted}},
		},
	}
	create(t, pc)
	ref := xpv2.ProviderConfigReference{Kind: apisv1alpha1.ClusterProviderConfigKind, Name: pc.Name}

	// The forgery: in a namespace the config does not admit, a usage of it
	// shaped as the provider's, but controlled by a ConfigMap, naming that
	// ConfigMap, with a finalizer of the tenant's own.
	forged := forgedUsage(t, forger, "forged", ref, "v1", "ConfigMap", "example.org/keep")
	// And one naming a kind of the provider's that does not exist.
	forgedKind := forgedUsage(t, forger, "forged-kind", ref, "streaming.services.k8s.aws/v1alpha1", "DeliveryStream")

	// One real user, in the admitted namespace.
	mg := newStream(t, admitted, short("real"))
	mg.Spec.ProviderConfigReference = &ref
	create(t, mg)
	eventually(t, 30*time.Second, "Ready", func() error { return isReady(t, mg) })
	users := func(want int64) func() error {
		return func() error {
			if err := cp.Client.Get(ctx, client.ObjectKeyFromObject(pc), pc); err != nil {
				return err
			}
			if pc.Status.Users != want {
				return fmt.Errorf("%d users, want %d", pc.Status.Users, want)
			}
			return nil
		}
	}
	eventually(t, 15*time.Second, "the config counts its real user only", users(1))
	secretFinalized := func(want bool) func() error {
		return func() error {
			sec := &corev1.Secret{}
			if err := cp.Client.Get(ctx, client.ObjectKey{Namespace: secrets, Name: "aws"}, sec); err != nil {
				return err
			}
			if meta.FinalizerExists(sec, config.SecretFinalizer) != want {
				return fmt.Errorf("finalizers %v", sec.Finalizers)
			}
			return nil
		}
	}
	eventually(t, 15*time.Second, "the credentials Secret kept while in use", secretFinalized(true))

	remove(t, mg)
	eventually(t, 15*time.Second, "the config counts no user", users(0))
	eventually(t, 15*time.Second, "the credentials Secret let go", secretFinalized(false))

	if err := cp.Client.Delete(ctx, pc); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	eventually(t, 15*time.Second, "the config deleted", func() error { return isGone(pc) })
	t.Logf("the config went %s after its deletion", time.Since(start).Round(100*time.Millisecond))
	sec := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: secrets, Name: "aws"}}
	if err := cp.Client.Delete(ctx, sec); err != nil {
		t.Fatal(err)
	}
	eventually(t, 10*time.Second, "the credentials Secret deleted", func() error { return isGone(sec) })

	// Two sweeps later, the forged usages still lack the provider's
	// finalizer.
	time.Sleep(2*testSweep + time.Second)
	for _, u := range []*apisv1alpha1.ProviderConfigUsage{forged, forgedKind} {
		if err := cp.Client.Get(ctx, client.ObjectKeyFromObject(u), u); err != nil {
			t.Fatal(err)
		}
		if meta.FinalizerExists(u, usage.Finalizer) {
			t.Errorf("the forged usage %s got the provider's finalizer: %v", u.Name, u.Finalizers)
		}
	}
	change(t, forged, func(u *apisv1alpha1.ProviderConfigUsage) { u.Finalizers = nil })
}

// TestMadeUpKindsAddNoSeries: a hundred usages naming made-up kinds, with
// the provider's finalizer a tenant put on them, are swept (the finalizer
// taken off) without adding a series to the swept and abandoned metrics;
// the kind label of each series is one of the provider's kinds or "other".
func TestMadeUpKindsAddNoSeries(t *testing.T) {
	provider(t)
	ctx := context.Background()
	ns := namespace(t)
	before := testutil.CollectAndCount(sweep.Swept) + testutil.CollectAndCount(usage.Abandoned)
	ref := xpv2.ProviderConfigReference{Kind: apisv1alpha1.ClusterProviderConfigKind, Name: "emulator"}
	const n = 100
	forged := make([]*apisv1alpha1.ProviderConfigUsage, 0, n)
	for i := range n {
		kind := fmt.Sprintf("Made%03d", i) + strings.Repeat("Up", 45)
		forged = append(forged, forgedUsage(t, ns, fmt.Sprintf("made-up-%03d", i), ref, "example.org/v1", kind, usage.Finalizer))
	}
	eventually(t, 20*time.Second, "every forged usage swept of the provider's finalizer", func() error {
		l := &apisv1alpha1.ProviderConfigUsageList{}
		if err := cp.Client.List(ctx, l, client.InNamespace(ns)); err != nil {
			return err
		}
		left := 0
		for i := range l.Items {
			if meta.FinalizerExists(&l.Items[i], usage.Finalizer) {
				left++
			}
		}
		if left > 0 {
			return fmt.Errorf("%d of %d usages keep it", left, len(l.Items))
		}
		return nil
	})
	after := testutil.CollectAndCount(sweep.Swept) + testutil.CollectAndCount(usage.Abandoned)
	t.Logf("swept and abandoned series: %d before, %d after %d forged usages", before, after, n)
	if after > before+2 { // at most usages/other and other, whatever else ran meanwhile
		t.Errorf("forged usages added %d series", after-before)
	}
	families, err := ctrlmetrics.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	own := map[string]bool{usage.OtherKind: true, "APIKeyCredentialProvider": true, "EndpointConfig": true, "Subscription": true, "DeliveryStream": true, "Endpoint": true}
	for _, f := range families {
		if f.GetName() != "provider_aws_services_swept_total" && f.GetName() != "provider_aws_services_abandoned_resources_total" {
			continue
		}
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "kind" && !own[l.GetValue()] {
					t.Errorf("%s has kind %q", f.GetName(), l.GetValue())
				}
			}
		}
	}
	for _, u := range forged {
		if err := client.IgnoreNotFound(cp.Client.Delete(ctx, u)); err != nil {
			t.Fatal(err)
		}
	}
}
