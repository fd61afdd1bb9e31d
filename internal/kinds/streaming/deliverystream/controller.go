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

// Package deliverystream reconciles DeliveryStreams with Amazon Data
// Firehose.
package deliverystream

import (
	"context"
	"fmt"
	"maps"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	"github.com/aws/aws-sdk-go-v2/service/firehose/types"
	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	"sigs.k8s.io/controller-runtime/pkg/client"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/aws/awserrors"
	fh "github.com/cloudkinds/provider-aws-services/internal/aws/firehose"
	"github.com/cloudkinds/provider-aws-services/internal/aws/quota"
	"github.com/cloudkinds/provider-aws-services/internal/aws/tags"
	"github.com/cloudkinds/provider-aws-services/internal/kube/persist"
	"github.com/cloudkinds/provider-aws-services/internal/kube/secretkey"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/conditions"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/initprovider"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/metadata"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/awsconfig"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/budget"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/ownership"
)

const (
	errDescribe   = "cannot describe delivery stream"
	errCreate     = "cannot create delivery stream"
	errUpdate     = "cannot update the destination of delivery stream"
	errDelete     = "cannot delete delivery stream"
	errEncryption = "cannot change the server-side encryption of delivery stream"
	errUnobserved = "cannot update delivery stream: this reconcile's Observe did not describe it"

	msgLeftGrant = "Firehose could not retire the grant it holds on KMS key %s (%s), so the stream was deleted by force: the grant may remain on the key, for the key's owner to revoke (kms:RevokeGrant)"

	errOtherDestination = "delivery stream %q (the crossplane.io/external-name annotation) does not deliver to an HTTP endpoint; a DeliveryStream manages only streams with an HTTP endpoint destination: set the annotation to such a stream, or remove it to create one"

	accessKeyField     = "spec.forProvider.httpEndpointDestinationConfiguration.endpointConfiguration.accessKey"
	initAccessKeyField = "spec.initProvider.httpEndpointDestinationConfiguration.endpointConfiguration.accessKey"

	// AnnotationAccessKeyFingerprint records a keyed hash of the access key
	// last sent to AWS, which never returns the key: a change of the
	// Secret's value is noticed without the key being stored.
	AnnotationAccessKeyFingerprint = "streaming.services.k8s.aws/access-key-fingerprint"
	// AnnotationAccessKeySecretVersion records the resourceVersion of the
	// access key's Secret when its key was last sent: the key is read again
	// only once the Secret changed.
	AnnotationAccessKeySecretVersion = "streaming.services.k8s.aws/access-key-secret-version"
	// AnnotationBufferingHintsSent records the buffering hints last sent.
	// AWS may replace hints with better values; hints that differ from AWS's
	// but were sent as the spec has them are not sent again.
	AnnotationBufferingHintsSent = "streaming.services.k8s.aws/buffering-hints-sent"
)

// states maps Firehose's stream states onto the Ready condition.
var states = conditions.StateMap{
	Available: []string{string(types.DeliveryStreamStatusActive)},
	Creating:  []string{string(types.DeliveryStreamStatusCreating)},
	Deleting:  []string{string(types.DeliveryStreamStatusDeleting)},
	Failed:    []string{string(types.DeliveryStreamStatusCreatingFailed), string(types.DeliveryStreamStatusDeletingFailed)},
}

// Kind is the DeliveryStream kind. Firehose refuses a create of a name that
// exists, so a new object creates before it looks. It watches the Secrets
// the resources read, so that a rotated access key reaches AWS at once.
var Kind = reconciler.Define(definition)

