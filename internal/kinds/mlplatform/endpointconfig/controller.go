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

// Package endpointconfig reconciles EndpointConfigs with Amazon SageMaker.
package endpointconfig

import (
	"context"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"sigs.k8s.io/controller-runtime/pkg/client"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/apis/mlplatform/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/aws/awserrors"
	"github.com/cloudkinds/provider-aws-services/internal/aws/quota"
	sm "github.com/cloudkinds/provider-aws-services/internal/aws/sagemaker"
	"github.com/cloudkinds/provider-aws-services/internal/aws/tags"
	"github.com/cloudkinds/provider-aws-services/internal/kube/persist"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/metadata"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/awsconfig"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/budget"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/ownership"
)

const (
	errDescribe = "cannot describe endpoint configuration"
	errCreate   = "cannot create endpoint configuration"
	errDelete   = "cannot delete endpoint configuration"
	errReplaced = "the endpoint configuration in SageMaker differs from the spec in %s; SageMaker cannot change an endpoint configuration in place: set spec.forProvider to what SageMaker holds, or create another EndpointConfig, with another endpointConfigName, for this spec"
)

// Kind is the EndpointConfig kind. SageMaker refuses a create of a name
// that exists, so a new object creates before it looks; its create's
// answer shows the configuration usable.
var Kind = reconciler.Define(definition)

// definition is the kind's definition, which the conformance suite runs.
var definition = reconciler.Definition[*v1alpha1.EndpointConfig]{
	Kind: reconciler.Kind{
		GroupVersionKind: v1alpha1.EndpointConfigGroupVersionKind,
		Noun:             "endpoint configuration",
		Create:           quota.Operation{Service: sagemaker.ServiceID, Name: "CreateEndpointConfig"},
		CreatesFirst:     true,
		Tagged:           true,
		NameField:        "spec.forProvider.endpointConfigName",
		ConnectionKeys:   sm.ConnectionKeys,
		Example:          "examples/mlplatform/endpointconfig.yaml",
		Import:           reconciler.Import{List: listEndpointConfigs},
	},
	Object: &v1alpha1.EndpointConfig{},
	List:   &v1alpha1.EndpointConfigList{},
	Region: func(mg *v1alpha1.EndpointConfig) *string { return mg.Spec.ForProvider.Region },
	Name:   func(mg *v1alpha1.EndpointConfig) string { return mg.Spec.ForProvider.EndpointConfigName },
	External: func(c reconciler.Connection) ownership.ExternalClient[*v1alpha1.EndpointConfig] {
		return &external{client: awsconfig.ClientFor(c.Session, sagemaker.NewFromConfig), kube: c.Kube, session: c.Session, ownerTags: c.OwnerTags}
	},
	Metadata: func(mg *v1alpha1.EndpointConfig) *common.ResourceMetadata {
		return mg.Status.AtProvider.ACKResourceMetadata
	},
	ReadyAtCreate: true,
	ObserveCalls:  observeCalls,
}

// observeCalls are the calls an Observe of mg makes: the describe, and the
// tag list when tags.Listed says so, decided on mg as read, as Observe
// decides it.
func observeCalls(mg *v1alpha1.EndpointConfig, s *awsconfig.Session) []quota.Operation {
	return budget.ObserveCalls(sagemaker.ServiceID, "DescribeEndpointConfig", "ListTags", tags.Listed(mg, wantTags(mg, s)))
}

type external struct {
	reconciler.SessionClients

	client  sm.API
	kube    client.Client
	session *awsconfig.Session

	ownerTags func(resource.Managed) map[string]string
	// What the last Observe found, for ownership.
	ownership.Observed
	bodyDiff []string
	tagPlan  tags.Plan
	// What the last Observe published, which an Update publishes again.
	published map[string][]byte
}

