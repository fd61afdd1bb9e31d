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

// Package subscription reconciles Subscriptions with Amazon SNS.
package subscription

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsarn "github.com/aws/aws-sdk-go-v2/aws/arn"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/apis/notification/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/aws/awserrors"
	"github.com/cloudkinds/provider-aws-services/internal/aws/quota"
	snsclient "github.com/cloudkinds/provider-aws-services/internal/aws/sns"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/conditions"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/initprovider"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/metadata"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/awsconfig"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/budget"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/ownership"
)

const (
	errGet         = "cannot get the attributes of subscription"
	errSubscribe   = "cannot subscribe"
	errSet         = "cannot set attribute %s of subscription"
	errUnsubscribe = "cannot unsubscribe"
	errLookup      = "cannot look up the subscription among the topic's subscriptions"
	// errMismatch tells nothing of what the subscription subscribes: it may
	// be another namespace's, and its reader may not own it.
	errNoIdentity = "the object does not say which subscription it is: set spec.forProvider.topicARN, protocol and endpoint (an object whose managementPolicies only observe may instead name it by its ARN alone, in the annotation crossplane.io/external-name)"
	errMismatch   = "the subscription named by the external name (annotation crossplane.io/external-name) is not what the spec says (spec.forProvider.topicARN, protocol and endpoint); it is not adopted and nothing of it is shown: set the annotation to the ARN of the subscription the spec describes, or remove it to subscribe"
	// errNotShownYet names no ARN: the subscription SNS lists may be
	// another's, and its reader may not own it.
	errNotShownYet = "SNS has a subscription of this topic, protocol and endpoint, and does not show its attributes yet (its reads lag its writes); it is looked at again, and not subscribed anew meanwhile"
	errVerify      = "cannot tell whether subscription %s, which SNS answered the subscribe with, is this object's work, as its attributes cannot be read: %s"

	msgPending     = "waiting for the endpoint to confirm the subscription; SNS deletes a subscription that is not confirmed within 48 hours"
	msgLeftPending = "SNS keeps subscription %s, pending confirmation, which it does not let anyone delete: it deletes it itself 48 hours after it was requested, unless its endpoint confirms it first"
	msgExistsOther = "SNS already has subscription %q, with attributes other than those this object sent (%s); this object did not make it and does not change it"
	// msgNotAsSent names neither the subscription nor its attributes: it
	// may be another's, and its reader does not own it.
	msgNotAsSent = "SNS answered the subscribe with a subscription it already had, whose attributes are not those this object sent; this object did not make it and does not change it"
)

// Kind is the Subscription kind. SNS answers a Subscribe of a subscription
// that exists with that subscription, so a new object looks first. Its
// external name is its ARN, which Subscribe returns, so no initializer sets
// it beforehand; a create whose answer was lost is found again by its
// topic, protocol and endpoint, which SNS keeps unique.
var Kind = reconciler.Define(definition)

// definition is the kind's definition, which the conformance suite runs.
var definition = reconciler.Definition[*v1alpha1.Subscription]{
	Kind: reconciler.Kind{
		GroupVersionKind: v1alpha1.SubscriptionGroupVersionKind,
		Noun:             "subscription",
		Create:           quota.Operation{Service: sns.ServiceID, Name: "Subscribe"},
		ConnectionKeys:   snsclient.ConnectionKeys,
		Example:          "examples/notification/subscription.yaml",
		Import:           reconciler.Import{List: listSubscriptions, Named: named, Base: topicName},
	},
	Object: &v1alpha1.Subscription{},
	List:   &v1alpha1.SubscriptionList{},
	Region: func(mg *v1alpha1.Subscription) *string { return mg.Spec.ForProvider.Region },
	External: func(c reconciler.Connection) ownership.ExternalClient[*v1alpha1.Subscription] {
		return &external{client: awsconfig.ClientFor(c.Session, sns.NewFromConfig), session: c.Session, left: c.Left, holdsClaim: c.HoldsClaim}
	},
	ObserveCalls: func(mg *v1alpha1.Subscription, _ *awsconfig.Session) []quota.Operation {
		ops := budget.ObserveCalls(sns.ServiceID, "GetSubscriptionAttributes", "", false)
		if meta.GetExternalName(mg) == "" {
			// Without its ARN, Observe looks the subscription up
			// among its topic's.
			ops = append(ops, quota.Operation{Service: sns.ServiceID, Name: "ListSubscriptionsByTopic"})
		}
		return ops
	},
	Identity:      Identity,
	Where:         topicPlace,
	IdentityField: "spec.forProvider.topicARN, protocol and endpoint",
	Another:       "another topic, protocol or endpoint",
	Metadata: func(mg *v1alpha1.Subscription) *common.ResourceMetadata {
		return metadata.Plain(mg.Status.AtProvider.ACKResourceMetadata)
	},
}

