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
	"strings"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
)

// decide decides whose the resource the last Observe found is.
func (c *Client[MR]) decide(ctx context.Context, mg MR) (Decision, error) {
	var cl *Claim
	if c.kind.Identity(mg) != "" {
		var err error
		if cl, err = c.kind.Claims.Get(ctx, c.identity(mg), mg.GetUID()); err != nil {
			return Decision{}, err
		}
	}
	handedOver := cl.HandedOverTo(mg.GetNamespace())
	if cl != nil && !cl.Holds() && cl.Holder != mg.GetUID() {
		// Another object's create AWS refused for good: it made nothing,
		// and holds nothing.
		cl = nil
	}
	if cl != nil && cl.Holder != mg.GetUID() && !cl.KeptFrom(mg.GetNamespace()) {
		alive, err := c.kind.Claims.alive(ctx, cl)
		if err != nil {
			return Decision{}, err
		}
		if !alive {
			// Its holder is gone: the claim is released, not
			// inherited by a newcomer of the same name.
			if err := c.kind.Claims.Release(ctx, c.identity(mg), cl.Holder); err != nil {
				return Decision{}, err
			}
			cl = nil
		}
	}
	adoptARN, err := AdoptionARN(mg)
	if err != nil {
		return Decision{}, err
	}
	f := Facts{
		Self: OwnerFor(c.kind.GroupKind, mg), Claim: cl, SaysItOwns: SaysItOwns(mg, c.kind.Metadata(mg)),
		Adopt: WantsToAdopt(mg), AdoptARN: adoptARN, HandedOver: handedOver,
		CreateSucceeded: meta.GetExternalCreateSucceeded(mg), Created: c.lastObserved().Created,
		CreateAttempted: !meta.GetExternalCreatePending(mg).IsZero(), CreateEnded: LastCreateFailed(mg),
	}
	if cl == nil && f.SaysItOwns {
		f.MadeBefore = c.madeBeforeClaims(ctx, mg)
	}
	return Decide(f, func() (MakerEvidence, error) { return c.evidence(ctx, mg) })
}

// evidence reads what AWS shows of the resource the last Observe found.
func (c *Client[MR]) evidence(ctx context.Context, mg MR) (MakerEvidence, error) {
	f := c.lastObserved()
	ev := MakerEvidence{Tagged: f.Tags != nil, Created: f.Created, ARN: f.ARN}
	if f.Tags == nil {
		if WantsToAdopt(mg) || SaysItOwns(mg, c.kind.Metadata(mg)) {
			var err error
			ev.InCluster, err = c.madeBeforeClaimsByAnother(ctx, mg)
			return ev, err
		}
		return ev, nil
	}
	observed, err := f.tagsOn(ctx)
	if err != nil {
		return MakerEvidence{}, err
	}
	o, ok := OwnerOf(observed)
	if !ok {
		return ev, nil
	}
	ev.Owner = &o
	if o.Names(OwnerFor(c.kind.GroupKind, mg)) && (o.UID == "" || o.UID == mg.GetUID()) {
		return ev, nil
	}
	// Another object named by the tags: does it exist here?
	other := c.kind.New()
	err = c.kind.Objects.Get(ctx, types.NamespacedName{Namespace: o.Namespace, Name: o.Name}, other)
	switch {
	case kerrors.IsNotFound(err):
	case err != nil:
		return MakerEvidence{}, errors.Wrap(err, errOwner)
	default:
		ev.InCluster = other.GetUID() != mg.GetUID() && (o.UID == "" || o.UID == other.GetUID()) && strings.EqualFold(o.Kind, c.kind.GroupKind.String())
	}
	return ev, nil
}

func (c *Client[MR]) lastObserved() Observed { return c.observed.LastObserved() }
