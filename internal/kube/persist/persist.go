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

// Package persist records facts about a managed resource that the provider
// must remember between reconciles but AWS does not return, such as the
// fingerprint of a key it sent. They are annotations, written at once with a
// patch: the managed reconciler does not keep status written during Create.
package persist

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// AtCreate records annotations on an object whose resource is being
// created. It only sets them in memory: after a successful create
// crossplane-runtime's critical annotation update writes every annotation of
// the object with its create-succeeded record, in one write, and a create
// that fails has nothing to record.
func AtCreate(obj client.Object, kv map[string]string) {
	meta.AddAnnotations(obj, kv)
}

// patchWhileGeneration sets annotations on obj with a JSON patch whose test
// of metadata.generation makes it fail when the spec changed since obj was
// read; patched takes what the API server answers.
func patchWhileGeneration(ctx context.Context, kube client.Client, obj, patched client.Object, kv map[string]string) error {
	ops := []map[string]any{{"op": "test", "path": "/metadata/generation", "value": obj.GetGeneration()}}
	for _, k := range slices.Sorted(maps.Keys(kv)) {
		ops = append(ops, map[string]any{"op": "add", "path": "/metadata/annotations/" + jsonPointerEscape(k), "value": kv[k]})
	}
	patch, err := json.Marshal(ops)
	if err != nil {
		return err
	}
	return kube.Patch(ctx, patched, client.RawPatch(types.JSONPatchType, patch))
}

// jsonPointerEscape escapes a map key for a JSON pointer (RFC 6901).
func jsonPointerEscape(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}

// Annotations sets annotations on obj in the API server, with a merge patch
// that touches nothing else and in memory; the rest of obj in memory (the
// status a reconcile is about to write) is kept. The patch is conditional on
// the resourceVersion obj was read at: if a user changed the spec meanwhile
// (during a long update call, say), it conflicts and the reconcile is
// repeated on the current object, so that the reconcile's next write never
// replaces a newer spec with the one in memory. A read that was only behind
// (the same generation) records anyway. On success obj takes the new
// resourceVersion, so that its next write does not conflict with this one.
func Annotations(ctx context.Context, kube client.Client, obj client.Object, kv map[string]string) error {
	if len(kv) == 0 {
		return nil
	}
	patch, err := json.Marshal(map[string]any{"metadata": map[string]any{"annotations": kv, "resourceVersion": obj.GetResourceVersion()}})
	if err != nil {
		return err
	}
	patched, ok := obj.DeepCopyObject().(client.Object)
	if !ok {
		return errors.New("cannot copy the object")
	}
	err = kube.Patch(ctx, patched, client.RawPatch(types.MergePatchType, patch))
	if kerrors.IsConflict(err) && len(obj.GetAnnotations()) > 0 {
		// The read was behind the API server: often only the reconcile's
		// own status write of a moment ago, which the cache had not seen.
		// What was sent is recorded all the same while the spec is the
		// one read (its generation), so that it is not sent again; a
		// spec changed meanwhile still conflicts.
		if sameSpec := patchWhileGeneration(ctx, kube, obj, patched, kv); sameSpec == nil {
			err = nil
		}
	}
	if err != nil {
		return errors.Wrap(err, "cannot record annotations")
	}
	meta.AddAnnotations(obj, kv)
	obj.SetResourceVersion(patched.GetResourceVersion())
	return nil
}
