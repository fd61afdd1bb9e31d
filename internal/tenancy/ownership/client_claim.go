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
)

// claim claims mg's identity for purpose; it returns the object that holds
// it when that is another.
func (c *Client[MR]) claim(ctx context.Context, mg MR, purpose Purpose) (*Owner, error) {
	if c.kind.Identity(mg) == "" {
		return nil, nil
	}
	self := OwnerFor(c.kind.GroupKind, mg)
	cl, err := c.kind.Claims.Take(ctx, c.identity(mg), self, mg.GetUID(), purpose)
	if err != nil {
		return nil, err
	}
	if cl.Holder != mg.GetUID() {
		return &cl.Owner, nil
	}
	c.claimed, c.held = true, cl
	c.earlierCreate = !cl.taken && cl.Purpose == ToCreate
	if cl.Purpose != purpose && (cl.Purpose == ToCreate || cl.Purpose == Refused || cl.Purpose == Denied || cl.Purpose == Created) {
		// Held for a create that did not make what exists, after a
		// create AWS refused, or for a resource that is gone: for the
		// create that follows now.
		return nil, c.kind.Claims.Repurpose(ctx, c.identity(mg), mg.GetUID(), purpose, cl)
	}
	return nil, nil
}

// confirm records in the claim that the object's create made its resource.
func (c *Client[MR]) confirm(ctx context.Context, mg MR) error {
	if c.kind.Identity(mg) == "" {
		return nil
	}
	return c.kind.Claims.Repurpose(ctx, c.identity(mg), mg.GetUID(), Created, c.held)
}

// confirmed confirms the create the decision found the work of.
func (c *Client[MR]) confirmed(ctx context.Context, mg MR, d Decision) error {
	if !d.Confirm {
		return nil
	}
	return c.confirm(ctx, mg)
}

// takeFor takes the claim for purpose; the decision becomes Owned, or
// NotOwned when another object took it first.
func (c *Client[MR]) takeFor(ctx context.Context, mg MR, purpose Purpose, d Decision) (Decision, error) {
	held, err := c.claim(ctx, mg, purpose)
	if err != nil {
		return d, err
	}
	if held != nil {
		return Decision{Verdict: NotOwned, HeldBy: held}, nil
	}
	d.Verdict = Owned
	return d, nil
}

func (c *Client[MR]) identity(mg MR) Identity {
	return c.kind.identityIn(mg, c.at)
}

// identityIn is mg's identity when its calls go to at.
func (k *Owners[MR]) identityIn(mg MR, at Place) Identity {
	id := Identity{Endpoint: at.Endpoint, Account: at.Account, Region: at.Region, Kind: k.GroupKind, Fields: k.Identity(mg)}
	if k.Where != nil {
		if a, r := k.Where(mg); a != "" && r != "" {
			id.Account, id.Region = a, r
		}
	}
	return id
}

// HoldsCreateClaim reports whether mg holds the claim of its identity, at
// at, for a create AWS did not refuse: whether its Observe may take a
// resource AWS hides (a subscription waiting for confirmation) for the work
// of its own create. It reads the claim; a kind's client asks it only when
// that is the question (reconciler.Connection.HoldsClaim).
func (k *Owners[MR]) HoldsCreateClaim(ctx context.Context, mg MR, at Place) bool {
	if k.Identity(mg) == "" {
		return false
	}
	cl, err := k.Claims.Get(ctx, k.identityIn(mg, at), mg.GetUID())
	return err == nil && cl != nil && cl.Holder == mg.GetUID() && (cl.Purpose == ToCreate || cl.Purpose == Created)
}
