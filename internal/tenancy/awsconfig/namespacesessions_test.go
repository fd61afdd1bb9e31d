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
	"regexp"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
)

// longNamespace has Kubernetes' most characters for a namespace, 63.
var longNamespace = "team-" + strings.Repeat("x", 58)

// sessionNamePattern is AWS's RoleSessionName: 2 to 64 of [\w+=,.@-].
var sessionNamePattern = regexp.MustCompile(`^[\w+=,.@-]{2,64}$`)

func TestNamespaceSessionName(t *testing.T) {
	cases := map[string]struct {
		namespace string
		want      string
	}{
		"Short":           {namespace: "team-a", want: "crossplane-ns-team-a"},
		"LongestUnhashed": {namespace: strings.Repeat("a", 50), want: "crossplane-ns-" + strings.Repeat("a", 50)},
		"Hashed":          {namespace: longNamespace, want: "crossplane-ns-team-" + strings.Repeat("x", 28) + "-8cb1bccb6a05bd8d"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := NamespaceSessionName(tc.namespace)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("-want, +got:\n%s", diff)
			}
			if !sessionNamePattern.MatchString(got) {
				t.Errorf("%q is not a RoleSessionName AWS accepts", got)
			}
		})
	}
	// Two long namespaces that share their first 47 characters keep
	// sessions of their own names.
	if a, b := NamespaceSessionName(longNamespace), NamespaceSessionName(longNamespace[:62]+"y"); a == b {
		t.Errorf("two namespaces share the session name %s", a)
	}
}

func TestNamespaceTags(t *testing.T) {
	cases := map[string]struct {
		own  []v1alpha1.Tag
		want map[string]string
	}{
		"None": {want: map[string]string{"crossplane-namespace": "team-a"}},
		"Own":  {own: []v1alpha1.Tag{{Key: "env", Value: "prod"}}, want: map[string]string{"env": "prod", "crossplane-namespace": "team-a"}},
		"Written before admission refused it": {
			own:  []v1alpha1.Tag{{Key: "Crossplane-Namespace", Value: "team-b"}, {Key: "env", Value: "prod"}},
			want: map[string]string{"env": "prod", "crossplane-namespace": "team-a"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := map[string]string{}
			for _, tag := range namespaceTags(tc.own, "team-a") {
				got[aws.ToString(tag.Key)] = aws.ToString(tag.Value)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("-want, +got:\n%s", diff)
			}
		})
	}
}

