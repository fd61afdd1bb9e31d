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

package subscription

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/aws/aws-sdk-go-v2/service/sns/types"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	"github.com/crossplane/crossplane-runtime/v2/pkg/test"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/cloudkinds/provider-aws-services/apis/notification/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/aws/awserrors"
	snsclient "github.com/cloudkinds/provider-aws-services/internal/aws/sns"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/conditions"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/awsconfig"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/ownership"
)

// fakeSNS answers GetSubscriptionAttributes with attrs (or getErr), lists
// topic, answers Subscribe with subscribed (or subscribeErr), and records the
// attributes set and those each Subscribe sent.
type fakeSNS struct {
	snsclient.API
	attrs        map[string]string
	getErr       error
	set          []string
	topic        []types.Subscription
	listed       int
	sent         []map[string]string
	subscribed   string
	subscribeErr error
}

func (f *fakeSNS) ListSubscriptionsByTopic(context.Context, *sns.ListSubscriptionsByTopicInput, ...func(*sns.Options)) (*sns.ListSubscriptionsByTopicOutput, error) {
	f.listed++
	return &sns.ListSubscriptionsByTopicOutput{Subscriptions: f.topic}, nil
}

func (f *fakeSNS) Subscribe(_ context.Context, in *sns.SubscribeInput, _ ...func(*sns.Options)) (*sns.SubscribeOutput, error) {
	f.sent = append(f.sent, in.Attributes)
	if f.subscribeErr != nil {
		return nil, f.subscribeErr
	}
	return &sns.SubscribeOutput{SubscriptionArn: aws.String(f.subscribed)}, nil
}

func (f *fakeSNS) GetSubscriptionAttributes(context.Context, *sns.GetSubscriptionAttributesInput, ...func(*sns.Options)) (*sns.GetSubscriptionAttributesOutput, error) {
	if f.getErr != nil {
		return nil, f.getErr
	}
	return &sns.GetSubscriptionAttributesOutput{Attributes: f.attrs}, nil
}

func (f *fakeSNS) SetSubscriptionAttributes(_ context.Context, in *sns.SetSubscriptionAttributesInput, _ ...func(*sns.Options)) (*sns.SetSubscriptionAttributesOutput, error) {
	f.set = append(f.set, aws.ToString(in.AttributeName)+"="+aws.ToString(in.AttributeValue))
	return &sns.SetSubscriptionAttributesOutput{}, nil
}

const arn = "arn:aws:sns:us-east-1:000000000000:orders:0001"

func subscriptionMR() *v1alpha1.Subscription {
	mg := &v1alpha1.Subscription{}
	meta.SetExternalName(mg, arn)
	mg.Spec.ForProvider = v1alpha1.SubscriptionParameters{Protocol: "queue", Endpoint: aws.String("arn:aws:sqs:us-east-1:000000000000:q"),
		TopicARN: aws.String("arn:aws:sns:us-east-1:000000000000:orders"), FilterPolicy: aws.String(`{"a": ["b"]}`), RawMessageDelivery: aws.String("true")}
	return mg
}

func attrs(pending string) map[string]string {
	return map[string]string{"TopicArn": "arn:aws:sns:us-east-1:000000000000:orders", "Protocol": "sqs", "Endpoint": "arn:aws:sqs:us-east-1:000000000000:q",
		"PendingConfirmation": pending, "Owner": "000000000000", "FilterPolicy": `{"a":["b"]}`, "RawMessageDelivery": "false"}
}

