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
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	streamingv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/test/emulator"
)

type fakeEnv struct {
	vars   map[string]string
	chain  aws.Config
	loaded int
}

func (e *fakeEnv) Getenv(k string) string { return e.vars[k] }

func (e *fakeEnv) LoadDefaultConfig(context.Context, string) (aws.Config, error) {
	e.loaded++
	return e.chain, nil
}

type fixture struct {
	aws   *emulator.Server
	url   string
	kube  client.Client
	cache *Cache
	env   *fakeEnv
}

func newFixture(t *testing.T, objs ...client.Object) *fixture {
	t.Helper()
	e := emulator.New(emulator.Options{})
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	s := runtime.NewScheme()
	_ = clientgoscheme.AddToScheme(s)
	_ = v1alpha1.AddToScheme(s)
	_ = streamingv1alpha1.AddToScheme(s)
	kube := fake.NewClientBuilder().WithScheme(s).WithObjects(objs...).Build()
	env := &fakeEnv{vars: map[string]string{}}
	// The emulator listens on loopback, which namespaced configs reach only
	// where an admin allows it.
	cache := NewCache(kube, WithEnvironment(env), WithTenantEndpointNetworks([]netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}))
	return &fixture{aws: e, url: srv.URL, kube: kube, env: env, cache: cache}
}

func managed(namespace, kind, name string, region *string) *streamingv1alpha1.DeliveryStream {
	mg := &streamingv1alpha1.DeliveryStream{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: "s"}}
	mg.Spec.ProviderConfigReference = &xpv2.ProviderConfigReference{Kind: kind, Name: name}
	mg.Spec.ForProvider.Region = region
	return mg
}

func clusterConfig(name, url string, spec v1alpha1.ProviderConfigSpec) *v1alpha1.ClusterProviderConfig {
	spec.Endpoint = &v1alpha1.EndpointOverride{URL: url}
	return &v1alpha1.ClusterProviderConfig{ObjectMeta: metav1.ObjectMeta{Name: name, Generation: 1}, Spec: v1alpha1.ClusterProviderConfigSpec{ProviderConfigSpec: spec}}
}

func secret(namespace, name, key, value string) *corev1.Secret {
	return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name}, Data: map[string][]byte{key: []byte(value)}}
}

// callerARN asks the emulator who a session's credentials are.
func callerARN(t *testing.T, s *Session) string {
	t.Helper()
	out, err := sts.NewFromConfig(s.Config).GetCallerIdentity(context.Background(), &sts.GetCallerIdentityInput{})
	if err != nil {
		t.Fatal(err)
	}
	return aws.ToString(out.Arn)
}