// definition is the kind's definition, which the conformance suite runs.
var definition = reconciler.Definition[*v1alpha1.DeliveryStream]{
	Kind: reconciler.Kind{
		GroupVersionKind: v1alpha1.DeliveryStreamGroupVersionKind,
		Noun:             "delivery stream",
		Create:           quota.Operation{Service: firehose.ServiceID, Name: "CreateDeliveryStream"},
		CreatesFirst:     true,
		Tagged:           true,
		NameField:        "spec.forProvider.deliveryStreamName",
		ConnectionKeys:   fh.ConnectionKeys,
		Example:          "examples/streaming/deliverystream.yaml",
		Import:           reconciler.Import{List: listDeliveryStreams},
	},
	Object:          &v1alpha1.DeliveryStream{},
	List:            &v1alpha1.DeliveryStreamList{},
	SentAnnotations: []string{AnnotationAccessKeyFingerprint, AnnotationAccessKeySecretVersion, AnnotationBufferingHintsSent},
	Region:          func(mg *v1alpha1.DeliveryStream) *string { return mg.Spec.ForProvider.Region },
	Name:            func(mg *v1alpha1.DeliveryStream) string { return mg.Spec.ForProvider.DeliveryStreamName },
	External: func(c reconciler.Connection) ownership.ExternalClient[*v1alpha1.DeliveryStream] {
		return &external{client: awsconfig.ClientFor(c.Session, firehose.NewFromConfig), kube: c.Kube, session: c.Session, ownerTags: c.OwnerTags, left: c.Left, secrets: c.Secrets}
	},
	Metadata: func(mg *v1alpha1.DeliveryStream) *common.ResourceMetadata {
		return mg.Status.AtProvider.ACKResourceMetadata
	},
	ObserveCalls: observeCalls,
	Secrets: func(mg *v1alpha1.DeliveryStream) []string {
		if ref := accessKeyRef(&mg.Spec.ForProvider); ref != nil && ref.Name != nil {
			return []string{*ref.Name}
		}
		return nil
	},
}

// observeCalls are the calls an Observe of mg makes: the describe, and the
// tag list when tags.Listed says so, decided on mg as read, as Observe
// decides it.
func observeCalls(mg *v1alpha1.DeliveryStream, s *awsconfig.Session) []quota.Operation {
	return budget.ObserveCalls(firehose.ServiceID, "DescribeDeliveryStream", "ListTagsForDeliveryStream", tags.Listed(mg, wantTags(mg, s)))
}

// external reconciles one DeliveryStream in one reconcile; what Observe
// read, Update uses.
type external struct {
	reconciler.SessionClients

	client    fh.API
	kube      client.Client
	session   *awsconfig.Session
	secrets   *secretkey.Reader
	ownerTags func(resource.Managed) map[string]string
	// left tells what a deletion leaves on AWS (reconciler.Connection.Left).
	left func(resource.Managed, string)

	// What the last Observe found, for ownership.
	ownership.Observed
	// What Observe found, for Update to act on without deciding again.
	described          *types.DeliveryStreamDescription
	destinationChanged bool
	accessKey          []byte            // the key to send, when it changed
	accessKeyRecord    map[string]string // what records it as sent
	encryption         fh.EncryptionAction
	tagPlan            tags.Plan
}

