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
	"k8s.io/apimachinery/pkg/types"
)

// ConsistencyWindow is how long a read may not find what an object made
// before it is taken as gone and created again: AWS's reads can answer
// not-found for a moment after a write, and a create made meanwhile would
// make a second resource, or be refused as another's.
var ConsistencyWindow = time.Minute

const msgNotShown = "AWS does not show %s %q (%s), which this object made, since %s; it is looked at again, and created again only if AWS still does not show it after %s"

// notShownYet returns an error while a read has not found what the object
// made (it holds its identity's claim for it, and its external name
// addresses it) for less than ConsistencyWindow, so that it is not created
// again; nil once found, or after the window.
func (c *Client[MR]) notShownYet(ctx context.Context, mg MR, found bool) error {
	uid := mg.GetUID()
	if found || meta.WasDeleted(mg) || meta.GetExternalName(mg) == "" || c.kind.Identity(mg) == "" {
		c.kind.shown(uid)
		return nil
	}
	cl, ok := c.kind.Claims.cachedClaim(ctx, c.identity(mg))
	if !ok || cl.Holder != uid || (cl.Purpose != Created && cl.Purpose != Adopted && cl.Purpose != Carried) {
		c.kind.shown(uid)
		return nil
	}
	since := c.kind.notShownSince(uid)
	if time.Since(since) >= ConsistencyWindow {
		c.kind.shown(uid)
		return nil
	}
	w := c.kind.Terms
	return errors.Errorf(msgNotShown, w.Noun, c.kind.Identity(mg), w.Field, since.UTC().Format(time.RFC3339), ConsistencyWindow)
}

// notShownSince returns since when reads do not find uid's resource,
// remembering now if this is the first, and forgets the objects not heard
// of for several windows.
func (k *Owners[MR]) notShownSince(uid types.UID) time.Time {
	k.readsMu.Lock()
	defer k.readsMu.Unlock()
	now := time.Now()
	if k.notShown == nil {
		k.notShown = map[types.UID]time.Time{}
	}
	for u, at := range k.notShown {
		if now.Sub(at) > 10*ConsistencyWindow {
			delete(k.notShown, u)
		}
	}
	if at, ok := k.notShown[uid]; ok {
		return at
	}
	k.notShown[uid] = now
	return now
}

// shown forgets that reads did not find uid's resource.
func (k *Owners[MR]) shown(uid types.UID) {
	k.readsMu.Lock()
	defer k.readsMu.Unlock()
	delete(k.notShown, uid)
}

// goneAfterDelete is how long an answered Delete is remembered: the reads
// of a deletion that follow come within seconds.
const goneAfterDelete = 10 * time.Minute

// deleteWasAnswered remembers that AWS answered uid's Delete, and forgets
// the answers older than goneAfterDelete.
func (k *Owners[MR]) deleteWasAnswered(uid types.UID) {
	k.readsMu.Lock()
	defer k.readsMu.Unlock()
	now := time.Now()
	if k.deleteAnswered == nil {
		k.deleteAnswered = map[types.UID]time.Time{}
	}
	for u, at := range k.deleteAnswered {
		if now.Sub(at) > goneAfterDelete {
			delete(k.deleteAnswered, u)
		}
	}
	k.deleteAnswered[uid] = now
}

// deleteAnsweredFor reports whether AWS answered uid's Delete lately.
func (k *Owners[MR]) deleteAnsweredFor(uid types.UID) bool {
	k.readsMu.Lock()
	defer k.readsMu.Unlock()
	at, ok := k.deleteAnswered[uid]
	return ok && time.Since(at) <= goneAfterDelete
}