func TestObserve(t *testing.T) {
	session := &awsconfig.Session{AccountID: "000000000000", Partition: "aws", Region: "us-east-1"}
	type want struct {
		exists, upToDate, lateInit bool
		reason                     xpv2.ConditionReason
		externalName               string
		listed                     int
		err                        string
		// left is what the Observe told its deletion left on AWS.
		left []string
	}
	fresh := func() *v1alpha1.Subscription {
		mg := subscriptionMR()
		meta.SetExternalName(mg, "")
		return mg
	}
	interrupted := func() *v1alpha1.Subscription {
		mg := fresh()
		meta.SetExternalCreatePending(mg, time.Now())
		return mg
	}
	// failed is an object whose creates failed: SNS may have made the
	// subscription of one whose answer was lost, with what it sent.
	failed := func() *v1alpha1.Subscription {
		mg := fresh()
		meta.SetExternalCreatePending(mg, time.Now().Add(-2*time.Minute))
		meta.SetExternalCreateFailed(mg, time.Now().Add(-time.Minute))
		return mg
	}
	deleted := func(mg func() *v1alpha1.Subscription) func() *v1alpha1.Subscription {
		return func() *v1alpha1.Subscription {
			o := mg()
			now := metav1.NewTime(time.Now())
			o.SetDeletionTimestamp(&now)
			return o
		}
	}
	// asSent are the attributes of the subscription the object's create
	// makes, as SNS shows them.
	asSent := attrs("false")
	asSent["RawMessageDelivery"], asSent["FilterPolicyScope"] = "true", "MessageAttributes"
	member := func(arn, endpoint string) types.Subscription {
		return types.Subscription{SubscriptionArn: aws.String(arn), Protocol: aws.String("sqs"), Endpoint: aws.String(endpoint),
			TopicArn: aws.String("arn:aws:sns:us-east-1:000000000000:orders")}
	}
	cases := map[string]struct {
		mg    func() *v1alpha1.Subscription
		attrs map[string]string
		topic []types.Subscription
		// holdsClaim is true when the object holds its identity's claim.
		holdsClaim bool
		// subscribed is true when the Observe follows this reconcile's
		// own create.
		subscribed bool
		want       want
	}{
		"NoARNYetLooksBeforeCreating": {mg: fresh, want: want{listed: 1}},
		"ASubscriptionThatExistsBeforeCreatingIsFound": {mg: fresh, attrs: attrs("false"),
			topic: []types.Subscription{member(arn, "arn:aws:sqs:us-east-1:000000000000:q")},
			want:  want{exists: true, upToDate: false, lateInit: true, reason: xpv2.ReasonAvailable, externalName: arn, listed: 1}},
		"SomeoneElsesSubscriptionWaitingForConfirmationExists": {mg: fresh,
			topic: []types.Subscription{member("PendingConfirmation", "arn:aws:sqs:us-east-1:000000000000:q")},
			want:  want{exists: true, upToDate: true, listed: 1}},
		"OneWaitingForConfirmationIsLeftToSubscribeWhenAdopting": {mg: func() *v1alpha1.Subscription {
			mg := fresh()
			mg.SetAnnotations(map[string]string{ownership.AnnotationAdoptionPolicy: ownership.AdoptionPolicyAdopt})
			return mg
		},
			topic: []types.Subscription{member("PendingConfirmation", "arn:aws:sqs:us-east-1:000000000000:q")},
			want:  want{exists: false, listed: 1}},
		"InterruptedCreateIsFoundByItsTopic": {mg: interrupted, attrs: attrs("false"),
			topic: []types.Subscription{member(arn+"9", "arn:aws:sqs:us-east-1:000000000000:other"), member(arn, "arn:aws:sqs:us-east-1:000000000000:q")},
			want:  want{exists: true, upToDate: false, lateInit: true, reason: xpv2.ReasonAvailable, externalName: arn, listed: 1}},
		"InterruptedCreateThatWaitsForConfirmationIsLeftToSubscribe": {mg: interrupted, holdsClaim: true,
			topic: []types.Subscription{member("PendingConfirmation", "arn:aws:sqs:us-east-1:000000000000:q")},
			want:  want{exists: false, listed: 1}},
		"SomeoneElsesWaitingForConfirmationExistsDespiteARecord": {mg: interrupted,
			topic: []types.Subscription{member("PendingConfirmation", "arn:aws:sqs:us-east-1:000000000000:q")},
			want:  want{exists: true, upToDate: true, listed: 1}},
		"InterruptedCreateThatNeverReachedSNS": {mg: interrupted,
			topic: []types.Subscription{member(arn+"9", "arn:aws:sqs:us-east-1:000000000000:other")},
			want:  want{exists: false, listed: 1}},
		"ItsLostCreatesWorkIsFound": {mg: failed, attrs: asSent, holdsClaim: true,
			topic: []types.Subscription{member(arn, "arn:aws:sqs:us-east-1:000000000000:q")},
			want:  want{exists: true, upToDate: true, lateInit: true, reason: xpv2.ReasonAvailable, externalName: arn, listed: 1}},
		"OneWithOtherAttributesIsNotItsLostCreatesWork": {mg: failed, attrs: attrs("false"), holdsClaim: true,
			topic: []types.Subscription{member(arn, "arn:aws:sqs:us-east-1:000000000000:q")},
			want:  want{exists: false, listed: 1}},
		"DeletingItLeavesOneWithOtherAttributes": {mg: deleted(failed), attrs: attrs("false"), holdsClaim: true,
			topic: []types.Subscription{member(arn, "arn:aws:sqs:us-east-1:000000000000:q")},
			want:  want{exists: false, listed: 1}},
		"WithoutTheClaimOwnershipDecides": {mg: failed, attrs: attrs("false"),
			topic: []types.Subscription{member(arn, "arn:aws:sqs:us-east-1:000000000000:q")},
			want:  want{exists: true, upToDate: false, lateInit: true, reason: xpv2.ReasonAvailable, externalName: arn, listed: 1}},
		"AnInterruptedCreateMayHaveSentAttributesChangedSince": {mg: interrupted, attrs: attrs("false"), holdsClaim: true,
			topic: []types.Subscription{member(arn, "arn:aws:sqs:us-east-1:000000000000:q")},
			want:  want{exists: true, upToDate: false, lateInit: true, reason: xpv2.ReasonAvailable, externalName: arn, listed: 1}},
		"TheLookAfterItsOwnCreateDoesNotTakeOneWithOtherAttributes": {mg: interrupted, attrs: attrs("false"), subscribed: true,
			topic: []types.Subscription{member(arn, "arn:aws:sqs:us-east-1:000000000000:q")},
			want:  want{exists: false, listed: 1}},
		"TheLookAfterItsOwnCreateFindsItsWork": {mg: interrupted, attrs: asSent, subscribed: true,
			topic: []types.Subscription{member(arn, "arn:aws:sqs:us-east-1:000000000000:q")},
			want:  want{exists: true, upToDate: true, lateInit: true, reason: xpv2.ReasonAvailable, externalName: arn, listed: 1}},
		"ConfirmedWithAChangedAttribute": {mg: subscriptionMR, attrs: attrs("false"),
			want: want{exists: true, upToDate: false, reason: xpv2.ReasonAvailable, externalName: arn}},
		"PendingIsNeverUpdated": {mg: subscriptionMR, attrs: attrs("true"),
			want: want{exists: true, upToDate: true, reason: conditions.ReasonPendingConfirmation, externalName: arn}},
		"PendingAndDeletedIsReleasedSayingWhatItLeaves": {mg: deleted(subscriptionMR), attrs: attrs("true"), want: want{exists: false, externalName: arn,
			left: []string{"SNS keeps subscription " + arn + ", pending confirmation, which it does not let anyone delete: it deletes it itself 48 hours after it was requested, unless its endpoint confirms it first"}}},
		"ImportedByItsARNAlone": {mg: func() *v1alpha1.Subscription {
			mg := &v1alpha1.Subscription{}
			meta.SetExternalName(mg, arn)
			mg.SetManagementPolicies(xpv2.ManagementPolicies{xpv2.ManagementActionObserve})
			return mg
		}, attrs: attrs("false"), want: want{exists: true, upToDate: true, reason: xpv2.ReasonAvailable, externalName: arn}},
		"AWriterNamedByItsARNAlone": {mg: func() *v1alpha1.Subscription {
			mg := &v1alpha1.Subscription{}
			meta.SetExternalName(mg, arn)
			meta.AddAnnotations(mg, map[string]string{ownership.AnnotationAdoptionPolicy: ownership.AdoptionPolicyAdopt})
			mg.SetManagementPolicies(xpv2.ManagementPolicies{xpv2.ManagementActionObserve, xpv2.ManagementActionDelete})
			return mg
		}, attrs: attrs("false"), want: want{err: errNoIdentity}},
		"NamingNothing": {mg: func() *v1alpha1.Subscription {
			mg := &v1alpha1.Subscription{}
			mg.SetManagementPolicies(xpv2.ManagementPolicies{xpv2.ManagementActionObserve})
			return mg
		}, want: want{err: errNoIdentity}},
		"AnotherEndpoint": {mg: func() *v1alpha1.Subscription {
			mg := subscriptionMR()
			mg.Spec.ForProvider.Endpoint = aws.String("arn:aws:sqs:us-east-1:000000000000:other")
			return mg
		}, attrs: attrs("false"), want: want{err: "not what the spec says"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mg := tc.mg()
			fake := &fakeSNS{attrs: tc.attrs, topic: tc.topic}
			var left []string
			e := &external{client: fake, session: session, subscribed: tc.subscribed, left: func(_ resource.Managed, what string) { left = append(left, what) },
				holdsClaim: func(context.Context, resource.Managed) bool { return tc.holdsClaim }}
			obs, err := e.Observe(context.Background(), mg)
			got := want{exists: obs.ResourceExists, upToDate: obs.ResourceUpToDate, lateInit: obs.ResourceLateInitialized, listed: fake.listed,
				externalName: meta.GetExternalName(mg), left: left}
			if err != nil {
				// An error is expected when its text contains the wanted
				// one; any other error shows in the diff.
				got = want{err: err.Error()}
				if tc.want.err != "" && strings.Contains(got.err, tc.want.err) {
					got.err = tc.want.err
				}
			} else if obs.ResourceExists {
				got.reason = mg.GetCondition(xpv2.TypeReady).Reason
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("-want, +got:\n%s", diff)
			}
		})
	}
}

