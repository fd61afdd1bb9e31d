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

// Package setup wires the controller of one managed resource kind from a
// short description of it: how to read its region, how to build its external
// client on an AWS session, which field is its external name, what else it
// watches. The wiring itself is the same for all five kinds.
package setup

import (
	"context"

	"github.com/crossplane/crossplane-runtime/v2/pkg/controller"
	"github.com/crossplane/crossplane-runtime/v2/pkg/feature"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	"github.com/crossplane/crossplane-runtime/v2/pkg/statemetrics"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/clients/awsconfig"
	"github.com/cloudkinds/provider-aws-services/internal/clients/budget"
	"github.com/cloudkinds/provider-aws-services/internal/clients/tags"
	"github.com/cloudkinds/provider-aws-services/internal/controller/connect"
	"github.com/cloudkinds/provider-aws-services/internal/controller/managedoptions"
	"github.com/cloudkinds/provider-aws-services/internal/externalname"
	"github.com/cloudkinds/provider-aws-services/internal/metrics"
	"github.com/cloudkinds/provider-aws-services/internal/ownership"
	"github.com/cloudkinds/provider-aws-services/internal/secretkey"
)

// A Kind describes the controller of one managed resource kind.
type Kind[MR resource.ModernManaged] struct {
	GroupVersionKind schema.GroupVersionKind
	// Object is an empty object of the kind.
	Object MR
	// Region reads spec.forProvider.region.
	Region func(MR) *string
	// External builds the kind's external client on a session; kube reads
	// and patches objects in the cluster.
	External func(kube client.Client, s *awsconfig.Session) managed.TypedExternalClient[MR]
	// NameField is the path of the field that is the external name, read by
	// Name; empty when AWS names the resource (the external name is set by
	// Create, and the kind's Observe must find what an interrupted create
	// made without it).
	NameField string
	Name      func(MR) string
	// Noun is what messages call the kind: "delivery stream".
	Noun string
	// Identity is the AWS identity an object asks for, when it is not its
	// name (Name): what AWS keeps unique, such as a subscription's topic,
	// protocol and endpoint, named in messages by IdentityField; Another
	// is the advice to choose another: "another endpoint".
	Identity      func(MR) string
	IdentityField string
	Another       string
	// Metadata reads status.atProvider.ackResourceMetadata.
	Metadata func(MR) *common.ResourceMetadata
	// Where is where AWS keeps the identity unique, when that is not the
	// session's account and region (a subscription lives in its topic's).
	Where func(MR) (account, region string)
	// Tagged is true for the kinds AWS can tag: their creates carry the
	// owner tags.
	Tagged bool
	// AlreadyExists are the kind's own wordings of AWS's "already exists"
	// answer to a create, each "Code: message prefix", beside the codes
	// every service uses.
	AlreadyExists []string
	// Watches are further watches, such as the Secrets the kind reads.
	Watches []managedoptions.Watch
	// Recorded are the annotations the kind writes to remember what it sent
	// to AWS: writing them reconciles nothing again.
	Recorded []string
	// List is an empty list of the kind, for its state metrics.
	List resource.ManagedList
	// Looks are the AWS operations a periodic look at a settled resource
	// calls, whose budgets time it.
	Looks func(MR) []budget.Operation
	// ReadyAtCreate says that AWS's answer to a create shows the resource
	// usable, and that Create sets from it all of status.atProvider that
	// Observe would: the object is then Ready at the look after the
	// create without a call to AWS.
	ReadyAtCreate bool
}

// Shared is what the controllers of every kind share.
type Shared struct {
	// Sessions are the AWS sessions, one per ProviderConfig and region.
	Sessions *awsconfig.Cache
	// Fingerprints keys the fingerprints of the secret values sent to AWS.
	Fingerprints secretkey.Key
	// Polling times each resource's next look; the zero value is
	// managedoptions.DefaultPolling.
	Polling *managedoptions.Polling
	// Budgets keep the AWS calls within AWS's quotas; the sessions' clients
	// take their tokens. Without them, periodic looks are not timed by the
	// budgets.
	Budgets *budget.Budgets
	// Namespace is the provider's own namespace, where it keeps the
	// ownership claims (ownership.CacheOptions caches them).
	Namespace string
}

