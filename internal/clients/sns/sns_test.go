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

	"github.com/cloudkinds/provider-aws-services/apis/notification/v1alpha1"
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

func TestAttributeUpdates(t *testing.T) {
	observed := map[string]string{"FilterPolicy": `{"a":["b"],"c":["d"]}`, "RawMessageDelivery": "false", "FilterPolicyScope": "MessageAttributes"}
	cases := map[string]struct {
		p    v1alpha1.SubscriptionParameters
		want map[string]string
	}{
		"NothingSet":          {want: map[string]string{}},
		"JSONFormattingOnly":  {p: v1alpha1.SubscriptionParameters{FilterPolicy: aws.String(`{ "c": ["d"], "a": ["b"] }`)}, want: map[string]string{}},
		"JSONChanged":         {p: v1alpha1.SubscriptionParameters{FilterPolicy: aws.String(`{"a":["x"]}`)}, want: map[string]string{"FilterPolicy": `{"a":["x"]}`}},
		"StringChanged":       {p: v1alpha1.SubscriptionParameters{RawMessageDelivery: aws.String("true")}, want: map[string]string{"RawMessageDelivery": "true"}},
		"NewAttribute":        {p: v1alpha1.SubscriptionParameters{RedrivePolicy: aws.String(`{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:dlq"}`)}, want: map[string]string{"RedrivePolicy": `{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:dlq"}`}},
		"ScopeAlreadyDefault": {p: v1alpha1.SubscriptionParameters{FilterPolicyScope: aws.String("MessageAttributes")}, want: map[string]string{}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, AttributeUpdates(&tc.p, observed)); diff != "" {
				t.Errorf("-want, +got:\n%s", diff)
			}
		})
	}
}

func TestLateInitializeAndObservation(t *testing.T) {
	attrs := map[string]string{"RawMessageDelivery": "false", "FilterPolicyScope": "MessageAttributes", "PendingConfirmation": "true", "Owner": "000000000000",
		"ConfirmationWasAuthenticated": "false", "EffectiveDeliveryPolicy": "{}"}
	p := &v1alpha1.SubscriptionParameters{FilterPolicy: aws.String(`{"a":["b"]}`)}
	if !LateInitialize(p, attrs) || aws.ToString(p.RawMessageDelivery) != "false" || aws.ToString(p.FilterPolicyScope) != "MessageAttributes" {
		t.Errorf("late init: %+v", p)
	}
	if LateInitialize(p, attrs) {
		t.Error("a second late initialization changed the spec")
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
