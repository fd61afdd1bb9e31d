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

// Package awsconfig turns a managed resource's ProviderConfig or
// ClusterProviderConfig into an AWS session: SDK configuration with the
// config's credentials, assumed roles, region and endpoint override, plus the
// account and partition behind it. Sessions are cached per config version,
// credential secret version and region, and per namespace where a
// ClusterProviderConfig asks for namespace sessions (namespacesessions.go),
// so a steady-state reconcile loads no configuration and calls no STS.
package awsconfig

import (
	"context"
	"fmt"
	"net/netip"
	"reflect"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"golang.org/x/sync/singleflight"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/internal/tenancy/budget"
)

// buildTimeout bounds the build of one session (its credential Secrets, STS),
// which no caller's context cancels.
const buildTimeout = 2 * time.Minute

const (
	errNoConfigRef   = "the managed resource names no provider config (spec.providerConfigRef)"
	errGetConfig     = "cannot get %s %q"
	errConfigKind    = "spec.providerConfigRef.kind %q is not ProviderConfig or ClusterProviderConfig"
	errNoRegion      = "no region: set spec.forProvider.region or the provider config's spec.region"
	errGetSecret     = "cannot get secret %s/%s named by %s"
	errSecretKey     = "secret %s/%s has no key %q named by %s"
	errIdentity      = "cannot get the caller identity from STS"
	errCredentials   = "cannot build credentials from source %s"
	errClusterSecret = "%s: a ClusterProviderConfig must name the secret's namespace"
	errWaitSession   = "gave up waiting for the AWS session of the provider config"
)

// A Session is what a managed resource needs to call AWS.
type Session struct {
	// Config is the SDK configuration: credentials, region, adaptive
	// retries and, if set, the endpoint override.
	Config aws.Config
	// AccountID and Partition of the caller, resolved once per session.
	AccountID string
	Partition string
	Region    string
	// Endpoint is the config's endpoint override; empty for AWS's own.
	// What an endpoint of someone's choosing answers proves nothing of
	// AWS: an account it names is that endpoint's (see Scope).
	Endpoint string
	// DefaultTags are the config's spec.defaultTags, which the taggable
	// kinds put on their resources. A change of them is a new generation
	// of the config, and so a new session.
	DefaultTags map[string]string
	// shares are a ClusterProviderConfig's spec.namespaceShares (Share).
	shares map[string]Share
	// ProviderConfig names the config the session is of ("ProviderConfig
	// namespace/name" or "ClusterProviderConfig name").
	ProviderConfig string

	clients sync.Map // reflect.Type of a client -> the client
	// used is when a reconcile last asked for the session (UnixNano), for
	// Prune.
	used atomic.Int64
}

// ClientFor returns the session's client of one service, building it on first
// use: build is the service package's NewFromConfig.
func ClientFor[C, O any](s *Session, build func(aws.Config, ...func(*O)) *C) *C {
	t := reflect.TypeFor[C]()
	if c, ok := s.clients.Load(t); ok {
		return c.(*C) //nolint:forcetypeassert // stored under its own type
	}
	c, _ := s.clients.LoadOrStore(t, build(s.Config))
	return c.(*C) //nolint:forcetypeassert // stored under its own type
}

// An Environment is where the ambient credential sources look: process
// environment variables and the SDK's default chain.
type Environment interface {
	Getenv(key string) string
	LoadDefaultConfig(ctx context.Context, region string) (aws.Config, error)
}

// Stats count the work a Cache did.
type Stats struct {
	// Loads counts sessions built: configuration loads and credential
	// chains set up.
	Loads int64
	// IdentityCalls counts GetCallerIdentity calls.
	IdentityCalls int64
	// AssumeRoleCalls counts AssumeRole calls: the roles of
	// assumeRoleChain and each namespace's role of namespaceSessions.
	AssumeRoleCalls int64
	// WebIdentityCalls counts AssumeRoleWithWebIdentity calls.
	WebIdentityCalls int64
}

