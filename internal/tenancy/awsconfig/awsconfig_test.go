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
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

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
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/budget"
	"github.com/cloudkinds/provider-aws-services/test/emulator"
)

const iniFile = `
[default]
aws_access_key_id = AKIDDEFAULT
aws_secret_access_key = default-secret

[profile deployer]
aws_access_key_id=AKIDDEPLOYER
aws_secret_access_key=deployer-secret
aws_session_token=token
`

func TestParseSharedCredentials(t *testing.T) {
	cases := map[string]struct {
		ini, profile string
		want         StaticCredentials
		wantErr      string
	}{
		"Default":        {ini: iniFile, want: StaticCredentials{AccessKeyID: "AKIDDEFAULT", SecretAccessKey: "default-secret"}},
		"NamedProfile":   {ini: iniFile, profile: "deployer", want: StaticCredentials{AccessKeyID: "AKIDDEPLOYER", SecretAccessKey: "deployer-secret", SessionToken: "token"}},
		"MissingProfile": {ini: iniFile, profile: "ops", wantErr: "no profile ops"},
		"MissingSecret":  {ini: "[default]\naws_access_key_id = AKIDONLY\n", wantErr: "lacks aws_access_key_id or aws_secret_access_key"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := ParseSharedCredentials([]byte(tc.ini), tc.profile)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("want error %q, got %v", tc.wantErr, err)
				}
				if strings.Contains(err.Error(), "secret") && strings.Contains(err.Error(), "default-secret") {
					t.Fatalf("the error quotes a secret: %v", err)
				}
				return
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("-want, +got:\n%s", diff)
			}
		})
	}
}

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

func TestSessionsAreCached(t *testing.T) {
	f := newFixture(t, secret("crossplane-system", "aws", "credentials", iniFile))
	spec := v1alpha1.ProviderConfigSpec{Region: aws.String("us-east-1"), Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceSecret,
		SecretRef: &xpv2.SecretKeySelector{SecretReference: xpv2.SecretReference{Name: "aws", Namespace: "crossplane-system"}, Key: "credentials"}}}
	pc := clusterConfig("default", f.url, spec)
	ctx := context.Background()
	_ = f.kube.Create(ctx, pc)
	mg := managed("ns", v1alpha1.ClusterProviderConfigKind, "default", nil)

	first, _ := f.cache.Session(ctx, mg, nil)
	for range 99 {
		s, err := f.cache.Session(ctx, mg, nil)
		if err != nil || s != first {
			t.Fatalf("a steady-state reconcile got a new session (%v)", err)
		}
	}
	if diff := cmp.Diff(Stats{Loads: 1, IdentityCalls: 1}, f.cache.Stats()); diff != "" {
		t.Errorf("100 reconciles: -want, +got:\n%s", diff)
	}
	if n := f.aws.CallCount("sts:GetCallerIdentity"); n != 1 {
		t.Errorf("STS calls for 100 reconciles: want 1, got %d", n)
	}

	// A new secret version, a new config generation, another region: each
	// builds a new session.
	s := &corev1.Secret{}
	_ = f.kube.Get(ctx, client.ObjectKey{Namespace: "crossplane-system", Name: "aws"}, s)
	s.Data["credentials"] = []byte("[default]\naws_access_key_id=AKIDROTATED\naws_secret_access_key=x\n")
	_ = f.kube.Update(ctx, s)
	rotated, _ := f.cache.Session(ctx, mg, nil)
	if rotated == first || callerARN(t, rotated) != "arn:aws:iam::000000000000:user/AKIDROTATED" {
		t.Error("a rotated credential secret did not give a new session")
	}
	_ = f.kube.Get(ctx, client.ObjectKey{Name: "default"}, pc)
	pc.Generation = 2 // the API server's answer to a change of the spec
	pc.Spec.DefaultTags = map[string]string{"cost-center": "42"}
	_ = f.kube.Update(ctx, pc)
	if s, _ := f.cache.Session(ctx, mg, nil); s == rotated || s.DefaultTags["cost-center"] != "42" {
		t.Error("a new config generation (new default tags) did not give a new session carrying them")
	}
	if rotated.DefaultTags != nil {
		t.Errorf("the previous session's default tags changed: %v", rotated.DefaultTags)
	}
	if s, _ := f.cache.Session(ctx, mg, aws.String("eu-west-1")); s.Region != "eu-west-1" {
		t.Error("another region did not give its own session")
	}
	if got := f.cache.Stats().Loads; got != 4 {
		t.Errorf("loads: want 4, got %d", got)
	}
	if len(f.cache.sessions) != 2 {
		t.Errorf("superseded sessions are kept: %d", len(f.cache.sessions))
	}
}