// topicPlace is where a subscription lives: its topic's account and
// region, whichever account subscribes.
func topicPlace(mg *v1alpha1.Subscription) (account, region string) {
	a, err := awsarn.Parse(aws.ToString(identifying(mg).TopicARN))
	if err != nil {
		return "", ""
	}
	return a.AccountID, a.Region
}

// Identity is what SNS keeps unique among subscriptions: the topic, the
// protocol and the endpoint; empty until the topic is known.
func Identity(mg *v1alpha1.Subscription) string {
	p := identifying(mg)
	if p.TopicARN == nil || p.Endpoint == nil {
		return ""
	}
	return snsclient.Protocol(p.Protocol) + ":" + *p.Endpoint + " on " + *p.TopicARN
}

// identifying is what says which subscription mg is: its spec, or for an
// object that names its subscription by ARN alone (an import, which only
// observes and claims nothing) what its Observe showed of it, so that the
// ownership rules that keep another object's resource from it apply, in
// the topic's account. An object that writes is identified by its spec
// alone, never by a status a tenant can write.
func identifying(mg *v1alpha1.Subscription) *v1alpha1.SubscriptionParameters {
	p := &mg.Spec.ForProvider
	if shown := mg.Status.AtProvider.ForProvider; !identified(p) && shown != nil && !ownership.MayWrite(mg, true) {
		return shown
	}
	return p
}

type external struct {
	reconciler.SessionClients

	client  snsclient.API
	session *awsconfig.Session
	// left tells what a deletion leaves on AWS (reconciler.Connection.Left).
	left func(resource.Managed, string)
	// holdsClaim reports whether the object holds its identity's claim to
	// create (reconciler.Connection.HoldsClaim).
	holdsClaim func(context.Context, resource.Managed) bool

	updates map[string]string
	// subscribed is true once this reconcile's Create called Subscribe,
	// under the claim ownership took for it; subscribedARN is the ARN SNS
	// answered it with, if it answered.
	subscribed    bool
	subscribedARN string
	// What the last Observe published, which an Update publishes again.
	published map[string][]byte
	// What the last Observe found, for ownership: SNS cannot tag a
	// subscription nor says when it was made, so only its ARN tells.
	ownership.Observed
}