// A Cache builds sessions and keeps them while their config, credential
// secret and region stay the same.
type Cache struct {
	kube    client.Client
	env     Environment
	budgets *budget.Budgets
	// tenant guards the connections of namespaced configs' endpoints.
	tenant tenantDialGuard
	// limits bound the connections and answers of every session's client.
	limits httpLimits
	// http is the HTTP client every session shares, and tenantHTTP the
	// one the sessions of namespaced configs' own endpoints share: a
	// session of its own per account would open connections of its own
	// to the same service endpoints (and redo their TLS handshakes), and
	// keep their buffers, for every account and service.
	http, tenantHTTP aws.HTTPClient
	// inflight caps each namespace's calls in flight to its own configs'
	// endpoints (inflight.go).
	inflight *inFlight

	// idleFor is how long a session no reconcile asked for is kept.
	idleFor time.Duration

	mu       sync.Mutex
	sessions map[sessionKey]*Session
	// bases are what the namespace sessions of one config version and
	// region share, keyed without a namespace.
	bases map[sessionKey]*configBase
	// broken are the keys whose last build failed for a reason that does
	// not heal by itself (see Destination), and when.
	broken map[sessionKey]time.Time
	// accounts are the accounts each config's sessions last acted in, by
	// region (Destination.Account).
	accounts map[accountKey]string
	// failed are the errors of the builds that failed in the last
	// failedFor.
	failed   map[sessionKey]failure
	building singleflight.Group

	loads, identityCalls, assumeRoleCalls, webIdentityCalls atomic.Int64
}

// An Option configures a Cache.
type Option func(*Cache)

// WithEnvironment replaces the process environment, for tests.
func WithEnvironment(e Environment) Option { return func(c *Cache) { c.env = e } }

// WithBudgets makes every client of every session take a token of its
// operation's budget before each call.
func WithBudgets(b *budget.Budgets) Option { return func(c *Cache) { c.budgets = b } }

// WithTenantEndpointNetworks lets namespaced configs' endpoints reach the
// given networks, which they may not by default when link-local, loopback or
// private (a local emulator, an in-cluster LocalStack).
func WithTenantEndpointNetworks(allowed []netip.Prefix) Option {
	return func(c *Cache) { c.tenant.allowed = allowed }
}

// WithIdleSessions sets how long a session that no reconcile asks for is
// kept before Prune drops it (DefaultIdleFor).
func WithIdleSessions(d time.Duration) Option { return func(c *Cache) { c.idleFor = d } }

// NewCache returns a Cache that reads configs and secrets with kube.
func NewCache(kube client.Client, o ...Option) *Cache {
	c := &Cache{kube: kube, env: processEnvironment{}, idleFor: DefaultIdleFor, inflight: newInFlight(), limits: defaultHTTPLimits, sessions: map[sessionKey]*Session{}, bases: map[sessionKey]*configBase{}, broken: map[sessionKey]time.Time{}, accounts: map[accountKey]string{}, failed: map[sessionKey]failure{}}
	for _, fn := range o {
		fn(c)
	}
	c.http, c.tenantHTTP = c.limits.client(c.limits.buildable()), c.tenant.httpClient(c.limits)
	return c
}

// Stats returns what the cache did so far.
func (c *Cache) Stats() Stats {
	return Stats{Loads: c.loads.Load(), IdentityCalls: c.identityCalls.Load(), AssumeRoleCalls: c.assumeRoleCalls.Load(), WebIdentityCalls: c.webIdentityCalls.Load()}
}

// Scope is the account as everything keyed by account knows it (budgets,
// the first-look schedule): the account ID for AWS's own endpoints, and the
// account ID at the endpoint for an override, so that an endpoint answering
// another account's ID shares nothing with that account on AWS, nor with
// other endpoints.
func (s *Session) Scope() string {
	if s.Endpoint == "" {
		return s.AccountID
	}
	return s.AccountID + " at " + s.Endpoint
}

// A Share is a namespace's weight in the AWS budgets and its cap
// (budget.Reservation's Weight and Cap).
type Share struct {
	Weight int
	Cap    float64
}

// Share is namespace's share of the AWS budgets: what the session's
// ClusterProviderConfig gives it, weight 1 and no cap when nothing. A
// namespaced ProviderConfig, which its tenant writes, gives no share.
func (s *Session) Share(namespace string) Share {
	sh := s.shares[namespace]
	sh.Weight = max(1, sh.Weight)
	return sh
}

// String names a session without anything secret, for logs.
func (s *Session) String() string {
	return fmt.Sprintf("account %s, partition %s, region %s", s.AccountID, s.Partition, s.Region)
}