// Add adds the controller of kind k to the manager.
func Add[MR resource.ModernManaged](mgr ctrl.Manager, o controller.Options, shared Shared, k Kind[MR]) error {
	sessions := shared.Sessions
	polling := managedoptions.DefaultPolling
	if shared.Polling != nil {
		polling = *shared.Polling
	}
	name := managed.ControllerName(k.GroupVersionKind.GroupKind().String())
	kube := CachedMetadata(mgr)
	observations := metrics.NewObservations(k.GroupVersionKind.Kind)
	owners := k.ownership(mgr, o, shared.Namespace)
	if err := mgr.GetFieldIndexer().IndexField(context.Background(), k.Object, ownership.IndexField, owners.Index); err != nil {
		return err
	}
	creating := &toCreate{}
	var slots *lookSlots
	if shared.Budgets != nil && k.Looks != nil {
		slots = newLookSlots()
	}
	var usable *usableAtCreate
	if k.ReadyAtCreate {
		usable = newUsableAtCreate()
	}
	refs := newReferences(kube)
	policiesHonoured := o.Features.Enabled(feature.EnableBetaManagementPolicies)
	connector := connect.New(kube, sessions, k.Region, func(_ MR, s *awsconfig.Session) managed.TypedExternalClient[MR] {
		c := ownership.Wrap(k.External(kube, s), owners, s.AccountID, s.Region)
		return &observed[MR]{TypedExternalClient: c, observations: observations, creating: creating, usable: usable, slots: slots,
			references: refs, policiesHonoured: policiesHonoured}
	})
	if m := o.MetricOptions; m != nil && m.MRStateMetrics != nil && k.List != nil {
		if err := mgr.Add(statemetrics.NewMRStateRecorder(kube, o.Logger, m.MRStateMetrics, k.List, m.PollStateMetricInterval)); err != nil {
			return err
		}
	}
	initializers := []managed.Initializer{}
	if k.NameField != "" {
		initializers = append(initializers, externalname.FromField(k.NameField, k.Name))
	}
	r := managed.NewReconciler(mgr, resource.ManagedKind(k.GroupVersionKind),
		managedoptions.For(mgr, name, o, polling,
			managed.WithTypedExternalConnector[MR](connector),
			managed.WithInitializers(initializers...),
			managed.WithFinalizer(&deferredFinalizer{Finalizer: resource.NewAPIFinalizer(kube, managed.FinalizerName), creating: creating, policiesHonoured: policiesHonoured, claims: owners.Claims}),
			managed.WithReferenceResolver(refs),
			// Every kind can learn what a create it cannot remember made:
			// four by the name the user chose, Subscription by looking
			// its topic up. A provider killed between the create call and
			// the record of its result so never strands a resource.
			managed.WithDeterministicExternalName(true),
		)...)
	// Every kind may record the tag keys it manages; the record is no
	// change of the desired state.
	recorded := append([]string{tags.AnnotationManagedKeys}, k.Recorded...)
	var gate func(reconcile.Reconciler) reconcile.Reconciler
	if slots != nil {
		gate = func(inner reconcile.Reconciler) reconcile.Reconciler {
			return &lookGate[MR]{
				inner: inner, kind: k.GroupVersionKind.Kind, object: k.Object, kube: kube,
				where: func(ctx context.Context, mg MR) (string, string, error) {
					s, err := sessions.Session(ctx, mg, k.Region(mg))
					if err != nil {
						return "", "", err
					}
					return s.AccountID, s.Region, nil
				},
				looks: k.Looks, budgets: shared.Budgets, log: o.Logger.WithValues("controller", name),
				clock: clock.RealClock{}, slots: slots,
			}
		}
	}
	return managedoptions.Register(mgr, name, o, k.Object, r, gate, recorded, k.Watches...)
}

// ownership describes the kind to the ownership checks; its claims are kept
// in namespace.
func (k Kind[MR]) ownership(mgr ctrl.Manager, o controller.Options, namespace string) *ownership.Kind[MR] {
	identity, field, another := k.Name, k.NameField, "another name"
	if k.Identity != nil {
		identity, field, another = k.Identity, k.IdentityField, k.Another
	}
	return &ownership.Kind[MR]{
		GroupKind:     k.GroupVersionKind.GroupKind(),
		Words:         ownership.Words{Noun: k.Noun, Field: field, Another: another},
		Identity:      identity,
		Metadata:      k.Metadata,
		AlreadyExists: k.AlreadyExists,
		Where:         k.Where,
		Tagged:        k.Tagged,
		List:          k.List,
		Claims: ownership.NewClaims(namespace, k.GroupVersionKind.GroupKind(), func() client.Object { return k.newObject() },
			mgr.GetCache(), mgr.GetAPIReader(), mgr.GetClient()),
		Objects:          mgr.GetCache(),
		New:              k.newObject,
		PoliciesHonoured: o.Features.Enabled(feature.EnableBetaManagementPolicies),
	}
}

func (k Kind[MR]) newObject() MR {
	return k.Object.DeepCopyObject().(MR) //nolint:forcetypeassert // a copy of its own type
}

// observed records every observation of a resource in AWS, for the achieved
// poll interval, and, for the kinds Ready at create, takes the look after a
// create from the create's answer.
type observed[MR resource.Managed] struct {
	managed.TypedExternalClient[MR]
	observations *metrics.Observations
	creating     *toCreate
	usable       *usableAtCreate // nil unless the kind is Ready at create
	slots        *lookSlots      // nil unless the kind's looks are budgeted
	// references, resolved before the look, are written after it.
	references       *references
	policiesHonoured bool
}

func (o *observed[MR]) Create(ctx context.Context, mg MR) (managed.ExternalCreation, error) {
	c, err := o.TypedExternalClient.Create(ctx, mg)
	if err == nil && o.usable != nil {
		o.usable.remember(mg, c.ConnectionDetails)
	}
	return c, err
}

func (o *observed[MR]) Observe(ctx context.Context, mg MR) (managed.ExternalObservation, error) {
	// The create's answer stands for a look only if the references still
	// resolve to what the create sent.
	if o.usable != nil && !o.references.resolvedAnew(mg.GetUID()) {
		if details, ok := o.usable.take(mg); ok {
			mg.SetConditions(xpv2.Available())
			obs := managed.ExternalObservation{ResourceExists: true, ResourceUpToDate: true, ConnectionDetails: details}
			o.creating.observed(mg, obs, nil)
			return obs, nil
		}
	}
	o.observations.Observed(mg.GetUID())
	o.slots.looked(types.NamespacedName{Namespace: mg.GetNamespace(), Name: mg.GetName()})
	obs, err := o.TypedExternalClient.Observe(ctx, mg)
	o.creating.observed(mg, obs, err)
	if err != nil {
		o.references.forget(mg.GetUID())
		return obs, err
	}
	if !obs.ResourceExists && meta.WasDeleted(mg) {
		o.observations.Forget(mg.GetUID())
	}
	creates := !obs.ResourceExists && !meta.WasDeleted(mg) && ownership.Creates(mg, o.policiesHonoured)
	return obs, o.references.settle(ctx, mg, creates)
}
