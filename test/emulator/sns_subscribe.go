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

package emulator

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
)

func validateEndpointForProtocol(protocol, endpoint string) *apiError {
	var ok bool
	switch protocol {
	case "http":
		ok = strings.HasPrefix(endpoint, "http://")
	case "https":
		ok = strings.HasPrefix(endpoint, "https://")
	case "email", "email-json":
		ok = regexp.MustCompile(`^[^@\s]+@[^@\s]+\.[^@\s]+$`).MatchString(endpoint)
	case "sms":
		ok = regexp.MustCompile(`^\+?\d{7,15}$`).MatchString(endpoint)
	case "sqs", "lambda", "firehose", "application":
		ok = strings.HasPrefix(endpoint, "arn:")
	default:
		return invalidParameter("Invalid protocol type: %s", protocol)
	}
	if !ok {
		return invalidParameter("Endpoint Reason: %s is not a valid %s endpoint", endpoint, protocol)
	}
	return nil
}

func (s *Server) subscribe(req *request, form url.Values) (any, *apiError) {
	topicARN, protocol, endpoint := form.Get("TopicArn"), form.Get("Protocol"), form.Get("Endpoint")
	t, ok := s.topics[topicARN]
	if !ok {
		return nil, snsNotFound("Topic")
	}
	if err := validateEndpointForProtocol(protocol, endpoint); err != nil {
		return nil, err
	}
	attrs := entries(form, "Attributes")
	for k, v := range attrs {
		if err := validateSubscriptionAttribute(k, v); err != nil {
			return nil, err
		}
	}
	if protocol == "firehose" && attrs["SubscriptionRoleArn"] == "" {
		return nil, invalidParameter("Attributes Reason: SubscriptionRoleArn is required for the firehose protocol")
	}
	returnARN := form.Get("ReturnSubscriptionArn") == "true"

	// Subscribe is idempotent for the same topic, protocol and endpoint:
	// SNS answers with the existing subscription when each attribute sent
	// is what it shows (whatever else it holds, and whatever attributes
	// it holds when none are sent), and refuses the call otherwise. It
	// says nothing of who made the subscription it answers with.
	for _, sub := range s.subscriptions {
		if sub.topicARN == topicARN && sub.protocol == protocol && sub.endpoint == endpoint {
			shown := sub.settableAttributes()
			for k, v := range attrs {
				if k == "DeliveryPolicy" {
					v = storedDeliveryPolicy(v)
				}
				if shown[k] != v {
					return nil, invalidParameter("Attributes Reason: Subscription already exists with different attributes")
				}
			}
			return subscribeResult(sub, returnARN), nil
		}
	}
	if dp, ok := attrs["DeliveryPolicy"]; ok {
		attrs["DeliveryPolicy"] = storedDeliveryPolicy(dp)
	}
	sub := &subscription{
		arn:      fmt.Sprintf("%s:%08x-0000-4000-8000-%012d", t.arn, s.nextID(), s.seq),
		topicARN: topicARN, protocol: protocol, endpoint: endpoint, region: req.region,
		pending: confirmationProtocols[protocol], created: s.opts.Now(), attributes: attrs,
		// Subscriptions SNS confirms itself (sqs, lambda, sms, ...) answer
		// ConfirmationWasAuthenticated "true" (AWS-recorded answers in
		// LocalStack's test_sns.snapshot.json, test_subscribe_sqs_queue and
		// test_subscribe_sms_endpoint).
		authenticated: !confirmationProtocols[protocol],
		token:         fmt.Sprintf("token-%d", s.seq),
	}
	s.subscriptions[sub.arn] = sub
	// Only a new subscription is a creation; the idempotent answer above,
	// with the existing one, is not.
	s.created(req, Creation{Kind: "Subscription", ARN: sub.arn, TopicARN: topicARN, Protocol: protocol, Endpoint: endpoint})
	return subscribeResult(sub, returnARN), nil
}

func subscribeResult(sub *subscription, returnARN bool) queryResult {
	arn := sub.arn
	if sub.pending && !returnARN {
		arn = "pending confirmation"
	}
	return queryResult{Inner: "<SubscriptionArn>" + xmlEscape(arn) + "</SubscriptionArn>"}
}

func (s *Server) confirmSubscription(_ *request, form url.Values) (any, *apiError) {
	topicARN, token := form.Get("TopicArn"), form.Get("Token")
	if _, ok := s.topics[topicARN]; !ok {
		return nil, snsNotFound("Topic")
	}
	for _, sub := range s.subscriptions {
		if sub.topicARN == topicARN && sub.token == token {
			sub.pending = false
			sub.authenticated = form.Get("AuthenticateOnUnsubscribe") == "true"
			return queryResult{Inner: "<SubscriptionArn>" + sub.arn + "</SubscriptionArn>"}, nil
		}
	}
	return nil, invalidParameter("Token")
}

func (s *Server) unsubscribe(_ *request, form url.Values) (any, *apiError) {
	arn := form.Get("SubscriptionArn")
	sub, ok := s.subscriptions[arn]
	if !ok {
		return nil, snsNotFound("Subscription")
	}
	if sub.pending {
		// A pending subscription cannot be deleted; SNS removes it when its
		// confirmation expires 48 hours after it was requested.
		return nil, invalidParameter("SubscriptionArn Reason: The subscription is pending confirmation and cannot be deleted")
	}
	delete(s.subscriptions, arn)
	return queryResult{}, nil
}
