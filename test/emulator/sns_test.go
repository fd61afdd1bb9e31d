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

package emulator_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/google/go-cmp/cmp"
)

func TestSNSSubscriptions(t *testing.T) {
	e, cfg, _ := start(t, "AKIDEMO")
	c := sns.NewFromConfig(cfg)
	topic := aws.ToString(must(c.CreateTopic(ctx, &sns.CreateTopicInput{Name: aws.String("orders")}))(t).TopicArn)
	if topic != "arn:aws:sns:us-east-1:000000000000:orders" {
		t.Fatalf("topic ARN: %s", topic)
	}

	// A queue needs no confirmation.
	q := must(c.Subscribe(ctx, &sns.SubscribeInput{TopicArn: aws.String(topic), Protocol: aws.String("sqs"),
		Endpoint: aws.String("arn:aws:sqs:us-east-1:000000000000:q"), ReturnSubscriptionArn: true,
		Attributes: map[string]string{"RawMessageDelivery": "true"}}))(t).SubscriptionArn
	attrs := must(c.GetSubscriptionAttributes(ctx, &sns.GetSubscriptionAttributesInput{SubscriptionArn: q}))(t).Attributes
	if attrs["PendingConfirmation"] != "false" || attrs["RawMessageDelivery"] != "true" || attrs["Owner"] != "000000000000" {
		t.Errorf("queue attributes: %v", attrs)
	}
	again := must(c.Subscribe(ctx, &sns.SubscribeInput{TopicArn: aws.String(topic), Protocol: aws.String("sqs"),
		Endpoint: aws.String("arn:aws:sqs:us-east-1:000000000000:q"), ReturnSubscriptionArn: true}))(t).SubscriptionArn
	if aws.ToString(again) != aws.ToString(q) {
		t.Errorf("Subscribe is not idempotent: %s then %s", aws.ToString(q), aws.ToString(again))
	}
	_, err := c.Subscribe(ctx, &sns.SubscribeInput{TopicArn: aws.String(topic), Protocol: aws.String("sqs"),
		Endpoint: aws.String("arn:aws:sqs:us-east-1:000000000000:q"), Attributes: map[string]string{"RawMessageDelivery": "false"}})
	wantCode(t, err, "InvalidParameter", "different attributes")

	// An https endpoint stays pending until it confirms.
	h := must(c.Subscribe(ctx, &sns.SubscribeInput{TopicArn: aws.String(topic), Protocol: aws.String("https"),
		Endpoint: aws.String("https://hooks.example.com"), ReturnSubscriptionArn: true}))(t).SubscriptionArn
	attrs = must(c.GetSubscriptionAttributes(ctx, &sns.GetSubscriptionAttributesInput{SubscriptionArn: h}))(t).Attributes
	if attrs["PendingConfirmation"] != "true" || attrs["EffectiveDeliveryPolicy"] == "" {
		t.Errorf("https attributes: %v", attrs)
	}
	pending := must(c.Subscribe(ctx, &sns.SubscribeInput{TopicArn: aws.String(topic), Protocol: aws.String("email"), Endpoint: aws.String("ops@example.com")}))(t).SubscriptionArn
	if aws.ToString(pending) != "pending confirmation" {
		t.Errorf("without ReturnSubscriptionArn: %s", aws.ToString(pending))
	}
	_, err = c.Unsubscribe(ctx, &sns.UnsubscribeInput{SubscriptionArn: h})
	wantCode(t, err, "InvalidParameter", "pending confirmation")
	if !e.ConfirmSubscription(aws.ToString(h)) {
		t.Fatal("cannot confirm")
	}
	attrs = must(c.GetSubscriptionAttributes(ctx, &sns.GetSubscriptionAttributesInput{SubscriptionArn: h}))(t).Attributes
	if attrs["PendingConfirmation"] != "false" {
		t.Errorf("confirmed subscription is still pending")
	}

	// Attributes.
	must(c.SetSubscriptionAttributes(ctx, &sns.SetSubscriptionAttributesInput{SubscriptionArn: q, AttributeName: aws.String("FilterPolicy"), AttributeValue: aws.String(`{"a":["b"]}`)}))(t)
	_, err = c.SetSubscriptionAttributes(ctx, &sns.SetSubscriptionAttributesInput{SubscriptionArn: q, AttributeName: aws.String("FilterPolicy"), AttributeValue: aws.String(`{not json`)})
	wantCode(t, err, "InvalidParameter", "FilterPolicy")
	attrs = must(c.GetSubscriptionAttributes(ctx, &sns.GetSubscriptionAttributesInput{SubscriptionArn: q}))(t).Attributes
	if attrs["FilterPolicy"] != `{"a":["b"]}` || attrs["FilterPolicyScope"] != "MessageAttributes" {
		t.Errorf("filter policy: %v", attrs)
	}

	for _, sub := range must(c.ListSubscriptionsByTopic(ctx, &sns.ListSubscriptionsByTopicInput{TopicArn: aws.String(topic)}))(t).Subscriptions {
		if aws.ToString(sub.Protocol) == "email" && aws.ToString(sub.SubscriptionArn) != "PendingConfirmation" {
			t.Errorf("a pending subscription is listed by its ARN: %s", aws.ToString(sub.SubscriptionArn))
		}
	}
	subs := must(c.ListSubscriptionsByTopic(ctx, &sns.ListSubscriptionsByTopicInput{TopicArn: aws.String(topic)}))(t).Subscriptions
	if len(subs) != 3 {
		t.Errorf("want 3 subscriptions, got %d", len(subs))
	}

	must(c.Unsubscribe(ctx, &sns.UnsubscribeInput{SubscriptionArn: q}))(t)
	_, err = c.GetSubscriptionAttributes(ctx, &sns.GetSubscriptionAttributesInput{SubscriptionArn: q})
	wantCode(t, err, "NotFound", "Subscription does not exist")

	_, err = c.Subscribe(ctx, &sns.SubscribeInput{TopicArn: aws.String(topic), Protocol: aws.String("http"), Endpoint: aws.String("https://x")})
	wantCode(t, err, "InvalidParameter", "not a valid http endpoint")

	// ConfirmSubscription with the token SNS sent to the endpoint.
	mail := must(c.Subscribe(ctx, &sns.SubscribeInput{TopicArn: aws.String(topic), Protocol: aws.String("email-json"),
		Endpoint: aws.String("dev@example.com"), ReturnSubscriptionArn: true}))(t).SubscriptionArn
	_, err = c.ConfirmSubscription(ctx, &sns.ConfirmSubscriptionInput{TopicArn: aws.String(topic), Token: aws.String("forged")})
	wantCode(t, err, "InvalidParameter", "Token")
	confirmed := must(c.ConfirmSubscription(ctx, &sns.ConfirmSubscriptionInput{TopicArn: aws.String(topic), Token: aws.String(e.ConfirmationToken(aws.ToString(mail)))}))(t)
	if aws.ToString(confirmed.SubscriptionArn) != aws.ToString(mail) {
		t.Errorf("confirmed %s, want %s", aws.ToString(confirmed.SubscriptionArn), aws.ToString(mail))
	}

	// Deleting the topic deletes its subscriptions.
	must(c.DeleteTopic(ctx, &sns.DeleteTopicInput{TopicArn: aws.String(topic)}))(t)
	_, err = c.GetSubscriptionAttributes(ctx, &sns.GetSubscriptionAttributesInput{SubscriptionArn: mail})
	wantCode(t, err, "NotFound", "Subscription does not exist")
	_, err = c.DeleteTopic(ctx, &sns.DeleteTopicInput{TopicArn: aws.String(topic)})
	wantCode(t, err, "NotFound", "Topic does not exist")
}

