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
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	"github.com/cloudkinds/provider-aws-services/internal/aws/awserrors"
)

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
