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
	"cmp"
	"context"
	"fmt"
	"maps"
	"net/netip"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/arn"
	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/aws/smithy-go/middleware"
	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	"golang.org/x/sync/singleflight"
	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/aws/awserrors"
	"github.com/cloudkinds/provider-aws-services/internal/kube/secretkey"
	"github.com/cloudkinds/provider-aws-services/internal/metrics"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/budget"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/sendonce"
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

// sessionKey identifies everything a session depends on.
type sessionKey struct {
	kind, namespace, name string
	generation            int64
	secretVersion         string
	region                string
	// tenant is the namespace of the managed resources the session serves,
	// with namespace sessions; "" without, where one session serves all.
	tenant string
}

// A config is a ProviderConfig or ClusterProviderConfig, read.
type config struct {
	kind, namespace, name string
	generation            int64
	spec                  v1alpha1.ProviderConfigSpec
	// namespaceSessions is a ClusterProviderConfig's
	// spec.namespaceSessions.
	namespaceSessions *v1alpha1.NamespaceSessions
	// shares are a ClusterProviderConfig's spec.namespaceShares.
	shares map[string]Share
}

// sessionKey is the key of mg's session through the config in region; it
// names mg's namespace only with namespace sessions.
func (cfg *config) sessionKey(mg resource.ModernManaged, secretVersion, region string) sessionKey {
	k := sessionKey{kind: cfg.kind, namespace: cfg.namespace, name: cfg.name, generation: cfg.generation, secretVersion: secretVersion, region: region}
	if cfg.namespaceSessions != nil {
		k.tenant = mg.GetNamespace()
	}
	return k
}

// supersedes says whether the session of k replaces the one of old: a new
// version of a config (or of its secret) replaces the sessions of every
// namespace in every region, a session of the same version only its own.
func (k sessionKey) supersedes(old sessionKey) bool {
	if old.config() != k.config() {
		return false
	}
	if old.generation != k.generation || old.secretVersion != k.secretVersion {
		// Its config or Secrets changed: no reconcile asks for the
		// old version again, in any region.
		return true
	}
	return old.region == k.region && old.tenant == k.tenant
}

// Session returns the session of a managed resource; region is its
// spec.forProvider.region, which wins over the config's. A resource whose
// ClusterProviderConfig does not admit its namespace gets an error, not a
// session (see Admit).
func (c *Cache) Session(ctx context.Context, mg resource.ModernManaged, region *string) (*Session, error) {
	return c.session(ctx, mg, region, true)
}

// ErrBuilding is what SessionBuilt answers while the session is being built.
var ErrBuilding = errors.New("the AWS session of the provider config is being built")

// SessionBuilt returns the session of a managed resource if it is built; if
// not, it starts its build and returns ErrBuilding at once, so that a caller
// that must not wait (a worker other namespaces need, while a tenant's
// endpoint is slow or silent) comes back later. A build that failed a short
// while ago returns its error, as Session does, without building again.
func (c *Cache) SessionBuilt(ctx context.Context, mg resource.ModernManaged, region *string) (*Session, error) {
	return c.session(ctx, mg, region, false)
}

// failedFor is how long the error of a failed build is answered before the
// session is built again: a config that cannot be built (a silent endpoint,
// refused credentials) is not rebuilt by every reconcile of every object
// that uses it.
const failedFor = 10 * time.Second

// A failure is a build's error, and when the build ended.
type failure struct {
	err error
	at  time.Time
}

