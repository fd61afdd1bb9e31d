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

// Package ackannotations reads ACK's annotations (services.k8s.aws/...) on
// managed objects, so that a manifest written for an ACK controller either
// does here what it did there or says why it does not. The deletion policy
// is honoured here (deletionpolicy.go), the adoption annotations in
// internal/tenancy/ownership; any other annotation of the prefix gets a Warning
// event naming it, once per object.
package ackannotations

import (
	"context"
	"slices"
	"strings"
	"sync"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/internal/aws/tags"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/ownership"
)

// Prefix is the prefix of ACK's annotations.
const Prefix = "services.k8s.aws/"

// Honoured are the annotations of Prefix that the provider reads or writes
// on its managed objects.
var Honoured = []string{AnnotationDeletionPolicy, ownership.AnnotationAdoptionPolicy, ownership.AnnotationAdoptionFields, tags.AnnotationManagedKeys}

// Event reasons.
const (
	ReasonUnsupported   event.Reason = "UnsupportedAnnotation"
	ReasonInvalidPolicy event.Reason = "InvalidDeletionPolicy"
	ReasonRetained      event.Reason = "RetainedExternalResource"
)

const errUnsupported = "annotation %s has no effect: of ACK's annotations this provider honours only %s, %s and %s"

// Annotations reads ACK's annotations on the objects of one API group.
type Annotations struct {
	group      string
	namespaces client.Reader // nil when the provider may not read namespaces
	record     event.Recorder
	warned     *warned
}

// New returns the reader of ACK's annotations on the objects of group.
// namespaces reads Namespaces' metadata (from the manager's cache, whose
// transform keeps their deletion policies: NamespaceKeeps); nil when the
// provider may not read namespaces (NamespacesReadable), whose deletion
// policies are then not read. record records the events.
func New(group string, namespaces client.Reader, record event.Recorder) *Annotations {
	return &Annotations{group: group, namespaces: namespaces, record: record, warned: &warned{of: map[types.UID]map[string]bool{}}}
}

// Initialize is the managed reconciler's initializer. It warns, once per
// object, of each annotation of Prefix the provider does not honour and of a
// deletion policy that is neither retain nor delete. Of an object being
// deleted it decides the deletion policy, and stops the reconcile, with the
// reason as its Synced condition, when the policy cannot be decided: nothing
// is deleted and the object waits. (An object whose policy is retain never
// gets here: Retaining lets it go first.)
func (a *Annotations) Initialize(ctx context.Context, mg resource.Managed) error {
	if meta.WasDeleted(mg) {
		a.warned.forget(mg.GetUID())
		_, err := a.Decide(ctx, mg)
		return err
	}
	for _, k := range Unsupported(mg.GetAnnotations()) {
		if a.warned.first(mg.GetUID(), k) {
			a.record.Event(mg, event.Warning(ReasonUnsupported, errors.Errorf(errUnsupported, k, AnnotationDeletionPolicy, ownership.AnnotationAdoptionPolicy, ownership.AnnotationAdoptionFields)))
		}
	}
	if v, ok := mg.GetAnnotations()[AnnotationDeletionPolicy]; ok && !valid(v) {
		if a.warned.first(mg.GetUID(), AnnotationDeletionPolicy+"="+v) {
			a.record.Event(mg, event.Warning(ReasonInvalidPolicy, invalid(AnnotationDeletionPolicy, v, "")))
		}
	}
	return nil
}

// Unsupported returns the annotations of Prefix, sorted, that the provider
// does not honour. Annotations of a group's own domain
// (streaming.services.k8s.aws/...) are not ACK's.
func Unsupported(annotations map[string]string) []string {
	var out []string
	for k := range annotations {
		if strings.HasPrefix(k, Prefix) && !slices.Contains(Honoured, k) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// warned remembers, in memory, what each object was warned of: a restart, or
// another replica taking over, warns once more. An object's entry goes when
// its deletion is seen; that of an object deleted while no reconcile reached
// this step (paused, or without Delete in its management policies) stays,
// a few bytes, until the provider restarts.
type warned struct {
	mu sync.Mutex
	of map[types.UID]map[string]bool
}

// first says whether what (an annotation, or an annotation and its value)
// is news for uid, and remembers it.
func (w *warned) first(uid types.UID, what string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.of[uid][what] {
		return false
	}
	if w.of[uid] == nil {
		w.of[uid] = map[string]bool{}
	}
	w.of[uid][what] = true
	return true
}

func (w *warned) forget(uid types.UID) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.of, uid)
}

func (w *warned) len() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.of)
}
