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
	"time"

	kerrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
)

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

// exists reports whether the config of k exists; one that cannot be read
// for another reason is kept.
func (c *Cache) exists(ctx context.Context, k configKey) bool {
	var o client.Object = &v1alpha1.ClusterProviderConfig{}
	if k.kind == v1alpha1.ProviderConfigKind {
		o = &v1alpha1.ProviderConfig{}
	}
	return !kerrors.IsNotFound(c.kube.Get(ctx, types.NamespacedName{Namespace: k.namespace, Name: k.name}, o))
}
