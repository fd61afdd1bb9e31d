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

package setup

import (
	"sync"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
)

// createdForget is how long what a create answered is kept for the look
// after it; that look comes within a second unless the provider stops.
const createdForget = 5 * time.Minute

// usableAtCreate remembers, for the kinds whose create AWS answers with a
// resource that is usable at once (ReadyAtCreate), what the create's answer
// said: the look after the create takes it from there instead of asking
// AWS again. crossplane-runtime marks every create Creating and reverts the
// status a create sets, so the answer is kept here until that look.
type usableAtCreate struct {
	mu      sync.Mutex
	created map[types.UID]creation
}

type creation struct {
	generation int64
	atProvider any // status.atProvider as the create left it
	details    managed.ConnectionDetails
	at         time.Time
}

func newUsableAtCreate() *usableAtCreate {
	return &usableAtCreate{created: map[types.UID]creation{}}
}

// remember keeps what the create of mg answered.
func (u *usableAtCreate) remember(mg resource.Managed, details managed.ConnectionDetails) {
	obj, err := runtime.DefaultUnstructuredConverter.ToUnstructured(mg)
	if err != nil {
		return
	}
	at, found, err := unstructured.NestedFieldCopy(obj, "status", "atProvider")
	if err != nil || !found {
		return
	}
	now := time.Now()
	u.mu.Lock()
	defer u.mu.Unlock()
	for uid, c := range u.created {
		if now.Sub(c.at) > createdForget {
			delete(u.created, uid)
		}
	}
	u.created[mg.GetUID()] = creation{generation: mg.GetGeneration(), atProvider: at, details: details, at: now}
}

// take restores into mg what its create answered, and reports whether it
// did: only for the spec the create sent, a create that is recorded, and a
// resource not being deleted. What was remembered serves once.
func (u *usableAtCreate) take(mg resource.Managed) (managed.ConnectionDetails, bool) {
	u.mu.Lock()
	c, ok := u.created[mg.GetUID()]
	delete(u.created, mg.GetUID())
	u.mu.Unlock()
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