func (c *Cache) session(ctx context.Context, mg resource.ModernManaged, region *string, wait bool) (*Session, error) {
	cfg, err := c.config(ctx, mg)
	if err != nil {
		return nil, err
	}
	r := aws.ToString(region)
	if r == "" {
		r = aws.ToString(cfg.spec.Region)
	}
	if r == "" {
		return nil, errors.New(errNoRegion)
	}
	refs, version, err := c.credentialSecrets(ctx, cfg)
	if err != nil {
		return nil, err
	}
	k := cfg.sessionKey(mg, version, r)

	c.mu.Lock()
	s, ok := c.sessions[k]
	failed, hasFailed := c.failed[k]
	c.mu.Unlock()
	if ok {
		s.used.Store(time.Now().UnixNano())
		return s, nil
	}
	if hasFailed && time.Since(failed.at) < failedFor {
		return nil, failed.err
	}
	// Building a session may wait on STS for long; it happens outside the
	// lock, so that one slow config never stalls the others, and once per
	// key however many reconciles ask for it meanwhile. The build runs
	// under a context of its own: the first caller's cancellation must not
	// fail the others, and each caller waits only as long as its own
	// context allows.
	building := c.building.DoChan(k.String(), func() (any, error) {
		bctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), buildTimeout)
		defer cancel()
		s, err := c.buildFor(bctx, cfg, refs, k)
		c.mu.Lock()
		defer c.mu.Unlock()
		c.noteBroken(k, err)
		c.noteFailure(k, err)
		if err != nil {
			return nil, err
		}
		// A newer version of the config or its secret replaces the older
		// ones, and the namespace sessions' bases of older versions.
		for old := range c.sessions {
			if k.supersedes(old) {
				delete(c.sessions, old)
			}
		}
		for old := range c.bases {
			if k.supersedes(old) {
				delete(c.bases, old)
			}
		}
		s.used.Store(time.Now().UnixNano())
		c.sessions[k] = s
		c.accounts[accountKey{config: k.config(), region: k.region}] = s.AccountID
		return s, nil
	})
	if !wait {
		return nil, ErrBuilding
	}
	var v any
	select {
	case <-ctx.Done():
		return nil, errors.Wrap(ctx.Err(), errWaitSession)
	case res := <-building:
		if res.Err != nil {
			return nil, res.Err
		}
		v = res.Val
	}
	return v.(*Session), nil //nolint:forcetypeassert // only sessions are built
}

// A Destination is where a managed resource's calls go, as far as the
// cache knows without building anything or calling anyone.
type Destination struct {
	// Calls is false when the resource calls nowhere, so that AWS cannot
	// accept its creates: its config is missing or refuses it (a namespace
	// it does not admit, the pod's identity asked for by a namespaced
	// config), no region is set, a credential Secret is missing, or the
	// session's last build failed for a reason that does not heal by
	// itself (Broken).
	Calls bool
	// Endpoint and Region are the config's endpoint override ("" for
	// AWS's own) and the resource's region.
	Endpoint, Region string
	// ProviderConfig names the config, as Session.ProviderConfig does.
	ProviderConfig string
	// Account is the account the config's last session built in the
	// region acted in, while Session is nil because a newer version of
	// the config or its Secrets is not built yet; "" when none was built
	// since the provider started, or since it was pruned.
	Account string
	// Session is the session its reconciles built; nil while none did,
	// when the account it acts in is not known yet.
	Session *Session
}

// Destination tells where mg's calls go, for another object's question
// "does this one ask for the same resource where I would?". It reads the
// config and its Secrets from the cache, builds nothing and calls nothing.
func (c *Cache) Destination(ctx context.Context, mg resource.ModernManaged, region *string) Destination {
	cfg, err := c.config(ctx, mg)
	if err != nil {
		return Destination{}
	}
	r := cmp.Or(aws.ToString(region), aws.ToString(cfg.spec.Region))
	if r == "" {
		return Destination{}
	}
	_, version, err := c.credentialSecrets(ctx, cfg)
	if err != nil {
		return Destination{}
	}
	d := Destination{Calls: true, Region: r, ProviderConfig: cfg.String()}
	if e := cfg.spec.Endpoint; e != nil {
		d.Endpoint = e.URL
	}
	k := cfg.sessionKey(mg, version, r)
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, broken := c.broken[k]; broken {
		return Destination{}
	}
	d.Session = c.sessions[k]
	if d.Session == nil {
		d.Account = c.accounts[accountKey{config: k.config(), region: r}]
	}
	return d
}

// noteFailure records the error of the build of k, or forgets it when the
// build succeeded, and forgets the failures older than failedFor. The
// caller holds c.mu.
func (c *Cache) noteFailure(k sessionKey, err error) {
	now := time.Now()
	for old, f := range c.failed {
		if now.Sub(f.at) >= failedFor {
			delete(c.failed, old)
		}
	}
	if err != nil {
		c.failed[k] = failure{err: err, at: now}
		return
	}
	delete(c.failed, k)
}

