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

// Package alreadyexists decides what a create that AWS answers "already
// exists" means for the kinds keyed by a name the user chose. Such an answer
// is almost always the work of this very object: an earlier create whose
// answer was lost (the provider was killed, the connection dropped) or that
// an eventually consistent read did not show yet. It is never a reason to
// tell the user that the spec is wrong.
package alreadyexists

import (
	"context"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	"github.com/cloudkinds/provider-aws-services/internal/clients/awserrors"
)

const (
	errObserve = "AWS says that %s %q (%s) already exists, but it cannot be read"
	msgHidden  = "AWS says that %s %q (%s) already exists but does not show it yet; it is looked at again shortly and taken as created once it shows"
	msgDiffers = "%s %q (%s) already exists in AWS and differs from this spec in: %s; this object adopts it, as its annotation %s=%q says, and the next reconcile updates it to the spec"
)

// A Kind names what the messages say of a kind.
type Kind struct {
	// Noun is what the kind is called in messages: "delivery stream".
	Noun string
	// NameField is the path of the name field: spec.forProvider.name.
	NameField string
	// Codes are the kind's own wordings of "already exists", each
	// "Code: message prefix" (see awserrors.IsAlreadyExists).
	Codes []string
}

// Client wraps an external client so that a create that AWS answers "already
// exists" looks at what exists: the resource this object describes is taken
// as created; one that differs is reported, and adopted by the next
// reconcile, as every resource named by the external name is.
type Client[MR resource.Managed] struct {
	managed.TypedExternalClient[MR]
	kind Kind
}

// Wrap returns c with Create made safe to repeat.
func Wrap[MR resource.Managed](c managed.TypedExternalClient[MR], k Kind) *Client[MR] {
	return &Client[MR]{TypedExternalClient: c, kind: k}
}

// Create creates the resource; when AWS answers that it exists already, it
// observes what exists instead, on a copy, so that the managed resource only
// carries what a successful create would.
func (c *Client[MR]) Create(ctx context.Context, mg MR) (managed.ExternalCreation, error) {
	created, err := c.TypedExternalClient.Create(ctx, mg)
	if !awserrors.IsAlreadyExists(err, c.kind.Codes...) {
		return created, err
	}
	name := meta.GetExternalName(mg)
	probe := mg.DeepCopyObject().(MR) //nolint:forcetypeassert // a copy of its own type
	o, oerr := c.Observe(ctx, probe)
	switch {
	case oerr != nil:
		return managed.ExternalCreation{}, errors.Wrapf(oerr, errObserve, c.kind.Noun, name, c.kind.NameField)
	case !o.ResourceExists:
		return managed.ExternalCreation{}, errors.Errorf(msgHidden, c.kind.Noun, name, c.kind.NameField)
	case o.ResourceUpToDate:
		// The resource is the one this object creates: an earlier create
		// made it, and its answer was lost.
		return managed.ExternalCreation{ConnectionDetails: o.ConnectionDetails}, nil
	default:
		return managed.ExternalCreation{}, errors.Errorf(msgDiffers, c.kind.Noun, name, c.kind.NameField, o.Diff,
			meta.AnnotationKeyExternalName, name)
	}
}