func TestCredentialSources(t *testing.T) {
	dir := t.TempDir()
	tokenFile := filepath.Join(dir, "token")
	if err := os.WriteFile(tokenFile, []byte("web-identity-token"), 0o600); err != nil {
		t.Fatal(err)
	}
	// The Pod Identity agent: a local endpoint that checks the token.
	agent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "pod-token" {
			http.Error(w, "bad token", http.StatusUnauthorized)
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]string{"AccessKeyId": "AKIDPOD", "SecretAccessKey": "pod-secret", "Token": "t", "Expiration": "2099-01-01T00:00:00Z"})
	}))
	defer agent.Close()
	podToken := filepath.Join(dir, "pod-token")
	_ = os.WriteFile(podToken, []byte("pod-token\n"), 0o600)

	region := aws.String("us-east-1")
	cases := map[string]struct {
		spec       v1alpha1.ProviderConfigSpec
		objs       []client.Object
		env        map[string]string
		chain      aws.Config
		wantCaller string
		wantRoles  []string
		wantErr    string
	}{
		"Secret": {
			spec:       v1alpha1.ProviderConfigSpec{Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceSecret, SecretRef: &xpv2.SecretKeySelector{SecretReference: xpv2.SecretReference{Name: "aws", Namespace: "crossplane-system"}, Key: "credentials"}}},
			objs:       []client.Object{secret("crossplane-system", "aws", "credentials", iniFile)},
			wantCaller: "arn:aws:iam::000000000000:user/AKIDDEFAULT",
		},
		"SecretProfile": {
			spec:       v1alpha1.ProviderConfigSpec{Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceSecret, Profile: aws.String("deployer"), SecretRef: &xpv2.SecretKeySelector{SecretReference: xpv2.SecretReference{Name: "aws", Namespace: "crossplane-system"}, Key: "credentials"}}},
			objs:       []client.Object{secret("crossplane-system", "aws", "credentials", iniFile)},
			wantCaller: "arn:aws:iam::000000000000:user/AKIDDEPLOYER",
		},
		"SecretMissingKey": {
			spec:    v1alpha1.ProviderConfigSpec{Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceSecret, SecretRef: &xpv2.SecretKeySelector{SecretReference: xpv2.SecretReference{Name: "aws", Namespace: "crossplane-system"}, Key: "other"}}},
			objs:    []client.Object{secret("crossplane-system", "aws", "credentials", iniFile)},
			wantErr: `secret crossplane-system/aws has no key "other" named by spec.credentials.secretRef`,
		},
		"IRSA": {
			spec:       v1alpha1.ProviderConfigSpec{Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceIRSA}},
			env:        map[string]string{envRoleARN: "arn:aws:iam::000000000000:role/irsa", envWebIdentityFile: tokenFile},
			wantCaller: "arn:aws:sts::000000000000:assumed-role/irsa/provider-aws-services",
			wantRoles:  []string{"arn:aws:iam::000000000000:role/irsa"},
		},
		"IRSAWithoutWebhook": {
			spec:    v1alpha1.ProviderConfigSpec{Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceIRSA}},
			wantErr: "AWS_ROLE_ARN and AWS_WEB_IDENTITY_TOKEN_FILE are not set",
		},
		"WebIdentityTokenFile": {
			spec: v1alpha1.ProviderConfigSpec{Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceWebIdentity,
				WebIdentity: &v1alpha1.WebIdentityConfig{RoleARN: "arn:aws:iam::000000000000:role/web", TokenFile: aws.String(tokenFile), RoleSessionName: aws.String("ci")}}},
			wantCaller: "arn:aws:sts::000000000000:assumed-role/web/ci",
			wantRoles:  []string{"arn:aws:iam::000000000000:role/web"},
		},
		"WebIdentityTokenSecret": {
			spec: v1alpha1.ProviderConfigSpec{Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceWebIdentity,
				WebIdentity: &v1alpha1.WebIdentityConfig{RoleARN: "arn:aws:iam::000000000000:role/web", TokenSecretRef: &xpv2.SecretKeySelector{SecretReference: xpv2.SecretReference{Name: "tok", Namespace: "crossplane-system"}, Key: "token"}}}},
			objs:       []client.Object{secret("crossplane-system", "tok", "token", "secret-token")},
			wantCaller: "arn:aws:sts::000000000000:assumed-role/web/provider-aws-services",
			wantRoles:  []string{"arn:aws:iam::000000000000:role/web"},
		},
		"PodIdentity": {
			spec:       v1alpha1.ProviderConfigSpec{Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourcePodIdentity}},
			env:        map[string]string{envContainerURI: agent.URL, envContainerToken: podToken},
			wantCaller: "arn:aws:iam::000000000000:user/AKIDPOD",
		},
		"InjectedIdentity": {
			spec: v1alpha1.ProviderConfigSpec{Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceInjectedIdentity}},
			chain: aws.Config{Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
				return aws.Credentials{AccessKeyID: "AKIDCHAIN", SecretAccessKey: "s"}, nil
			})},
			wantCaller: "arn:aws:iam::000000000000:user/AKIDCHAIN",
		},
		"None": {
			spec:       v1alpha1.ProviderConfigSpec{Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceNone}},
			wantCaller: "arn:aws:iam::000000000000:user/" + NoneAccessKeyID,
		},
		"AssumeRoleChain": {
			spec: v1alpha1.ProviderConfigSpec{
				Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceNone},
				AssumeRoleChain: []v1alpha1.AssumeRoleOptions{
					{RoleARN: "arn:aws:iam::000000000000:role/hub", ExternalID: aws.String("ext-1"), Tags: []v1alpha1.Tag{{Key: "team", Value: "a"}}, TransitiveTagKeys: []string{"team"}},
					{RoleARN: "arn:aws:iam::000000000000:role/spoke"},
				},
			},
			wantCaller: "arn:aws:sts::000000000000:assumed-role/spoke/provider-aws-services",
			wantRoles:  []string{"arn:aws:iam::000000000000:role/hub", "arn:aws:iam::000000000000:role/spoke"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, tc.objs...)
			f.env.vars, f.env.chain = tc.env, tc.chain
			if err := f.kube.Create(context.Background(), clusterConfig("default", f.url, tc.spec)); err != nil {
				t.Fatal(err)
			}
			s, err := f.cache.Session(context.Background(), managed("team-a", v1alpha1.ClusterProviderConfigKind, "default", region), region)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("want error %q, got %v", tc.wantErr, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := callerARN(t, s); got != tc.wantCaller {
				t.Errorf("caller: want %s, got %s", tc.wantCaller, got)
			}
			var roles []string
			for _, r := range f.aws.AssumedRoles() {
				roles = append(roles, r.RoleARN)
			}
			if diff := cmp.Diff(tc.wantRoles, roles); diff != "" {
				t.Errorf("roles assumed: -want, +got:\n%s", diff)
			}
			if s.AccountID != "000000000000" || s.Partition != "aws" || s.Region != "us-east-1" {
				t.Errorf("session identity: %s", s)
			}
			if _, ok := s.Config.Retryer().(*retry.AdaptiveMode); !ok {
				t.Errorf("the retryer is not adaptive: %T", s.Config.Retryer())
			}
			if name == "AssumeRoleChain" {
				hub := f.aws.AssumedRoles()[0]
				if hub.ExternalID != "ext-1" || hub.Tags["team"] != "a" || hub.Caller != NoneAccessKeyID {
					t.Errorf("first role of the chain: %+v", hub)
				}
				if spoke := f.aws.AssumedRoles()[1]; !strings.HasPrefix(spoke.Caller, "ASIA") {
					t.Errorf("the second role was not assumed with the first one's credentials: %+v", spoke)
				}
			}
		})
	}
}

