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
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials/stscreds"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	ststypes "github.com/aws/aws-sdk-go-v2/service/sts/types"
	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
)

// Namespace sessions (a ClusterProviderConfig's spec.namespaceSessions) give
// every namespace a session of its own, so that an IAM policy tells one
// namespace's calls from another's: the last role each session assumes
// carries the session tag crossplane-namespace=<namespace> and the role
// session name crossplane-ns-<namespace>. Everything before that role (the
// credential source, the shared roles of the chain) is built once per config
// version and region and shared, as is the account the sessions act in, so
// a namespace costs one AssumeRole per region and hour, and nothing more.
// The budgets are the account's (Session.Scope), shared by its namespaces.

// NamespaceTagKey is the session tag that names the namespace a namespace
// session serves. It is also the owner tag (crossplane-runtime's external tag)
// that names the namespace of the resources the provider tags, so a policy
// compares aws:ResourceTag/crossplane-namespace with
// ${aws:PrincipalTag/crossplane-namespace}.
const NamespaceTagKey = resource.ExternalResourceTagKeyNamespace

const (
	// namespaceSessionPrefix begins the role session name of a namespace
	// session.
	namespaceSessionPrefix = "crossplane-ns-"
	// maxSessionName is AWS's limit on RoleSessionName.
	maxSessionName = 64
	// namespaceSessionHash is how many hex digits of the namespace's
	// SHA-256 end a session name shortened to maxSessionName.
	namespaceSessionHash = 16

	// namespaceSessionDuration is how long a namespace's credentials live:
	// an hour, the most AWS allows a role assumed by role chaining (which
	// every chain of more than one role, and IRSA or web identity under
	// it, is) and the least MaxSessionDuration a role may have, so every
	// role accepts it. Longer than the SDK's default of 15 minutes, it
	// makes a namespace's AssumeRole four times rarer.
	namespaceSessionDuration = time.Hour
	// namespaceSessionRefresh renews a namespace's credentials that long
	// before they expire, so that no call is signed with credentials that
	// expire on their way.
	namespaceSessionRefresh = time.Minute
)

const (
	errNoNamespaceRole = "spec.namespaceSessions of ClusterProviderConfig %q names no role to assume per namespace: set spec.namespaceSessions.roleARN or spec.assumeRoleChain"
	errNoNamespace     = "spec.namespaceSessions of ClusterProviderConfig %q serves managed resources of a namespace only"
	errNamespaceRole   = "cannot assume %s for namespace %q (spec.namespaceSessions): the role's trust policy must allow sts:AssumeRole and sts:TagSession"
)

// NamespaceSessionName returns the role session name of namespace ns's
// sessions: crossplane-ns-<ns>, or, when that is longer than AWS's 64
// characters, its first 47 characters, a dash and 16 hex digits of the
// SHA-256 of ns. Namespace names ([a-z0-9-]) fit AWS's pattern [\w+=,.@-]*.
func NamespaceSessionName(ns string) string {
	name := namespaceSessionPrefix + ns
	if len(name) <= maxSessionName {
		return name
	}
	sum := sha256.Sum256([]byte(ns))
	return name[:maxSessionName-1-namespaceSessionHash] + "-" + hex.EncodeToString(sum[:])[:namespaceSessionHash]
}

// A configBase is what the namespace sessions of one config version and
// region share: the SDK configuration whose credentials are the source's
// with the shared roles assumed, the role each namespace assumes on top, and
// the account that role acts in, asked of STS once.
type configBase struct {
	config aws.Config
	role   v1alpha1.AssumeRoleOptions

	mu sync.Mutex
	id *identity
}

// buildNamespaced builds the session of key k's namespace on its config's
// base: one AssumeRole, made now so that a role that refuses the namespace
// fails the session rather than each of its calls.
func (c *Cache) buildNamespaced(ctx context.Context, cfg *config, refs []secretRef, k sessionKey) (*Session, error) {
	if k.tenant == "" {
		return nil, errors.Errorf(errNoNamespace, cfg.name)
	}
	b, err := c.base(ctx, cfg, refs, k)
	if err != nil {
		return nil, err
	}
	c.loads.Add(1)
	sc := b.config
	sc.Credentials = namespaceRole(c.stsClient(b.config), b.role, k.tenant)
	if _, err := sc.Credentials.Retrieve(ctx); err != nil {
		return nil, errors.Wrapf(err, errNamespaceRole, b.role.RoleARN, k.tenant)
	}
	id, err := b.identity(ctx, c, sc)
	if err != nil {
		return nil, err
	}
	return c.newSession(cfg, sc, k.region, id), nil
}

