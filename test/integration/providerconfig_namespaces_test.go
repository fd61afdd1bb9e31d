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
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/apis/eventbus/v1alpha1"
	apisv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/test/emulator"
)

// tenantLabel is the namespace label the restricted config selects.
const tenantLabel = "provider-aws-services.test/tenant"

// TestClusterProviderConfigAdmitsOnlyItsNamespaces: the platform team
// restricts a ClusterProviderConfig to one namespace by name and to the
// namespaces labelled as the platform's. An endpoint of another namespace is
// refused, with a message naming the config and the namespace, before any
// AWS call (STS included) and without recording a usage; the admitted
// namespaces' endpoints become Ready. Labelling the refused namespace admits
// it, and removing a name refuses its namespace, each at the resource's next
// reconcile, with nothing of the resource touched.
func TestClusterProviderConfigAdmitsOnlyItsNamespaces(t *testing.T) {
	provider(t)
	ctx := context.Background()
	// The config's own AWS: every call it answers was made through the
	// config.
	e := emulator.New(emulator.Options{})
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	e.Uncounted(outsider)
	look := eventbridge.NewFromConfig(aws.Config{Region: "us-east-1", BaseEndpoint: aws.String(srv.URL), Credentials: credentials.NewStaticCredentialsProvider(outsider, "s", "")})

	byName, byLabel, other := namespace(t), namespace(t), namespace(t)
	label(t, byLabel, "platform")
	label(t, other, "team-b")
	pc := &apisv1alpha1.ClusterProviderConfig{
		ObjectMeta: metav1.ObjectMeta{Name: short("restricted")},
		Spec: apisv1alpha1.ClusterProviderConfigSpec{
			ProviderConfigSpec: apisv1alpha1.ProviderConfigSpec{
				Credentials: apisv1alpha1.ProviderCredentials{Source: apisv1alpha1.CredentialsSourceNone},
				Region:      aws.String("us-east-1"),
				Endpoint:    &apisv1alpha1.EndpointOverride{URL: srv.URL},
			},
			Namespaces: &apisv1alpha1.NamespaceSelector{
				Names:    []string{byName},
				Selector: &metav1.LabelSelector{MatchLabels: map[string]string{tenantLabel: "platform"}},
			},
		},
	}
	create(t, pc)
	ref := &xpv2.ProviderConfigReference{Kind: apisv1alpha1.ClusterProviderConfigKind, Name: pc.Name}
	endpointOf := func(ns string) *v1alpha1.Endpoint {
		mg := newEndpoint(ns, short("tenant"))
		mg.Spec.ProviderConfigReference = ref
		return mg
	}

	// Another namespace is refused, before any AWS call.
	refusedEP := endpointOf(other)
	create(t, refusedEP)
	notAdmitted := fmt.Sprintf("ClusterProviderConfig %q does not admit namespace %q (spec.namespaces): use a provider config that does", pc.Name, other)
	notAdmittedBy(t, refusedEP, notAdmitted)
	if r := refusedEP.GetCondition(xpv2.TypeReady); r.Status == corev1.ConditionTrue {
		t.Errorf("a refused endpoint is Ready: %+v", r)
	}
	if calls := e.Calls(); len(calls) != 0 {
		t.Errorf("AWS was called for a namespace the config does not admit: %v", calls)
	}
	usages := &apisv1alpha1.ProviderConfigUsageList{}
	if err := cp.Client.List(ctx, usages, client.InNamespace(other)); err != nil {
		t.Fatal(err)
	}
	if len(usages.Items) != 0 {
		t.Errorf("a refused resource recorded the use of the config: %+v", usages.Items)
	}

	// The namespaces it admits, by name and by label, work.
	named, labelled := endpointOf(byName), endpointOf(byLabel)
	create(t, named)
	create(t, labelled)
	for _, mg := range []*v1alpha1.Endpoint{named, labelled} {
		eventually(t, 30*time.Second, mg.Namespace+" Ready", func() error { return isReady(t, mg) })
		if _, err := look.DescribeEndpoint(ctx, &eventbridge.DescribeEndpointInput{Name: aws.String(mg.Spec.ForProvider.Name)}); err != nil {
			t.Errorf("the endpoint of %s is not on AWS: %v", mg.Namespace, err)
		}
	}
	if calls := e.CallsFor(refusedEP.Spec.ForProvider.Name); len(calls) != 0 {
		t.Errorf("AWS was called for the refused endpoint: %v", calls)
	}
	notAdmittedBy(t, refusedEP, notAdmitted)

	// Labelling the refused namespace as the platform's admits it, at the
	// resource's next reconcile (after its backoff).
	label(t, other, "platform")
	eventually(t, 90*time.Second, other+" Ready once labelled", func() error { return isReady(t, refusedEP) })

	// Dropping a name refuses its namespace at the next poll; AWS keeps the
	// endpoint untouched.
	before := e.CallsFor(named.Spec.ForProvider.Name)
	change(t, pc, func(pc *apisv1alpha1.ClusterProviderConfig) { pc.Spec.Namespaces.Names = []string{"someone-else"} })
	notAdmittedBy(t, named, fmt.Sprintf("ClusterProviderConfig %q does not admit namespace %q (spec.namespaces)", pc.Name, byName))
	if w := writes(subtract(e.CallsFor(named.Spec.ForProvider.Name), before), "EventBridge"); len(w) != 0 {
		t.Errorf("AWS was written for a namespace the config no longer admits: %v", w)
	}
	if _, err := look.DescribeEndpoint(ctx, &eventbridge.DescribeEndpointInput{Name: aws.String(named.Spec.ForProvider.Name)}); err != nil {
		t.Errorf("the endpoint of a namespace no longer admitted is gone from AWS: %v", err)
	}

	// Admitted again, everything can be deleted.
	change(t, pc, func(pc *apisv1alpha1.ClusterProviderConfig) { pc.Spec.Namespaces.Names = []string{byName} })
	for _, mg := range []*v1alpha1.Endpoint{named, labelled, refusedEP} {
		remove(t, mg)
	}
}

// label sets the tenant label of namespace ns.
func label(t *testing.T, ns, tenant string) {
	t.Helper()
	n := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}
	change(t, n, func(n *corev1.Namespace) {
		if n.Labels == nil {
			n.Labels = map[string]string{}
		}
		n.Labels[tenantLabel] = tenant
	})
}

// notAdmittedBy waits until mg is refused by its config: Synced False with a
// message that contains says.
func notAdmittedBy(t *testing.T, mg *v1alpha1.Endpoint, says string) {
	t.Helper()
	eventually(t, 30*time.Second, mg.Namespace+"/"+mg.Name+" not admitted", func() error {
		synced, err := conditionOf(t, mg, xpv2.TypeSynced)
		if err != nil {
			return err
		}
		if synced.Status != corev1.ConditionFalse || !strings.Contains(synced.Message, says) {
			return fmt.Errorf("Synced=%s: %s", synced.Status, synced.Message)
		}
		t.Logf("%s/%s: Synced=False (%s): %s", mg.Namespace, mg.Name, synced.Reason, synced.Message)
		return nil
	})
}