// Observe describes the endpoint configuration and, when the spec manages
// tags, lists them (the description has none).
func (e *external) Observe(ctx context.Context, mg *v1alpha1.EndpointConfig) (managed.ExternalObservation, error) {
	d, err := e.client.DescribeEndpointConfig(ctx, &sagemaker.DescribeEndpointConfigInput{EndpointConfigName: aws.String(meta.GetExternalName(mg))})
	if awserrors.IsNotFound(err, sm.NotFound) {
		return managed.ExternalObservation{ResourceExists: false}, nil
	}
	if err != nil {
		return managed.ExternalObservation{}, awserrors.Wrap(err, errDescribe)
	}
	e.Observed = ownership.Observed{ARN: aws.ToString(d.EndpointConfigArn), Created: aws.ToTime(d.CreationTime)}
	tagService := sm.TagService(e.client, e.ARN)
	e.Tags = &tagService
	p := &mg.Spec.ForProvider
	e.bodyDiff = sm.BodyDiff(p, d)
	diffs := append([]string{}, e.bodyDiff...)
	if e.tagPlan, err = tags.Observe(ctx, mg, wantTags(mg, e.session), *e.Tags); err != nil {
		return managed.ExternalObservation{}, err
	}
	e.Listed = e.tagPlan.Listed()
	if !e.tagPlan.UpToDate() {
		diffs = append(diffs, tags.Path)
	}
	mg.Status.AtProvider.ForProvider = nil
	if ownership.ShowsConfiguration(mg) {
		c := sm.ObservedParameters(d)
		c.Region, c.Tags = aws.String(e.session.Region), tags.ToList(e.tagPlan.Shown())
		mg.Status.AtProvider.ForProvider = &c
	}
	previous := mg.Status.AtProvider.ACKResourceMetadata
	mg.Status.AtProvider.ACKResourceMetadata = metadata.For(e.session, metadata.VerifiedARN(mg, previous, e.ARN, len(e.bodyDiff) == 0))
	mg.SetConditions(xpv2.Available())
	e.published = sm.ConnectionDetails(d.EndpointConfigName, d.EndpointConfigArn)
	return managed.ExternalObservation{ResourceExists: true, ResourceUpToDate: len(diffs) == 0, ConnectionDetails: e.published, Diff: strings.Join(diffs, ", ")}, nil
}

// wantTags is what the endpoint configuration's tags should be: its provider
// config's default tags, its initProvider's and its forProvider's.
func wantTags(mg *v1alpha1.EndpointConfig, s *awsconfig.Session) tags.Want {
	var init map[string]string
	if i := mg.Spec.InitProvider; i != nil {
		init = tags.FromList(i.Tags)
	}
	return reconciler.WantTags(mg, s, tags.FromList(mg.Spec.ForProvider.Tags), init)
}

// Create creates the endpoint configuration with every field and its tags
// (initProvider holds only tags: SageMaker can change nothing else). A KMS
// key with a local-storage instance type is refused before the call, as
// SageMaker would refuse it.
func (e *external) Create(ctx context.Context, mg *v1alpha1.EndpointConfig) (managed.ExternalCreation, error) {
	if err := sm.LocalStorageConflict(&mg.Spec.ForProvider); err != nil {
		return managed.ExternalCreation{}, err
	}
	want := wantTags(mg, e.session)
	tagSet, err := want.AtCreate(e.ownerTags(mg))
	if err != nil {
		return managed.ExternalCreation{}, err
	}
	out, err := e.client.CreateEndpointConfig(ctx, sm.CreateInput(&mg.Spec.ForProvider, tagSet))
	if err != nil {
		return managed.ExternalCreation{}, awserrors.Wrap(err, errCreate)
	}
	// What the Observe after the create shows: the configuration is usable
	// as soon as it exists, and its ARN is all Observe reports, which it
	// publishes with the name the create sent.
	mg.Status.AtProvider.ACKResourceMetadata = metadata.For(e.session, aws.ToString(out.EndpointConfigArn))
	persist.AtCreate(mg, tags.Record(mg, want.Desired()))
	return managed.ExternalCreation{ConnectionDetails: sm.ConnectionDetails(aws.String(mg.Spec.ForProvider.EndpointConfigName), out.EndpointConfigArn)}, nil
}

// Update changes the tags, the only part SageMaker can change. A body that
// differs was replaced outside Kubernetes, and is reported as an error.
func (e *external) Update(ctx context.Context, mg *v1alpha1.EndpointConfig) (managed.ExternalUpdate, error) {
	if err := e.tagPlan.Apply(ctx, *e.Tags); err != nil {
		return managed.ExternalUpdate{}, err
	}
	if rec := tags.Record(mg, wantTags(mg, e.session).Desired()); rec != nil {
		if err := persist.Annotations(ctx, e.kube, mg, rec); err != nil {
			return managed.ExternalUpdate{}, err
		}
	}
	if len(e.bodyDiff) > 0 {
		return managed.ExternalUpdate{}, errors.Errorf(errReplaced, strings.Join(e.bodyDiff, ", "))
	}
	// Tags are no connection detail: those Observe read stand.
	return managed.ExternalUpdate{ConnectionDetails: e.published}, nil
}

// Delete deletes the endpoint configuration.
func (e *external) Delete(ctx context.Context, mg *v1alpha1.EndpointConfig) (managed.ExternalDelete, error) {
	mg.SetConditions(xpv2.Deleting())
	_, err := e.client.DeleteEndpointConfig(ctx, &sagemaker.DeleteEndpointConfigInput{EndpointConfigName: aws.String(meta.GetExternalName(mg))})
	return managed.ExternalDelete{}, awserrors.Wrap(awserrors.IgnoreNotFound(err, sm.NotFound), errDelete)
}
