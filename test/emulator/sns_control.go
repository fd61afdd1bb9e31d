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