// Observe reads the subscription's attributes. Without an ARN it first looks
// the subscription up by topic, protocol and endpoint: before a create, to
// find one that exists already (whose it is, ownership decides); after a
// create was attempted, because the provider may have been stopped, or the
// answer lost, before it could record the ARN Subscribe returned.
func (e *external) Observe(ctx context.Context, mg *v1alpha1.Subscription) (managed.ExternalObservation, error) {
	arn, recovered, none, err := e.find(ctx, mg)
	if arn == "" || err != nil {
		return none, err
	}
	e.Observed = ownership.Observed{ARN: arn}
	out, err := e.client.GetSubscriptionAttributes(ctx, &sns.GetSubscriptionAttributesInput{SubscriptionArn: aws.String(arn)})
	if awserrors.IsNotFound(err) && recovered {
		// SNS lists it, or answered a Subscribe with it, and its reads
		// do not show it yet (they lag its writes): it exists, and is
		// looked at again, never subscribed anew meanwhile.
		return managed.ExternalObservation{}, errors.New(errNotShownYet)
	}
	if awserrors.IsNotFound(err) {
		return managed.ExternalObservation{ResourceExists: false}, nil
	}
	if err != nil {
		return managed.ExternalObservation{}, awserrors.Wrap(err, errGet)
	}
	attrs := out.Attributes
	if recovered {
		if !e.ownCreateMayHaveMade(ctx, mg, attrs) {
			// Someone else's, made while this object's creates were
			// failing: a create follows, whose Subscribe SNS answers
			// with it or refuses, and which does not take it (Create).
			// Deleting the object deletes only the object.
			e.Observed = ownership.Observed{}
			return managed.ExternalObservation{ResourceExists: false}, nil
		}
		meta.SetExternalName(mg, arn)
	}
	if meta.WasDeleted(mg) && snsclient.Pending(attrs) {
		// SNS refuses to delete a subscription that is pending
		// confirmation and deletes it itself when the confirmation
		// expires: there is nothing to wait for, and the object goes
		// saying what it left.
		if e.left != nil {
			e.left(mg, fmt.Sprintf(msgLeftPending, arn))
		}
		e.LetGo = true
		return managed.ExternalObservation{ResourceExists: false}, nil
	}
	p := &mg.Spec.ForProvider
	if err := matches(p, attrs); err != nil {
		return managed.ExternalObservation{}, err
	}

	mg.Status.AtProvider = snsclient.Observation(attrs)
	if ownership.ShowsConfiguration(mg) {
		c := snsclient.Configuration(attrs)
		c.Region = aws.String(e.session.Region)
		mg.Status.AtProvider.ForProvider = &c
	}
	// Only a recovered ARN is written back to the object (as its external
	// name); SNS's defaults are not copied into the spec, which would cost
	// a write that restates them.
	lateInitialized := recovered
	e.published = snsclient.ConnectionDetails(attrs)
	if snsclient.Pending(attrs) {
		mg.SetConditions(conditions.PendingConfirmation(msgPending))
		mg.Status.AtProvider.ACKResourceMetadata = metadata.WithPartition(e.session, arn)
		return managed.ExternalObservation{ResourceExists: true, ResourceUpToDate: true, ResourceLateInitialized: lateInitialized, ConnectionDetails: e.published}, nil
	}
	mg.SetConditions(xpv2.Available())
	var diffs []string
	diffs, e.updates = snsclient.AttributeUpdates(p, attrs)
	mg.Status.AtProvider.ACKResourceMetadata = metadata.WithPartition(e.session, arn)
	return managed.ExternalObservation{
		ResourceExists:          true,
		ResourceUpToDate:        len(diffs) == 0,
		ResourceLateInitialized: lateInitialized,
		ConnectionDetails:       e.published,
		Diff:                    strings.Join(diffs, ", "),
	}, nil
}

// find returns the ARN of the subscription the object names: its external
// name, the ARN this reconcile's Subscribe was answered with, or the one its
// topic, protocol and endpoint find (recovered). Without an ARN, none is
// what the Observe answers.
func (e *external) find(ctx context.Context, mg *v1alpha1.Subscription) (arn string, recovered bool, none managed.ExternalObservation, err error) {
	if !identified(&mg.Spec.ForProvider) && ownership.MayWrite(mg, true) {
		// Only an object that only observes may name its subscription by
		// ARN alone: one that writes (deletes, say) must say which it is,
		// for its claim.
		return "", false, none, errors.New(errNoIdentity)
	}
	if arn := meta.GetExternalName(mg); arn != "" {
		return arn, false, none, nil
	}
	if e.subscribedARN != "" {
		// This reconcile's Subscribe was answered with it, and its look
		// at it failed: SNS said which it is, no lookup is needed.
		return e.subscribedARN, true, none, nil
	}
	if !identified(&mg.Spec.ForProvider) {
		return "", false, none, errors.New(errNoIdentity)
	}
	found, waiting, err := e.lookup(ctx, &mg.Spec.ForProvider)
	switch {
	case err != nil:
		return "", false, none, err
	case found != "":
		return found, true, none, nil
	case waiting && !e.holdsCreateClaim(ctx, mg) && !ownership.WantsToAdopt(mg):
		// Someone's subscription waits for its endpoint to confirm, with
		// its ARN hidden: it exists, and this object never subscribed it
		// (its create would hold the claim).
		return "", false, managed.ExternalObservation{ResourceExists: true, ResourceUpToDate: true}, nil
	default:
		// Not subscribed, or waiting for confirmation: Subscribe, being
		// idempotent, returns the ARN of the latter.
		return "", false, managed.ExternalObservation{ResourceExists: false}, nil
	}
}