// noteBroken records whether the last build of k failed for good (Broken).
// A newer version of the config, or of its Secrets, forgets the older
// versions' failures. The caller holds c.mu.
func (c *Cache) noteBroken(k sessionKey, err error) {
	for old := range c.broken {
		if k.supersedes(old) {
			delete(c.broken, old)
		}
	}
	if Broken(err) {
		c.broken[k] = time.Now()
	}
}

// Broken reports whether a session's build failed for a reason that does not
// heal by itself: anything but a throttled call or a server error
// (awserrors.Transient). A Secret or key missing, a source that cannot be
// used, credentials AWS refused, an endpoint that refuses connections, is
// unreachable, silent or answers what no AWS service would: until someone
// changes the config or its Secrets, no create through it can succeed, and
// its objects hold no names (a name is held only while AWS may still accept
// its create).
func Broken(err error) bool {
	return err != nil && !awserrors.Transient(err)
}

// DefaultIdleFor is how long a session no reconcile asked for is kept: well
// beyond the poll interval of the objects that use it, so that only the
// sessions of configs, regions and namespaces nothing uses any more go. One
// dropped too early costs a build (one identity call) when it is needed
// again.
const DefaultIdleFor = 15 * time.Minute

// pruneEvery is how often Start prunes.
const pruneEvery = time.Minute

// Prune drops what the cache keeps for configs that are gone, and the
// sessions no reconcile asked for in idleFor (another region, a namespace
// whose objects went), with the builds' failures of their configs; and the
// budgets of accounts and regions nothing called in that time. Whatever a
// tenant makes the cache keep goes once it is no longer used.
func (c *Cache) Prune(ctx context.Context) {
	now := time.Now()
	exists := c.configsExisting(ctx)
	c.mu.Lock()
	idle := now.Add(-c.idleFor).UnixNano()
	inUse, inRegion := map[sessionKey]bool{}, map[accountKey]bool{}
	for k, s := range c.sessions {
		if !exists[k.config()] || s.used.Load() < idle {
			delete(c.sessions, k)
			continue
		}
		base := k
		base.tenant = ""
		inUse[base] = true
		inRegion[accountKey{config: k.config(), region: k.region}] = true
	}
	maps.DeleteFunc(c.bases, func(k sessionKey, _ *configBase) bool { return !inUse[k] })
	maps.DeleteFunc(c.broken, func(k sessionKey, at time.Time) bool { return !exists[k.config()] || at.UnixNano() < idle })
	maps.DeleteFunc(c.accounts, func(k accountKey, _ string) bool { return !exists[k.config] || !inRegion[k] })
	maps.DeleteFunc(c.failed, func(k sessionKey, f failure) bool { return !exists[k.config()] || now.Sub(f.at) >= failedFor })
	c.mu.Unlock()
	if c.budgets != nil {
		c.budgets.Prune(c.idleFor)
	}
}

// configsExisting tells, of every config the cache keeps something of,
// whether it still exists.
func (c *Cache) configsExisting(ctx context.Context) map[configKey]bool {
	c.mu.Lock()
	configs := map[configKey]bool{}
	for k := range c.sessions {
		configs[k.config()] = true
	}
	for k := range c.bases {
		configs[k.config()] = true
	}
	for k := range c.broken {
		configs[k.config()] = true
	}
	for k := range c.failed {
		configs[k.config()] = true
	}
	c.mu.Unlock()
	for ck := range configs {
		configs[ck] = c.exists(ctx, ck)
	}
	return configs
}

// Start prunes the cache every minute until ctx ends: a manager's Runnable,
// on every replica, since each keeps sessions of its own.
func (c *Cache) Start(ctx context.Context) error {
	t := time.NewTicker(pruneEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
			c.Prune(ctx)
		}
	}
}

// NeedLeaderElection says every replica prunes its own cache.
func (c *Cache) NeedLeaderElection() bool { return false }

// A configKey names a config.
type configKey struct{ kind, namespace, name string }