func TestASlowConfigStallsNoOther(t *testing.T) {
	f := newFixture(t)
	release := make(chan struct{})
	var slowCalls atomic.Int64
	hanging := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		slowCalls.Add(1)
		<-release
		f.aws.ServeHTTP(w, r)
	}))
	t.Cleanup(hanging.Close)
	t.Cleanup(func() {
		select {
		case <-release:
		default:
			close(release)
		}
	})
	none := v1alpha1.ProviderConfigSpec{Region: aws.String("us-east-1"), Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceNone}}
	ctx := context.Background()
	_ = f.kube.Create(ctx, clusterConfig("slow", hanging.URL, none))
	_ = f.kube.Create(ctx, clusterConfig("fast", f.url, none))

	// Twenty reconciles of the slow config's resources wait on STS ...
	var wg sync.WaitGroup
	slow := make([]*Session, 20)
	for i := range slow {
		wg.Add(1)
		go func() {
			defer wg.Done()
			slow[i], _ = f.cache.Session(ctx, managed("ns", v1alpha1.ClusterProviderConfigKind, "slow", nil), nil)
		}()
	}
	deadline := time.Now().Add(5 * time.Second)
	for slowCalls.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}

	// ... while another config's session is built at once.
	done := make(chan error, 1)
	go func() {
		_, err := f.cache.Session(ctx, managed("ns", v1alpha1.ClusterProviderConfigKind, "fast", nil), nil)
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the session of a healthy config waited for a config whose STS call hangs")
	}

	close(release)
	wg.Wait()
	for i, s := range slow {
		if s == nil || s != slow[0] {
			t.Fatalf("reconcile %d of the slow config got session %v, not the one shared session", i, s)
		}
	}
	if n := slowCalls.Load(); n != 1 {
		t.Errorf("twenty concurrent reconciles of one config called STS %d times, want 1", n)
	}
}

// The session is built under a context of its own: the first caller's
// cancellation does not fail the callers that wait with it, and a caller
// gives up on its own deadline while the build goes on.
func TestSessionWaitersKeepTheirOwnContexts(t *testing.T) {
	f := newFixture(t)
	release := make(chan struct{})
	var calls atomic.Int64
	hanging := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		<-release
		f.aws.ServeHTTP(w, r)
	}))
	t.Cleanup(hanging.Close)
	none := v1alpha1.ProviderConfigSpec{Region: aws.String("us-east-1"), Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceNone}}
	_ = f.kube.Create(context.Background(), clusterConfig("slow", hanging.URL, none))
	mg := managed("ns", v1alpha1.ClusterProviderConfigKind, "slow", nil)

	// The first caller starts the build and is cancelled.
	first, cancelFirst := context.WithCancel(context.Background())
	firstErr := make(chan error, 1)
	go func() {
		_, err := f.cache.Session(first, mg, nil)
		firstErr <- err
	}()
	deadline := time.Now().Add(5 * time.Second)
	for calls.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	// A second caller waits with it ...
	second := make(chan error, 1)
	var got *Session
	go func() {
		var err error
		got, err = f.cache.Session(context.Background(), mg, nil)
		second <- err
	}()
	// ... and a third gives up on its own short deadline.
	short, cancelShort := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancelShort()
	start := time.Now()
	if _, err := f.cache.Session(short, mg, nil); err == nil || time.Since(start) > 3*time.Second {
		t.Fatalf("a caller with a 100ms deadline returned after %s with %v", time.Since(start), err)
	}
	cancelFirst()
	if err := <-firstErr; err == nil {
		t.Error("the cancelled first caller got a session")
	}
	close(release)
	if err := <-second; err != nil || got == nil {
		t.Fatalf("the first caller's cancellation failed a caller waiting with it: %v", err)
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("STS called %d times, want 1", n)
	}
}