func TestUpdateSetsEachDifferingAttributeOnce(t *testing.T) {
	mg := subscriptionMR()
	fake := &fakeSNS{attrs: attrs("false")}
	e := &external{client: fake, session: &awsconfig.Session{Partition: "aws"}}
	if _, err := e.Observe(context.Background(), mg); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Update(context.Background(), mg); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"RawMessageDelivery=true"}, fake.set); diff != "" {
		t.Errorf("-want, +got:\n%s", diff)
	}
}

// answer is an error SNS answered with, as the SDK returns it: with the
// HTTP status that tells that SNS answered.
func answer(status int, code, message string) error {
	return &smithy.OperationError{ServiceID: "SNS", OperationName: "Subscribe", Err: &smithyhttp.ResponseError{
		Response: &smithyhttp.Response{Response: &http.Response{StatusCode: status}},
		Err:      &smithy.GenericAPIError{Code: code, Message: message},
	}}
}

// TestObservePublishes: a subscription, confirmed or pending, publishes its
// ARN and its topic's, and never its endpoint.
func TestObservePublishes(t *testing.T) {
	want := map[string][]byte{"subscriptionARN": []byte(arn), "topicARN": []byte("arn:aws:sns:us-east-1:000000000000:orders")}
	for _, pending := range []string{"false", "true"} {
		t.Run("Pending="+pending, func(t *testing.T) {
			a := attrs(pending)
			a["SubscriptionArn"] = arn
			e := &external{client: &fakeSNS{attrs: a}, session: &awsconfig.Session{AccountID: "000000000000", Partition: "aws", Region: "us-east-1"}}
			mg := subscriptionMR()
			obs, err := e.Observe(context.Background(), mg)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, map[string][]byte(obs.ConnectionDetails)); diff != "" {
				t.Errorf("connection details: -want, +got:\n%s", diff)
			}
			upd, err := e.Update(context.Background(), mg)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, map[string][]byte(upd.ConnectionDetails)); diff != "" {
				t.Errorf("the update's connection details: -want, +got:\n%s", diff)
			}
		})
	}
}

