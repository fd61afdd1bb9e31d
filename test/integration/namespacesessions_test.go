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
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/google/go-cmp/cmp"
	"github.com/prometheus/client_golang/prometheus/testutil"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	apisv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
	fh "github.com/cloudkinds/provider-aws-services/internal/aws/firehose"
	"github.com/cloudkinds/provider-aws-services/internal/metrics"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/awsconfig"
	"github.com/cloudkinds/provider-aws-services/test/emulator"
)

// TestNamespaceSessions: two teams share one AWS account through one
// ClusterProviderConfig with spec.namespaceSessions. Each team's
// DeliveryStream and Endpoint become Ready, and every AWS call made for them,
// from create to delete, is signed by a session that carries the session tag
// crossplane-namespace of the team's own namespace (what an IAM policy reads
// as aws:PrincipalTag/crossplane-namespace): the stream carries the same
// owner tag on AWS (aws:ResourceTag), the endpoint's name begins with the
// namespace and an underscore (the policy's resource pattern). Each
// namespace assumed the tenants' role once, with its own session name; the
// shared hub role was assumed once and the account asked once for both.
func TestNamespaceSessions(t *testing.T) {
	provider(t)
	ctx := context.Background()
	const (
		hub    = "arn:aws:iam::000000000000:role/crossplane-hub"
		tenant = "arn:aws:iam::000000000000:role/crossplane-tenants"
	)
	// The config's own AWS: every call it answers was made through the
	// config.
	e := emulator.New(emulator.Options{})
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	e.Uncounted(outsider)
	look := firehose.NewFromConfig(aws.Config{Region: "us-east-1", BaseEndpoint: aws.String(srv.URL), Credentials: credentials.NewStaticCredentialsProvider(outsider, "s", "")})

	teams := []string{namespace(t), namespace(t)}
	pc := &apisv1alpha1.ClusterProviderConfig{
		ObjectMeta: metav1.ObjectMeta{Name: short("tenants")},
		Spec: apisv1alpha1.ClusterProviderConfigSpec{
			ProviderConfigSpec: apisv1alpha1.ProviderConfigSpec{
				Credentials:     apisv1alpha1.ProviderCredentials{Source: apisv1alpha1.CredentialsSourceNone},
				AssumeRoleChain: []apisv1alpha1.AssumeRoleOptions{{RoleARN: hub}},
				Region:          aws.String("us-east-1"),
				Endpoint:        &apisv1alpha1.EndpointOverride{URL: srv.URL},
			},
			NamespaceSessions: &apisv1alpha1.NamespaceSessions{RoleARN: aws.String(tenant)},
			Namespaces:        &apisv1alpha1.NamespaceSelector{Names: teams},
		},
	}
	create(t, pc)
	ref := &xpv2.ProviderConfigReference{Kind: apisv1alpha1.ClusterProviderConfigKind, Name: pc.Name}
	assumeRoles := testutil.ToFloat64(metrics.STSCalls.WithLabelValues("AssumeRole"))

	// owner names the namespace of each AWS name the teams' objects use.
	owner, streams := map[string]string{}, map[string]string{}
	var objects []resource.Managed
	for _, ns := range teams {
		stream := newStream(t, ns, short("events"))
		stream.Spec.ProviderConfigReference = ref
		// The policy confines a namespace's endpoints to names that begin
		// with the namespace and an underscore, which no namespace name
		// holds (docs/tenancy.md).
		endpoint := newEndpoint(ns, "orders")
		endpoint.Spec.ForProvider.Name = ns + "_orders"
		endpoint.Spec.ProviderConfigReference = ref
		owner[stream.Spec.ForProvider.DeliveryStreamName], owner[endpoint.Spec.ForProvider.Name] = ns, ns
		streams[stream.Spec.ForProvider.DeliveryStreamName] = ns
		create(t, stream)
		create(t, endpoint)
		objects = append(objects, stream, endpoint)
	}
	for _, mg := range objects {
		eventually(t, 60*time.Second, mg.GetNamespace()+"/"+mg.GetName()+" Ready", func() error { return isReady(t, mg) })
	}
	// The stream's owner tag names its namespace: aws:ResourceTag.
	for name, ns := range streams {
		out, err := look.ListTagsForDeliveryStream(ctx, &firehose.ListTagsForDeliveryStreamInput{DeliveryStreamName: aws.String(name)})
		if err != nil {
			t.Fatal(err)
		}
		if got := fh.TagMap(out.Tags)[awsconfig.NamespaceTagKey]; got != ns {
			t.Errorf("stream %s of %s carries %s=%q", name, ns, awsconfig.NamespaceTagKey, got)
		}
	}
	for _, mg := range objects {
		remove(t, mg)
	}

	// Every call but STS's was signed by the tenants' role, in the session
	// of the namespace whose object it was made for.
	teamOf := func(resource string) string {
		for name, ns := range owner {
			if resource == name || strings.HasSuffix(resource, "/"+name) {
				return ns
			}
		}
		return ""
	}
	calls, creates, unnamed := 0, map[string][]string{}, map[string]int{}
	for _, c := range e.CallsBySession() {
		if strings.HasPrefix(c.Operation, "sts:") {
			continue
		}
		calls += c.Count
		if c.Session == nil || c.Session.RoleARN != tenant {
			t.Errorf("%d %s calls for %q were signed by %s, no session of %s", c.Count, c.Operation, c.Resource, c.AccessKey, tenant)
			continue
		}
		got := c.Session.SessionTags[awsconfig.NamespaceTagKey]
		want := teamOf(c.Resource)
		if want == "" {
			// A call that names no object (a list) is still one
			// namespace's.
			unnamed[c.Operation+" "+c.Resource] += c.Count
			if got != teams[0] && got != teams[1] {
				t.Errorf("%d %s calls for %q carried %s=%q", c.Count, c.Operation, c.Resource, awsconfig.NamespaceTagKey, got)
			}
			continue
		}
		if got != want {
			t.Errorf("%d %s calls for %q, an object of %s, carried %s=%q", c.Count, c.Operation, c.Resource, want, awsconfig.NamespaceTagKey, got)
		}
		if strings.HasPrefix(c.Operation, "events:") && !strings.HasPrefix(c.Resource, got+"_") {
			t.Errorf("%s of endpoint %q by %s: the policy's name prefix %s_ does not hold it", c.Operation, c.Resource, got, got)
		}
		if strings.Contains(c.Operation, ":Create") {
			creates[got] = append(creates[got], c.Operation)
		}
	}
	wantCreates := map[string][]string{}
	for _, ns := range teams {
		wantCreates[ns] = []string{"events:CreateEndpoint", "firehose:CreateDeliveryStream"}
	}
	if diff := cmp.Diff(wantCreates, creates); diff != "" {
		t.Errorf("creates by the namespace their session carried: -want, +got:\n%s", diff)
	}
	for _, c := range e.Creations() {
		if teamOf(c.Name) == "" {
			t.Errorf("a creation of no team's object: %+v", c)
		}
	}
	t.Logf("%d service calls, every one signed by its namespace's session (naming no object: %v); STS: %v", calls, unnamed, stsCalls(e))

	// One AssumeRole of the hub; one of the tenants' role per namespace,
	// named for it; one GetCallerIdentity for both.
	type assumed struct{ Role, SessionName, Namespace string }
	var got []assumed
	for _, r := range e.AssumedRoles() {
		got = append(got, assumed{Role: r.RoleARN, SessionName: r.SessionName, Namespace: r.SessionTags[awsconfig.NamespaceTagKey]})
	}
	want := []assumed{{Role: hub, SessionName: "provider-aws-services"}}
	for _, ns := range teams {
		want = append(want, assumed{Role: tenant, SessionName: awsconfig.NamespaceSessionName(ns), Namespace: ns})
	}
	sortAssumed := func(a []assumed) {
		// The namespaces' sessions are built in the order their objects
		// first reconcile.
		if len(a) == 3 && a[1].Namespace > a[2].Namespace {
			a[1], a[2] = a[2], a[1]
		}
	}
	sortAssumed(got)
	sortAssumed(want)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("AssumeRole calls: -want, +got:\n%s", diff)
	}
	if n := e.CallCount("sts:GetCallerIdentity"); n != 1 {
		t.Errorf("GetCallerIdentity: want 1 for both namespaces, got %d", n)
	}
	if d := testutil.ToFloat64(metrics.STSCalls.WithLabelValues("AssumeRole")) - assumeRoles; d < 3 {
		t.Errorf("%s{operation=AssumeRole} grew by %v, want at least the 3 calls of this config", "provider_aws_services_sts_calls_total", d)
	}
}

