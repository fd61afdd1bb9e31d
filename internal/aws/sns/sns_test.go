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

package sns

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/cloudkinds/provider-aws-services/apis/notification/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/aws/connection"
)

func TestProtocol(t *testing.T) {
	for api, want := range map[string]string{"queue": "sqs", "function": "lambda", "stream": "firehose", "https": "https", "email-json": "email-json", "application": "application"} {
		if got := Protocol(api); got != want {
			t.Errorf("%s: want %s, got %s", api, want, got)
		}
	}
}

func TestSubscribeInput(t *testing.T) {
	in := SubscribeInput(&v1alpha1.SubscriptionParameters{Protocol: "stream", Endpoint: aws.String("arn:aws:firehose:us-east-1:000000000000:deliverystream/s"),
		TopicARN: aws.String("arn:aws:sns:us-east-1:000000000000:t"), SubscriptionRoleARN: aws.String("arn:aws:iam::000000000000:role/r")})
	if aws.ToString(in.Protocol) != "firehose" || !in.ReturnSubscriptionArn || in.Attributes["SubscriptionRoleArn"] != "arn:aws:iam::000000000000:role/r" {
		t.Errorf("input: %+v", in)
	}
}

func TestNotAsSent(t *testing.T) {
	cases := map[string]struct {
		reason string
		sent   map[string]string
		stored map[string]string
		want   []string
	}{
		"NothingSentNothingSet": {
			reason: "SNS's defaults are what a Subscribe without attributes makes.",
			stored: map[string]string{"RawMessageDelivery": "false", "Protocol": "sqs", "PendingConfirmation": "false"},
		},
		"AsSentInSNSsForm": {
			reason: "Policies SNS stores in its own form, and the defaults it shows beside them, are what was sent.",
			sent:   map[string]string{"FilterPolicy": `{ "a": ["b"] }`, "DeliveryPolicy": `{"healthyRetryPolicy":{"numRetries":5}}`},
			stored: map[string]string{"FilterPolicy": `{"a":["b"]}`, "FilterPolicyScope": "MessageAttributes", "RawMessageDelivery": "false",
				"DeliveryPolicy":          `{"healthyRetryPolicy":{"numRetries":5,"minDelayTarget":null},"sicklyRetryPolicy":null,"guaranteed":false}`,
				"EffectiveDeliveryPolicy": `{"healthyRetryPolicy":{"numRetries":5}}`},
		},
		"AnotherValue": {
			reason: "A value other than the one sent.",
			sent:   map[string]string{"FilterPolicy": `{"a":["b"]}`},
			stored: map[string]string{"FilterPolicy": `{"a":["c"]}`},
			want:   []string{"FilterPolicy"},
		},
		"SetWhereNoneWasSent": {
			reason: "SNS answers a Subscribe with an existing subscription whatever else it holds: what was not sent counts too.",
			sent:   map[string]string{"FilterPolicy": `{"a":["b"]}`},
			stored: map[string]string{"FilterPolicy": `{"a":["b"]}`, "RawMessageDelivery": "true", "ReplayPolicy": `{"pointType":"Timestamp"}`},
			want:   []string{"RawMessageDelivery", "ReplayPolicy"},
		},
		"SentButMissing": {
			reason: "An attribute sent that the subscription lacks.",
			sent:   map[string]string{"RedrivePolicy": `{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:dlq"}`, "FilterPolicyScope": "MessageBody"},
			want:   []string{"FilterPolicyScope", "RedrivePolicy"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, NotAsSent(tc.sent, tc.stored), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("%s\n-want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestAttributeUpdates(t *testing.T) {
	observed := map[string]string{"FilterPolicy": `{"a":["b"],"c":["d"]}`, "RawMessageDelivery": "false", "FilterPolicyScope": "MessageAttributes",
		"DeliveryPolicy": `{"healthyRetryPolicy":{"numRetries":5,"minDelayTarget":null},"sicklyRetryPolicy":null,"guaranteed":false}`}
	type want struct {
		paths []string
		set   map[string]string
	}
	cases := map[string]struct {
		reason string
		p      v1alpha1.SubscriptionParameters
		want   want
	}{
		"NothingSet":         {reason: "Attributes the spec leaves out are SNS's.", want: want{set: map[string]string{}}},
		"JSONFormattingOnly": {reason: "A policy that differs only in formatting and key order is no drift.", p: v1alpha1.SubscriptionParameters{FilterPolicy: aws.String(`{ "c": ["d"], "a": ["b"] }`)}, want: want{set: map[string]string{}}},
		"JSONNormalisedBySNS": {
			reason: "SNS stores a delivery policy with null members and guaranteed:false added: no drift.",
			p:      v1alpha1.SubscriptionParameters{DeliveryPolicy: aws.String(`{"healthyRetryPolicy":{"numRetries":5}}`)},
			want:   want{set: map[string]string{}},
		},
		"JSONChanged": {
			reason: "A changed policy is set again, named by its spec path.",
			p:      v1alpha1.SubscriptionParameters{FilterPolicy: aws.String(`{"a":["x"]}`)},
			want:   want{paths: []string{"spec.forProvider.filterPolicy"}, set: map[string]string{"FilterPolicy": `{"a":["x"]}`}},
		},
		"StringChanged": {
			reason: "A changed string attribute is set again.",
			p:      v1alpha1.SubscriptionParameters{RawMessageDelivery: aws.String("true")},
			want:   want{paths: []string{"spec.forProvider.rawMessageDelivery"}, set: map[string]string{"RawMessageDelivery": "true"}},
		},
		"NewAttribute": {
			reason: "An attribute SNS lacks is set.",
			p:      v1alpha1.SubscriptionParameters{RedrivePolicy: aws.String(`{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:dlq"}`)},
			want: want{paths: []string{"spec.forProvider.redrivePolicy"},
				set: map[string]string{"RedrivePolicy": `{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:dlq"}`}},
		},
		"ScopeAlreadyDefault": {reason: "SNS's default scope is no drift.", p: v1alpha1.SubscriptionParameters{FilterPolicyScope: aws.String("MessageAttributes")}, want: want{set: map[string]string{}}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			paths, set := AttributeUpdates(&tc.p, observed)
			if diff := cmp.Diff(tc.want, want{paths: paths, set: set}, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("%s\n-want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestDefaultsAndObservation(t *testing.T) {
	attrs := map[string]string{"RawMessageDelivery": "false", "FilterPolicyScope": "MessageAttributes", "PendingConfirmation": "true", "Owner": "000000000000",
		"ConfirmationWasAuthenticated": "false", "EffectiveDeliveryPolicy": "{}", "FilterPolicy": `{"a":["b"]}`}
	// SNS's defaults are not copied into the spec, and a spec that leaves
	// them out does not differ.
	p := &v1alpha1.SubscriptionParameters{FilterPolicy: aws.String(`{"a":["b"]}`)}
	if diffs, updates := AttributeUpdates(p, attrs); len(diffs) != 0 || len(updates) != 0 {
		t.Errorf("a spec without SNS's defaults differs: %v %v", diffs, updates)
	}
	want := v1alpha1.SubscriptionObservation{ConfirmationWasAuthenticated: aws.String("false"), EffectiveDeliveryPolicy: aws.String("{}"),
		Owner: aws.String("000000000000"), PendingConfirmation: aws.String("true")}
	if diff := cmp.Diff(want, Observation(attrs)); diff != "" {
		t.Errorf("-want, +got:\n%s", diff)
	}
	if !Pending(attrs) {
		t.Error("not pending")
	}
}

func TestConnectionDetails(t *testing.T) {
	const (
		arn   = "arn:aws:sns:us-east-1:000000000000:orders:0b4a5f29-7c38-4a5e-9a53-0d2c4bcf1e11"
		topic = "arn:aws:sns:us-east-1:000000000000:orders"
	)
	cases := map[string]struct {
		reason string
		attrs  map[string]string
		want   map[string][]byte
	}{
		"Confirmed": {
			reason: "A subscription publishes its ARN and its topic's; not its endpoint, whose userinfo is a credential SNS delivers with.",
			attrs: map[string]string{
				"SubscriptionArn": arn, "TopicArn": topic, "Protocol": "https", "Endpoint": "https://user:password@hooks.example.com/sns",
				"Owner": "000000000000", "PendingConfirmation": "false",
			},
			want: map[string][]byte{"subscriptionARN": []byte(arn), "topicARN": []byte(topic)},
		},
		"NoAttributes": {
			reason: "What SNS does not answer is not published, not even empty.",
			want:   map[string][]byte{},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := ConnectionDetails(tc.attrs)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nConnectionDetails(...): -want, +got:\n%s", tc.reason, diff)
			}
			if u := connection.Undeclared(ConnectionKeys, got); len(u) != 0 {
				t.Errorf("published keys that ConnectionKeys does not declare: %v", u)
			}
		})
	}
}

func TestConfiguration(t *testing.T) {
	attrs := map[string]string{
		"TopicArn": "arn:aws:sns:us-east-1:000000000000:orders", "Protocol": "sqs",
		"Endpoint": "arn:aws:sqs:us-east-1:000000000000:q", AttrRawMessageDelivery: "true",
		AttrPendingConfirmation: "false", AttrOwner: "000000000000",
	}
	want := v1alpha1.SubscriptionParameters{
		TopicARN: aws.String("arn:aws:sns:us-east-1:000000000000:orders"), Protocol: "queue",
		Endpoint: aws.String("arn:aws:sqs:us-east-1:000000000000:q"), RawMessageDelivery: aws.String("true"),
	}
	if diff := cmp.Diff(want, Configuration(attrs)); diff != "" {
		t.Errorf("Configuration(): the API's names of what SNS holds, nothing of its status: -want, +got:\n%s", diff)
	}
	for api := range protocols {
		if got := ProtocolFrom(Protocol(api)); got != api {
			t.Errorf("ProtocolFrom(Protocol(%q)) = %q", api, got)
		}
	}
}
