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
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

func validateSubscriptionAttribute(name, value string) *apiError {
	if !settableSubscriptionAttributes[name] {
		return invalidParameter("AttributeName")
	}
	switch name {
	case "DeliveryPolicy", "FilterPolicy", "RedrivePolicy", "ReplayPolicy":
		if value != "" && !json.Valid([]byte(value)) {
			return invalidParameter("%s: failed to parse JSON.", name)
		}
	case "RawMessageDelivery":
		if value != "true" && value != "false" {
			return invalidParameter("Attributes Reason: RawMessageDelivery: Invalid value [%s]. Must be true or false.", value)
		}
	case "FilterPolicyScope":
		if value != "MessageAttributes" && value != "MessageBody" {
			return invalidParameter("Attributes Reason: FilterPolicyScope: Invalid value [%s]. Please use either MessageBody or MessageAttributes", value)
		}
	}
	return nil
}

func (s *Server) getSubscriptionAttributes(_ *request, form url.Values) (any, *apiError) {
	sub, err := s.subscription(form.Get("SubscriptionArn"))
	if err != nil {
		return nil, err
	}
	attrs := map[string]string{
		"SubscriptionArn":              sub.arn,
		"TopicArn":                     sub.topicARN,
		"Protocol":                     sub.protocol,
		"Endpoint":                     sub.endpoint,
		"Owner":                        s.opts.Account,
		"PendingConfirmation":          strconv.FormatBool(sub.pending),
		"ConfirmationWasAuthenticated": strconv.FormatBool(sub.authenticated),
		"SubscriptionPrincipal":        "arn:aws:iam::" + s.opts.Account + ":user/emulator",
	}
	for k, v := range sub.settableAttributes() {
		attrs[k] = v
	}
	if sub.protocol == "http" || sub.protocol == "https" {
		attrs["EffectiveDeliveryPolicy"] = effectiveDeliveryPolicy(sub.attributes["DeliveryPolicy"])
	}
	var b strings.Builder
	b.WriteString("<Attributes>")
	for _, k := range slices.Sorted(maps.Keys(attrs)) {
		fmt.Fprintf(&b, "<entry><key>%s</key><value>%s</value></entry>", k, xmlEscape(attrs[k]))
	}
	b.WriteString("</Attributes>")
	return queryResult{Inner: b.String()}, nil
}

// settableAttributes are the settable attributes of a subscription as SNS
// shows them: those set, and the defaults of RawMessageDelivery and, beside
// a filter policy, of its scope.
func (sub *subscription) settableAttributes() map[string]string {
	out := map[string]string{"RawMessageDelivery": "false"}
	if _, ok := sub.attributes["FilterPolicy"]; ok {
		out["FilterPolicyScope"] = "MessageAttributes"
	}
	for k, v := range sub.attributes {
		out[k] = v
	}
	return out
}

// storedDeliveryPolicy is a delivery policy as SNS stores and returns it:
// the members of each retry policy the request left out are null, the
// sickly-retry and throttle policies are null when absent, and guaranteed is
// false unless set (AWS-recorded answers in LocalStack's
// test_sns.snapshot.json, test_subscribe_external_http_endpoint; the SNS
// developer guide, "Creating an HTTP/S delivery policy"). SNS writes the
// members in its own order, which the JSON encoder's key order stands in for.
func storedDeliveryPolicy(policy string) string {
	var p map[string]any
	if json.Unmarshal([]byte(policy), &p) != nil {
		return policy
	}
	if retry, ok := p["healthyRetryPolicy"].(map[string]any); ok {
		for _, k := range []string{"minDelayTarget", "maxDelayTarget", "numRetries", "numMaxDelayRetries", "numNoDelayRetries", "numMinDelayRetries", "backoffFunction"} {
			if _, set := retry[k]; !set {
				retry[k] = nil
			}
		}
	}
	for _, k := range []string{"sicklyRetryPolicy", "throttlePolicy"} {
		if _, set := p[k]; !set {
			p[k] = nil
		}
	}
	if _, set := p["guaranteed"]; !set {
		p["guaranteed"] = false
	}
	b, err := json.Marshal(p)
	if err != nil {
		return policy
	}
	return string(b)
}

// effectiveDeliveryPolicy merges a subscription's delivery policy with SNS's
// default http/https policy, with the request policy SNS adds.
func effectiveDeliveryPolicy(own string) string {
	policy := map[string]any{
		"healthyRetryPolicy": map[string]any{
			"minDelayTarget": 20, "maxDelayTarget": 20, "numRetries": 3, "numMaxDelayRetries": 0,
			"numNoDelayRetries": 0, "numMinDelayRetries": 0, "backoffFunction": "linear",
		},
		"sicklyRetryPolicy": nil,
		"throttlePolicy":    nil,
		"requestPolicy":     map[string]any{"headerContentType": "text/plain; charset=UTF-8"},
		"guaranteed":        false,
	}
	if own != "" {
		var mine map[string]any
		if json.Unmarshal([]byte(own), &mine) == nil {
			for k, v := range mine {
				if v != nil {
					policy[k] = v
				}
			}
		}
	}
	b, err := json.Marshal(policy)
	if err != nil {
		return "{}"
	}
	return string(b)
}

func (s *Server) setSubscriptionAttributes(_ *request, form url.Values) (any, *apiError) {
	sub, err := s.subscription(form.Get("SubscriptionArn"))
	if err != nil {
		return nil, err
	}
	name, value := form.Get("AttributeName"), form.Get("AttributeValue")
	if err := validateSubscriptionAttribute(name, value); err != nil {
		return nil, err
	}
	switch {
	case value == "":
		delete(sub.attributes, name)
	case name == "DeliveryPolicy":
		sub.attributes[name] = storedDeliveryPolicy(value)
	default:
		sub.attributes[name] = value
	}
	return queryResult{}, nil
}
