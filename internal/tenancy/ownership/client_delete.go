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

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
)

// Delete deletes the resource; once AWS answered it (accepted, or not
// found), a read that does not find the resource is believed.
func (c *Client[MR]) Delete(ctx context.Context, mg MR) (managed.ExternalDelete, error) {
	d, err := c.TypedExternalClient.Delete(ctx, mg)
	if err == nil {
		c.kind.deleteWasAnswered(mg.GetUID())
	}
	return d, err
}

// mayStillExist reports whether a resource this object is being deleted
// with, which a read did not find, may still exist for all that: the object
// holds its identity's claim for a resource it made, adopted or carried over,
// or for a create it made whose answer was lost, its external name addresses
// it, and no Delete of its own was answered since.
func (c *Client[MR]) mayStillExist(ctx context.Context, mg MR) bool {
	if !meta.WasDeleted(mg) || c.lastObserved().LetGo || meta.GetExternalName(mg) == "" || c.kind.Identity(mg) == "" || c.kind.deleteAnsweredFor(mg.GetUID()) {
		return false
	}
	cl, ok := c.kind.Claims.cachedClaim(ctx, c.identity(mg))
	if !ok || cl.Holder != mg.GetUID() {
		return false
	}
	switch cl.Purpose {
	case Created, Adopted, Carried:
		return true
	case ToCreate:
		return !meta.GetExternalCreatePending(mg).IsZero()
	case Refused, Denied, Retained:
	}
	return false
}

const msgMayShowYet = "this object's last create of %s %q may have made it, and its answer was lost; AWS does not show it yet, and the deletion looks for it again until %s after that create"

// mayShowYet reports whether an object being deleted that knows no ARN of
// its resource (a Subscription, whose create's answer carried it) may have
// made one that a look did not find: it holds its identity's claim for a
// create it made (create-pending) that ended less than ConsistencyWindow
// ago. Objects named by their spec have an external name, and mayStillExist
// makes their Delete instead.
func (c *Client[MR]) mayShowYet(ctx context.Context, mg MR) bool {
	if !meta.WasDeleted(mg) || c.lastObserved().LetGo || meta.GetExternalName(mg) != "" || c.kind.Identity(mg) == "" {
		return false
	}
	pending := meta.GetExternalCreatePending(mg)
	if pending.IsZero() {
		return false
	}
	cl, ok := c.kind.Claims.cachedClaim(ctx, c.identity(mg))
	if !ok || cl.Holder != mg.GetUID() || cl.Purpose != ToCreate {
		return false
	}
	ended := pending
	if failed := meta.GetExternalCreateFailed(mg); failed.After(ended) {
		ended = failed
	}
	// The records are the object's annotations, which its namespace may
	// write: one dated in the future holds the deletion for nothing.
	since := time.Since(ended)
	return since >= 0 && since < ConsistencyWindow
}
