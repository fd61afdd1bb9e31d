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

// Package reconciler wires the controller of one managed resource kind from a
// short description of it (a Kind): how to read its region, how to build its
// external client on an AWS session, which field is its external name, what
// else it watches. The wiring is the same for all five kinds; path.go shows
// it in the order a reconcile takes it.
package reconciler

import (
	"context"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/crossplane/crossplane-runtime/v2/pkg/controller"
	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
	"github.com/crossplane/crossplane-runtime/v2/pkg/feature"
	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/aws/connection"
	"github.com/cloudkinds/provider-aws-services/internal/aws/listing"
	"github.com/cloudkinds/provider-aws-services/internal/aws/quota"
	"github.com/cloudkinds/provider-aws-services/internal/aws/tags"
	"github.com/cloudkinds/provider-aws-services/internal/kube/kubeclient"
	"github.com/cloudkinds/provider-aws-services/internal/kube/secretkey"
	"github.com/cloudkinds/provider-aws-services/internal/kube/sweep"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/managedoptions"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/awsconfig"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/budget"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/ownership"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/shard"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/usage"
)

// A Kind is one managed resource kind, as a single value: everything the
// provider and its tools list of a kind (the controllers, the budgets, the
// import command, the API reference, the docs' tables, the examples) is
// read from it. A kind's package declares it with Define.
type Kind struct {
	GroupVersionKind schema.GroupVersionKind
	// Noun is what messages call the kind: "delivery stream".
	Noun string
	// Create is the AWS operation that creates the kind's resources: the
	// budgets size the Kubernetes client's rate by it, and its service is
	// the kind's.
	Create quota.Operation
	// CreatesFirst is true for the kinds whose create AWS refuses when the
	// identity exists: a new object calls Create before any look
	// (ownership.Owners.CreatesFirst), and its first reconcile takes a turn
	// in Create's budget. False for a kind that looks first.
	CreatesFirst bool
	// Tagged is true for the kinds AWS can tag: their creates carry the
	// owner tags, and the import command reads their tags.
	Tagged bool
	// NameField is the path of the field that is the external name;
	// empty when AWS names the resource (the external name is set by
	// Create, and the kind's Observe must find what an interrupted create
	// made without it).
	NameField string
	// ConnectionKeys are the keys of the kind's connection Secret, as its
	// service's package declares them; the API reference lists them.
	ConnectionKeys connection.Keys
	// Example is the kind's example manifest, from the repository's root:
	// make dev applies it, and the package tests take it to Ready.
	Example string
	// Import is how the import command lists the kind's resources.
	Import Import
	// Setup adds the kind's controller to the manager (Define sets it).
	Setup func(ctrl.Manager, controller.Options, Shared) error
}

// Import is how the import command lists a kind's resources and tells the
// ones an object names.
type Import struct {
	// List lists the kind's resources in the region cfg calls, reading
	// what each needs with workers at once.
	List func(ctx context.Context, cfg aws.Config, workers int) ([]listing.Found, error)
	// Named returns the identifiers an object of the kind names, when they
	// are not its name field and external name (a subscription's ARN and
	// identity).
	Named func(u *unstructured.Unstructured) []string
	// Base is the readable part of an object name for a resource, before
	// it is made a DNS label; the identifier when nil.
	Base func(id string) string
}

// An Object is a managed resource of a kind: namespaced (ModernManaged),
// and copying itself into another of its type, as generated types do.
type Object[MR any] interface {
	resource.ModernManaged
	DeepCopyInto(MR)
}

// Define returns the kind d defines, whose Setup adds d's controller.
func Define[MR Object[MR]](d Definition[MR]) Kind {
	k := d.Kind
	k.Setup = func(mgr ctrl.Manager, o controller.Options, shared Shared) error {
		return Add(mgr, o, shared, d)
	}
	return k
}

