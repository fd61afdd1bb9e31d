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

// Package managedoptions wires every kind's controller the same way: the
// managed reconciler's options from the manager-wide controller options, and
// the controller's registration with its watches.
package managedoptions

import (
	"context"
	"maps"
	"math/rand/v2"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/controller"
	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
	"github.com/crossplane/crossplane-runtime/v2/pkg/feature"
	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	xpmeta "github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	ctrlevent "sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/cloudkinds/provider-aws-services/internal/reconciler/conditions"
)

// Timing shared by every kind.
const (
	// InProgressPoll is the longest a resource that waits on AWS (creating,
	// updating, deleting, pending confirmation) goes unchecked; it is
	// checked sooner while it has waited less (conditions.PollInterval).
	InProgressPoll = 10 * time.Second
	// CreationGracePeriod is how long after a create a not-found read is
	// taken for AWS's eventual consistency rather than a missing resource,
	// so that a resource is never created twice.
	CreationGracePeriod = 15 * time.Second
)

// Polling is how a resource's next poll is timed beyond --poll.
type Polling struct {
	// MinInterval is the floor of a resource's own poll interval, set with
	// crossplane-runtime's crossplane.io/poll-interval annotation.
	MinInterval time.Duration
	// Jitter spreads each poll by up to this fraction of it, either way,
	// so that resources created together do not poll in lockstep.
	Jitter float64
	// BackoffLimit is the longest a failing object waits before it is
	// reconciled again (Backoff); zero is the poll interval.
	BackoffLimit time.Duration
}

// backoffLimit is the longest wait of a failing object (Backoff).
func (p Polling) backoffLimit(poll time.Duration) time.Duration {
	if p.BackoffLimit > 0 {
		return p.BackoffLimit
	}
	return poll
}

// DefaultPolling is the provider's default: an annotation may ask for no
// less than 30 s, and polls are spread by up to 10 %.
var DefaultPolling = Polling{MinInterval: 30 * time.Second, Jitter: 0.1}

// Hook returns the poll interval hook: a resource that waits on AWS is
// observed again soon; the others after their poll interval (--poll, or
// their annotation's, floored), jittered.
func (p Polling) Hook(soon time.Duration) func(resource.Managed, time.Duration) time.Duration {
	waiting := conditions.PollInterval(soon)
	return func(mg resource.Managed, pollInterval time.Duration) time.Duration {
		d := waiting(mg, pollInterval)
		if d != pollInterval || p.Jitter <= 0 {
			return d
		}
		return d + time.Duration((rand.Float64()*2-1)*p.Jitter*float64(d)) //nolint:gosec // spreading polls needs no secure randomness
	}
}

// For returns the options of the managed reconciler named name, followed by
// the kind's own options.
func For(mgr ctrl.Manager, name string, o controller.Options, p Polling, own ...managed.ReconcilerOption) []managed.ReconcilerOption {
	opts := []managed.ReconcilerOption{
		managed.WithLogger(o.Logger.WithValues("controller", name)),
		managed.WithRecorder(event.NewAPIRecorder(mgr.GetEventRecorderFor(name))), //nolint:staticcheck,nolintlint // crossplane-runtime's event.NewAPIRecorder takes the old events API's recorder; whether staticcheck flags it varies with the analysis
		managed.WithPollInterval(o.PollInterval),
		managed.WithMinPollInterval(p.MinInterval),
		managed.WithPollIntervalHook(p.Hook(InProgressPoll)),
		managed.WithCreationGracePeriod(CreationGracePeriod),
	}
	if o.Features.Enabled(feature.EnableBetaManagementPolicies) {
		opts = append(opts, managed.WithManagementPolicies())
	}
	if o.Features.Enabled(feature.EnableAlphaChangeLogs) && o.ChangeLogOptions != nil {
		opts = append(opts, managed.WithChangeLogger(o.ChangeLogOptions.ChangeLogger))
	}
	if o.MetricOptions != nil && o.MetricOptions.MRMetrics != nil {
		opts = append(opts, managed.WithMetricRecorder(o.MetricOptions.MRMetrics))
	}
	return append(opts, own...)
}

// A Watch adds a watch to a kind's controller.
type Watch func(*builder.Builder) *builder.Builder

// Register adds the controller of kind of, reconciled by r, to the manager.
// sent are the annotations the kind's controller writes to remember what it
// sent to AWS; their changes do not reconcile the object again.
func Register(mgr ctrl.Manager, name string, o controller.Options, p Polling, of client.Object, r reconcile.Reconciler, sent []string, watches ...Watch) error {
	opts := o.ForControllerRuntime()
	opts.RateLimiter = Backoff(p.backoffLimit(o.PollInterval))
	b := ctrl.NewControllerManagedBy(mgr).
		Named(name).
		WithOptions(opts).
		// Only the kind's own events are filtered to changes of the desired
		// state; a watched Secret's data change must come through.
		For(of, builder.WithPredicates(DesiredStateChanged(sent...)))
	for _, w := range watches {
		b = w(b)
	}
	return b.Complete(r)
}