// An accountKey is a config in a region.
type accountKey struct {
	config configKey
	region string
}

func (k sessionKey) config() configKey {
	return configKey{kind: k.kind, namespace: k.namespace, name: k.name}
}

// exists reports whether the config of k exists; one that cannot be read
// for another reason is kept.
func (c *Cache) exists(ctx context.Context, k configKey) bool {
	var o client.Object = &v1alpha1.ClusterProviderConfig{}
	if k.kind == v1alpha1.ProviderConfigKind {
		o = &v1alpha1.ProviderConfig{}
	}
	return !kerrors.IsNotFound(c.kube.Get(ctx, types.NamespacedName{Namespace: k.namespace, Name: k.name}, o))
}

// String is the key's name for singleflight.
func (k sessionKey) String() string {
	return fmt.Sprintf("%s/%s/%s/%d/%s/%s/%s", k.kind, k.namespace, k.name, k.generation, k.secretVersion, k.region, k.tenant)
}

func (c *Cache) config(ctx context.Context, mg resource.ModernManaged) (*config, error) {
	ref := mg.GetProviderConfigReference()
	if ref == nil || ref.Name == "" {
		return nil, errors.New(errNoConfigRef)
	}
	switch ref.Kind {
	case v1alpha1.ProviderConfigKind:
		pc := &v1alpha1.ProviderConfig{}
		if err := c.kube.Get(ctx, types.NamespacedName{Namespace: mg.GetNamespace(), Name: ref.Name}, pc); err != nil {
			return nil, errors.Wrapf(err, errGetConfig, ref.Kind, mg.GetNamespace()+"/"+ref.Name)
		}
		// Refused before anything of the config is read or called.
		if err := namespacedCredentials(pc.Namespace, pc.Name, pc.Spec.Credentials); err != nil {
			return nil, err
		}
		return &config{kind: ref.Kind, namespace: pc.Namespace, name: pc.Name, generation: pc.Generation, spec: pc.Spec}, nil
	case v1alpha1.ClusterProviderConfigKind, "":
		pc := &v1alpha1.ClusterProviderConfig{}
		if err := c.kube.Get(ctx, types.NamespacedName{Name: ref.Name}, pc); err != nil {
			return nil, errors.Wrapf(err, errGetConfig, v1alpha1.ClusterProviderConfigKind, ref.Name)
		}
		// A namespace the config does not admit learns nothing of it but
		// its name, and AWS is never called for it.
		if err := c.admit(ctx, pc.Name, pc.Spec.Namespaces, mg.GetNamespace()); err != nil {
			return nil, err
		}
		cfg := &config{kind: v1alpha1.ClusterProviderConfigKind, name: pc.Name, generation: pc.Generation, spec: pc.Spec.ProviderConfigSpec, namespaceSessions: pc.Spec.NamespaceSessions}
		if len(pc.Spec.NamespaceShares) > 0 {
			cfg.shares = make(map[string]Share, len(pc.Spec.NamespaceShares))
			for _, sh := range pc.Spec.NamespaceShares {
				cfg.shares[sh.Namespace] = Share{Weight: int(aws.ToInt32(sh.Weight)), Cap: float64(aws.ToInt32(sh.MaxPercent)) / 100}
			}
		}
		return cfg, nil
	default:
		return nil, errors.Errorf(errConfigKind, ref.Kind)
	}
}

// String names the config: "ProviderConfig namespace/name" or
// "ClusterProviderConfig name".
func (cfg *config) String() string {
	if cfg.namespace == "" {
		return cfg.kind + " " + cfg.name
	}
	return cfg.kind + " " + cfg.namespace + "/" + cfg.name
}

// A secretRef is a Secret key a config's credentials read, and the config
// field that names it.
type secretRef struct{ field, namespace, name, key string }