// A Definition is what the managed-resource path needs of a kind beyond
// its Kind: its Go type and how to read it, and its external client.
type Definition[MR Object[MR]] struct {
	Kind
	// Object is an empty object of the kind.
	Object MR
	// Region reads spec.forProvider.region.
	Region func(MR) *string
	// External builds the kind's external client.
	External func(Connection) ownership.ExternalClient[MR]
	// Name reads the external name's field (Kind.NameField).
	Name func(MR) string
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
	// Secrets are the names of the Secrets, in the object's namespace, an
	// object reads: a change to one reconciles the objects that read it.
	Secrets func(MR) []string
	// SentAnnotations are the annotations the kind writes to remember what
	// it sent to AWS: writing them reconciles nothing again.
	SentAnnotations []string
	// List is an empty list of the kind: a template, which whoever lists
	// copies first, so that it stays empty.
	List resource.ManagedList
	// ObserveCalls are the AWS operations the kind's Observe calls for a
	// resource through the session of its provider config (whose default
	// tags, say, make the tags listed): the budgets of these time its
	// periodic polls, and the budget middleware counts any other call an
	// Observe makes (metrics.UndeclaredObserveCalls), which the tests
	// require to be none.
	ObserveCalls func(MR, *awsconfig.Session) []quota.Operation
	// ReadyAtCreate says that AWS's answer to a create shows the resource
	// usable, and that Create sets from it all of status.atProvider that
	// Observe would: the object is then Ready at the Observe after the
	// create without a call to AWS.
	ReadyAtCreate bool
}

// WantTags are the tags a taggable kind's object wants on its resource: the
// session's config's default tags, under the spec's (spec) and, at create,
// initProvider's (init); shown in the status while the object shows AWS's
// configuration (an import).
func WantTags(mg resource.Managed, s *awsconfig.Session, spec, init map[string]string) tags.Want {
	return tags.Want{Defaults: s.DefaultTags, Spec: spec, Init: init, Shown: ownership.ShowsConfiguration(mg)}
}

// SessionClients is embedded by a kind's external client for its
// Disconnect: the client holds nothing to release, its AWS clients being
// the session's, shared by every reconcile.
type SessionClients struct{}

// Disconnect releases nothing.
func (SessionClients) Disconnect(context.Context) error { return nil }

// A Connection is what a kind's external client is built from.
type Connection struct {
	// Kube reads and patches objects in the cluster.
	Kube client.Client
	// Session is the AWS session of the object's provider config and region;
	// it carries the config's default tags.
	Session *awsconfig.Session
	// OwnerTags are the tags a create puts on what it makes, naming the
	// object (ownership.OwnerTags of the kind).
	OwnerTags func(resource.Managed) map[string]string
	// Left tells, in an Event on the object and in metrics.LeftOnAWS, what
	// a deletion leaves on AWS that AWS does not let it delete.
	Left func(mg resource.Managed, what string)
	// Secrets reads the Secrets the object refers to, and fingerprints
	// the values sent to AWS.
	Secrets *secretkey.Reader
	// HoldsClaim reports whether the object holds its identity's claim for
	// a create AWS did not refuse (ownership.Owners.HoldsCreateClaim): whether
	// it may take a resource AWS hides for its own create's work.
	HoldsClaim func(ctx context.Context, mg resource.Managed) bool
}

// ReasonLeftOnAWS is the reason of the Event that says what a deletion left
// on AWS.
const ReasonLeftOnAWS event.Reason = "LeftOnAWS"

// Shared is what the controllers of every kind share.
type Shared struct {
	// Sessions are the AWS sessions, one per ProviderConfig and region.
	Sessions *awsconfig.Cache
	// Fingerprints keys the fingerprints of the secret values sent to AWS.
	Fingerprints secretkey.Key
	// Polling times each resource's next poll; nil is
	// managedoptions.DefaultPolling.
	Polling *managedoptions.Polling
	// Budgets keep the AWS calls within AWS's quotas; the sessions' clients
	// take their tokens. Without them, periodic polls are not paced by the
	// budgets.
	Budgets *budget.Budgets
	// Namespace is the provider's own namespace, where it keeps the
	// ownership claims (ownership.CacheOptions caches them).
	Namespace string
	// NamespacesReadable is true when the provider may read namespaces
	// (ackannotations.NamespacesReadable): only then are their deletion
	// policies read.
	NamespacesReadable bool
	// Sweeps release the claims and usages whose owner went without
	// releasing them; nil sweeps nothing. Each kind adds its claims'.
	Sweeps *sweep.Set
	// Shards are this replica's part of the work when several replicas
	// share it (--shards); nil does all of it.
	Shards *shard.Set
}

