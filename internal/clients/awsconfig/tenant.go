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
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"syscall"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
)

// Anyone who may edit a namespace may write its ProviderConfigs, so what a
// namespaced config may use is limited to what the namespace holds: its own
// Secrets. The provider pod's identity (its service account's role, the Pod
// Identity agent, the SDK's default chain, any file of the pod) belongs to
// the admin, who offers it through a ClusterProviderConfig.

// deletionPolicy is ackannotations.AnnotationDeletionPolicy, which lets an
// object go without touching AWS: the refusal advises it.
const deletionPolicy = "services.k8s.aws/deletion-policy"

const errPodIdentity = "%s %s/%s: %s uses the provider pod's own identity, which a namespaced ProviderConfig cannot use; nothing was read from the pod and nothing sent. " +
	"Use source Secret (or WebIdentity with tokenSecretRef) with a Secret of this namespace, or a ClusterProviderConfig an admin offers to this namespace. " +
	"To delete this object without touching AWS, annotate it " + deletionPolicy + ": retain first"

// podIdentityField names the field of a namespaced config's credentials
// that takes the pod's identity, or "" when they take only what the
// namespace holds.
func podIdentityField(creds v1alpha1.ProviderCredentials) string {
	switch creds.Source {
	case v1alpha1.CredentialsSourceSecret, v1alpha1.CredentialsSourceNone:
		return ""
	case v1alpha1.CredentialsSourceWebIdentity:
		if creds.WebIdentity != nil && creds.WebIdentity.TokenFile != nil {
			return "spec.credentials.webIdentity.tokenFile"
		}
		return ""
	case v1alpha1.CredentialsSourceIRSA, v1alpha1.CredentialsSourcePodIdentity, v1alpha1.CredentialsSourceInjectedIdentity:
	}
	// Any source not known to take only the namespace's own Secrets.
	return fmt.Sprintf("spec.credentials.source %s", creds.Source)
}

// namespacedCredentials refuses the credentials of the namespaced config
// namespace/name that would take the pod's identity. The admission rules of
// ProviderConfig refuse them too; this holds for configs written before
// those rules, or with them bypassed.
func namespacedCredentials(namespace, name string, creds v1alpha1.ProviderCredentials) error {
	if f := podIdentityField(creds); f != "" {
		return errors.Errorf(errPodIdentity, v1alpha1.ProviderConfigKind, namespace, name, f)
	}
	return nil
}

// The addresses a namespaced config's endpoint may not reach unless an admin
// allows them (--tenant-endpoint-network): the pod itself, the instance
// metadata service and other link-local services, and the private ranges a
// cluster's pods and services live in. AWS's public endpoints are none of
// them.
var tenantDenied = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("10.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("127.0.0.0/8"),
	netip.MustParsePrefix("169.254.0.0/16"),
	netip.MustParsePrefix("172.16.0.0/12"),
	netip.MustParsePrefix("192.168.0.0/16"),
	netip.MustParsePrefix("224.0.0.0/4"),
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("::/128"),
	netip.MustParsePrefix("::1/128"),
	netip.MustParsePrefix("fc00::/7"),
	netip.MustParsePrefix("fe80::/10"),
	netip.MustParsePrefix("ff00::/8"),
}

// errTenantAddress names the address, never what the endpoint would have
// answered.
const errTenantAddress = "a namespaced ProviderConfig's endpoint may not reach %s (link-local, loopback or private: the pod, the instance metadata service or the cluster's own services) unless an admin allows it with --tenant-endpoint-network"

// tenantDialGuard refuses connections to denied addresses that no allowed
// network holds. It runs after name resolution, on every connection a
// tenant's endpoint makes (redirects and re-resolved names included), so a
// name that resolves elsewhere later gains nothing.
type tenantDialGuard struct {
	allowed []netip.Prefix
}

func (g tenantDialGuard) permits(ip netip.Addr) bool {
	ip = ip.Unmap()
	for _, p := range g.allowed {
		if p.Contains(ip) {
			return true
		}
	}
	for _, p := range tenantDenied {
		if p.Contains(ip) {
			return false
		}
	}
	return true
}

// control is a net.Dialer's Control: address is the resolved IP and port.
func (g tenantDialGuard) control(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return errors.Errorf(errTenantAddress, address)
	}
	if !g.permits(ap.Addr()) {
		return errors.Errorf(errTenantAddress, ap.Addr())
	}
	return nil
}

// httpClient is the HTTP client of the sessions of namespaced configs with
// an endpoint of their own: it dials through the guard and through no proxy
// (a proxy would reach for it what the guard refuses).
func (g tenantDialGuard) httpClient() aws.HTTPClient {
	return sharedHTTPClient().
		WithDialerOptions(func(d *net.Dialer) { d.Control = g.control }).
		WithTransportOptions(func(t *http.Transport) { t.Proxy = nil }).
		Freeze()
}

// sharedHTTPClient is the SDK's default HTTP client, made to be shared by
// the sessions of many accounts: they call the same service endpoints (one
// per service and region), so it keeps more idle connections to each than
// the SDK's 10, which it sizes for one client. Frozen, it is no longer a
// BuildableClient, which every SDK client would copy into a transport of
// its own.
func sharedHTTPClient() *awshttp.BuildableClient {
	return awshttp.NewBuildableClient().WithTransportOptions(func(t *http.Transport) {
		t.MaxIdleConns, t.MaxIdleConnsPerHost = idleConnections, idleConnectionsPerHost
	})
}

// The idle connections the shared client keeps: in all, and to one host.
const (
	idleConnections        = 256
	idleConnectionsPerHost = 64
)

// ParseNetworks parses the networks an admin allows tenants' endpoints to
// reach: CIDR prefixes or single addresses.
func ParseNetworks(in []string) ([]netip.Prefix, error) {
	out := make([]netip.Prefix, 0, len(in))
	for _, s := range in {
		if p, err := netip.ParsePrefix(s); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(s)
		if err != nil {
			return nil, errors.Errorf("%q is neither a CIDR prefix nor an IP address", s)
		}
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}