// TestSNSSubscribeWhatIsSubscribedAlready: SNS answers a Subscribe of a
// topic, protocol and endpoint subscribed already with that subscription,
// made by whoever made it, when each attribute sent is what it shows; it
// refuses one that sends another value. Neither makes or changes anything.
func TestSNSSubscribeWhatIsSubscribedAlready(t *testing.T) {
	e, cfg, _ := start(t, "AKIDSUBSCRIBER")
	c := sns.NewFromConfig(cfg)
	topic := must(c.CreateTopic(ctx, &sns.CreateTopicInput{Name: aws.String("existing")}))(t).TopicArn
	subscribe := func(attrs map[string]string) (*sns.SubscribeOutput, error) {
		return c.Subscribe(ctx, &sns.SubscribeInput{TopicArn: topic, Protocol: aws.String("sqs"),
			Endpoint: aws.String("arn:aws:sqs:us-east-1:000000000000:theirs"), ReturnSubscriptionArn: true, Attributes: attrs})
	}
	theirs := aws.ToString(must(subscribe(map[string]string{"FilterPolicy": `{"team":["a"]}`}))(t).SubscriptionArn)
	before := must(c.GetSubscriptionAttributes(ctx, &sns.GetSubscriptionAttributesInput{SubscriptionArn: aws.String(theirs)}))(t).Attributes
	creations := len(e.Creations())

	const refused = "Invalid parameter: Attributes Reason: Subscription already exists with different attributes"
	cases := map[string]struct {
		attrs   map[string]string
		refused bool
	}{
		"TheSameAttributes":         {attrs: map[string]string{"FilterPolicy": `{"team":["a"]}`}},
		"NoAttributes":              {},
		"TheDefaultsItShows":        {attrs: map[string]string{"RawMessageDelivery": "false", "FilterPolicyScope": "MessageAttributes"}},
		"AnotherFilterPolicy":       {attrs: map[string]string{"FilterPolicy": `{"team":["b"]}`}, refused: true},
		"AnAttributeOfAnotherValue": {attrs: map[string]string{"FilterPolicy": `{"team":["a"]}`, "RawMessageDelivery": "true"}, refused: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			out, err := subscribe(tc.attrs)
			if tc.refused {
				wantCode(t, err, "InvalidParameter", refused)
				return
			}
			if got := aws.ToString(must(out, err)(t).SubscriptionArn); got != theirs {
				t.Errorf("answered with %s, want the existing %s", got, theirs)
			}
		})
	}
	after := must(c.GetSubscriptionAttributes(ctx, &sns.GetSubscriptionAttributesInput{SubscriptionArn: aws.String(theirs)}))(t).Attributes
	if diff := cmp.Diff(before, after); diff != "" {
		t.Errorf("the existing subscription changed: -before, +after:\n%s", diff)
	}
	if n := len(e.Creations()) - creations; n != 0 {
		t.Errorf("%d creations", n)
	}
}

func TestSTSCallerIdentity(t *testing.T) {
	_, cfg, _ := start(t, "AKIDCALLER")
	c := sts.NewFromConfig(cfg)
	out := must(c.GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{}))(t)
	if aws.ToString(out.Account) != "000000000000" || aws.ToString(out.Arn) != "arn:aws:iam::000000000000:user/AKIDCALLER" {
		t.Errorf("identity: %s %s", aws.ToString(out.Account), aws.ToString(out.Arn))
	}
	role := must(c.AssumeRole(ctx, &sts.AssumeRoleInput{RoleArn: aws.String("arn:aws:iam::000000000000:role/deployer"), RoleSessionName: aws.String("crossplane")}))(t)
	if role.Credentials == nil || aws.ToString(role.AssumedRoleUser.Arn) != "arn:aws:sts::000000000000:assumed-role/deployer/crossplane" {
		t.Errorf("assumed role: %+v", role.AssumedRoleUser)
	}
}
