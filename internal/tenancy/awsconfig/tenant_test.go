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
	"crypto/x509"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
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
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/ackannotations"
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

// v4Forms are the hosts, as an endpoint's URL may name them, that reach
// the IPv4 address a.b.c.d, by name: the address, the IPv6 addresses that
// carry it, and names that resolve to it (fakeDNS).
func v4Forms(a, b, c, d byte) map[string]string {
	x := func(v byte) byte { return ^v }
	return map[string]string{
		"IPv4":           fmt.Sprintf("%d.%d.%d.%d", a, b, c, d),
		"IPv4Mapped":     fmt.Sprintf("[::ffff:%d.%d.%d.%d]", a, b, c, d),
		"IPv4MappedZone": fmt.Sprintf("[::ffff:%d.%d.%d.%d%%25eth0]", a, b, c, d),
		"IPv4Compatible": fmt.Sprintf("[::%d.%d.%d.%d]", a, b, c, d),
		"NAT64":          fmt.Sprintf("[64:ff9b::%d.%d.%d.%d]", a, b, c, d),
		"6to4":           fmt.Sprintf("[2002:%02x%02x:%02x%02x::1]", a, b, c, d),
		// Teredo: server a.b.c.d, client 203.0.113.7 (inverted).
		"TeredoServer": fmt.Sprintf("[2001:0:%02x%02x:%02x%02x:8000:63bf:3400:8ef8]", a, b, c, d),
		// Teredo: server 65.54.227.120, client a.b.c.d.
		"TeredoClient": fmt.Sprintf("[2001:0:4136:e378:8000:63bf:%02x%02x:%02x%02x]", x(a), x(b), x(c), x(d)),
		"Name":         fmt.Sprintf("to-%d-%d-%d-%d.tenant.example", a, b, c, d),
		"AWSName":      fmt.Sprintf("to-%d-%d-%d-%d.execute-api.us-east-1.amazonaws.com", a, b, c, d),
		// An AWS name with a public address and this one.
		"MixedAWSName": fmt.Sprintf("mixed-%d-%d-%d-%d.sns.us-east-1.amazonaws.com", a, b, c, d),
	}
}

// fakeDNS resolves the names of v4Forms and a few more.
func fakeDNS(_ context.Context, host string) ([]netip.Addr, error) {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	var a, b, c, d byte
	if n, _ := fmt.Sscanf(host, "to-%d-%d-%d-%d.", &a, &b, &c, &d); n == 4 {
		return []netip.Addr{netip.AddrFrom4([4]byte{a, b, c, d})}, nil
	}
	if n, _ := fmt.Sscanf(host, "mixed-%d-%d-%d-%d.", &a, &b, &c, &d); n == 4 {
		return []netip.Addr{netip.MustParseAddr("52.94.236.248"), netip.AddrFrom4([4]byte{a, b, c, d})}, nil
	}
	switch host {
	case "to-loopback6.tenant.example":
		return []netip.Addr{netip.MustParseAddr("::1")}, nil
	case "localhost":
		return []netip.Addr{netip.MustParseAddr("127.0.0.1"), netip.MustParseAddr("::1")}, nil
	case "to-zero.tenant.example":
		return []netip.Addr{netip.MustParseAddr("0.0.0.0")}, nil
	case "to-unspecified6.tenant.example":
		return []netip.Addr{netip.MustParseAddr("::")}, nil
	case "to-mapped-loopback.tenant.example":
		return []netip.Addr{netip.MustParseAddr("::ffff:127.0.0.1")}, nil
	case "sns.us-east-1.amazonaws.com", "sts.api.aws", "firehose.cn-north-1.amazonaws.com.cn", "sts.us-iso-east-1.c2s.ic.gov":
		return []netip.Addr{netip.MustParseAddr("52.94.236.248"), netip.MustParseAddr("2600:1f18::1")}, nil
	case "tenant.example", "amazonaws.com.tenant.example", "tenantamazonaws.com":
		return []netip.Addr{netip.MustParseAddr("203.0.113.7")}, nil
	}
	return nil, fmt.Errorf("no such host %s", host)
}