// credentialSecrets returns the Secret keys the config's credentials read,
// and a version string that changes when any of their Secrets changes. The
// versions come from the metadata cache: no Secret value is read here.
func (c *Cache) credentialSecrets(ctx context.Context, cfg *config) ([]secretRef, string, error) {
	creds := cfg.spec.Credentials
	var refs []secretRef
	if creds.Source == v1alpha1.CredentialsSourceSecret && creds.SecretRef != nil {
		refs = append(refs, secretRef{"spec.credentials.secretRef", creds.SecretRef.Namespace, creds.SecretRef.Name, creds.SecretRef.Key})
	}
	if creds.Source == v1alpha1.CredentialsSourceWebIdentity && creds.WebIdentity != nil && creds.WebIdentity.TokenSecretRef != nil {
		r := creds.WebIdentity.TokenSecretRef
		refs = append(refs, secretRef{"spec.credentials.webIdentity.tokenSecretRef", r.Namespace, r.Name, r.Key})
	}
	versions := make([]string, 0, len(refs))
	for i, r := range refs {
		if cfg.namespace != "" {
			// A namespaced config reads only from its own namespace,
			// whatever its reference says.
			refs[i].namespace, r.namespace = cfg.namespace, cfg.namespace
		}
		if r.namespace == "" {
			return nil, "", errors.Errorf(errClusterSecret, r.field+".namespace")
		}
		v, err := secretkey.Version(ctx, c.kube, r.namespace, r.name)
		if err != nil {
			return nil, "", errors.Wrapf(err, errGetSecret, r.namespace, r.name, r.field)
		}
		versions = append(versions, r.field+"="+v)
	}
	return refs, strings.Join(versions, ","), nil
}

// readSecrets reads the values of refs from the API server, by field.
func (c *Cache) readSecrets(ctx context.Context, refs []secretRef) (map[string][]byte, error) {
	values := map[string][]byte{}
	for _, r := range refs {
		s := &corev1.Secret{}
		if err := c.kube.Get(ctx, types.NamespacedName{Namespace: r.namespace, Name: r.name}, s); err != nil {
			return nil, errors.Wrapf(err, errGetSecret, r.namespace, r.name, r.field)
		}
		v, ok := s.Data[r.key]
		if !ok {
			return nil, errors.Errorf(errSecretKey, r.namespace, r.name, r.key, r.field)
		}
		values[r.field] = v
	}
	return values, nil
}

// buildFor builds the session of key k: a session of its own, or with
// namespace sessions one on the base its config's namespaces share.
func (c *Cache) buildFor(ctx context.Context, cfg *config, refs []secretRef, k sessionKey) (*Session, error) {
	if cfg.namespaceSessions != nil {
		return c.buildNamespaced(ctx, cfg, refs, k)
	}
	secrets, err := c.readSecrets(ctx, refs)
	if err != nil {
		return nil, err
	}
	return c.build(ctx, cfg, secrets, k.region)
}

// build sets up the credentials of a session and resolves its identity.
func (c *Cache) build(ctx context.Context, cfg *config, secrets map[string][]byte, region string) (*Session, error) {
	c.loads.Add(1)
	base, err := c.chain(ctx, cfg, secrets, region, cfg.spec.AssumeRoleChain)
	if err != nil {
		return nil, err
	}
	id, err := c.identify(ctx, base)
	if err != nil {
		return nil, err
	}
	return c.newSession(cfg, base, region, id), nil
}

// retryer is the SDK's retryer of every session: it sends a call again only
// when AWS throttled it, once, at the adaptive mode's client-side rate. Any
// other failure ends the call, and its reconcile is tried again with the
// controller's backoff (managedoptions.Backoff): one level of retrying, so
// that an error that persists costs an object one call per reconcile, at a
// falling rate, rather than the SDK's three at each.
func retryer() aws.Retryer {
	return retry.NewAdaptiveMode(func(o *retry.AdaptiveModeOptions) {
		o.StandardOptions = append(o.StandardOptions, func(so *retry.StandardOptions) {
			so.MaxAttempts = 2
			so.Retryables = []retry.IsErrorRetryable{
				retry.NoRetryCanceledError{},
				retry.IsErrorRetryableFunc(func(err error) aws.Ternary {
					// An error that says it must not be sent again (a
					// create whose outcome is unknown, sendonce; a body
					// over its limit) is not, throttled or not.
					var says interface{ RetryableError() bool }
					if errors.As(err, &says) && !says.RetryableError() {
						return aws.FalseTernary
					}
					return aws.BoolTernary(awserrors.IsThrottled(err))
				}),
			}
		})
	})
}