// DesiredStateChanged passes the changes a user makes: the spec (its
// generation), labels and annotations, but not the annotations the provider
// writes itself to remember what it did (crossplane-runtime's create marks,
// the annotations recording what the kind sent, an external name set where
// there was none). Each of those writes would otherwise
// queue one more reconcile of an object that is reconciled already, and
// spend the rate that every resource shares.
func DesiredStateChanged(sent ...string) predicate.Predicate {
	ignored := append([]string{xpmeta.AnnotationKeyExternalCreatePending, xpmeta.AnnotationKeyExternalCreateSucceeded, xpmeta.AnnotationKeyExternalCreateFailed}, sent...)
	return predicate.Or(
		predicate.Funcs{UpdateFunc: func(e ctrlevent.UpdateEvent) bool {
			if e.ObjectOld == nil || e.ObjectNew == nil {
				return false
			}
			before, after := without(e.ObjectOld.GetAnnotations(), ignored), without(e.ObjectNew.GetAnnotations(), ignored)
			if before[xpmeta.AnnotationKeyExternalName] == "" {
				// An external name that was empty is set by the provider:
				// by the initializer from the name field, or by a create.
				delete(after, xpmeta.AnnotationKeyExternalName)
			}
			return !maps.Equal(before, after)
		}},
		predicate.LabelChangedPredicate{},
		predicate.GenerationChangedPredicate{},
	)
}

func without(m map[string]string, keys []string) map[string]string {
	out := maps.Clone(m)
	for _, k := range keys {
		delete(out, k)
	}
	return out
}

// WatchSecrets reconciles the resources of a kind that name a Secret when
// that Secret changes, so that a rotated key reaches AWS at once rather than
// at the next poll. secrets returns the names of the Secrets a resource reads
// from its own namespace.
func WatchSecrets[MR client.Object, L client.ObjectList](kube client.Reader, log logging.Logger, list L, secrets func(MR) []string) Watch {
	return func(b *builder.Builder) *builder.Builder {
		// Metadata only: a Secret's value is read, when needed, from the
		// API server; the cache holds no Secret's data.
		return b.WatchesMetadata(&corev1.Secret{}, handler.EnqueueRequestsFromMapFunc(func(ctx context.Context, s client.Object) []reconcile.Request {
			return SecretReaders(ctx, kube, log, list, secrets, s)
		}))
	}
}

// SecretReaders returns the resources of s's namespace that read s. A list
// that fails is logged: those resources then see the change at their next
// poll, not at once.
func SecretReaders[MR client.Object, L client.ObjectList](ctx context.Context, kube client.Reader, log logging.Logger, list L, secrets func(MR) []string, s client.Object) []reconcile.Request {
	l := list.DeepCopyObject().(L) //nolint:forcetypeassert // a copy of its own type
	if err := kube.List(ctx, l, client.InNamespace(s.GetNamespace())); err != nil {
		log.Info("Cannot list the resources that may read a changed Secret: they see the change at their next poll", "secret", s.GetNamespace()+"/"+s.GetName(), "error", err)
		return nil
	}
	var out []reconcile.Request
	if err := forEach(l, func(mg MR) {
		for _, n := range secrets(mg) {
			if n == s.GetName() {
				out = append(out, reconcile.Request{NamespacedName: types.NamespacedName{Namespace: mg.GetNamespace(), Name: mg.GetName()}})
				return
			}
		}
	}); err != nil {
		log.Info("Cannot read the resources that may read a changed Secret: they see the change at their next poll", "secret", s.GetNamespace()+"/"+s.GetName(), "error", err)
	}
	return out
}

func forEach[MR client.Object](l client.ObjectList, fn func(MR)) error {
	items, err := itemsOf(l)
	if err != nil {
		return err
	}
	for _, it := range items {
		if mg, ok := it.(MR); ok {
			fn(mg)
		}
	}
	return nil
}

// itemsOf returns the items of a typed list as objects.
func itemsOf(l client.ObjectList) ([]client.Object, error) {
	objs, err := meta.ExtractList(l)
	if err != nil {
		return nil, err
	}
	out := make([]client.Object, 0, len(objs))
	for _, o := range objs {
		if co, ok := o.(client.Object); ok {
			out = append(out, co)
		}
	}
	return out, nil
}
