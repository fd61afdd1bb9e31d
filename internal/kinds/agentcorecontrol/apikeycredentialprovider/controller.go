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

// Package apikeycredentialprovider reconciles APIKeyCredentialProviders with
// Amazon Bedrock AgentCore Control, rotating the key when its Secret changes.
package apikeycredentialprovider

import (
	"context"
	"maps"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/apis/agentcorecontrol/v1alpha1"
	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	ac "github.com/cloudkinds/provider-aws-services/internal/aws/agentcore"
	"github.com/cloudkinds/provider-aws-services/internal/aws/awserrors"
	"github.com/cloudkinds/provider-aws-services/internal/aws/quota"
	"github.com/cloudkinds/provider-aws-services/internal/aws/tags"
	"github.com/cloudkinds/provider-aws-services/internal/kube/persist"
	"github.com/cloudkinds/provider-aws-services/internal/kube/secretkey"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/metadata"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/awsconfig"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/budget"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/ownership"
)

const (
	errGet    = "cannot get credential provider"
	errCreate = "cannot create credential provider"
	errRotate = "cannot update the API key of credential provider"
	errDelete = "cannot delete credential provider"

	apiKeyField = "spec.forProvider.apiKey"

	// AnnotationAPIKeyFingerprint records a keyed hash of the API key last
	// sent to AWS, which never returns it: a change of the Secret's value is
	// noticed, and rotated, without the key being stored.
	AnnotationAPIKeyFingerprint = "agentcorecontrol.services.k8s.aws/api-key-fingerprint"
	// AnnotationAPIKeySecretVersion records the resourceVersion of the
	// key's Secret when the key was last sent: the key is read again only
	// once the Secret changed.
	AnnotationAPIKeySecretVersion = "agentcorecontrol.services.k8s.aws/api-key-secret-version"
)

// Kind is the APIKeyCredentialProvider kind. AgentCore refuses a create of
// a name that exists, so a new object creates before it looks; its
// create's answer shows the provider usable. It watches the Secrets the
// resources read, so that a rotated key reaches AWS at once.
var Kind = reconciler.Define(definition)

// definition is the kind's definition, which the conformance suite runs.
var definition = reconciler.Definition[*v1alpha1.APIKeyCredentialProvider]{
	Kind: reconciler.Kind{
		GroupVersionKind: v1alpha1.APIKeyCredentialProviderGroupVersionKind,
		Noun:             "API-key credential provider",
		Create:           quota.Operation{Service: bedrockagentcorecontrol.ServiceID, Name: "CreateApiKeyCredentialProvider"},
		CreatesFirst:     true,
		Tagged:           true,
		NameField:        "spec.forProvider.name",
		ConnectionKeys:   ac.ConnectionKeys,
		Example:          "examples/agentcorecontrol/apikeycredentialprovider.yaml",
		Import:           reconciler.Import{List: listAPIKeyCredentialProviders},
	},
	Object:          &v1alpha1.APIKeyCredentialProvider{},
	List:            &v1alpha1.APIKeyCredentialProviderList{},
	SentAnnotations: []string{AnnotationAPIKeyFingerprint, AnnotationAPIKeySecretVersion},
	Region:          func(mg *v1alpha1.APIKeyCredentialProvider) *string { return mg.Spec.ForProvider.Region },
	Name:            func(mg *v1alpha1.APIKeyCredentialProvider) string { return mg.Spec.ForProvider.Name },
	External: func(c reconciler.Connection) ownership.ExternalClient[*v1alpha1.APIKeyCredentialProvider] {
		return &external{client: awsconfig.ClientFor(c.Session, bedrockagentcorecontrol.NewFromConfig), kube: c.Kube, session: c.Session, ownerTags: c.OwnerTags, secrets: c.Secrets}
	},
	Metadata: func(mg *v1alpha1.APIKeyCredentialProvider) *common.ResourceMetadata {
		return metadata.Plain(mg.Status.AtProvider.ACKResourceMetadata)
	},
	ReadyAtCreate: true,
	ObserveCalls:  observeCalls,
	Secrets: func(mg *v1alpha1.APIKeyCredentialProvider) []string {
		if k := mg.Spec.ForProvider.APIKey; k != nil {
			return []string{aws.ToString(k.Name)}
		}
		return nil
	},
}

