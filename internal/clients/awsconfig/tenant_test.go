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
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/controller/ackannotations"
)

// TestNamespacedConfigNeverTakesThePodsIdentity: a namespaced ProviderConfig
// naming a source of the pod's own identity is refused before anything of
// the pod is read or anything is sent, with a message that names the field
// and how to let the object go; the same source on a ClusterProviderConfig
// works (TestCredentialSources).
func TestNamespacedConfigNeverTakesThePodsIdentity(t *testing.T) {
	dir := t.TempDir()
	podFile := filepath.Join(dir, "token")
	if err := os.WriteFile(podFile, []byte("the pod's token"), 0o600); err != nil {
		t.Fatal(err)
	}
	var agentAsked atomic.Int32
	agent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		agentAsked.Add(1)
		http.Error(w, "no", http.StatusUnauthorized)
	}))
	defer agent.Close()
	env := map[string]string{envRoleARN: "arn:aws:iam::000000000000:role/provider", envWebIdentityFile: podFile, envContainerURI: agent.URL, envContainerToken: podFile}

	cases := map[string]struct {
		creds     v1alpha1.ProviderCredentials
		wantField string
	}{
		"IRSA":             {creds: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceIRSA}, wantField: "spec.credentials.source IRSA"},
		"PodIdentity":      {creds: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourcePodIdentity}, wantField: "spec.credentials.source PodIdentity"},
		"InjectedIdentity": {creds: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceInjectedIdentity}, wantField: "spec.credentials.source InjectedIdentity"},
		"WebIdentityFromAFileOfThePod": {
			creds:     v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceWebIdentity, WebIdentity: &v1alpha1.WebIdentityConfig{RoleARN: "arn:aws:iam::000000000000:role/r", TokenFile: aws.String(podFile)}},
			wantField: "spec.credentials.webIdentity.tokenFile",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			f.env.vars = env
			pc := &v1alpha1.ProviderConfig{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "pc", Generation: 1}, Spec: v1alpha1.ProviderConfigSpec{
				Region: aws.String("us-east-1"), Endpoint: &v1alpha1.EndpointOverride{URL: f.url}, Credentials: tc.creds,
			}}
			if err := f.kube.Create(context.Background(), pc); err != nil {
				t.Fatal(err)
			}
			_, err := f.cache.Session(context.Background(), managed("team-a", v1alpha1.ProviderConfigKind, "pc", nil), nil)
			if err == nil {
				t.Fatal("a namespaced config got a session from the pod's identity")
			}
			for _, want := range []string{"ProviderConfig team-a/pc", tc.wantField, "ClusterProviderConfig", ackannotations.AnnotationDeletionPolicy + ": retain"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("the refusal does not say %q: %v", want, err)
				}
			}
			if f.env.loaded != 0 || agentAsked.Load() != 0 {
				t.Errorf("the pod's identity was asked for: default chain loaded %d times, agent asked %d times", f.env.loaded, agentAsked.Load())
			}
			if calls := f.aws.Calls(); len(calls) != 0 {
				t.Errorf("the endpoint was called: %v", calls)
			}
			if st := f.cache.Stats(); st.Loads != 0 {
				t.Errorf("a session was built: %+v", st)
			}
		})
	}
}

// TestTenantEndpointReachesNoPrivateAddress: a namespaced config's endpoint
// on loopback is refused at the connection, before a byte is sent, unless an
// admin allows the network; a ClusterProviderConfig's is never limited.
func TestTenantEndpointReachesNoPrivateAddress(t *testing.T) {
	var received atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		received.Add(1)
		http.Error(w, "internal service", http.StatusInternalServerError)
	}))
	defer srv.Close()
	f := newFixture(t, secret("team-a", "aws", "credentials", "[default]\naws_access_key_id=AKIDTEAMA\naws_secret_access_key=a\n"))
	pc := &v1alpha1.ProviderConfig{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "pc", Generation: 1}, Spec: v1alpha1.ProviderConfigSpec{
		Region: aws.String("us-east-1"), Endpoint: &v1alpha1.EndpointOverride{URL: srv.URL},
		Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceSecret,
			SecretRef: &xpv2.SecretKeySelector{SecretReference: xpv2.SecretReference{Name: "aws"}, Key: "credentials"}},
	}}
	if err := f.kube.Create(context.Background(), pc); err != nil {
		t.Fatal(err)
	}
	strict := NewCache(f.kube, WithEnvironment(f.env))
	_, err := strict.Session(context.Background(), managed("team-a", v1alpha1.ProviderConfigKind, "pc", nil), nil)
	if err == nil || !strings.Contains(err.Error(), "may not reach 127.0.0.1") {
		t.Fatalf("want the connection refused, got %v", err)
	}
	if strings.Contains(err.Error(), "internal service") {
		t.Errorf("the error quotes what the address answers: %v", err)
	}
	if n := received.Load(); n != 0 {
		t.Errorf("the private address received %d requests", n)
	}

	cluster := clusterConfig("admin", srv.URL, v1alpha1.ProviderConfigSpec{Region: aws.String("us-east-1"), Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceNone}})
	if err := f.kube.Create(context.Background(), cluster); err != nil {
		t.Fatal(err)
	}
	if _, err := strict.Session(context.Background(), managed("team-a", v1alpha1.ClusterProviderConfigKind, "admin", nil), nil); err == nil {
		t.Fatal("the server answering 500 made a session")
	}
	if received.Load() == 0 {
		t.Error("a ClusterProviderConfig's endpoint was limited like a tenant's")
	}
}

func TestTenantDialGuardPermits(t *testing.T) {
	allowed, err := ParseNetworks([]string{"10.20.0.0/16", "192.168.1.7"})
	if err != nil {
		t.Fatal(err)
	}
	g := tenantDialGuard{allowed: allowed}
	cases := map[string]bool{
		"52.94.236.248":    true,  // an AWS endpoint
		"2600:1f18::1":     true,  // an AWS endpoint over IPv6
		"169.254.169.254":  false, // the instance metadata service
		"169.254.170.23":   false, // the Pod Identity agent
		"fd00:ec2::254":    false, // the instance metadata service over IPv6
		"127.0.0.1":        false,
		"::ffff:127.0.0.1": false,
		"::1":              false,
		"10.96.0.1":        false, // a cluster's service address
		"172.20.0.10":      false,
		"0.0.0.0":          false,
		"10.20.3.4":        true, // allowed by an admin
		"192.168.1.7":      true,
		"192.168.1.8":      false,
	}
	got := map[string]bool{}
	for ip := range cases {
		got[ip] = g.permits(netip.MustParseAddr(ip))
	}
	if diff := cmp.Diff(cases, got); diff != "" {
		t.Errorf("permits: -want, +got:\n%s", diff)
	}
	if _, err := ParseNetworks([]string{"cluster.local"}); err == nil {
		t.Error("a name was taken for a network")
	}
}

func TestScopeTellsEndpointsApart(t *testing.T) {
	cases := map[string]struct {
		s    *Session
		want string
	}{
		"AWS":      {s: &Session{AccountID: "111122223333"}, want: "111122223333"},
		"Endpoint": {s: &Session{AccountID: "111122223333", Endpoint: "https://tenant.example"}, want: "111122223333 at https://tenant.example"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, tc.s.Scope()); diff != "" {
				t.Errorf("Scope: -want, +got:\n%s", diff)
			}
		})
	}
}