// chain returns the SDK configuration of cfg in region whose credentials are
// the source's with roles assumed on top, in order.
func (c *Cache) chain(ctx context.Context, cfg *config, secrets map[string][]byte, region string, roles []v1alpha1.AssumeRoleOptions) (aws.Config, error) {
	base := aws.Config{
		Region:     region,
		HTTPClient: c.http,
		Retryer:    retryer,
		// A create is sent again only when AWS certainly did nothing
		// with it (sendonce).
		APIOptions: []func(*middleware.Stack) error{metrics.CountCalls, sendonce.Middleware},
	}
	if e := cfg.spec.Endpoint; e != nil {
		base.BaseEndpoint = aws.String(e.URL)
		if cfg.namespace != "" {
			base.HTTPClient = c.inflight.client(c.tenantHTTP, cfg.namespace)
		}
	}
	creds, err := c.credentials(ctx, cfg, base, secrets)
	if err != nil {
		return aws.Config{}, errors.Wrapf(err, errCredentials, cfg.spec.Credentials.Source)
	}
	base.Credentials = creds
	for _, role := range roles {
		base.Credentials = assumeRole(c.stsClient(base), role)
	}
	return base, nil
}

// An identity is the account and partition that credentials act in.
type identity struct{ account, partition string }

// identify asks STS whose credentials base has.
func (c *Cache) identify(ctx context.Context, base aws.Config) (identity, error) {
	id, err := c.stsClient(base).GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{})
	if err != nil {
		return identity{}, errors.Wrap(err, errIdentity)
	}
	partition := "aws"
	if a, err := arn.Parse(aws.ToString(id.Arn)); err == nil {
		partition = a.Partition
	}
	return identity{account: aws.ToString(id.Account), partition: partition}, nil
}

// newSession is the session of cfg in region with the configuration base,
// acting in the account of id.
func (c *Cache) newSession(cfg *config, base aws.Config, region string, id identity) *Session {
	s := &Session{Config: base, AccountID: id.account, Partition: id.partition, Region: region, DefaultTags: maps.Clone(cfg.spec.DefaultTags), shares: cfg.shares, ProviderConfig: cfg.String()}
	if e := cfg.spec.Endpoint; e != nil {
		s.Endpoint = e.URL
	}
	if c.budgets != nil {
		// The budgets are the account's, at its endpoint: known only now.
		s.Config.APIOptions = append(slices.Clone(base.APIOptions), c.budgets.Middleware(s.Scope()))
	}
	return s
}

// stsClient returns an STS client of cfg whose calls count in Stats and in
// metrics.STSCalls.
func (c *Cache) stsClient(cfg aws.Config) *sts.Client {
	return sts.NewFromConfig(cfg, func(o *sts.Options) {
		o.APIOptions = append(slices.Clone(o.APIOptions), c.countSTS)
		if cfg.BaseEndpoint == nil {
			// AWS's own STS: its calls change nothing and are sent again
			// safely, so that a session is not left unbuilt for a
			// moment's server error or reset connection (a build that
			// fails is remembered for a while, and every object of the
			// config waits on it). An endpoint a config names, a
			// tenant's among them, is not asked again: what it costs
			// stays bounded by its answers.
			o.Retryer = retry.NewStandard()
		}
	})
}

// countSTS counts every attempt of an STS call, as metrics.CountCalls counts
// all calls.
func (c *Cache) countSTS(stack *middleware.Stack) error {
	return stack.Finalize.Add(middleware.FinalizeMiddlewareFunc("CountSTSCalls",
		func(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
			op := awsmiddleware.GetOperationName(ctx)
			switch op {
			case "GetCallerIdentity":
				c.identityCalls.Add(1)
			case "AssumeRole":
				c.assumeRoleCalls.Add(1)
			case "AssumeRoleWithWebIdentity":
				c.webIdentityCalls.Add(1)
			}
			metrics.STSCalls.WithLabelValues(op).Inc()
			return next.HandleFinalize(ctx, in)
		}), middleware.After)
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