// observeCalls are the calls an Observe of mg makes: the get, and the tag
// list when tags.Listed says so, decided on mg as read, as Observe decides
// it.
func observeCalls(mg *v1alpha1.APIKeyCredentialProvider, s *awsconfig.Session) []quota.Operation {
	return budget.ObserveCalls(bedrockagentcorecontrol.ServiceID, "GetApiKeyCredentialProvider", "ListTagsForResource", tags.Listed(mg, wantTags(mg, s)))
}

type external struct {
	reconciler.SessionClients

	client  ac.API
	kube    client.Client
	session *awsconfig.Session
	secrets *secretkey.Reader

	ownerTags func(resource.Managed) map[string]string
	// What the last Observe found, for ownership.
	ownership.Observed
	apiKey       []byte            // the key to send, when it changed
	apiKeyRecord map[string]string // what records it as sent
	tagPlan      tags.Plan
	// What the last Observe published, which an Update publishes again.
	published map[string][]byte
}

// apiKeySent names the annotations that record the key last sent.
var apiKeySent = secretkey.Sent{Fingerprint: AnnotationAPIKeyFingerprint, Version: AnnotationAPIKeySecretVersion}

// Observe gets the credential provider, reads the key's Secret to notice a
// rotation, and lists the tags when the spec manages them.
func (e *external) Observe(ctx context.Context, mg *v1alpha1.APIKeyCredentialProvider) (managed.ExternalObservation, error) {
	out, err := e.client.GetApiKeyCredentialProvider(ctx, &bedrockagentcorecontrol.GetApiKeyCredentialProviderInput{Name: aws.String(meta.GetExternalName(mg))})
	if awserrors.IsNotFound(err) {
		return managed.ExternalObservation{ResourceExists: false}, nil
	}
	if err != nil {
		return managed.ExternalObservation{}, awserrors.Wrap(err, errGet)
	}
	e.Observed = ownership.Observed{ARN: aws.ToString(out.CredentialProviderArn), Created: aws.ToTime(out.CreatedTime)}
	tagService := ac.TagService(e.client, e.ARN)
	e.Tags = &tagService
	// The tags are looked at before the Ready condition is set: as read,
	// it tells whether the tags the create sent still stand
	// (tags.AsCreated). A resource being deleted lists none.
	var tagsErr error
	e.tagPlan, tagsErr = tags.Observe(ctx, mg, wantTags(mg, e.session), *e.Tags)
	e.Listed = e.tagPlan.Listed()
	previous := mg.Status.AtProvider.ACKResourceMetadata
	mg.Status.AtProvider = ac.Observation(out.ApiKeySecretArn)
	mg.SetConditions(xpv2.Available())

	if meta.WasDeleted(mg) {
		// Nothing will be updated: a missing Secret must not stand in the
		// way of deletion.
		mg.Status.AtProvider.ACKResourceMetadata = previous
		return managed.ExternalObservation{ResourceExists: true, ResourceUpToDate: true}, nil
	}
	if tagsErr != nil {
		return managed.ExternalObservation{}, tagsErr
	}
	if ownership.ShowsConfiguration(mg) {
		// AWS never returns the key: only what identifies the credential
		// provider, and its tags.
		mg.Status.AtProvider.ForProvider = &v1alpha1.APIKeyCredentialProviderParameters{
			Region: aws.String(e.session.Region), Name: aws.ToString(out.Name), Tags: e.tagPlan.Shown(),
		}
	}
	var diffs []string
	if e.apiKey, e.apiKeyRecord, err = e.secrets.Changed(ctx, mg, apiKeyField, mg.Spec.ForProvider.APIKey, apiKeySent); err != nil {
		return managed.ExternalObservation{}, err
	}
	if e.apiKey != nil {
		diffs = append(diffs, apiKeyField)
	}
	if !e.tagPlan.UpToDate() {
		diffs = append(diffs, tags.Path)
	}
	mg.Status.AtProvider.ACKResourceMetadata = metadata.WithPartition(e.session, metadata.VerifiedARN(mg, metadata.Plain(previous), e.ARN, len(diffs) == 0))
	e.published = ac.ConnectionDetails(out.Name, out.CredentialProviderArn, out.ApiKeySecretArn)
	return managed.ExternalObservation{
		ResourceExists:    true,
		ResourceUpToDate:  len(diffs) == 0,
		ConnectionDetails: e.published,
		Diff:              strings.Join(diffs, ", "),
	}, nil
}

