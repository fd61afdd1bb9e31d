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

package ackannotations

import (
	"context"
	"strings"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	authorizationv1 "k8s.io/api/authorization/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// ACK's deletion policy.
const (
	// AnnotationDeletionPolicy is ACK's deletion policy of an object, and,
	// prefixed with an API group's service ("streaming."), of a namespace's
	// objects of that group.
	AnnotationDeletionPolicy = Prefix + "deletion-policy"
	// DeletionPolicyRetain keeps the AWS resource when the object is
	// deleted.
	DeletionPolicyRetain = "retain"
	// DeletionPolicyDelete deletes it, as no policy does.
	DeletionPolicyDelete = "delete"
)

// namespaceTimeout bounds the read of a namespace's annotations: the first
// read waits for the cache of namespaces to fill, which never happens if the
// provider may not list namespaces.
const namespaceTimeout = 10 * time.Second

const (
	errInvalidObject    = "annotation %s is %q: want %q or %q; until it is one of them, deleting this object waits and deletes nothing"
	errInvalidNamespace = "annotation %s of namespace %q is %q: want %q or %q; until it is one of them, or the object's own annotation %s decides, deleting this object waits and deletes nothing"
	errNamespace        = "cannot read the deletion policy of namespace %q (annotations %s and %s): the provider needs get, list and watch on namespaces (cluster/rbac/namespaces.yaml), or the object's own annotation %s decides without it; deleting this object waits and deletes nothing"
	errRemoveFinalizer  = "cannot remove the finalizer of an object whose AWS resource is kept"
)

// NamespaceAnnotation is the annotation of a namespace that is ACK's
// deletion policy of its objects of group: <group>/deletion-policy.
func NamespaceAnnotation(group string) string {
	return group + "/deletion-policy"
}

// NamespaceKeeps says whether an annotation of a namespace is a deletion
// policy, which the cache of namespaces keeps: ACK's <group>/deletion-policy
// of any group of services.k8s.aws, or services.k8s.aws/deletion-policy.
func NamespaceKeeps(key string) bool {
	return key == AnnotationDeletionPolicy || strings.HasSuffix(key, "."+AnnotationDeletionPolicy)
}

// A DeletionPolicy is what decides whether an object being deleted deletes
// its AWS resource.
type DeletionPolicy struct {
	// Retain keeps the AWS resource.
	Retain bool
	// By names the annotation that decided, and where; empty when none did
	// (the default, delete).
	By string
}

// Decide returns the deletion policy of mg, as ACK's controllers read it:
// the object's annotation services.k8s.aws/deletion-policy; else its
// namespace's <group>/deletion-policy (streaming.services.k8s.aws/...);
// else, which ACK does not read, its namespace's
// services.k8s.aws/deletion-policy; else delete. A value other than retain
// or delete decides nothing, and is an error that names it, as is a
// namespace that cannot be read: the caller deletes nothing.
func (a *Annotations) Decide(ctx context.Context, mg resource.Managed) (DeletionPolicy, error) {
	return decide(mg.GetAnnotations(), a.group, mg.GetNamespace(), func() (map[string]string, error) {
		return a.namespaceAnnotations(ctx, mg.GetNamespace())
	})
}

// decide is Decide of an object's annotations, in namespace ns whose
// annotations nsAnnotations reads, called only when the object's own do not
// decide.
func decide(object map[string]string, group, ns string, nsAnnotations func() (map[string]string, error)) (DeletionPolicy, error) {
	if v, ok := object[AnnotationDeletionPolicy]; ok {
		if !valid(v) {
			return DeletionPolicy{}, invalid(AnnotationDeletionPolicy, v, "")
		}
		return DeletionPolicy{Retain: v == DeletionPolicyRetain, By: "annotation " + AnnotationDeletionPolicy}, nil
	}
	own := NamespaceAnnotation(group)
	nsa, err := nsAnnotations()
	if err != nil {
		return DeletionPolicy{}, errors.Wrapf(err, errNamespace, ns, own, AnnotationDeletionPolicy, AnnotationDeletionPolicy)
	}
	for _, k := range []string{own, AnnotationDeletionPolicy} {
		v, ok := nsa[k]
		if !ok {
			continue
		}
		if !valid(v) {
			return DeletionPolicy{}, invalid(k, v, ns)
		}
		return DeletionPolicy{Retain: v == DeletionPolicyRetain, By: "annotation " + k + " of namespace " + `"` + ns + `"`}, nil
	}
	return DeletionPolicy{}, nil
}

func valid(v string) bool {
	return v == DeletionPolicyRetain || v == DeletionPolicyDelete
}

// invalid is the error of a deletion policy v of annotation key, on the
// object when ns is empty, else on namespace ns.
func invalid(key, v, ns string) error {
	if ns == "" {
		return errors.Errorf(errInvalidObject, key, v, DeletionPolicyRetain, DeletionPolicyDelete)
	}
	return errors.Errorf(errInvalidNamespace, key, ns, v, DeletionPolicyRetain, DeletionPolicyDelete, AnnotationDeletionPolicy)
}

// namespaceAnnotations reads the deletion policies of namespace ns from the
// cache of namespaces' metadata. A namespace the cache does not know has
// none, and so has every namespace when the provider may not read them.
func (a *Annotations) namespaceAnnotations(ctx context.Context, ns string) (map[string]string, error) {
	if a.namespaces == nil {
		return nil, nil
	}
	m := &metav1.PartialObjectMetadata{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Namespace"}}
	rctx, cancel := context.WithTimeout(ctx, namespaceTimeout)
	defer cancel()
	err := a.namespaces.Get(rctx, types.NamespacedName{Name: ns}, m)
	if kerrors.IsNotFound(err) {
		return nil, nil
	}
	return m.GetAnnotations(), err
}

// Retaining wraps the managed reconciler r of a kind. An object being
// deleted whose deletion policy is retain is let go here, as
// crossplane-runtime's managed reconciler lets go an object whose management
// policies lack Delete: its finalizer is removed, through finalizer, which
// releases the ownership claims, with no Observe, no connection to AWS and
// no call to it; its connection Secret goes with it by garbage collection
// (crossplane-runtime's unpublish does nothing more). released is called
// then, for what the path keeps of the object. Every other object, and one
// whose deletion policy cannot be decided (which the initializer reports),
// goes to r.
func Retaining[MR resource.Managed](a *Annotations, r reconcile.Reconciler, o RetainingOptions[MR]) reconcile.Reconciler {
	return &retaining[MR]{Reconciler: r, annotations: a, o: o}
}

// RetainingOptions are what Retaining reads and writes.
type RetainingOptions[MR resource.Managed] struct {
	// New returns an empty object of the kind.
	New func() MR
	// Kube reads the object, from the manager's cache.
	Kube client.Reader
	// Finalizer is the managed reconciler's.
	Finalizer resource.Finalizer
	// Released is told of an object let go; nil for none.
	Released func(MR)
}

type retaining[MR resource.Managed] struct {
	reconcile.Reconciler
	annotations *Annotations
	o           RetainingOptions[MR]
}

func (r *retaining[MR]) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	mg := r.o.New()
	if err := r.o.Kube.Get(ctx, req.NamespacedName, mg); err != nil {
		return r.Reconciler.Reconcile(ctx, req)
	}
	// crossplane-runtime keeps a paused object as it is, deleted or not.
	if !meta.WasDeleted(mg) || !meta.FinalizerExists(mg, managed.FinalizerName) || meta.IsPaused(mg) {
		return r.Reconciler.Reconcile(ctx, req)
	}
	d, err := r.annotations.Decide(ctx, mg)
	if err != nil || !d.Retain {
		return r.Reconciler.Reconcile(ctx, req)
	}
	if err := r.o.Finalizer.RemoveFinalizer(ctx, mg); err != nil {
		return reconcile.Result{}, errors.Wrap(err, errRemoveFinalizer)
	}
	r.annotations.record.Event(mg, event.Normal(ReasonRetained, "The AWS resource is kept: "+d.By+" is "+DeletionPolicyRetain))
	if r.o.Released != nil {
		r.o.Released(mg)
	}
	return reconcile.Result{}, nil
}

// NamespacesReadable reports whether the provider may get, list and watch
// namespaces (cluster/rbac/namespaces.yaml grants it; Crossplane's RBAC
// manager does not), asking the API server once. Without that permission
// the cache of namespaces would never fill, and every deletion would wait
// for a namespace it cannot read: the namespaces' deletion policies are
// then not read at all, and an object's own annotation decides.
func NamespacesReadable(ctx context.Context, kube client.Client) (bool, error) {
	for _, verb := range []string{"get", "list", "watch"} {
		r := &authorizationv1.SelfSubjectAccessReview{Spec: authorizationv1.SelfSubjectAccessReviewSpec{
			ResourceAttributes: &authorizationv1.ResourceAttributes{Verb: verb, Resource: "namespaces"},
		}}
		if err := kube.Create(ctx, r); err != nil {
			return false, errors.Wrap(err, "cannot ask the API server whether the provider may read namespaces")
		}
		if !r.Status.Allowed {
			return false, nil
		}
	}
	return true, nil
}
