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
	"cmp"
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
)

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
