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

// Package endpoint reconciles Endpoints with EventBridge global endpoints.
package endpoint

import (
	"context"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/apis/eventbus/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/aws/awserrors"
	eb "github.com/cloudkinds/provider-aws-services/internal/aws/eventbridge"
	"github.com/cloudkinds/provider-aws-services/internal/aws/quota"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/conditions"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/connect"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/initprovider"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/metadata"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/awsconfig"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/budget"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/ownership"
)

const (
	errDescribe = "cannot describe endpoint"
	errCreate   = "cannot create endpoint"
	errUpdate   = "cannot update endpoint"
	errDelete   = "cannot delete endpoint"
)

// states maps EventBridge's endpoint states onto the Ready condition.
var states = conditions.StateMap{
	Available: []string{string(types.EndpointStateActive)},
	Creating:  []string{string(types.EndpointStateCreating)},
	Updating:  []string{string(types.EndpointStateUpdating)},
	Deleting:  []string{string(types.EndpointStateDeleting)},
	Failed:    []string{string(types.EndpointStateCreateFailed), string(types.EndpointStateUpdateFailed), string(types.EndpointStateDeleteFailed)},
}

// Kind is the Endpoint kind. EventBridge refuses a create of a name that
// exists, so a new object creates before it looks; it cannot tag a global
// endpoint.
var Kind = reconciler.Define(definition)

// definition is the kind's definition, which the conformance suite runs.
var definition = reconciler.Definition[*v1alpha1.Endpoint]{
	Kind: reconciler.Kind{
		GroupVersionKind: v1alpha1.EndpointGroupVersionKind,
		Noun:             "global endpoint",
		Create:           quota.Operation{Service: eventbridge.ServiceID, Name: "CreateEndpoint"},
		CreatesFirst:     true,
		NameField:        "spec.forProvider.name",
		ConnectionKeys:   eb.ConnectionKeys,
		Example:          "examples/eventbus/endpoint.yaml",
		Import:           reconciler.Import{List: listEndpoints},
	},
	Object: &v1alpha1.Endpoint{},
	List:   &v1alpha1.EndpointList{},
	Region: func(mg *v1alpha1.Endpoint) *string { return mg.Spec.ForProvider.Region },
	Name:   func(mg *v1alpha1.Endpoint) string { return mg.Spec.ForProvider.Name },
	External: func(c reconciler.Connection) ownership.ExternalClient[*v1alpha1.Endpoint] {
		return &external{client: awsconfig.ClientFor(c.Session, eventbridge.NewFromConfig), session: c.Session}
	},
	Metadata: func(mg *v1alpha1.Endpoint) *common.ResourceMetadata {
		return metadata.Plain(mg.Status.AtProvider.ACKResourceMetadata)
	},
	ObserveCalls: func(*v1alpha1.Endpoint, *awsconfig.Session) []quota.Operation {
		return budget.ObserveCalls(eventbridge.ServiceID, "DescribeEndpoint", "", false)
	},
}

type external struct {
	reconciler.SessionClients

	client  eb.API
	session *awsconfig.Session

	// What the last Observe found, for ownership: EventBridge cannot tag a
	// global endpoint, so its creation time is what tells.
	ownership.Observed
	// What the last Observe published, which an Update publishes again.
	published map[string][]byte
}

// Observe describes the endpoint: one call, which also carries its URL, ID
// and ARN, the connection details.
func (e *external) Observe(ctx context.Context, mg *v1alpha1.Endpoint) (managed.ExternalObservation, error) {
	d, err := e.client.DescribeEndpoint(ctx, &eventbridge.DescribeEndpointInput{Name: aws.String(meta.GetExternalName(mg))})
	if awserrors.IsNotFound(err) {
		return managed.ExternalObservation{ResourceExists: false}, nil
	}
	if err != nil {
		return managed.ExternalObservation{}, awserrors.Wrap(err, errDescribe)
	}
	e.Observed = ownership.Observed{Created: aws.ToTime(d.CreationTime), ARN: aws.ToString(d.Arn)}
	previous := mg.Status.AtProvider.ACKResourceMetadata
	mg.Status.AtProvider = eb.Observation(d)
	if ownership.ShowsConfiguration(mg) {
		c := eb.ObservedParameters(d)
		c.Region = aws.String(e.session.Region)
		mg.Status.AtProvider.ForProvider = &c
	}
	reason := aws.ToString(d.StateReason)
	if meta.WasDeleted(mg) && d.State == types.EndpointStateDeleteFailed {
		// The deletion is asked again (Delete); should EventBridge keep
		// failing it, the object says how to let it go.
		reason += "; the deletion is asked again: " + connect.WayOut
	}
	mg.SetConditions(states.Condition(string(d.State), reason))

	// Only an ACTIVE endpoint, or one whose update failed, can be updated;
	// a failed update whose spec AWS already holds is not retried.
	diffs := []string{}
	if d.State == types.EndpointStateActive || d.State == types.EndpointStateUpdateFailed {
		diffs = eb.Diff(&mg.Spec.ForProvider, d)
	}
	mg.Status.AtProvider.ACKResourceMetadata = metadata.WithPartition(e.session, metadata.VerifiedARN(mg, metadata.Plain(previous), aws.ToString(d.Arn), len(diffs) == 0))
	e.published = eb.ConnectionDetails(d)
	return managed.ExternalObservation{
		ResourceExists:    true,
		ResourceUpToDate:  len(diffs) == 0,
		ConnectionDetails: e.published,
		Diff:              strings.Join(diffs, ", "),
	}, nil
}

// Create creates the endpoint from forProvider, completed from
// initProvider.
func (e *external) Create(ctx context.Context, mg *v1alpha1.Endpoint) (managed.ExternalCreation, error) {
	if _, err := e.client.CreateEndpoint(ctx, eb.CreateInput(initprovider.Merge(&mg.Spec.ForProvider, mg.Spec.InitProvider))); err != nil {
		return managed.ExternalCreation{}, awserrors.Wrap(err, errCreate)
	}
	mg.SetConditions(xpv2.Creating())
	return managed.ExternalCreation{}, nil
}

// Update sends forProvider's updatable configuration in one call; what it
// leaves out (initProvider's fields among them) EventBridge keeps. An update
// changes none of the connection details: those Observe read stand, and the
// Secret is not written again.
func (e *external) Update(ctx context.Context, mg *v1alpha1.Endpoint) (managed.ExternalUpdate, error) {
	if _, err := e.client.UpdateEndpoint(ctx, eb.UpdateInput(&mg.Spec.ForProvider)); err != nil {
		return managed.ExternalUpdate{}, awserrors.Wrap(err, errUpdate)
	}
	return managed.ExternalUpdate{ConnectionDetails: e.published}, nil
}

// Delete deletes the endpoint, unless EventBridge is deleting it already.
func (e *external) Delete(ctx context.Context, mg *v1alpha1.Endpoint) (managed.ExternalDelete, error) {
	switch aws.ToString(mg.Status.AtProvider.State) {
	case string(types.EndpointStateDeleting):
		mg.SetConditions(xpv2.Deleting())
		return managed.ExternalDelete{}, nil
	case string(types.EndpointStateDeleteFailed):
		// The failure Observe showed, with its way out, stays until AWS
		// is deleting the endpoint again.
	default:
		mg.SetConditions(xpv2.Deleting())
	}
	_, err := e.client.DeleteEndpoint(ctx, &eventbridge.DeleteEndpointInput{Name: aws.String(meta.GetExternalName(mg))})
	return managed.ExternalDelete{}, awserrors.Wrap(awserrors.IgnoreNotFound(err), errDelete)
}