// TestTenantEndpointAddresses: every form of a denied address, IPv4 or
// IPv6, literal or resolved, is refused unless an admin allows the address
// it reaches; a name outside AWS's endpoint domains reaches only allowed
// networks; AWS's names and public addresses are reached.
func TestTenantEndpointAddresses(t *testing.T) {
	const refused, reached = "refused", "reached"
	// An outcome with no network allowed, with one that holds none of the
	// addresses (10.20.0.0/16), and with the network own.
	type want struct{ None, Other, Own string }
	type tcase struct {
		own  netip.Prefix
		want want
	}
	cases := map[string]tcase{}
	for _, target := range []struct {
		ip  [4]byte
		own string
	}{{[4]byte{127, 0, 0, 1}, "127.0.0.0/8"}, {[4]byte{169, 254, 169, 254}, "169.254.169.254/32"}, {[4]byte{10, 0, 0, 1}, "10.0.0.1"}} {
		own, err := ParseNetworks([]string{target.own})
		if err != nil {
			t.Fatal(err)
		}
		for _, host := range v4Forms(target.ip[0], target.ip[1], target.ip[2], target.ip[3]) {
			cases[host] = tcase{own: own[0], want: want{None: refused, Other: refused, Own: reached}}
		}
	}
	public := netip.MustParsePrefix("52.94.0.0/16")
	for form, host := range v4Forms(52, 94, 236, 248) {
		w := want{None: reached, Other: reached, Own: reached}
		if form == "Name" { // a public address, but not AWS's name
			w = want{None: refused, Other: refused, Own: reached}
		}
		cases[host] = tcase{own: public, want: w}
	}
	loopback6, loopback4, nothing := netip.MustParsePrefix("::1/128"), netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("198.51.100.0/24")
	for host, tc := range map[string]tcase{
		"[::1]":                                {loopback6, want{refused, refused, reached}},
		"[::1%25lo]":                           {loopback6, want{refused, refused, reached}},
		"[0:0:0:0:0:0:0:1]":                    {loopback6, want{refused, refused, reached}},
		"to-loopback6.tenant.example":          {loopback6, want{refused, refused, reached}},
		"to-mapped-loopback.tenant.example":    {loopback4, want{refused, refused, reached}},
		"localhost":                            {loopback4, want{refused, refused, refused}}, // ::1 is not in 127.0.0.0/8
		"0.0.0.0":                              {nothing, want{refused, refused, refused}},
		"[::]":                                 {nothing, want{refused, refused, refused}},
		"to-zero.tenant.example":               {nothing, want{refused, refused, refused}},
		"to-unspecified6.tenant.example":       {nothing, want{refused, refused, refused}},
		"[fe80::1%25eth0]":                     {nothing, want{refused, refused, refused}},
		"[fd00:ec2::254]":                      {nothing, want{refused, refused, refused}},
		"[64:ff9b:1::7f00:1]":                  {loopback4, want{refused, refused, refused}}, // NAT64 local-use: only its own prefix allowed
		"[64:ff9b:1::345e:ecf8]":               {nothing, want{refused, refused, refused}},
		"sns.us-east-1.amazonaws.com":          {nothing, want{reached, reached, reached}},
		"SNS.US-EAST-1.AMAZONAWS.COM.":         {nothing, want{reached, reached, reached}},
		"sts.api.aws":                          {nothing, want{reached, reached, reached}},
		"firehose.cn-north-1.amazonaws.com.cn": {nothing, want{reached, reached, reached}},
		"sts.us-iso-east-1.c2s.ic.gov":         {nothing, want{reached, reached, reached}},
		"[2600:1f18::1]":                       {nothing, want{reached, reached, reached}},
		"tenant.example":                       {nothing, want{refused, refused, refused}},
		"amazonaws.com.tenant.example":         {netip.MustParsePrefix("203.0.113.0/24"), want{refused, refused, reached}},
		"tenantamazonaws.com":                  {nothing, want{refused, refused, refused}},
		"unknown.tenant.example":               {nothing, want{refused, refused, refused}},
	} {
		cases[host] = tc
	}

	wantAll, got := map[string]want{}, map[string]want{}
	other := netip.MustParsePrefix("10.20.0.0/16")
	for host, tc := range cases {
		wantAll[host] = tc.want
		outcome := func(allowed ...netip.Prefix) string {
			g := tenantDialGuard{allowed: allowed, resolve: fakeDNS}
			u, err := url.Parse("https://" + host + ":443/")
			if err != nil {
				t.Fatalf("%s: %v", host, err)
			}
			// The transport dials the URL's host unresolved, zone
			// and all.
			_, err = g.addresses(context.Background(), "tcp", net.JoinHostPort(u.Hostname(), "443"))
			if err != nil {
				if !strings.Contains(err.Error(), "namespaced ProviderConfig's endpoint") && !strings.Contains(err.Error(), "cannot resolve") {
					t.Errorf("%s: the refusal names no rule: %v", host, err)
				}
				return refused
			}
			return reached
		}
		got[host] = want{None: outcome(), Other: outcome(other), Own: outcome(other, tc.own)}
	}
	if diff := cmp.Diff(wantAll, got); diff != "" {
		t.Errorf("addresses: -want, +got:\n%s", diff)
	}
}

// TestTenantDialerDialsWhatItJudged: the tenant client reaches a name by
// the address it judged, and verifies TLS against the name, not the
// address.
func TestTenantDialerDialsWhatItJudged(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok")) }))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	var lookups atomic.Int32
	g := tenantDialGuard{allowed: loopbackOnly, resolve: func(_ context.Context, host string) ([]netip.Addr, error) {
		lookups.Add(1)
		return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
	}}
	c := defaultHTTPLimits.client(defaultHTTPLimits.buildable().WithTransportOptions(func(tr *http.Transport) {
		tr.Proxy, tr.DialContext = nil, g.dialer(defaultHTTPLimits)
		tr.TLSClientConfig.RootCAs = pool
	}))
	got := map[string]string{}
	for _, host := range []string{"example.com", "not-the-certificates.example"} {
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, "https://"+host+":"+port+"/", http.NoBody)
		resp, err := c.Do(req)
		if err != nil {
			got[host] = "refused"
			if !strings.Contains(err.Error(), "certificate") {
				t.Errorf("%s: want a certificate refused, got %v", host, err)
			}
			continue
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		got[host] = string(b)
	}
	if diff := cmp.Diff(map[string]string{"example.com": "ok", "not-the-certificates.example": "refused"}, got); diff != "" {
		t.Errorf("-want, +got:\n%s", diff)
	}
	if lookups.Load() == 0 {
		t.Error("the dialer did not resolve the name itself")
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
