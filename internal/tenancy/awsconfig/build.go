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
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/arn"
	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/aws/smithy-go/middleware"
	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/aws/awserrors"
	"github.com/cloudkinds/provider-aws-services/internal/metrics"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/sendonce"
)

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
