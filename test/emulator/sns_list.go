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
	"maps"
	"net/url"
	"slices"
	"strings"
)

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