// identified reports whether the spec says which subscription it is: its
// topic, protocol and endpoint.
func identified(p *v1alpha1.SubscriptionParameters) bool {
	return p.TopicARN != nil && p.Protocol != "" && p.Endpoint != nil
}

// ownCreateMayHaveMade reports whether a subscription found by its topic,
// protocol and endpoint, with attributes attrs, may be the work of the
// object's own create whose answer was lost. Under the claim held for that
// create, ownership takes what it finds for that work, and SNS says nothing
// of who made a subscription: the create made one only with exactly the
// attributes it sends, so one that holds others is not its work. That claim
// is held when ownership says so, and in the look that follows this
// reconcile's own create. A create interrupted before its result was
// recorded (the provider stopped) may have sent attributes the spec changed
// since, and is not held to that. Without that claim, ownership decides as it
// does for anything found.
func (e *external) ownCreateMayHaveMade(ctx context.Context, mg *v1alpha1.Subscription, attrs map[string]string) bool {
	switch {
	case e.subscribed:
		// This reconcile's create sent what the spec says now; its
		// records show it unfinished until the reconcile ends.
	case !e.holdsCreateClaim(ctx, mg), meta.ExternalCreateIncomplete(mg):
		return true
	}
	return len(snsclient.NotAsSent(subscribeInput(mg).Attributes, attrs)) == 0
}

// holdsCreateClaim asks whether mg holds its identity's claim to create.
func (e *external) holdsCreateClaim(ctx context.Context, mg *v1alpha1.Subscription) bool {
	return e.holdsClaim != nil && e.holdsClaim(ctx, mg)
}

// subscribeInput is the Subscribe of mg's create, initProvider's attributes
// included.
func subscribeInput(mg *v1alpha1.Subscription) *sns.SubscribeInput {
	return snsclient.SubscribeInput(initprovider.Merge(&mg.Spec.ForProvider, mg.Spec.InitProvider))
}

// matches verifies that the subscription the external name names is the one
// the spec describes: its topic, protocol and endpoint cannot be changed, so
// a mismatch is an error, never an update. What the spec leaves out (an
// import, which names the subscription by its ARN alone) is not compared.
func matches(p *v1alpha1.SubscriptionParameters, attrs map[string]string) error {
	topic, protocol, endpoint := attrs["TopicArn"], attrs["Protocol"], attrs["Endpoint"]
	if (p.TopicARN == nil || topic == *p.TopicARN) && (p.Protocol == "" || protocol == snsclient.Protocol(p.Protocol)) && (p.Endpoint == nil || endpoint == *p.Endpoint) {
		return nil
	}
	return errors.New(errMismatch)
}

// lookup returns the ARN of the subscription of the spec's protocol and
// endpoint to its topic, or "" when there is none; waiting is true when
// there is one, waiting for confirmation with its ARN hidden.
func (e *external) lookup(ctx context.Context, p *v1alpha1.SubscriptionParameters) (arn string, waiting bool, err error) {
	pages := sns.NewListSubscriptionsByTopicPaginator(e.client, &sns.ListSubscriptionsByTopicInput{TopicArn: p.TopicARN})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return "", false, awserrors.Wrap(err, errLookup)
		}
		if arn, found := snsclient.Find(p, page.Subscriptions); found {
			return arn, arn == "", nil
		}
	}
	return "", false, nil
}

