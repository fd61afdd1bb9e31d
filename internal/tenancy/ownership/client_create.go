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
	"fmt"

	"github.com/aws/smithy-go"
	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"

	"github.com/cloudkinds/provider-aws-services/internal/aws/awserrors"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/sendonce"
)

// Create creates the resource under the object's claim. When AWS answers
// that it exists already, what exists is looked at: the work of an earlier
// create of this object whose answer was lost is taken as created; anything
// else is refused. When AWS refuses it otherwise, nothing was made, and the
// claim says so. When the create's outcome is unknown (a server error, no
// answer), what exists is looked at at once (afterLostAnswer).
//
// The create is sent once (sendonce): the SDK's retryer sends it again only
// when AWS certainly did nothing with it. A retry of a create that AWS had
// made is answered "already exists" within this one call, as a create of
// anyone's resource is: for a kind AWS cannot tag, the object's own work was
// refused for good. Resolving such an answer by what AWS shows (made within
// the call, holding what the create sent) would be a second rule, kind by
// kind, beside the one every lost answer takes: a look, with this create
// recorded, decided by the ownership rules (the owner tags, or for a kind
// AWS cannot tag the time AWS made it).
func (c *Client[MR]) Create(ctx context.Context, mg MR) (managed.ExternalCreation, error) {
	if !c.claimed {
		// Its Observe could not claim (the identity was not known yet).
		held, err := c.claim(ctx, mg, ToCreate)
		if err != nil {
			return managed.ExternalCreation{}, err
		}
		if held != nil {
			return managed.ExternalCreation{}, errors.New(c.message(mg, Decision{Verdict: NotOwned, HeldBy: held}))
		}
	}
	created, err := c.TypedExternalClient.Create(sendonce.Creating(ctx), mg)
	if err == nil {
		// AWS answered: the claim records that this create made it. A
		// record that fails is made up for by the next Observe, which
		// finds the create's work by the evidence and confirms it.
		_ = c.confirm(ctx, mg)
		return created, nil
	}
	switch {
	case awserrors.IsAlreadyExists(err):
	case awserrors.Answered(err):
		// AWS refused the create: what may appear under this identity
		// before the next create is not this object's work.
		return created, c.madeNothing(ctx, mg, err)
	default:
		return c.afterLostAnswer(ctx, mg, err)
	}
	// AWS's own words of the name taken, quoted beside the provider's
	// reading of them.
	said := awsSaid(err)
	id, w := c.kind.Identity(mg), c.kind.Terms
	if c.lookSkipped {
		// This create stood for the look, the object had made or tried
		// no create before it, and it was sent once: what exists was
		// there before it, and is not its work. The claim says so
		// before anything else can fail, so that no later reconcile
		// takes what exists for the work of the create this object has
		// now recorded.
		if err := c.kind.Claims.Repurpose(ctx, c.identity(mg), mg.GetUID(), Refused, c.held); err != nil {
			return managed.ExternalCreation{}, err
		}
	}
	probe := mg.DeepCopyObject().(MR) //nolint:forcetypeassert // a copy of its own type
	o, oerr := c.TypedExternalClient.Observe(ctx, probe)
	switch {
	case oerr != nil:
		return managed.ExternalCreation{}, errors.Wrapf(oerr, errObserve, w.Noun, id, w.Field)
	case !o.ResourceExists:
		return managed.ExternalCreation{}, errors.New(fmt.Sprintf(msgHidden, w.Noun, id, w.Field) + said)
	}
	asked := mg
	if c.lookSkipped {
		// Decided as the look this create stood for would have been,
		// before any create.
		asked = mg.DeepCopyObject().(MR) //nolint:forcetypeassert // a copy of its own type
		meta.RemoveAnnotations(asked, meta.AnnotationKeyExternalCreatePending)
	}
	d, err := c.decide(ctx, asked)
	if err != nil {
		return managed.ExternalCreation{}, err
	}
	if d.Verdict == Owned {
		// An earlier create of this object made it, and its answer was
		// lost: the object shows what the Observe found, as an Observe would.
		if err := c.confirmed(ctx, mg, d); err != nil {
			return managed.ExternalCreation{}, err
		}
		restore(mg, probe)
		return managed.ExternalCreation{ConnectionDetails: o.ConnectionDetails}, nil
	}
	if d.Holds {
		if err := c.kind.Claims.Release(ctx, c.identity(mg), mg.GetUID()); err != nil {
			return managed.ExternalCreation{}, err
		}
	}
	return managed.ExternalCreation{}, errors.New(c.message(mg, d) + said)
}