// Observe describes the stream and, when the spec manages tags, lists them;
// the description also carries the connection details.
func (e *external) Observe(ctx context.Context, mg *v1alpha1.DeliveryStream) (managed.ExternalObservation, error) {
	name := meta.GetExternalName(mg)
	out, err := e.client.DescribeDeliveryStream(ctx, &firehose.DescribeDeliveryStreamInput{DeliveryStreamName: aws.String(name)})
	if awserrors.IsNotFound(err) {
		return managed.ExternalObservation{ResourceExists: false}, nil
	}
	if err != nil {
		return managed.ExternalObservation{}, awserrors.Wrap(err, errDescribe)
	}
	d := out.DeliveryStreamDescription
	e.described = d
	tagService := fh.TagService(e.client, aws.ToString(d.DeliveryStreamName))
	e.Observed = ownership.Observed{Created: aws.ToTime(d.CreateTimestamp), ARN: aws.ToString(d.DeliveryStreamARN), Tags: &tagService}
	if fh.HTTPDestination(d) == nil && len(d.Destinations) > 0 {
		// A stream of another destination type was never this object's: it is
		// neither verified nor deleted with it.
		if meta.WasDeleted(mg) {
			e.LetGo = true
			return managed.ExternalObservation{ResourceExists: false}, nil
		}
		return managed.ExternalObservation{}, errors.Errorf(errOtherDestination, name)
	}

	previous := mg.Status.AtProvider
	mg.Status.AtProvider = fh.Observation(d)

	ready := states.Condition(string(d.DeliveryStreamStatus), fh.FailureMessage(d.FailureDescription))
	if d.DeliveryStreamStatus != types.DeliveryStreamStatusActive || meta.WasDeleted(mg) {
		// Only an ACTIVE stream can be changed: while AWS is creating or
		// deleting it nothing is compared, and nothing is sent (AWS would
		// refuse an update). A failed one is never created again, only
		// deleted. A stream being deleted is not compared, so that a
		// missing access key Secret cannot block it.
		mg.SetConditions(ready)
		e.setMetadata(mg, d, previous.ACKResourceMetadata, false)
		return managed.ExternalObservation{ResourceExists: true, ResourceUpToDate: true, ConnectionDetails: fh.ConnectionDetails(d)}, nil
	}

	// Compared before the Ready condition is set: as read, it tells
	// whether the tags the create sent still stand (tags.AsCreated).
	diffs, err := e.diff(ctx, mg, d)
	mg.SetConditions(ready)
	if sse := d.DeliveryStreamEncryptionConfiguration; sse != nil &&
		(sse.Status == types.DeliveryStreamEncryptionStatusEnablingFailed || sse.Status == types.DeliveryStreamEncryptionStatusDisablingFailed) {
		mg.SetConditions(conditions.Failed("server-side encryption " + string(sse.Status) + ": " + fh.FailureMessage(sse.FailureDescription)))
	}
	if err != nil {
		return managed.ExternalObservation{}, err
	}
	if ownership.ShowsConfiguration(mg) {
		c := fh.Configuration(d)
		c.Region, c.Tags = aws.String(e.session.Region), tags.ToList(e.tagPlan.Shown())
		mg.Status.AtProvider.ForProvider = &c
	}
	upToDate := len(diffs) == 0
	e.setMetadata(mg, d, previous.ACKResourceMetadata, upToDate)
	return managed.ExternalObservation{
		ResourceExists:    true,
		ResourceUpToDate:  upToDate,
		ConnectionDetails: fh.ConnectionDetails(d),
		Diff:              strings.Join(diffs, ", "),
	}, nil
}

// diff lists the spec paths that differ between the spec and AWS.
func (e *external) diff(ctx context.Context, mg *v1alpha1.DeliveryStream, d *types.DeliveryStreamDescription) ([]string, error) {
	p := &mg.Spec.ForProvider
	diffs := fh.DestinationDiff(p, d, mg.GetAnnotations()[AnnotationBufferingHintsSent])
	e.destinationChanged = len(diffs) > 0
	if err := e.readChangedAccessKey(ctx, mg); err != nil {
		return nil, err
	}
	if e.accessKey != nil {
		diffs = append(diffs, fh.AccessKeyPath)
	}
	if e.encryption = fh.Encryption(p.DeliveryStreamEncryptionConfiguration, d.DeliveryStreamEncryptionConfiguration); e.encryption != fh.EncryptionNone {
		diffs = append(diffs, fh.EncryptionPath)
	}
	// DescribeDeliveryStream does not return tags: they are listed only when
	// there are tags to compare, and not until the stream was seen Ready
	// after the create that set them.
	var err error
	e.tagPlan, err = tags.Observe(ctx, mg, wantTags(mg, e.session), *e.Tags)
	if err != nil {
		return nil, err
	}
	e.Listed = e.tagPlan.Listed()
	if !e.tagPlan.UpToDate() {
		diffs = append(diffs, tags.Path)
	}
	return diffs, nil
}

