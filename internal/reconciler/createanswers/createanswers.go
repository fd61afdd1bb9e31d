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

// Package createanswers spares the Observe after a create for the kinds whose
// create AWS answers with a resource that is usable at once: the answer is
// kept, and the Observe after the create takes the resource's status from it
// instead of asking AWS again.
package createanswers

import (
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	"github.com/cloudkinds/provider-aws-services/internal/kube/memory"
)

// Answers are what the creates of a kind answered, until the Observe after
// each. crossplane-runtime marks every create Creating and reverts the
// status a create sets, so the answer is kept here.
type Answers struct {
	created *memory.Store[types.UID, answer]
}

type answer struct {
	generation int64
	atProvider any // status.atProvider as the create left it
	details    managed.ConnectionDetails
}

// New returns an empty record of answers.
func New() *Answers {
	return &Answers{created: memory.New[types.UID, answer]()}
}

// Remember keeps what the create of mg answered.
func (a *Answers) Remember(mg resource.Managed, details managed.ConnectionDetails) {
	obj, err := runtime.DefaultUnstructuredConverter.ToUnstructured(mg)
	if err != nil {
		return
	}
	at, found, err := unstructured.NestedFieldCopy(obj, "status", "atProvider")
	if err != nil || !found {
		return
	}
	a.created.Put(mg.GetUID(), answer{generation: mg.GetGeneration(), atProvider: at, details: details})
}

// Restore restores into mg what its create answered, and reports whether it
// did: only for the spec the create sent, a create that is recorded, and a
// resource not being deleted. What was remembered serves once.
func (a *Answers) Restore(mg resource.Managed) (managed.ConnectionDetails, bool) {
	c, ok := a.created.Take(mg.GetUID())
	if !ok || c.generation != mg.GetGeneration() || meta.WasDeleted(mg) || meta.GetExternalCreateSucceeded(mg).IsZero() {
		return nil, false
	}
	obj, err := runtime.DefaultUnstructuredConverter.ToUnstructured(mg)
	if err != nil {
		return nil, false
	}
	if err := unstructured.SetNestedField(obj, c.atProvider, "status", "atProvider"); err != nil {
		return nil, false
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj, mg); err != nil {
		return nil, false
	}
	return c.details, true
}