// awsSaid is AWS's own code and message of err, as a refusal quotes them
// beside the provider's reading; "" when err carries none.
func awsSaid(err error) string {
	var ae smithy.APIError
	if !errors.As(err, &ae) {
		return ""
	}
	return fmt.Sprintf(" (AWS answered the create: %s: %s)", ae.ErrorCode(), ae.ErrorMessage())
}

// afterLostAnswer looks at once for what a create whose outcome is unknown
// made: AWS failed (a server error, which AWS can send after the work) or
// no answer came (a broken connection, a timeout). What it finds is decided
// as the work of this create, which the object recorded (create-pending):
// owned, and taken as created, when the ownership rules say so (the owner
// tags name the object, or for a kind AWS cannot tag, AWS made it after the
// claim); refused otherwise. When it finds nothing, or cannot look, the
// create's error stands and the claim stays as it is, held for this
// create: AWS may have made the resource and not show it yet (its reads can
// lag a write), and the next reconcile looks again, taking what it then
// finds for this create's work.
func (c *Client[MR]) afterLostAnswer(ctx context.Context, mg MR, createErr error) (managed.ExternalCreation, error) {
	probe := mg.DeepCopyObject().(MR) //nolint:forcetypeassert // a copy of its own type
	o, err := c.TypedExternalClient.Observe(ctx, probe)
	if err != nil || !o.ResourceExists {
		return managed.ExternalCreation{}, createErr
	}
	d, err := c.decide(ctx, mg)
	if err != nil {
		return managed.ExternalCreation{}, afterCreate(createErr, errors.Wrap(err, errDecideAfterLostAnswer))
	}
	if d.Verdict == Owned {
		// Its answer was lost: the object shows what the look found, as
		// an Observe would.
		restore(mg, probe)
		return managed.ExternalCreation{ConnectionDetails: o.ConnectionDetails}, nil
	}
	if d.Holds {
		if err := c.kind.Claims.Release(ctx, c.identity(mg), mg.GetUID()); err != nil {
			return managed.ExternalCreation{}, err
		}
	}
	return managed.ExternalCreation{}, errors.New(c.message(mg, d))
}

// madeNothing records in the claim that the object's create made nothing.
// A create AWS refused for good (awserrors.RefusedForGood) holds no name
// (Denied): the same create will not succeed until someone changes
// something, and meanwhile other objects may take the identity. A transient
// refusal keeps the object's place; for a kind AWS cannot tag, the claim
// records it (Refused), so that what appears under the identity before the
// next create is not taken for its work, which the owner tags tell of a
// kind AWS tags. It returns createErr.
func (c *Client[MR]) madeNothing(ctx context.Context, mg MR, createErr error) error {
	purpose := Refused
	switch {
	case awserrors.RefusedForGood(createErr) && (c.kind.Tagged || !c.earlierCreate):
		purpose = Denied
	case c.kind.Tagged:
		return createErr
	}
	// For a kind AWS cannot tag, an earlier create under the claim whose
	// answer was lost may have made the resource (a count quota its work
	// used up may be what refuses this one): only the claim, kept, tells
	// its work from what appears later (Refused).
	if err := c.kind.Claims.Repurpose(ctx, c.identity(mg), mg.GetUID(), purpose, c.held); err != nil {
		return afterCreate(createErr, errors.Wrap(err, errRecordMadeNothing))
	}
	return createErr
}

// afterCreate is a failed create's error with what failed after it: both
// stay errors of their own (errors.Is and As find either), the create's
// first, so that what it says of AWS's answer still decides.
func afterCreate(createErr, then error) error {
	return fmt.Errorf("%w; %w", createErr, then)
}