// accessKeySent names the annotations that record the access key last sent.
var accessKeySent = secretkey.Sent{Fingerprint: AnnotationAccessKeyFingerprint, Version: AnnotationAccessKeySecretVersion}

// readChangedAccessKey keeps the access key when it differs from the one
// last sent; the key is read only when its Secret changed. AWS never returns
// the key, so this is the only way to notice a rotation.
func (e *external) readChangedAccessKey(ctx context.Context, mg *v1alpha1.DeliveryStream) error {
	ref := accessKeyRef(&mg.Spec.ForProvider)
	if ref == nil {
		return nil
	}
	var err error
	e.accessKey, e.accessKeyRecord, err = e.secrets.Changed(ctx, mg, accessKeyField, ref, accessKeySent)
	return err
}

func accessKeyRef(p *v1alpha1.DeliveryStreamParameters) *common.SecretKeyReference {
	d := p.HTTPEndpointDestinationConfiguration
	if d == nil || d.EndpointConfiguration == nil {
		return nil
	}
	return d.EndpointConfiguration.AccessKey
}

// setMetadata records the ARN once the stream is known to be ours: created
// by this resource, or adopted and found to match the spec.
func (e *external) setMetadata(mg *v1alpha1.DeliveryStream, d *types.DeliveryStreamDescription, previous *common.ResourceMetadata, upToDate bool) {
	mg.Status.AtProvider.ACKResourceMetadata = metadata.For(e.session, metadata.VerifiedARN(mg, previous, aws.ToString(d.DeliveryStreamARN), upToDate))
}

// wantTags is what the stream's tags should be: its provider config's
// default tags, its initProvider's and its forProvider's.
func wantTags(mg *v1alpha1.DeliveryStream, s *awsconfig.Session) tags.Want {
	var init map[string]string
	if i := mg.Spec.InitProvider; i != nil {
		init = tags.FromList(i.Tags)
	}
	return reconciler.WantTags(mg, s, tags.FromList(mg.Spec.ForProvider.Tags), init)
}

// Create creates the stream with its destination, backup, encryption and
// tags in one call: forProvider, completed from initProvider.
func (e *external) Create(ctx context.Context, mg *v1alpha1.DeliveryStream) (managed.ExternalCreation, error) {
	want := wantTags(mg, e.session)
	tagSet, err := want.AtCreate(e.ownerTags(mg))
	if err != nil {
		return managed.ExternalCreation{}, err
	}
	p := initprovider.Merge(&mg.Spec.ForProvider, mg.Spec.InitProvider)
	var accessKey *string
	sent := map[string]string{AnnotationBufferingHintsSent: fh.BufferingHintsSent(p)}
	maps.Copy(sent, tags.Record(mg, want.Desired()))
	if ref := accessKeyRef(p); ref != nil {
		field := accessKeyField
		if accessKeyRef(&mg.Spec.ForProvider) == nil {
			field = initAccessKeyField
		}
		key, record, err := e.secrets.ToSend(ctx, mg, field, ref, accessKeySent)
		if err != nil {
			return managed.ExternalCreation{}, err
		}
		accessKey = aws.String(string(key))
		maps.Copy(sent, record)
	}
	if _, err := e.client.CreateDeliveryStream(ctx, fh.CreateInput(p, accessKey, tagSet)); err != nil {
		return managed.ExternalCreation{}, awserrors.Wrap(err, errCreate)
	}
	mg.SetConditions(states.Condition(string(types.DeliveryStreamStatusCreating), ""))
	persist.AtCreate(mg, sent)
	return managed.ExternalCreation{}, nil
}

