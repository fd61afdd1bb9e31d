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
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

type topic struct {
	name, arn, region string
}

type subscription struct {
	arn, topicARN, protocol, endpoint, region string
	pending                                   bool
	authenticated                             bool
	created                                   time.Time
	attributes                                map[string]string
	token                                     string
}

// confirmationProtocols need the endpoint's confirmation before delivery.
var confirmationProtocols = map[string]bool{"http": true, "https": true, "email": true, "email-json": true}

var settableSubscriptionAttributes = map[string]bool{
	"DeliveryPolicy": true, "FilterPolicy": true, "FilterPolicyScope": true, "RawMessageDelivery": true,
	"RedrivePolicy": true, "SubscriptionRoleArn": true, "ReplayPolicy": true,
}

var topicName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,256}$`)

func (s *Server) sns(req *request) (any, *apiError) {
	form, _ := url.ParseQuery(string(req.body))
	switch req.operation {
	case "CreateTopic":
		return s.createTopic(req, form)
	case "DeleteTopic":
		return s.deleteTopic(req, form)
	case "Subscribe":
		return s.subscribe(req, form)
	case "ConfirmSubscription":
		return s.confirmSubscription(req, form)
	case "GetSubscriptionAttributes":
		return s.getSubscriptionAttributes(req, form)
	case "SetSubscriptionAttributes":
		return s.setSubscriptionAttributes(req, form)
	case "Unsubscribe":
		return s.unsubscribe(req, form)
	case "ListSubscriptionsByTopic":
		return s.listSubscriptionsByTopic(req, form)
	case "ListSubscriptions":
		return s.listSubscriptions(req, form)
	}
	return nil, errorf(400, "InvalidAction", "The action %s is not valid for this web service.", req.operation)
}

func invalidParameter(format string, args ...any) *apiError {
	return errorf(400, "InvalidParameter", "Invalid parameter: "+format, args...)
}

func snsNotFound(what string) *apiError {
	return errorf(404, "NotFound", "%s does not exist", what)
}

func (s *Server) createTopic(req *request, form url.Values) (any, *apiError) {
	name := form.Get("Name")
	if !topicName.MatchString(name) {
		return nil, invalidParameter("Topic Name")
	}
	arn := s.arn(req.region, "sns", name)
	if _, ok := s.topics[arn]; !ok { // CreateTopic is idempotent
		s.topics[arn] = &topic{name: name, arn: arn, region: req.region}
	}
	return queryResult{Inner: "<TopicArn>" + arn + "</TopicArn>"}, nil
}

func (s *Server) deleteTopic(_ *request, form url.Values) (any, *apiError) {
	arn := form.Get("TopicArn")
	if _, ok := s.topics[arn]; !ok {
		return nil, snsNotFound("Topic")
	}
	delete(s.topics, arn)
	for k, sub := range s.subscriptions {
		if sub.topicARN == arn {
			delete(s.subscriptions, k)
		}
	}
	return queryResult{}, nil
}

// entries reads a query map such as Attributes.entry.N.key/value.
func entries(form url.Values, name string) map[string]string {
	out := map[string]string{}
	for i := 1; ; i++ {
		k := form.Get(fmt.Sprintf("%s.entry.%d.key", name, i))
		if k == "" {
			return out
		}
		out[k] = form.Get(fmt.Sprintf("%s.entry.%d.value", name, i))
	}
}

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

// ConfirmSubscription confirms a pending subscription, as its endpoint would
// by visiting the link in the confirmation message.
func (s *Server) ConfirmSubscription(arn string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	sub, ok := s.subscriptions[arn]
	if !ok || !sub.pending {
		return false
	}
	sub.pending = false
	return true
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

func (s *Server) subscription(arn string) (*subscription, *apiError) {
	sub, ok := s.subscriptions[arn]
	if !ok || !s.visible("sns", sub.created) {
		return nil, snsNotFound("Subscription")
	}
	return sub, nil
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

// ExpirePendingSubscriptions removes the pending subscriptions, as SNS does
// when their confirmation expires.
func (s *Server) ExpirePendingSubscriptions() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, sub := range s.subscriptions {
		if sub.pending {
			delete(s.subscriptions, k)
		}
	}
}

func (s *Server) listSubscriptionsByTopic(_ *request, form url.Values) (any, *apiError) {
	topicARN := form.Get("TopicArn")
	if _, ok := s.topics[topicARN]; !ok {
		return nil, snsNotFound("Topic")
	}
	return s.subscriptionPage(form, func(sub *subscription) bool { return sub.topicARN == topicARN })
}

// listSubscriptions lists the subscriptions of the caller's region, of
// every topic.
func (s *Server) listSubscriptions(req *request, form url.Values) (any, *apiError) {
	return s.subscriptionPage(form, func(sub *subscription) bool { return sub.region == req.region })
}

// subscriptionPage answers a page of the subscriptions that match, 100 at
// most, as SNS's list calls do; a subscription pending confirmation is
// listed with "PendingConfirmation" for its ARN.
func (s *Server) subscriptionPage(form url.Values, match func(*subscription) bool) (any, *apiError) {
	keys := []string{}
	for _, k := range slices.Sorted(maps.Keys(s.subscriptions)) {
		if match(s.subscriptions[k]) {
			keys = append(keys, k)
		}
	}
	var token *string
	if form.Has("NextToken") {
		token = ptr(form.Get("NextToken"))
	}
	keys, next, ok := page(keys, token, snsListing.defaultSize)
	if !ok {
		return nil, invalidParameter("NextToken")
	}
	var b strings.Builder
	b.WriteString("<Subscriptions>")
	for _, k := range keys {
		sub := s.subscriptions[k]
		arn := sub.arn
		if sub.pending {
			arn = "PendingConfirmation"
		}
		fmt.Fprintf(&b, "<member><SubscriptionArn>%s</SubscriptionArn><Owner>%s</Owner><Protocol>%s</Protocol><Endpoint>%s</Endpoint><TopicArn>%s</TopicArn></member>",
			arn, s.opts.Account, sub.protocol, xmlEscape(sub.endpoint), sub.topicARN)
	}
	b.WriteString("</Subscriptions>")
	if next != "" {
		b.WriteString("<NextToken>" + next + "</NextToken>")
	}
	return queryResult{Inner: b.String()}, nil
}

// CreateTopic creates a topic, as test and local-stack setup needs, and
// returns its ARN.
func (s *Server) CreateTopic(region, name string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	arn := s.arn(region, "sns", name)
	if _, ok := s.topics[arn]; !ok {
		s.topics[arn] = &topic{name: name, arn: arn, region: region}
	}
	return arn
}

// ConfirmationToken returns the token SNS sent to a pending subscription's
// endpoint, as the endpoint would read it from the confirmation message.
func (s *Server) ConfirmationToken(arn string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sub, ok := s.subscriptions[arn]; ok {
		return sub.token
	}
	return ""
}