// TestDestination: what another object learns of where a resource's calls
// go, without a build or a call: nowhere through a missing config or
// credentials AWS refused; the config's endpoint and region, account not
// known, before a build or after one that failed for another reason; the
// session once built.
func TestDestination(t *testing.T) {
	e := emulator.New(emulator.Options{})
	// AWS refuses the key AKIDREVOKED; the emulator answers the others.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.Header.Get("Authorization"), "Credential=AKIDREVOKED/") {
			w.Header().Set("Content-Type", "text/xml")
			w.WriteHeader(http.StatusForbidden)
			_, _ = w.Write([]byte(`<ErrorResponse><Error><Type>Sender</Type><Code>InvalidClientTokenId</Code><Message>The security token included in the request is invalid.</Message></Error><RequestId>r</RequestId></ErrorResponse>`))
			return
		}
		e.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	f := newFixture(t, secret("crossplane-system", "aws", "credentials", "[default]\naws_access_key_id=AKIDREVOKED\naws_secret_access_key=x\n"))
	ctx := context.Background()
	spec := v1alpha1.ProviderConfigSpec{Region: aws.String("us-east-1"), Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceSecret,
		SecretRef: &xpv2.SecretKeySelector{SecretReference: xpv2.SecretReference{Name: "aws", Namespace: "crossplane-system"}, Key: "credentials"}}}
	_ = f.kube.Create(ctx, clusterConfig("default", srv.URL, spec))
	mg := managed("ns", v1alpha1.ClusterProviderConfigKind, "default", nil)
	notBuilt := Destination{Calls: true, Endpoint: srv.URL, Region: "us-east-1", ProviderConfig: "ClusterProviderConfig default"}

	if diff := cmp.Diff(Destination{}, f.cache.Destination(ctx, managed("ns", v1alpha1.ClusterProviderConfigKind, "absent", nil), nil)); diff != "" {
		t.Errorf("missing config: -want, +got:\n%s", diff)
	}
	if diff := cmp.Diff(notBuilt, f.cache.Destination(ctx, mg, nil)); diff != "" {
		t.Errorf("before any build: -want, +got:\n%s", diff)
	}
	if _, err := f.cache.Session(ctx, mg, nil); err == nil {
		t.Fatal("a refused key built a session")
	}
	if diff := cmp.Diff(Destination{}, f.cache.Destination(ctx, mg, nil)); diff != "" {
		t.Errorf("after AWS refused the key: -want, +got:\n%s", diff)
	}

	// A new key is a new version: nothing is known of it until it is
	// tried, and a throttled try proves nothing.
	s := &corev1.Secret{}
	_ = f.kube.Get(ctx, client.ObjectKey{Namespace: "crossplane-system", Name: "aws"}, s)
	s.Data["credentials"] = []byte("[default]\naws_access_key_id=AKIDNEW\naws_secret_access_key=x\n")
	_ = f.kube.Update(ctx, s)
	if diff := cmp.Diff(notBuilt, f.cache.Destination(ctx, mg, nil)); diff != "" {
		t.Errorf("a new key, not tried: -want, +got:\n%s", diff)
	}
	e.InjectFault("sts:GetCallerIdentity", emulator.Fault{Throttle: 10})
	if _, err := f.cache.Session(ctx, mg, nil); err == nil {
		t.Fatal("a throttled identity call built a session")
	}
	if diff := cmp.Diff(notBuilt, f.cache.Destination(ctx, mg, nil)); diff != "" {
		t.Errorf("after a throttled build: -want, +got:\n%s", diff)
	}
	e.ClearFaults()
	if _, err := f.cache.Session(ctx, mg, nil); err == nil {
		t.Error("a build failed just now was tried again at once")
	}
	f.cache.failed = map[sessionKey]failure{} // failedFor later
	built, err := f.cache.Session(ctx, mg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := f.cache.Destination(ctx, mg, nil); !d.Calls || d.Session != built {
		t.Errorf("after a build: %+v, want its session", d)
	}

	// A server error heals by itself: the objects keep their place.
	_ = f.kube.Get(ctx, client.ObjectKey{Namespace: "crossplane-system", Name: "aws"}, s)
	s.Data["credentials"] = []byte("[default]\naws_access_key_id=AKIDFAILING\naws_secret_access_key=x\n")
	_ = f.kube.Update(ctx, s)
	e.InjectFault("sts:GetCallerIdentity", emulator.Fault{ServerError: 10})
	if _, err := f.cache.Session(ctx, mg, nil); err == nil {
		t.Fatal("a failing identity call built a session")
	}
	e.ClearFaults()
	// The config's last session acted in the emulator's account: a newer
	// version not built yet is taken to act there too.
	lastKnown := notBuilt
	lastKnown.Account = built.AccountID
	if diff := cmp.Diff(lastKnown, f.cache.Destination(ctx, mg, nil)); diff != "" {
		t.Errorf("after a server error: -want, +got:\n%s", diff)
	}

	// A config that cannot be built, for any reason that does not heal by
	// itself, calls nowhere: its objects hold no names.
	broken := map[string]func(){
		"a key the Secret lacks": func() {
			_ = f.kube.Get(ctx, client.ObjectKey{Namespace: "crossplane-system", Name: "aws"}, s)
			s.Data = map[string][]byte{"other": []byte("x")}
			_ = f.kube.Update(ctx, s)
		},
		"an endpoint that refuses connections": func() {
			_ = f.kube.Get(ctx, client.ObjectKey{Namespace: "crossplane-system", Name: "aws"}, s)
			s.Data = map[string][]byte{"credentials": []byte("[default]\naws_access_key_id=AKIDCLOSED\naws_secret_access_key=x\n")}
			_ = f.kube.Update(ctx, s)
			closed := httptest.NewServer(http.NotFoundHandler())
			closed.Close()
			pc := &v1alpha1.ClusterProviderConfig{}
			_ = f.kube.Get(ctx, client.ObjectKey{Name: "default"}, pc)
			pc.Spec.Endpoint.URL = closed.URL
			pc.Generation++
			_ = f.kube.Update(ctx, pc)
		},
	}
	for _, what := range []string{"a key the Secret lacks", "an endpoint that refuses connections"} {
		broken[what]()
		if d := f.cache.Destination(ctx, mg, nil); !d.Calls {
			t.Errorf("%s, not tried yet: %+v, want its place kept", what, d)
		}
		if _, err := f.cache.Session(ctx, mg, nil); err == nil {
			t.Fatalf("%s built a session", what)
		}
		if diff := cmp.Diff(Destination{}, f.cache.Destination(ctx, mg, nil)); diff != "" {
			t.Errorf("after %s: -want, +got:\n%s", what, diff)
		}
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

// TestSessionBuiltNeverWaits: asked for a session it has not built, the
// cache starts its build and answers ErrBuilding at once, however slow the
// endpoint; once built, the session; a failed build's error for failedFor.
func TestSessionBuiltNeverWaits(t *testing.T) {
	f := newFixture(t)
	release := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-release
		f.aws.ServeHTTP(w, r)
	}))
	t.Cleanup(slow.Close)
	t.Cleanup(func() {
		select {
		case <-release:
		default:
			close(release)
		}
	})
	ctx := context.Background()
	_ = f.kube.Create(ctx, clusterConfig("slow", slow.URL, v1alpha1.ProviderConfigSpec{Region: aws.String("us-east-1"), Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceNone}}))
	mg := managed("ns", v1alpha1.ClusterProviderConfigKind, "slow", nil)
	start := time.Now()
	for range 3 {
		if _, err := f.cache.SessionBuilt(ctx, mg, nil); !errors.Is(err, ErrBuilding) {
			t.Fatalf("while the endpoint is silent: %v, want ErrBuilding", err)
		}
	}
	if waited := time.Since(start); waited > time.Second {
		t.Errorf("three asks waited %v for a silent endpoint", waited)
	}
	close(release)
	var s *Session
	for deadline := time.Now().Add(10 * time.Second); s == nil && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		s, _ = f.cache.SessionBuilt(ctx, mg, nil)
	}
	if s == nil || s.AccountID != "000000000000" {
		t.Fatalf("once the endpoint answered: %v", s)
	}
	if n := f.cache.Stats().IdentityCalls; n != 1 {
		t.Errorf("%d identity calls, want 1: one build however many asked", n)
	}
}