// TestNamespaceSessions: with spec.namespaceSessions every namespace gets a
// session of its own, whose one AssumeRole carries its crossplane-namespace
// tag and session name, on a base the namespaces share (the roles before it
// assumed once, the account asked once); asked again, the sessions call no
// STS. Without it the namespaces share one session.
func TestNamespaceSessions(t *testing.T) {
	const (
		hub    = "arn:aws:iam::000000000000:role/hub"
		tenant = "arn:aws:iam::000000000000:role/tenant"
	)
	type assumed struct {
		Role, SessionName, ExternalID string
		Tags                          map[string]string
		DurationSeconds               int
	}
	hubRole := v1alpha1.AssumeRoleOptions{RoleARN: hub, Tags: []v1alpha1.Tag{{Key: "team", Value: "platform"}}, TransitiveTagKeys: []string{"team"}}
	hubAssumed := assumed{Role: hub, SessionName: "provider-aws-services", Tags: map[string]string{"team": "platform"}, DurationSeconds: 900}
	tenantOf := func(ns string, tags map[string]string, externalID string) assumed {
		return assumed{Role: tenant, SessionName: NamespaceSessionName(ns), ExternalID: externalID, Tags: tags, DurationSeconds: 3600}
	}

	cases := map[string]struct {
		chain      []v1alpha1.AssumeRoleOptions
		sessions   *v1alpha1.NamespaceSessions
		namespaces []string
		// wantAssumed are the AssumeRole calls, in order.
		wantAssumed []assumed
		// wantSigned is, per namespace, the crossplane-namespace tag of
		// the session that signed its resources' calls.
		wantSigned   map[string]string
		wantSessions int
		wantStats    Stats
	}{
		"TheLastRoleOfTheChainPerNamespace": {
			chain:      []v1alpha1.AssumeRoleOptions{hubRole, {RoleARN: tenant, Tags: []v1alpha1.Tag{{Key: "env", Value: "prod"}}}},
			sessions:   &v1alpha1.NamespaceSessions{},
			namespaces: []string{"team-a", "team-b"},
			wantAssumed: []assumed{
				hubAssumed,
				tenantOf("team-a", map[string]string{"env": "prod", "crossplane-namespace": "team-a"}, ""),
				tenantOf("team-b", map[string]string{"env": "prod", "crossplane-namespace": "team-b"}, ""),
			},
			wantSigned:   map[string]string{"team-a": "team-a", "team-b": "team-b"},
			wantSessions: 2,
			wantStats:    Stats{Loads: 2, IdentityCalls: 1, AssumeRoleCalls: 3},
		},
		"ARoleOnTopOfTheChain": {
			chain:      []v1alpha1.AssumeRoleOptions{hubRole},
			sessions:   &v1alpha1.NamespaceSessions{RoleARN: aws.String(tenant), ExternalID: aws.String("tenants")},
			namespaces: []string{"team-a", "team-b"},
			wantAssumed: []assumed{
				hubAssumed,
				tenantOf("team-a", map[string]string{"crossplane-namespace": "team-a"}, "tenants"),
				tenantOf("team-b", map[string]string{"crossplane-namespace": "team-b"}, "tenants"),
			},
			wantSigned:   map[string]string{"team-a": "team-a", "team-b": "team-b"},
			wantSessions: 2,
			wantStats:    Stats{Loads: 2, IdentityCalls: 1, AssumeRoleCalls: 3},
		},
		"ARoleOnTheCredentials": {
			sessions:   &v1alpha1.NamespaceSessions{RoleARN: aws.String(tenant)},
			namespaces: []string{"team-a", "team-b"},
			wantAssumed: []assumed{
				tenantOf("team-a", map[string]string{"crossplane-namespace": "team-a"}, ""),
				tenantOf("team-b", map[string]string{"crossplane-namespace": "team-b"}, ""),
			},
			wantSigned:   map[string]string{"team-a": "team-a", "team-b": "team-b"},
			wantSessions: 2,
			wantStats:    Stats{Loads: 2, IdentityCalls: 1, AssumeRoleCalls: 2},
		},
		"ALongNamespaceHashedInItsSessionName": {
			sessions:     &v1alpha1.NamespaceSessions{RoleARN: aws.String(tenant)},
			namespaces:   []string{longNamespace},
			wantAssumed:  []assumed{tenantOf(longNamespace, map[string]string{"crossplane-namespace": longNamespace}, "")},
			wantSigned:   map[string]string{longNamespace: longNamespace},
			wantSessions: 1,
			wantStats:    Stats{Loads: 1, IdentityCalls: 1, AssumeRoleCalls: 1},
		},
		"WithoutTheOptionOneSessionForAll": {
			chain:      []v1alpha1.AssumeRoleOptions{hubRole, {RoleARN: tenant, Tags: []v1alpha1.Tag{{Key: "env", Value: "prod"}}}},
			namespaces: []string{"team-a", "team-b"},
			wantAssumed: []assumed{
				hubAssumed,
				{Role: tenant, SessionName: "provider-aws-services", Tags: map[string]string{"env": "prod"}, DurationSeconds: 900},
			},
			wantSigned:   map[string]string{"team-a": "", "team-b": ""},
			wantSessions: 1,
			wantStats:    Stats{Loads: 1, IdentityCalls: 1, AssumeRoleCalls: 2},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			ctx := context.Background()
			pc := clusterConfig("shared", f.url, v1alpha1.ProviderConfigSpec{
				Region:          aws.String("us-east-1"),
				Credentials:     v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceNone},
				AssumeRoleChain: tc.chain,
			})
			pc.Spec.NamespaceSessions = tc.sessions
			if err := f.kube.Create(ctx, pc); err != nil {
				t.Fatal(err)
			}

			sessions := map[string]*Session{}
			distinct := map[*Session]bool{}
			for _, ns := range tc.namespaces {
				s, err := f.cache.Session(ctx, managed(ns, v1alpha1.ClusterProviderConfigKind, "shared", nil), nil)
				if err != nil {
					t.Fatal(err)
				}
				if s.AccountID != "000000000000" || s.Partition != "aws" || s.Scope() != "000000000000 at "+f.url {
					t.Errorf("%s's session: %s, scope %s", ns, s, s.Scope())
				}
				sessions[ns], distinct[s] = s, true
			}
			if len(distinct) != tc.wantSessions {
				t.Errorf("%d namespaces got %d sessions, want %d", len(tc.namespaces), len(distinct), tc.wantSessions)
			}
			if diff := cmp.Diff(tc.wantStats, f.cache.Stats()); diff != "" {
				t.Errorf("stats: -want, +got:\n%s", diff)
			}

			// Asked again, every namespace gets its session as it is:
			// no STS call, no load.
			sts := f.aws.Calls()
			for _, ns := range tc.namespaces {
				mg := managed(ns, v1alpha1.ClusterProviderConfigKind, "shared", nil)
				if s, err := f.cache.Session(ctx, mg, nil); err != nil || s != sessions[ns] {
					t.Errorf("%s: a second reconcile got another session (%v)", ns, err)
				}
				if s := f.cache.Destination(ctx, mg, nil).Session; s != sessions[ns] {
					t.Errorf("%s: Destination named another session", ns)
				}
			}
			if diff := cmp.Diff(sts, f.aws.Calls()); diff != "" {
				t.Errorf("calls of the second round: -before, +after:\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantStats, f.cache.Stats()); diff != "" {
				t.Errorf("stats after the second round: -want, +got:\n%s", diff)
			}

			var got []assumed
			for _, r := range f.aws.AssumedRoles() {
				got = append(got, assumed{Role: r.RoleARN, SessionName: r.SessionName, ExternalID: r.ExternalID, Tags: r.Tags, DurationSeconds: r.DurationSeconds})
			}
			if diff := cmp.Diff(tc.wantAssumed, got); diff != "" {
				t.Errorf("AssumeRole calls: -want, +got:\n%s", diff)
			}

			// Each namespace's calls carry its own tag.
			f.aws.ResetCalls()
			for _, ns := range tc.namespaces {
				if _, err := ClientFor(sessions[ns], firehose.NewFromConfig).DescribeDeliveryStream(ctx, &firehose.DescribeDeliveryStreamInput{DeliveryStreamName: aws.String(ns)}); err == nil {
					t.Fatalf("%s: a stream nobody created exists", ns)
				}
			}
			signed := map[string]string{}
			for _, c := range f.aws.CallsBySession() {
				if c.Operation != "firehose:DescribeDeliveryStream" {
					continue
				}
				if c.Session == nil {
					t.Fatalf("%s was signed by a key no AssumeRole issued: %s", c.Resource, c.AccessKey)
				}
				signed[c.Resource] = c.Session.SessionTags["crossplane-namespace"]
			}
			if diff := cmp.Diff(tc.wantSigned, signed); diff != "" {
				t.Errorf("namespace tag of the session each namespace's call was signed by: -want, +got:\n%s", diff)
			}
		})
	}
}

