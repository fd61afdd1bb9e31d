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

// Package sns is the AWS side of Subscription: the narrow SNS API the
// controller uses and pure functions between the API types and SNS's
// attributes. The contract's protocol values queue, function and stream are
// SNS's sqs, lambda and firehose.
package sns

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/aws/aws-sdk-go-v2/service/sns/types"

	"github.com/cloudkinds/provider-aws-services/apis/notification/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/aws/connection"
	"github.com/cloudkinds/provider-aws-services/internal/aws/diff"
)

// API is the part of the SNS client the controller uses.
type API interface {
	Subscribe(ctx context.Context, in *sns.SubscribeInput, o ...func(*sns.Options)) (*sns.SubscribeOutput, error)
	GetSubscriptionAttributes(ctx context.Context, in *sns.GetSubscriptionAttributesInput, o ...func(*sns.Options)) (*sns.GetSubscriptionAttributesOutput, error)
	SetSubscriptionAttributes(ctx context.Context, in *sns.SetSubscriptionAttributesInput, o ...func(*sns.Options)) (*sns.SetSubscriptionAttributesOutput, error)
	Unsubscribe(ctx context.Context, in *sns.UnsubscribeInput, o ...func(*sns.Options)) (*sns.UnsubscribeOutput, error)
	ListSubscriptionsByTopic(ctx context.Context, in *sns.ListSubscriptionsByTopicInput, o ...func(*sns.Options)) (*sns.ListSubscriptionsByTopicOutput, error)
}

// ErrDifferentAttributes is SNS's answer to a Subscribe for a topic,
// protocol and endpoint that are subscribed already, with other attributes.
// With the same attributes, or none, SNS answers with the existing
// subscription's ARN instead, as if it had made it.
const ErrDifferentAttributes = "InvalidParameter: already exists with different attributes"

// arnPending is what ListSubscriptionsByTopic shows in place of the ARN of a
// subscription that waits for confirmation.
const arnPending = "PendingConfirmation"

// SNS's attribute names.
const (
	AttrDeliveryPolicy          = "DeliveryPolicy"
	AttrFilterPolicy            = "FilterPolicy"
	AttrFilterPolicyScope       = "FilterPolicyScope"
	AttrRawMessageDelivery      = "RawMessageDelivery"
	AttrRedrivePolicy           = "RedrivePolicy"
	AttrSubscriptionRoleArn     = "SubscriptionRoleArn"
	AttrReplayPolicy            = "ReplayPolicy"
	AttrPendingConfirmation     = "PendingConfirmation"
	AttrConfirmationWasAuth     = "ConfirmationWasAuthenticated"
	AttrEffectiveDeliveryPolicy = "EffectiveDeliveryPolicy"
	AttrOwner                   = "Owner"
	AttrSubscriptionArn         = "SubscriptionArn"
	AttrTopicArn                = "TopicArn"
)

// The keys of a Subscription's connection Secret: the subscription's ARN
// (which Unsubscribe and SetSubscriptionAttributes take) and its topic's
// (which Publish takes), both from GetSubscriptionAttributes.
//
// The endpoint is not published: it is the user's own input, which the
// subscriber holds already, and it may be a credential or carry one: an
// http(s) endpoint's userinfo is the basic authentication SNS delivers with
// (https://user:password@host), and an email address or phone number is
// personal data an application has no need of.
const (
	ConnectionARN      = "subscriptionARN"
	ConnectionTopicARN = "topicARN"
)

// ConnectionKeys declares the keys, for the API reference.
var ConnectionKeys = connection.Keys{
	{Name: ConnectionARN, Holds: "The subscription's ARN."},
	{Name: ConnectionTopicARN, Holds: "The ARN of the topic subscribed to."},
}

// ConnectionDetails are the subscription's ARN and its topic's, from its
// attributes.
func ConnectionDetails(attrs map[string]string) map[string][]byte {
	return connection.Details(map[string]string{ConnectionARN: attrs[AttrSubscriptionArn], ConnectionTopicARN: attrs[AttrTopicArn]})
}