// NewSweeps returns the provider's sweeps, every every (0 is
// sweep.DefaultEvery), starting with the usages' (usage.Sweep), to which
// each kind adds its claims'. Add it to the manager.
func NewSweeps(mgr ctrl.Manager, log logging.Logger, namespace string, every time.Duration) *sweep.Set {
	if every <= 0 {
		every = sweep.DefaultEvery
	}
	s := &sweep.Set{Every: every, Log: log}
	s.Add("the usages of provider configs", UsageSweep(mgr, namespace).Once)
	return s
}

// UsageSweep is the sweep of the usages of provider configs, whose objects'
// claims are kept in namespace.
func UsageSweep(mgr ctrl.Manager, namespace string) *usage.Sweep {
	return &usage.Sweep{Kube: mgr.GetClient(), Records: usage.NewRecords(mgr.GetCache(), mgr.GetAPIReader()), Record: event.NewAPIRecorder(mgr.GetEventRecorderFor("usage-sweep")), //nolint:staticcheck,nolintlint // as managedoptions.For
		Claimed: func(ctx context.Context, ref xpv2.TypedReference, owner string, uid types.UID) (bool, error) {
			gv, err := schema.ParseGroupVersion(ref.APIVersion)
			if err != nil {
				return false, nil //nolint:nilerr // a reference that names no kind names no holder
			}
			holder := ownership.Owner{Kind: strings.ToLower(gv.WithKind(ref.Kind).GroupKind().String()), Namespace: owner, Name: ref.Name, UID: uid}
			return ownership.HoldsAny(ctx, mgr.GetCache(), namespace, holder)
		}}
}

// ownership describes the kind to the ownership checks; its claims are kept
// in namespace.
func (k Definition[MR]) ownership(mgr ctrl.Manager, o controller.Options, namespace string, sessions *awsconfig.Cache) *ownership.Owners[MR] {
	identity, field, another := k.Name, k.NameField, "another name"
	if k.Identity != nil {
		identity, field, another = k.Identity, k.IdentityField, k.Another
	}
	return &ownership.Owners[MR]{
		GroupKind: k.GroupVersionKind.GroupKind(),
		Terms:     ownership.MessageTerms{Noun: k.Noun, Field: field, Another: another},
		Identity:  identity,
		Metadata:  k.Metadata,
		Where:     k.Where,
		Tagged:    k.Tagged,
		Claims: ownership.NewClaims(namespace, k.GroupVersionKind, func() client.Object { return k.newObject() },
			mgr.GetCache(), mgr.GetAPIReader(), mgr.GetClient()),
		Objects:          kubeclient.CacheThenAPIServer(mgr.GetCache(), mgr.GetAPIReader()),
		New:              k.newObject,
		PoliciesHonoured: o.Features.Enabled(feature.EnableBetaManagementPolicies),

		CreateRefusedIfExists: k.CreatesFirst,
		PlaceOf: func(ctx context.Context, mg MR) (ownership.Place, bool) {
			d := sessions.Destination(ctx, mg, k.Region(mg))
			switch {
			case !d.Calls:
				return ownership.Place{}, false
			case d.Session == nil:
				return ownership.Place{Endpoint: d.Endpoint, Account: d.Account, Region: d.Region, Config: d.ProviderConfig}, true
			}
			return place(d.Session), true
		},
	}
}

func (k Definition[MR]) newObject() MR {
	return k.Object.DeepCopyObject().(MR) //nolint:forcetypeassert // a copy of its own type
}

// emptyList is a list of the kind of its own, copied from the template.
func (k Definition[MR]) emptyList() client.ObjectList {
	if k.List == nil {
		return nil
	}
	l, _ := k.List.DeepCopyObject().(client.ObjectList)
	return l
}
