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

func (s *Server) subscription(arn string) (*subscription, *apiError) {
	sub, ok := s.subscriptions[arn]
	if !ok || !s.visible("sns", sub.created) {
		return nil, snsNotFound("Subscription")
	}
	return sub, nil
}