var protocols = map[string]string{"queue": "sqs", "function": "lambda", "stream": "firehose"}

// Protocol translates the API's protocol to SNS's.
func Protocol(p string) string {
	if translated, ok := protocols[p]; ok {
		return translated
	}
	return p
}

// ProtocolFrom translates SNS's protocol to the API's.
func ProtocolFrom(p string) string {
	for api, sns := range protocols {
		if sns == p {
			return api
		}
	}
	return p
}

// Configuration is the spec that describes the subscription as SNS holds
// it: what identifies it, and its attributes.
func Configuration(attrs map[string]string) v1alpha1.SubscriptionParameters {
	p := ObservedParameters(attrs)
	p.Protocol = ProtocolFrom(attrs["Protocol"])
	if v := attrs["TopicArn"]; v != "" {
		p.TopicARN = aws.String(v)
	}
	if v := attrs["Endpoint"]; v != "" {
		p.Endpoint = aws.String(v)
	}
	return p
}

// Attributes returns the attributes a spec sets, by SNS name.
func Attributes(p *v1alpha1.SubscriptionParameters) map[string]string {
	out := map[string]string{}
	for name, v := range map[string]*string{
		AttrDeliveryPolicy:      p.DeliveryPolicy,
		AttrFilterPolicy:        p.FilterPolicy,
		AttrFilterPolicyScope:   p.FilterPolicyScope,
		AttrRawMessageDelivery:  p.RawMessageDelivery,
		AttrRedrivePolicy:       p.RedrivePolicy,
		AttrSubscriptionRoleArn: p.SubscriptionRoleARN,
	} {
		if v != nil {
			out[name] = *v
		}
	}
	return out
}

// SubscribeInput builds the Subscribe request: the attributes go in the same
// call, and SNS returns the ARN even while confirmation is pending.
func SubscribeInput(p *v1alpha1.SubscriptionParameters) *sns.SubscribeInput {
	in := &sns.SubscribeInput{
		TopicArn:              p.TopicARN,
		Protocol:              aws.String(Protocol(p.Protocol)),
		Endpoint:              p.Endpoint,
		ReturnSubscriptionArn: true,
	}
	if a := Attributes(p); len(a) > 0 {
		in.Attributes = a
	}
	return in
}

// settable are the attributes a Subscribe may set: the spec's, and
// ReplayPolicy, which no spec sets.
var settable = []string{AttrDeliveryPolicy, AttrFilterPolicy, AttrFilterPolicyScope, AttrRawMessageDelivery, AttrRedrivePolicy, AttrReplayPolicy, AttrSubscriptionRoleArn}

// policies are the attributes that hold JSON documents, which SNS stores in
// its own form.
var policies = map[string]bool{AttrDeliveryPolicy: true, AttrFilterPolicy: true, AttrRedrivePolicy: true, AttrReplayPolicy: true}

// defaults are what SNS shows of an attribute no one set: messages are not
// raw, and a filter policy applies to the message attributes.
var defaults = map[string]string{AttrRawMessageDelivery: "false", AttrFilterPolicyScope: "MessageAttributes"}

// NotAsSent returns the settable attributes, sorted, in which a subscription
// as SNS stores them (stored) is not what a Subscribe sent (sent): another
// value, or a value where the Subscribe sent none, SNS's defaults aside.
// SNS answers a Subscribe of a topic, protocol and endpoint subscribed
// already with the existing subscription's ARN when the attributes sent
// agree with its own, and whatever else it holds: only a subscription that
// holds exactly what was sent can be that Subscribe's work.
func NotAsSent(sent, stored map[string]string) []string {
	differ := make([]string, 0, len(settable))
	for _, name := range settable {
		want, ok := sent[name]
		if !ok {
			want = defaults[name]
		}
		got, ok := stored[name]
		if !ok {
			got = defaults[name]
		}
		if got == want || (policies[name] && diff.JSONEqual(want, got)) {
			continue
		}
		differ = append(differ, name)
	}
	return differ
}

