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
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
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
// metadata service and other link-local services, the private ranges a
// cluster's pods and services live in, and addresses that are no host's
// (unspecified, multicast, reserved). AWS's public endpoints are none of
// them.
var tenantDenied = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("10.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("127.0.0.0/8"),
	netip.MustParsePrefix("169.254.0.0/16"),
	netip.MustParsePrefix("172.16.0.0/12"),
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("192.168.0.0/16"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("224.0.0.0/4"),
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("::/128"),
	netip.MustParsePrefix("::1/128"),
	// NAT64's local-use prefix (RFC 8215): where in it an IPv4 address
	// lies depends on the length of prefix its operator chose, so none
	// can be read out and judged.
	netip.MustParsePrefix("64:ff9b:1::/48"),
	netip.MustParsePrefix("fc00::/7"),
	netip.MustParsePrefix("fe80::/10"),
	netip.MustParsePrefix("fec0::/10"),
	netip.MustParsePrefix("ff00::/8"),
}

// IPv6 prefixes whose addresses carry an IPv4 address a packet may end up
// at: the host is judged by that address too.
var (
	ipv4Compatible = netip.MustParsePrefix("::/96")
	nat64          = netip.MustParsePrefix("64:ff9b::/96")
	sixToFour      = netip.MustParsePrefix("2002::/16")
	teredo         = netip.MustParsePrefix("2001::/32")
)

// awsDomains are the DNS suffixes of AWS's own endpoints: the dnsSuffix and
// dualStackDnsSuffix of every partition of the SDK's partitions.json
// (aws-sdk-go-v2 internal/endpoints/awsrulesfn).
var awsDomains = []string{
	"amazonaws.com", "api.aws", // aws, aws-us-gov
	"amazonaws.com.cn", "api.amazonwebservices.com.cn", // aws-cn
	"amazonaws.eu", "api.amazonwebservices.eu", // aws-eusc
	"c2s.ic.gov", "api.aws.ic.gov", // aws-iso
	"sc2s.sgov.gov", "api.aws.scloud", // aws-iso-b
	"cloud.adc-e.uk", "api.cloud-aws.adc-e.uk", // aws-iso-e
	"csp.hci.ic.gov", "api.aws.hci.ic.gov", // aws-iso-f
}

// isAWSDomain says whether host is a name in one of AWS's endpoint domains.
func isAWSDomain(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	for _, d := range awsDomains {
		if host == d || strings.HasSuffix(host, "."+d) {
			return true
		}
	}
	return false
}

// The refusals name the address and the rule, never what the endpoint
// would have answered.
const (
	errTenantAddress = "a namespaced ProviderConfig's endpoint may not reach %s (link-local, loopback, private or no host's: the pod, the instance metadata service or the cluster's own services) unless an admin allows it with --tenant-endpoint-network"
	errTenantName    = "a namespaced ProviderConfig's endpoint may name only AWS's endpoint domains (such as amazonaws.com or api.aws), an IP address, or a name whose every address an admin allows with --tenant-endpoint-network: %s resolves to an address no allowed network holds"
	// errTenantNameRefused names no address a name resolves to: the
	// cluster's DNS is not told to its reader.
	errTenantNameRefused = "a namespaced ProviderConfig's endpoint may not reach %s: it resolves to a link-local, loopback, private or no host's address (the pod, the instance metadata service or the cluster's own services), which an admin allows only with --tenant-endpoint-network"
	errTenantResolve     = "cannot resolve %s, the host of a namespaced ProviderConfig's endpoint"
)

// tenantDialGuard judges every connection a namespaced config's endpoint
// makes (redirects and re-resolved names included): it resolves the host
// itself, judges every address in canonical form, and dials the address it
// judged, so a name that resolves elsewhere between the check and the
// connection gains nothing.
//
//   - An IP address may be reached unless it, or an IPv4 address it
//     carries, is denied (tenantDenied) and no allowed network holds it.
//   - A name in AWS's endpoint domains may be reached if every address it
//     resolves to may.
//   - Any other name only if every address it resolves to may, and lies in
//     a network the admin allowed: a tenant's own server is reached only
//     where an admin said so.
type tenantDialGuard struct {
	allowed []netip.Prefix
	// resolve looks up a host's addresses; nil is net.DefaultResolver's.
	resolve func(ctx context.Context, host string) ([]netip.Addr, error)
}

// forms are ip, without its zone and unmapped from IPv4-mapped IPv6, and
// each IPv4 address it carries: IPv4-compatible (::a.b.c.d, but :: and
// ::1, which are judged as they are), NAT64
// (64:ff9b::/96), 6to4
// (2002::/16, bits 16 to 48) and Teredo (2001::/32: the server at bits 32
// to 64, the client in the last 32 bits, inverted).
func forms(ip netip.Addr) []netip.Addr {
	ip = ip.WithZone("").Unmap()
	out := []netip.Addr{ip}
	if !ip.Is6() {
		return out
	}
	b := ip.As16()
	v4 := func(a, b, c, d byte) netip.Addr { return netip.AddrFrom4([4]byte{a, b, c, d}) }
	switch {
	case ipv4Compatible.Contains(ip) && ip != netip.IPv6Unspecified() && ip != netip.IPv6Loopback(), nat64.Contains(ip):
		out = append(out, v4(b[12], b[13], b[14], b[15]))
	case sixToFour.Contains(ip):
		out = append(out, v4(b[2], b[3], b[4], b[5]))
	case teredo.Contains(ip):
		out = append(out, v4(b[4], b[5], b[6], b[7]), v4(^b[12], ^b[13], ^b[14], ^b[15]))
	}
	return out
}

func (g tenantDialGuard) isAllowed(ip netip.Addr) bool {
	for _, p := range g.allowed {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

func isDenied(ip netip.Addr) bool {
	for _, p := range tenantDenied {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// permits says whether ip may be reached: none of its forms is denied but
// where an allowed network holds it.
func (g tenantDialGuard) permits(ip netip.Addr) bool {
	_, ok := g.refusal(ip)
	return ok
}

// refusal is ip as a refusal names it, with the form of it that is denied,
// and false; or true when ip may be reached.
func (g tenantDialGuard) refusal(ip netip.Addr) (string, bool) {
	fs := forms(ip)
	for _, f := range fs {
		if isDenied(f) && !g.isAllowed(f) {
			if f == fs[0] {
				return f.String(), false
			}
			return fmt.Sprintf("%s (which carries %s)", fs[0], f), false
		}
	}
	return "", true
}

// admits says whether ip may be reached for a name outside AWS's domains:
// it is permitted, and an allowed network holds one of its forms.
func (g tenantDialGuard) admits(ip netip.Addr) bool {
	if !g.permits(ip) {
		return false
	}
	for _, f := range forms(ip) {
		if g.isAllowed(f) {
			return true
		}
	}
	return false
}

// addresses are the addresses that the host of address (host:port, as the
// transport dials it) may be reached at, judged, for network (tcp, tcp4 or
// tcp6), or why none may.
func (g tenantDialGuard) addresses(ctx context.Context, network, address string) ([]netip.AddrPort, error) {
	host, portName, err := net.SplitHostPort(address)
	if err != nil {
		return nil, errors.Errorf(errTenantAddress, address)
	}
	port, err := strconv.ParseUint(portName, 10, 16)
	if err != nil {
		return nil, errors.Errorf(errTenantAddress, address)
	}
	var ips []netip.Addr
	if ip, err := netip.ParseAddr(host); err == nil {
		if what, ok := g.refusal(ip); !ok {
			return nil, errors.Errorf(errTenantAddress, what)
		}
		ips = []netip.Addr{ip.WithZone("").Unmap()}
	} else {
		resolve := g.resolve
		if resolve == nil {
			resolve = func(ctx context.Context, host string) ([]netip.Addr, error) {
				return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
			}
		}
		found, err := resolve(ctx, host)
		if err != nil || len(found) == 0 {
			return nil, errors.Errorf(errTenantResolve, host)
		}
		awsName := isAWSDomain(host)
		for _, ip := range found {
			if _, ok := g.refusal(ip); !ok {
				return nil, errors.Errorf(errTenantNameRefused, host)
			}
			if !awsName && !g.admits(ip) {
				return nil, errors.Errorf(errTenantName, host)
			}
			ips = append(ips, ip.WithZone("").Unmap())
		}
	}
	out := make([]netip.AddrPort, 0, len(ips))
	for _, ip := range ips {
		if (network == "tcp4" && !ip.Is4()) || (network == "tcp6" && !ip.Is6()) {
			continue
		}
		out = append(out, netip.AddrPortFrom(ip, uint16(port)))
	}
	if len(out) == 0 {
		return nil, errors.Errorf("no %s address of %s", network, host)
	}
	return out, nil
}

// dialer dials the addresses the guard judged: the transport gives it the
// endpoint's host unresolved, and does TLS, verifying that host's name, on
// the connection it returns.
func (g tenantDialGuard) dialer(l httpLimits) func(ctx context.Context, network, address string) (net.Conn, error) {
	d := &net.Dialer{Timeout: l.dial, KeepAlive: awshttp.DefaultDialKeepAliveTimeout, Control: g.control}
	return func(ctx context.Context, network, address string) (net.Conn, error) {
		aps, err := g.addresses(ctx, network, address)
		if err != nil {
			return nil, err
		}
		var first error
		for _, ap := range aps {
			c, err := d.DialContext(ctx, network, ap.String())
			if err == nil {
				return c, nil
			}
			if first == nil {
				first = err
			}
		}
		return nil, first
	}
}

// control is a net.Dialer's Control: address is the IP and port being
// connected to. It judges again what dialer judged, so that no other path
// to a socket skips the rule.
func (g tenantDialGuard) control(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return errors.Errorf(errTenantAddress, address)
	}
	if what, ok := g.refusal(ap.Addr()); !ok {
		return errors.Errorf(errTenantAddress, what)
	}
	return nil
}

// httpClient is the HTTP client of the sessions of namespaced configs with
// an endpoint of their own: it dials through the guard and through no proxy
// (a proxy would reach for it what the guard refuses).
func (g tenantDialGuard) httpClient(l httpLimits) aws.HTTPClient {
	return l.client(l.buildable().
		WithTransportOptions(func(t *http.Transport) {
			t.Proxy = nil
			t.DialContext = g.dialer(l)
		}))
}

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
		a = a.WithZone("")
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}