// Create subscribes with every attribute in the same call; the ARN becomes
// the external name. SNS answers a Subscribe of a topic, protocol and
// endpoint subscribed already with that subscription's ARN when the
// attributes sent agree with its own, and refuses it otherwise: an answer
// proves that this Subscribe made the subscription only when it holds
// exactly the attributes sent, which are read back to tell. That is also
// how the retry of a Subscribe whose answer was lost finds its own work.
// Anyone else's subscription is not this object's: it is neither recorded
// nor changed, and the ownership rules refuse it at the next Observe.
func (e *external) Create(ctx context.Context, mg *v1alpha1.Subscription) (managed.ExternalCreation, error) {
	in := subscribeInput(mg)
	e.subscribed = true
	out, err := e.client.Subscribe(ctx, in)
	if awserrors.Matches(err, snsclient.ErrDifferentAttributes) {
		return managed.ExternalCreation{}, notMade{msg: fmt.Sprintf(msgExistsOther, Identity(mg), err), status: http.StatusBadRequest}
	}
	if err != nil {
		return managed.ExternalCreation{}, awserrors.Wrap(err, errSubscribe)
	}
	arn := aws.ToString(out.SubscriptionArn)
	e.subscribedARN = arn
	got, err := e.client.GetSubscriptionAttributes(ctx, &sns.GetSubscriptionAttributesInput{SubscriptionArn: out.SubscriptionArn})
	if err != nil {
		// Whose the subscription is stays unknown, as after a lost
		// answer: the error keeps AWS's words but not its answer, which
		// the ownership client would take for AWS refusing the create,
		// and then refuse this object a subscription it may have made.
		return managed.ExternalCreation{}, fmt.Errorf(errVerify, arn, awserrors.Wrap(err, errGet).Error())
	}
	if differ := snsclient.NotAsSent(in.Attributes, got.Attributes); len(differ) > 0 {
		return managed.ExternalCreation{}, notMade{msg: msgNotAsSent, status: http.StatusOK}
	}
	meta.SetExternalName(mg, arn)
	return managed.ExternalCreation{ConnectionDetails: snsclient.ConnectionDetails(got.Attributes)}, nil
}

// notMade says that SNS answered a Subscribe with a subscription this object
// did not make. It carries the HTTP status of that answer: the ownership
// client takes a create that AWS answered with an error for one that made
// nothing, and records it in the object's claim, so that no later Observe
// takes the subscription found for this object's work.
type notMade struct {
	msg    string
	status int
}

func (e notMade) Error() string { return e.msg }

// HTTPStatusCode is the status of SNS's answer.
func (e notMade) HTTPStatusCode() int { return e.status }

// Update sets each attribute that differs, one call each, as SNS requires.
func (e *external) Update(ctx context.Context, mg *v1alpha1.Subscription) (managed.ExternalUpdate, error) {
	arn := meta.GetExternalName(mg)
	for _, name := range slices.Sorted(maps.Keys(e.updates)) {
		in := &sns.SetSubscriptionAttributesInput{SubscriptionArn: aws.String(arn), AttributeName: aws.String(name), AttributeValue: aws.String(e.updates[name])}
		if _, err := e.client.SetSubscriptionAttributes(ctx, in); err != nil {
			return managed.ExternalUpdate{}, awserrors.Wrap(err, fmt.Sprintf(errSet, name))
		}
	}
	// Attributes are no connection detail: those Observe read stand.
	return managed.ExternalUpdate{ConnectionDetails: e.published}, nil
}

// Delete unsubscribes.
func (e *external) Delete(ctx context.Context, mg *v1alpha1.Subscription) (managed.ExternalDelete, error) {
	mg.SetConditions(xpv2.Deleting())
	_, err := e.client.Unsubscribe(ctx, &sns.UnsubscribeInput{SubscriptionArn: aws.String(meta.GetExternalName(mg))})
	return managed.ExternalDelete{}, awserrors.Wrap(awserrors.IgnoreNotFound(err), errUnsubscribe)
}