// stsCalls returns the STS calls the emulator counted.
func stsCalls(e *emulator.Server) map[string]int {
	out := map[string]int{}
	for op, n := range e.Calls() {
		if strings.HasPrefix(op, "sts:") {
			out[op] = n
		}
	}
	return out
}

// TestNamespaceSessionsAdmission: spec.namespaceSessions needs a role to
// assume per namespace, leaves room for the crossplane-namespace session tag
// among AWS's 50, and no chain's session tag may take a crossplane- key.
func TestNamespaceSessionsAdmission(t *testing.T) {
	const example = "providerconfig/namespacesessions.yaml"
	lastRole := func(tags string) string {
		return fmt.Sprintf(`{"spec":{"assumeRoleChain":[{"roleARN":"arn:aws:iam::123456789012:role/crossplane-tenants","tags":%s}],"namespaceSessions":{"roleARN":null}}}`, tags)
	}
	runAdmission(t, map[string]admissionCase{
		"NamespaceSessionsExample":         {example: example},
		"NamespaceSessionsLastRoleOfChain": {example: example, create: lastRole(tagList(49))},
		"NamespaceSessionsWithoutARole": {example: example, create: `{"spec":{"assumeRoleChain":null,"namespaceSessions":{"roleARN":null}}}`,
			refused: []string{"spec.namespaceSessions", "needs a role to assume per namespace: set spec.namespaceSessions.roleARN, or list that role last in spec.assumeRoleChain"}},
		"NamespaceSessionsLastRoleFiftyTags": {example: example, create: lastRole(tagList(50)),
			refused: []string{"spec.assumeRoleChain", "its tags may number at most 49"}},
		"NamespaceSessionsExternalIDWithoutRoleARN": {example: example, create: `{"spec":{"namespaceSessions":{"roleARN":null,"externalID":"x"}}}`,
			refused: []string{"spec.namespaceSessions.externalID", "goes with spec.namespaceSessions.roleARN"}},
		"ChainTagCrossplaneNamespace": {example: example, create: `{"spec":{"assumeRoleChain":[{"roleARN":"arn:aws:iam::123456789012:role/crossplane-hub","tags":[{"key":"crossplane-namespace","value":"team-a"}]}]}}`,
			refused: []string{"spec.assumeRoleChain[0].tags[0].key", "keys beginning with crossplane- are reserved"}},
		"ChainTagCrossplaneAnyCase": {example: namespacedPC, create: `{"spec":{"assumeRoleChain":[{"roleARN":"arn:aws:iam::123456789012:role/crossplane-team-a","tags":[{"key":"Crossplane-Team","value":"a"}]}]}}`,
			refused: []string{"spec.assumeRoleChain[0].tags[0].key", "keys beginning with crossplane- are reserved"}},
	})
}
