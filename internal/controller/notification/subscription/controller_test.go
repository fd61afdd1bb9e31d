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
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/aws/aws-sdk-go-v2/service/sns/types"
	"github.com/aws/smithy-go"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/cloudkinds/provider-aws-services/apis/notification/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/clients/awsconfig"
	snsclient "github.com/cloudkinds/provider-aws-services/internal/clients/sns"
	"github.com/cloudkinds/provider-aws-services/internal/conditions"
	"github.com/cloudkinds/provider-aws-services/internal/ownership"
)

// fakeSNS answers GetSubscriptionAttributes with attrs, lists topic, and
// records the attributes set and the Subscribe calls.
type fakeSNS struct {
	snsclient.API
	attrs      map[string]string
	set        []string
	topic      []types.Subscription
	listed     int
	subscribed []map[string]string
	existing   string // the ARN of a subscription with other attributes
}

func (f *fakeSNS) ListSubscriptionsByTopic(context.Context, *sns.ListSubscriptionsByTopicInput, ...func(*sns.Options)) (*sns.ListSubscriptionsByTopicOutput, error) {
	f.listed++
	return &sns.ListSubscriptionsByTopicOutput{Subscriptions: f.topic}, nil
}

func (f *fakeSNS) Subscribe(_ context.Context, in *sns.SubscribeInput, _ ...func(*sns.Options)) (*sns.SubscribeOutput, error) {
	f.subscribed = append(f.subscribed, in.Attributes)
	if f.existing != "" && len(in.Attributes) > 0 {
		return nil, &smithy.GenericAPIError{Code: "InvalidParameter", Message: "Invalid parameter: Attributes Reason: Subscription already exists with different attributes"}
	}
	if f.existing != "" {
		return &sns.SubscribeOutput{SubscriptionArn: aws.String(f.existing)}, nil
	}
	return &sns.SubscribeOutput{SubscriptionArn: aws.String(arn)}, nil
}

func (f *fakeSNS) GetSubscriptionAttributes(context.Context, *sns.GetSubscriptionAttributesInput, ...func(*sns.Options)) (*sns.GetSubscriptionAttributesOutput, error) {
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
		"ConfirmedWithAChangedAttribute": {mg: subscriptionMR, attrs: attrs("false"),
			want: want{exists: true, upToDate: false, reason: xpv2.ReasonAvailable, externalName: arn}},
		"PendingIsNeverUpdated": {mg: subscriptionMR, attrs: attrs("true"),
			want: want{exists: true, upToDate: true, reason: conditions.ReasonPendingConfirmation, externalName: arn}},
		"PendingAndDeletedIsReleased": {mg: func() *v1alpha1.Subscription {
			mg := subscriptionMR()
			now := metav1.NewTime(time.Now())
			mg.SetDeletionTimestamp(&now)
			return mg
		}, attrs: attrs("true"), want: want{exists: false}},
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
			e := &external{client: fake, session: session}
			obs, err := e.Observe(ownership.WithClaimHeld(context.Background(), tc.holdsClaim), mg)
			got := want{exists: obs.ResourceExists, upToDate: obs.ResourceUpToDate, lateInit: obs.ResourceLateInitialized, listed: fake.listed}
			if err != nil {
				// An error is expected when its text contains the wanted
				// one; any other error shows in the diff.
				got = want{err: err.Error()}
				if tc.want.err != "" && strings.Contains(got.err, tc.want.err) {
					got.err = tc.want.err
				}
			} else if obs.ResourceExists {
				got.reason = mg.GetCondition(xpv2.TypeReady).Reason
				got.externalName = meta.GetExternalName(mg)
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

func TestCreate(t *testing.T) {
	const other = arn + "-subscribed-before"
	type want struct {
		externalName string
		subscribed   []map[string]string
	}
	withAttributes := map[string]string{"FilterPolicy": `{"a": ["b"]}`, "RawMessageDelivery": "true"}
	cases := map[string]struct {
		existing string
		want     want
	}{
		"NewSubscription": {want: want{externalName: arn, subscribed: []map[string]string{withAttributes}}},
		"SubscribedBeforeWithOtherAttributesIsTakenAsCreated": {existing: other,
			want: want{externalName: other, subscribed: []map[string]string{withAttributes, nil}}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mg := subscriptionMR()
			meta.SetExternalName(mg, "")
			fake := &fakeSNS{existing: tc.existing}
			e := &external{client: fake, session: &awsconfig.Session{Partition: "aws"}}
			if _, err := e.Create(context.Background(), mg); err != nil {
				t.Fatal(err)
			}
			got := want{externalName: meta.GetExternalName(mg), subscribed: fake.subscribed}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("-want, +got:\n%s", diff)
			}
		})
	}
}