// Find looks for the subscription of the spec's protocol and endpoint among a
// page of a topic's subscriptions. It returns its ARN, or found without an
// ARN while the subscription waits for confirmation (SNS hides the ARN then).
func Find(p *v1alpha1.SubscriptionParameters, page []types.Subscription) (arn string, found bool) {
	for _, s := range page {
		if aws.ToString(s.Protocol) != Protocol(p.Protocol) || aws.ToString(s.Endpoint) != aws.ToString(p.Endpoint) {
			continue
		}
		if a := aws.ToString(s.SubscriptionArn); a != arnPending {
			return a, true
		}
		return "", true
	}
	return "", false
}

// Observation is the status of a subscription as SNS describes it; the caller
// adds the resource metadata.
func Observation(attrs map[string]string) v1alpha1.SubscriptionObservation {
	get := func(k string) *string {
		if v, ok := attrs[k]; ok {
			return aws.String(v)
		}
		return nil
	}
	return v1alpha1.SubscriptionObservation{
		ConfirmationWasAuthenticated: get(AttrConfirmationWasAuth),
		EffectiveDeliveryPolicy:      get(AttrEffectiveDeliveryPolicy),
		Owner:                        get(AttrOwner),
		PendingConfirmation:          get(AttrPendingConfirmation),
	}
}

// Pending reports whether the subscription waits for its endpoint's
// confirmation.
func Pending(attrs map[string]string) bool { return attrs[AttrPendingConfirmation] == "true" }

// ObservedParameters is the part of the spec that SNS's attributes describe.
func ObservedParameters(attrs map[string]string) v1alpha1.SubscriptionParameters {
	get := func(k string) *string {
		if v, ok := attrs[k]; ok {
			return &v
		}
		return nil
	}
	return v1alpha1.SubscriptionParameters{
		DeliveryPolicy:      get(AttrDeliveryPolicy),
		FilterPolicy:        get(AttrFilterPolicy),
		FilterPolicyScope:   get(AttrFilterPolicyScope),
		RawMessageDelivery:  get(AttrRawMessageDelivery),
		RedrivePolicy:       get(AttrRedrivePolicy),
		SubscriptionRoleARN: get(AttrSubscriptionRoleArn),
	}
}

// attributeFields are the spec paths of the attributes, by SNS name.
var attributeFields = map[string]string{
	"spec.forProvider.deliveryPolicy":      AttrDeliveryPolicy,
	"spec.forProvider.filterPolicy":        AttrFilterPolicy,
	"spec.forProvider.filterPolicyScope":   AttrFilterPolicyScope,
	"spec.forProvider.rawMessageDelivery":  AttrRawMessageDelivery,
	"spec.forProvider.redrivePolicy":       AttrRedrivePolicy,
	"spec.forProvider.subscriptionRoleARN": AttrSubscriptionRoleArn,
}

// AttributeUpdates returns the spec paths that differ from SNS's attributes
// and the attributes to set, by SNS name; attributes the spec leaves out are
// SNS's. Policies are JSON documents: SNS stores them in its own form (key
// order, null members it adds), which is no drift.
func AttributeUpdates(p *v1alpha1.SubscriptionParameters, attrs map[string]string) (paths []string, set map[string]string) {
	want := v1alpha1.SubscriptionParameters{
		DeliveryPolicy: p.DeliveryPolicy, FilterPolicy: p.FilterPolicy, FilterPolicyScope: p.FilterPolicyScope,
		RawMessageDelivery: p.RawMessageDelivery, RedrivePolicy: p.RedrivePolicy, SubscriptionRoleARN: p.SubscriptionRoleARN,
	}
	paths = diff.Paths("spec.forProvider", want, ObservedParameters(attrs),
		diff.JSON("deliveryPolicy"), diff.JSON("filterPolicy"), diff.JSON("redrivePolicy"))
	values := Attributes(p)
	set = map[string]string{}
	for _, path := range paths {
		name := attributeFields[path]
		set[name] = values[name]
	}
	return paths, set
}