// TestSessionsShareOneHTTPClient: the sessions of two accounts, and every SDK
// client made from them, send through one HTTP client (one pool of
// connections to the service endpoints); a namespaced config's own endpoint
// goes through the tenants' guarded one.
func TestSessionsShareOneHTTPClient(t *testing.T) {
	f := newFixture(t,
		secret("crossplane-system", "a", "credentials", "[default]\naws_access_key_id=AKIDA\naws_secret_access_key=x\n"),
		secret("crossplane-system", "b", "credentials", "[default]\naws_access_key_id=AKIDB\naws_secret_access_key=x\n"),
		secret("team-a", "c", "credentials", "[default]\naws_access_key_id=AKIDC\naws_secret_access_key=x\n"))
	ctx := context.Background()
	credentials := func(ns, name string) v1alpha1.ProviderCredentials {
		return v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceSecret,
			SecretRef: &xpv2.SecretKeySelector{SecretReference: xpv2.SecretReference{Name: name, Namespace: ns}, Key: "credentials"}}
	}
	for _, name := range []string{"a", "b"} {
		if err := f.kube.Create(ctx, clusterConfig(name, f.url, v1alpha1.ProviderConfigSpec{Region: aws.String("us-east-1"), Credentials: credentials("crossplane-system", name)})); err != nil {
			t.Fatal(err)
		}
	}
	tenant := &v1alpha1.ProviderConfig{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "c", Generation: 1}, Spec: v1alpha1.ProviderConfigSpec{
		Region: aws.String("us-east-1"), Endpoint: &v1alpha1.EndpointOverride{URL: f.url}, Credentials: credentials("", "c"),
	}}
	if err := f.kube.Create(ctx, tenant); err != nil {
		t.Fatal(err)
	}

	session := func(kind, name string) *Session {
		t.Helper()
		s, err := f.cache.Session(ctx, managed("team-a", kind, name, nil), nil)
		if err != nil {
			t.Fatalf("session of %s %s: %v", kind, name, err)
		}
		return s
	}
	a, b, c := session(v1alpha1.ClusterProviderConfigKind, "a"), session(v1alpha1.ClusterProviderConfigKind, "b"), session(v1alpha1.ProviderConfigKind, "c")
	if a.AccountID == b.AccountID && callerARN(t, a) == callerARN(t, b) {
		t.Fatal("the two configs gave one session: the test shows nothing")
	}
	// An SDK client copies a BuildableClient into a transport of its own;
	// the shared one must reach its calls as it is.
	clientOf := func(s *Session) aws.HTTPClient { return sts.NewFromConfig(s.Config).Options().HTTPClient }
	if clientOf(a) != clientOf(b) || clientOf(a) != a.Config.HTTPClient {
		t.Error("the clients of two accounts' sessions send through HTTP clients of their own")
	}
	if capped, ok := clientOf(c).(capped); !ok || capped.next != f.cache.tenantHTTP || capped.namespace != "team-a" {
		t.Error("a namespaced config's own endpoint is not reached through the tenants' guarded HTTP client, capped for its namespace")
	}
}

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
	_ = f.cache.budgets.Wait(ctx, "gone-account", "us-east-1", budget.Operation{Service: "SNS", Name: "Subscribe"})

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

// TestBrokenKeepsOnlyTheLatestVersion: a tenant who edits its config's
// region in a loop, each version failing, leaves one failure recorded, not
// one a version: a new version of a config supersedes the older ones in
// every region.
func TestBrokenKeepsOnlyTheLatestVersion(t *testing.T) {
	c := NewCache(nil)
	for i := range 200 {
		k := sessionKey{kind: v1alpha1.ProviderConfigKind, namespace: "team-b", name: "own", generation: int64(i + 1), region: "aa-a-" + strconv.Itoa(i)}
		c.mu.Lock()
		c.noteBroken(k, errors.New("cannot reach the endpoint"))
		c.mu.Unlock()
	}
	if n := len(c.broken); n != 1 {
		t.Errorf("%d failures recorded, want 1", n)
	}
}
