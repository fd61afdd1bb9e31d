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

package ownership

import (
	"context"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// askedFirst returns the oldest object of the cluster, older than mg, that asks to create
// the same identity where mg would and is neither refused, being deleted
// nor paused: it creates, and mg waits. The order is the API server's creation stamps (no
// tenant sets them), read from the cache's index, with no call to the API
// server; the claim stays what decides ownership. Where another object
// calls comes from its config and the session its config's reconciles
// built (PlaceOf), never from its status, which its namespace may write: an
// object whose config is missing or refuses it holds no name.
func (c *Client[MR]) askedFirst(ctx context.Context, mg MR) (*Owner, error) {
	others, err := c.othersAskingFor(ctx, mg)
	if err != nil {
		return nil, err
	}
	var oldest MR
	found := false
	for _, other := range others {
		// A refusal in the other's status is trusted, although its
		// namespace may write it: it gives up that object's own turn only.
		if meta.WasDeleted(other) || meta.IsPaused(other) || other.GetCondition(xpv2.TypeReady).Reason == ReasonNotOwned || !olderThan(other, mg) || !c.asksHere(ctx, other) || c.denied(ctx, other) {
			continue
		}
		if !found || olderThan(other, oldest) {
			oldest, found = other, true
		}
	}
	if !found {
		return nil, nil
	}
	first := OwnerFor(c.kind.GroupKind, oldest)
	return &first, nil
}

// othersAskingFor returns the other objects of the cluster that may create
// mg's identity, from the cache's index: no call to the API server.
func (c *Client[MR]) othersAskingFor(ctx context.Context, mg MR) ([]MR, error) {
	id := c.kind.Identity(mg)
	if id == "" || c.kind.Asking == nil {
		return nil, nil
	}
	items, err := c.kind.Asking(ctx, id)
	if err != nil {
		return nil, errors.Wrap(err, errOwner)
	}
	others := make([]MR, 0, len(items))
	for _, it := range items {
		if other, ok := it.(MR); ok && other.GetUID() != mg.GetUID() && MayCreate(other, c.kind.PoliciesHonoured) {
			others = append(others, other)
		}
	}
	return others, nil
}

// denied reports whether AWS refused other's create for good, as its claim,
// which only the provider writes, records (Denied): it asks for nothing until
// its next create takes the claim again.
func (c *Client[MR]) denied(ctx context.Context, other MR) bool {
	cl, ok := c.kind.Claims.cachedClaim(ctx, c.identity(other))
	return ok && cl.Holder == other.GetUID() && cl.Purpose == Denied
}

// olderThan orders objects by creation, then by namespace and name, so that
// two objects agree on which came first.
func olderThan(a, b metav1.Object) bool {
	ta, tb := a.GetCreationTimestamp().Time, b.GetCreationTimestamp().Time
	if !ta.Equal(tb) {
		return ta.Before(tb)
	}
	return a.GetNamespace()+"/"+a.GetName() < b.GetNamespace()+"/"+b.GetName()
}

// asksHere reports whether other's calls go, or may go, where this
// client's do, so that it asks for the same resource. An object whose
// account is not known yet (a provider restarted, its reconcile not come
// yet) is taken to call this client's account only when it calls through
// this client's own config, endpoint and region: the asker waits for it to
// find out rather than take what may be its resource. Through another
// config, which its namespace may write and keep from ever being built (a
// Secret changed every second, credentials throttled on purpose), an
// account not known is no account: it asks for nothing until its session
// shows where it calls. An object whose config calls nowhere asks for
// nothing either.
func (c *Client[MR]) asksHere(ctx context.Context, other MR) bool {
	if c.kind.PlaceOf == nil {
		return false
	}
	at, ok := c.kind.PlaceOf(ctx, other)
	if !ok {
		return false
	}
	if at.Account == "" {
		// Its config's session has reached no AWS since the provider
		// started. Through the asker's own config it calls the asker's
		// account. Through another, it may: while it is new it is taken
		// to ask here, so that after a restart the order in Kubernetes,
		// not which config reaches AWS first, decides. After that it asks
		// for nothing, so that a config its namespace keeps from ever
		// being built holds no name for long.
		if (at.Config == "" || at.Config != c.at.Config) && time.Since(other.GetCreationTimestamp().Time) >= UnplacedWait {
			return false
		}
		at.Account = c.at.Account
	}
	return c.kind.identityIn(other, at) == c.identity(other)
}

// UnplacedWait is how long after its creation an object whose config has not
// reached AWS yet, through a config other than the asker's, is waited for.
const UnplacedWait = time.Minute