// base returns the base of k's config version and region, building it once.
func (c *Cache) base(ctx context.Context, cfg *config, refs []secretRef, k sessionKey) (*configBase, error) {
	bk := k
	bk.tenant = ""
	c.mu.Lock()
	b, ok := c.bases[bk]
	c.mu.Unlock()
	if ok {
		return b, nil
	}
	v, err, _ := c.building.Do("base "+bk.String(), func() (any, error) {
		chain := cfg.spec.AssumeRoleChain
		var role v1alpha1.AssumeRoleOptions
		switch ns := cfg.namespaceSessions; {
		case ns.RoleARN != nil:
			role = v1alpha1.AssumeRoleOptions{RoleARN: *ns.RoleARN, ExternalID: ns.ExternalID}
		case len(chain) > 0:
			role, chain = chain[len(chain)-1], chain[:len(chain)-1]
		default:
			return nil, errors.Errorf(errNoNamespaceRole, cfg.name)
		}
		secrets, err := c.readSecrets(ctx, refs)
		if err != nil {
			return nil, err
		}
		base, err := c.chain(ctx, cfg, secrets, bk.region, chain)
		if err != nil {
			return nil, err
		}
		b := &configBase{config: base, role: role}
		c.mu.Lock()
		defer c.mu.Unlock()
		for old := range c.bases {
			if bk.supersedes(old) {
				delete(c.bases, old)
			}
		}
		c.bases[bk] = b
		return b, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*configBase), nil //nolint:forcetypeassert // only bases are built under this key
}

// identity returns the account the namespaces' role acts in, asking STS with
// the credentials of the first namespace that gets there: every namespace
// assumes the same role, so the account is the same.
func (b *configBase) identity(ctx context.Context, c *Cache, namespaced aws.Config) (identity, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.id != nil {
		return *b.id, nil
	}
	id, err := c.identify(ctx, namespaced)
	if err != nil {
		return identity{}, err
	}
	b.id = &id
	return id, nil
}

// namespaceRole assumes role for namespace with client, an STS client of the
// base's credentials: for an hour, renewed a minute before it ends.
func namespaceRole(client *sts.Client, role v1alpha1.AssumeRoleOptions, namespace string) aws.CredentialsProvider {
	return aws.NewCredentialsCache(stscreds.NewAssumeRoleProvider(client, role.RoleARN, func(o *stscreds.AssumeRoleOptions) {
		o.RoleSessionName = NamespaceSessionName(namespace)
		o.ExternalID = role.ExternalID
		o.Duration = namespaceSessionDuration
		o.Tags = namespaceTags(role.Tags, namespace)
		// The last role: nothing chains after it, so crossplane-namespace
		// need not be transitive.
		o.TransitiveTagKeys = role.TransitiveTagKeys
	}), func(o *aws.CredentialsCacheOptions) { o.ExpiryWindow = namespaceSessionRefresh })
}

// namespaceTags are the session tags of namespace's role: the role's own and
// crossplane-namespace=namespace. A key AWS would take for
// crossplane-namespace (tag keys are case-insensitive in STS) is dropped:
// admission refuses keys beginning with crossplane-, but a config written
// before the rule may hold one, and the namespace's own value must win.
func namespaceTags(own []v1alpha1.Tag, namespace string) []ststypes.Tag {
	tags := make([]ststypes.Tag, 0, len(own)+1)
	for _, t := range own {
		if strings.EqualFold(t.Key, NamespaceTagKey) {
			continue
		}
		tags = append(tags, ststypes.Tag{Key: aws.String(t.Key), Value: aws.String(t.Value)})
	}
	return append(tags, ststypes.Tag{Key: aws.String(NamespaceTagKey), Value: aws.String(namespace)})
}