func TestCreate(t *testing.T) {
	const other = arn + "-subscribed-by-someone-else"
	identity := "sqs:arn:aws:sqs:us-east-1:000000000000:q on arn:aws:sns:us-east-1:000000000000:orders"
	sent := map[string]string{"FilterPolicy": `{"a": ["b"]}`, "RawMessageDelivery": "true"}
	// SNS shows what it stores, in its own form, beside its defaults.
	stored := func(extra map[string]string) map[string]string {
		a := attrs("false")
		a["RawMessageDelivery"], a["FilterPolicyScope"] = "true", "MessageAttributes"
		for k, v := range extra {
			a[k] = v
		}
		return a
	}
	differentAttributes := answer(http.StatusBadRequest, "InvalidParameter", "Invalid parameter: Attributes Reason: Subscription already exists with different attributes")
	throttled := answer(http.StatusBadRequest, "Throttling", "Rate exceeded")
	noTopic := answer(http.StatusNotFound, "NotFound", "Topic does not exist")
	type want struct {
		externalName string
		err          error
		// answered is whether the ownership client takes the error for
		// AWS's answer that nothing was made (awserrors.Answered).
		answered bool
		sent     []map[string]string
		set      []string
	}
	cases := map[string]struct {
		reason       string
		spec         func(p *v1alpha1.SubscriptionParameters)
		subscribed   string
		subscribeErr error
		attrs        map[string]string
		getErr       error
		want         want
	}{
		"ANewSubscriptionIsThisObjects": {
			reason:     "A subscription that holds exactly what was sent, in SNS's form and with its defaults, is the Subscribe's work.",
			subscribed: arn, attrs: stored(nil),
			want: want{externalName: arn, sent: []map[string]string{sent}},
		},
		"TheRetryOfALostAnswerFindsItsOwnWork": {
			reason:     "SNS answers the retry of a Subscribe whose answer was lost with the same subscription, which holds what was sent: it is this object's.",
			subscribed: arn, attrs: stored(map[string]string{"PendingConfirmation": "true"}),
			want: want{externalName: arn, sent: []map[string]string{sent}},
		},
		"OneWithOtherAttributesIsNotTaken": {
			reason:       "SNS refuses a Subscribe when the subscription exists with other attributes: someone else's, neither subscribed again without attributes nor recorded.",
			subscribeErr: differentAttributes,
			want: want{
				err:      notMade{msg: fmt.Sprintf(msgExistsOther, identity, differentAttributes), status: http.StatusBadRequest},
				answered: true, sent: []map[string]string{sent},
			},
		},
		"OneThatHoldsMoreThanWasSentIsNotTaken": {
			reason:     "SNS answers with an existing subscription whose attributes agree with those sent, whatever else it holds: one holding more is not this Subscribe's work.",
			subscribed: other, attrs: stored(map[string]string{"RedrivePolicy": `{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:theirs"}`}),
			want: want{
				err:      notMade{msg: msgNotAsSent, status: http.StatusOK},
				answered: true, sent: []map[string]string{sent},
			},
		},
		"OneWithAFilterPolicyWhenNoneWasSentIsNotTaken": {
			reason: "SNS answers a Subscribe without attributes with the existing subscription, whatever it holds.",
			spec: func(p *v1alpha1.SubscriptionParameters) {
				p.FilterPolicy, p.RawMessageDelivery = nil, nil
			},
			subscribed: other, attrs: stored(nil),
			want: want{
				err:      notMade{msg: msgNotAsSent, status: http.StatusOK},
				answered: true, sent: []map[string]string{nil},
			},
		},
		"AttributesThatCannotBeReadProveNothing": {
			reason:     "Whose the subscription is stays unknown, as after a lost answer: the error is no answer of AWS to the create.",
			subscribed: arn, getErr: throttled,
			want: want{
				err:  fmt.Errorf(errVerify, arn, awserrors.Wrap(throttled, errGet).Error()),
				sent: []map[string]string{sent},
			},
		},
		"OtherRefusalsAreAWSs": {
			reason:       "Any other refusal is reported as AWS worded it.",
			subscribeErr: noTopic,
			want:         want{err: awserrors.Wrap(noTopic, errSubscribe), answered: true, sent: []map[string]string{sent}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mg := subscriptionMR()
			meta.SetExternalName(mg, "")
			if tc.spec != nil {
				tc.spec(&mg.Spec.ForProvider)
			}
			fake := &fakeSNS{subscribed: tc.subscribed, subscribeErr: tc.subscribeErr, attrs: tc.attrs, getErr: tc.getErr}
			e := &external{client: fake, session: &awsconfig.Session{Partition: "aws"}}
			_, err := e.Create(context.Background(), mg)
			got := want{externalName: meta.GetExternalName(mg), err: err, answered: awserrors.Answered(err), sent: fake.sent, set: fake.set}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{}), test.EquateErrors()); diff != "" {
				t.Errorf("%s\n-want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestIdentity(t *testing.T) {
	imported := func(policies ...xpv2.ManagementAction) *v1alpha1.Subscription {
		mg := &v1alpha1.Subscription{}
		mg.SetManagementPolicies(policies)
		shown := subscriptionMR().Spec.ForProvider
		mg.Status.AtProvider.ForProvider = &shown
		return mg
	}
	const identity = "sqs:arn:aws:sqs:us-east-1:000000000000:q on arn:aws:sns:us-east-1:000000000000:orders"
	cases := map[string]struct {
		reason string
		mg     *v1alpha1.Subscription
		want   string
	}{
		"FromTheSpec":   {reason: "The spec says which subscription it is.", mg: subscriptionMR(), want: identity},
		"ImportedByARN": {reason: "An import's identity is that of what its Observe showed, for the ownership rules.", mg: imported(xpv2.ManagementActionObserve), want: identity},
		"StatusOfAWriter": {
			reason: "An object that writes is identified by its spec alone, never by a status a tenant can write.",
			mg:     imported(xpv2.ManagementActionObserve, xpv2.ManagementActionDelete),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Identity(tc.mg)); diff != "" {
				t.Errorf("%s\nIdentity(): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
