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

// Package externalname keeps the external name of the name-keyed kinds equal
// to their name field: the annotation is set from the field, and an
// annotation that names another resource is an error, never a rename.
package externalname

import (
	"context"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
)

// FromField returns an initializer that sets the external-name annotation to
// the value of the name field at path (for messages), read by name.
func FromField[MR resource.Managed](path string, name func(MR) string) managed.Initializer {
	return managed.InitializerFn(func(_ context.Context, mg resource.Managed) error {
		typed, ok := mg.(MR)
		if !ok {
			return errors.New("unexpected managed resource type")
		}
		return Check(mg, path, name(typed))
	})
}

// Check sets the annotation to want when it is unset, and fails when it
// names something else. It sets it in memory only: every reconcile sets it
// again, and the first write of a new object (its finalizer, or the record
// of a create that is about to start) persists it, so that it costs no write
// of its own.
func Check(mg resource.Managed, path, want string) error {
	switch got := meta.GetExternalName(mg); got {
	case want:
		return nil
	case "":
		meta.SetExternalName(mg, want)
		return nil
	default:
		return errors.Errorf("the annotation %s=%q does not match %s=%q: the external name of this kind is its name field, which cannot change; remove the annotation or set it to %q",
			meta.AnnotationKeyExternalName, got, path, want, want)
	}
}