// TestNamespaceSessionsFollowTheConfig: a new generation of the config
// replaces every namespace's session, and the base they share, once.
func TestNamespaceSessionsFollowTheConfig(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	pc := clusterConfig("shared", f.url, v1alpha1.ProviderConfigSpec{Region: aws.String("us-east-1"), Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceNone}})
	pc.Spec.NamespaceSessions = &v1alpha1.NamespaceSessions{RoleARN: aws.String("arn:aws:iam::000000000000:role/tenant")}
	_ = f.kube.Create(ctx, pc)
	a, b := managed("team-a", v1alpha1.ClusterProviderConfigKind, "shared", nil), managed("team-b", v1alpha1.ClusterProviderConfigKind, "shared", nil)
	first, _ := f.cache.Session(ctx, a, nil)
	_, _ = f.cache.Session(ctx, b, nil)

	_ = f.kube.Get(ctx, client.ObjectKeyFromObject(pc), pc)
	pc.Generation = 2
	pc.Spec.DefaultTags = map[string]string{"cost-center": "42"}
	_ = f.kube.Update(ctx, pc)
	second, err := f.cache.Session(ctx, a, nil)
	if err != nil || second == first || second.DefaultTags["cost-center"] != "42" {
		t.Fatalf("a new generation did not give team-a a new session (%v)", err)
	}
	if len(f.cache.sessions) != 1 || len(f.cache.bases) != 1 {
		t.Errorf("superseded sessions or bases are kept: %d sessions, %d bases", len(f.cache.sessions), len(f.cache.bases))
	}
	if f.cache.Destination(ctx, b, nil).Session != nil {
		t.Error("team-b's session of the previous generation is still offered")
	}
	// Switched off, the namespaces share one session again.
	_ = f.kube.Get(ctx, client.ObjectKeyFromObject(pc), pc)
	pc.Generation = 3
	pc.Spec.NamespaceSessions = nil
	_ = f.kube.Update(ctx, pc)
	sa, _ := f.cache.Session(ctx, a, nil)
	sb, _ := f.cache.Session(ctx, b, nil)
	if sa == nil || sa != sb {
		t.Error("without namespaceSessions two namespaces got two sessions")
	}
	if len(f.cache.sessions) != 1 || len(f.cache.bases) != 0 {
		t.Errorf("the namespace sessions or their base outlive the option: %d sessions, %d bases", len(f.cache.sessions), len(f.cache.bases))
	}
	if got := f.aws.AssumedRoles(); len(got) != 3 {
		t.Errorf("AssumeRole calls: want 3 (two namespaces, then team-a again), got %d", len(got))
	}
}