func TestRegionPrecedence(t *testing.T) {
	cases := map[string]struct {
		mr, config *string
		want       string
		wantErr    string
	}{
		"ManagedResourceWins": {mr: aws.String("eu-west-1"), config: aws.String("us-east-1"), want: "eu-west-1"},
		"ConfigRegion":        {config: aws.String("us-east-1"), want: "us-east-1"},
		"Neither":             {wantErr: "no region: set spec.forProvider.region or the provider config's spec.region"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			spec := v1alpha1.ProviderConfigSpec{Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceNone}, Region: tc.config}
			_ = f.kube.Create(context.Background(), clusterConfig("default", f.url, spec))
			s, err := f.cache.Session(context.Background(), managed("ns", v1alpha1.ClusterProviderConfigKind, "default", nil), tc.mr)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("want error %q, got %v", tc.wantErr, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s.Region != tc.want || s.Config.Region != tc.want {
				t.Errorf("want region %s, got %s", tc.want, s.Region)
			}
		})
	}
}

func TestNamespacedConfigReadsOnlyItsOwnNamespace(t *testing.T) {
	// The reference points at another namespace's secret; the config must
	// read the secret of its own namespace instead.
	f := newFixture(t,
		secret("team-a", "aws", "credentials", "[default]\naws_access_key_id=AKIDTEAMA\naws_secret_access_key=a\n"),
		secret("team-b", "aws", "credentials", "[default]\naws_access_key_id=AKIDTEAMB\naws_secret_access_key=b\n"),
	)
	pc := &v1alpha1.ProviderConfig{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "pc", Generation: 1}, Spec: v1alpha1.ProviderConfigSpec{
		Region:   aws.String("us-east-1"),
		Endpoint: &v1alpha1.EndpointOverride{URL: f.url},
		Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceSecret,
			SecretRef: &xpv2.SecretKeySelector{SecretReference: xpv2.SecretReference{Name: "aws", Namespace: "team-b"}, Key: "credentials"}},
	}}
	if err := f.kube.Create(context.Background(), pc); err != nil {
		t.Fatal(err)
	}
	s, err := f.cache.Session(context.Background(), managed("team-a", v1alpha1.ProviderConfigKind, "pc", nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := callerARN(t, s); got != "arn:aws:iam::000000000000:user/AKIDTEAMA" {
		t.Errorf("the config read another namespace's secret: %s", got)
	}
	// A resource of another namespace cannot use team-a's config.
	if _, err := f.cache.Session(context.Background(), managed("team-b", v1alpha1.ProviderConfigKind, "pc", nil), nil); err == nil {
		t.Error("a resource used the ProviderConfig of another namespace")
	}
}

// TestNamespaceShares: a ClusterProviderConfig's shares reach the budgets
// through its sessions; a namespace not listed, like every namespace of a
// namespaced ProviderConfig (which its tenant writes), weighs 1, uncapped.
func TestNamespaceShares(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	pc := clusterConfig("weighted", f.url, v1alpha1.ProviderConfigSpec{Region: aws.String("us-east-1"), Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceNone}})
	pc.Spec.NamespaceShares = []v1alpha1.NamespaceShare{{Namespace: "payments", Weight: aws.Int32(3)}, {Namespace: "load-test", MaxPercent: aws.Int32(25)}}
	_ = f.kube.Create(ctx, pc)
	got := map[string]Share{}
	for _, ns := range []string{"payments", "load-test", "batch"} {
		s, err := f.cache.Session(ctx, managed(ns, v1alpha1.ClusterProviderConfigKind, "weighted", nil), nil)
		if err != nil {
			t.Fatal(err)
		}
		got[ns] = s.Share(ns)
	}
	want := map[string]Share{"payments": {Weight: 3}, "load-test": {Weight: 1, Cap: 0.25}, "batch": {Weight: 1}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("shares: -want, +got:\n%s", diff)
	}
}