// Update does what Observe found different: the destination (with the
// current version and destination IDs), the encryption, the tags.
func (e *external) Update(ctx context.Context, mg *v1alpha1.DeliveryStream) (managed.ExternalUpdate, error) {
	d, p := e.described, &mg.Spec.ForProvider
	if d == nil {
		// crossplane-runtime calls Update only after an Observe that
		// found the stream: an invariant, not an AWS error.
		return managed.ExternalUpdate{}, errors.New(errUnobserved)
	}
	if e.destinationChanged || e.accessKey != nil {
		var accessKey *string
		sent := map[string]string{AnnotationBufferingHintsSent: fh.BufferingHintsSent(p)}
		if e.accessKey != nil {
			accessKey = aws.String(string(e.accessKey))
			maps.Copy(sent, e.accessKeyRecord)
		}
		in := fh.UpdateInput(p, accessKey, aws.ToString(d.VersionId), aws.ToString(d.Destinations[0].DestinationId))
		if _, err := e.client.UpdateDestination(ctx, in); err != nil {
			return managed.ExternalUpdate{}, awserrors.Wrap(err, errUpdate)
		}
		if err := persist.Annotations(ctx, e.kube, mg, sent); err != nil {
			return managed.ExternalUpdate{}, err
		}
	}

	switch e.encryption {
	case fh.EncryptionStart:
		if _, err := e.client.StartDeliveryStreamEncryption(ctx, fh.StartEncryptionInput(p)); err != nil {
			return managed.ExternalUpdate{}, awserrors.Wrap(err, errEncryption)
		}
	case fh.EncryptionStop:
		if _, err := e.client.StopDeliveryStreamEncryption(ctx, fh.StopEncryptionInput(p)); err != nil {
			return managed.ExternalUpdate{}, awserrors.Wrap(err, errEncryption)
		}
	case fh.EncryptionNone:
	}

	if err := e.tagPlan.Apply(ctx, *e.Tags); err != nil {
		return managed.ExternalUpdate{}, err
	}
	if rec := tags.Record(mg, wantTags(mg, e.session).Desired()); rec != nil {
		if err := persist.Annotations(ctx, e.kube, mg, rec); err != nil {
			return managed.ExternalUpdate{}, err
		}
	}
	// An update changes neither the stream's name nor its ARN: the details
	// Observe published stand, and the Secret is not written again.
	return managed.ExternalUpdate{ConnectionDetails: fh.ConnectionDetails(d)}, nil
}

// Delete deletes the stream, unless AWS is deleting it already. A stream in
// CREATING_FAILED can be deleted like any other. One in DELETING_FAILED is
// one whose key grant Firehose could not retire (the key disabled, or the
// grant revoked): deleting it again fails the same way, so it is deleted by
// force, which leaves the grant, and the object says so.
func (e *external) Delete(ctx context.Context, mg *v1alpha1.DeliveryStream) (managed.ExternalDelete, error) {
	mg.SetConditions(states.Condition(string(types.DeliveryStreamStatusDeleting), ""))
	if aws.ToString(mg.Status.AtProvider.DeliveryStreamStatus) == string(types.DeliveryStreamStatusDeleting) {
		return managed.ExternalDelete{}, nil
	}
	in := &firehose.DeleteDeliveryStreamInput{DeliveryStreamName: aws.String(meta.GetExternalName(mg))}
	left := ""
	if d := e.described; d != nil && d.DeliveryStreamStatus == types.DeliveryStreamStatusDeletingFailed {
		in.AllowForceDelete = aws.Bool(true)
		left = fmt.Sprintf(msgLeftGrant, streamKey(d), fh.FailureMessage(d.FailureDescription))
	}
	_, err := e.client.DeleteDeliveryStream(ctx, in)
	if err == nil && left != "" && e.left != nil {
		e.left(mg, left)
	}
	return managed.ExternalDelete{}, awserrors.Wrap(awserrors.IgnoreNotFound(err), errDelete)
}

// streamKey names the customer managed key of a stream's encryption.
func streamKey(d *types.DeliveryStreamDescription) string {
	if sse := d.DeliveryStreamEncryptionConfiguration; sse != nil && sse.KeyARN != nil {
		return *sse.KeyARN
	}
	return "(not named by Firehose)"
}