// wantTags is what the credential provider's tags should be: its provider
// config's default tags, its initProvider's and its forProvider's.
func wantTags(mg *v1alpha1.APIKeyCredentialProvider, s *awsconfig.Session) tags.Want {
	var init map[string]string
	if i := mg.Spec.InitProvider; i != nil {
		init = i.Tags
	}
	return reconciler.WantTags(mg, s, mg.Spec.ForProvider.Tags, init)
}

// Create stores the key from the resource's own namespace in AWS, with the
// tags (initProvider holds only tags: the key is required in forProvider),
// and records the key's fingerprint, never the key.
func (e *external) Create(ctx context.Context, mg *v1alpha1.APIKeyCredentialProvider) (managed.ExternalCreation, error) {
	want := wantTags(mg, e.session)
	tagSet, err := want.AtCreate(e.ownerTags(mg))
	if err != nil {
		return managed.ExternalCreation{}, err
	}
	key, record, err := e.secrets.ToSend(ctx, mg, apiKeyField, mg.Spec.ForProvider.APIKey, apiKeySent)
	if err != nil {
		return managed.ExternalCreation{}, err
	}
	out, err := e.client.CreateApiKeyCredentialProvider(ctx, ac.CreateInput(&mg.Spec.ForProvider, key, tagSet))
	if err != nil {
		return managed.ExternalCreation{}, awserrors.Wrap(err, errCreate)
	}
	// What the Observe after the create shows: the credential provider is
	// usable as soon as it exists.
	mg.Status.AtProvider = ac.Observation(out.ApiKeySecretArn)
	mg.Status.AtProvider.ACKResourceMetadata = metadata.WithPartition(e.session, aws.ToString(out.CredentialProviderArn))
	maps.Copy(record, tags.Record(mg, want.Desired()))
	persist.AtCreate(mg, record)
	return managed.ExternalCreation{ConnectionDetails: ac.ConnectionDetails(out.Name, out.CredentialProviderArn, out.ApiKeySecretArn)}, nil
}

// Update rotates the key when its Secret changed, and the tags.
func (e *external) Update(ctx context.Context, mg *v1alpha1.APIKeyCredentialProvider) (managed.ExternalUpdate, error) {
	if e.apiKey != nil {
		if _, err := e.client.UpdateApiKeyCredentialProvider(ctx, ac.UpdateInput(&mg.Spec.ForProvider, e.apiKey)); err != nil {
			return managed.ExternalUpdate{}, awserrors.Wrap(err, errRotate)
		}
		if err := persist.Annotations(ctx, e.kube, mg, e.apiKeyRecord); err != nil {
			return managed.ExternalUpdate{}, err
		}
	}
	if err := e.tagPlan.Apply(ctx, *e.Tags); err != nil {
		return managed.ExternalUpdate{}, err
	}
	if rec := tags.Record(mg, wantTags(mg, e.session).Desired()); rec != nil {
		if err := persist.Annotations(ctx, e.kube, mg, rec); err != nil {
			return managed.ExternalUpdate{}, err
		}
	}
	// A rotation changes none of the connection details: those Observe
	// read stand, and the Secret is not written again.
	return managed.ExternalUpdate{ConnectionDetails: e.published}, nil
}

// Delete deletes the credential provider and, with it, the stored key.
func (e *external) Delete(ctx context.Context, mg *v1alpha1.APIKeyCredentialProvider) (managed.ExternalDelete, error) {
	mg.SetConditions(xpv2.Deleting())
	_, err := e.client.DeleteApiKeyCredentialProvider(ctx, &bedrockagentcorecontrol.DeleteApiKeyCredentialProviderInput{Name: aws.String(meta.GetExternalName(mg))})
	return managed.ExternalDelete{}, awserrors.Wrap(awserrors.IgnoreNotFound(err), errDelete)
}
