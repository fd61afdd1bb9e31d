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
	"maps"
	"net/url"
	"strings"
)

// Calls returns how often each operation was called, keyed "service:Operation".
func (s *Server) Calls() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]int, len(s.calls))
	for k, v := range s.calls {
		out[k] = v
	}
	return out
}

// CallCount returns how often one operation was called.
func (s *Server) CallCount(operation string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[operation]
}

// CallsByKey returns how many calls each access key signed: with a key of
// its own per provider process, which process called AWS.
func (s *Server) CallsByKey() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.keyCalls)
}

// ResetCalls forgets the call counts, those of Calls, CallsFor, CallsByKey,
// CallsBySession and Outcomes.
func (s *Server) ResetCalls() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = map[string]int{}
	s.resourceCalls = map[string]map[string]int{}
	s.keyCalls = map[string]int{}
	s.bySession = map[signedCall]int{}
	s.outcomes = map[string]map[string]int{}
}

// CallsFor returns how often each operation was called for one resource,
// named as its calls name it: a stream, endpoint configuration or endpoint
// name, or an ARN (subscriptions, tagged resources).
func (s *Server) CallsFor(resource string) map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]int{}
	for k, v := range s.resourceCalls[resource] {
		out[k] = v
	}
	return out
}

// CallsMatching returns how often each operation was called for the
// resources whose names (as CallsFor names them) contain sub: a test that
// gives each object a name no other contains counts every call about it,
// by name or ARN, at once.
func (s *Server) CallsMatching(sub string) map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]int{}
	for r, calls := range s.resourceCalls {
		if !strings.Contains(r, sub) {
			continue
		}
		for k, v := range calls {
			out[k] += v
		}
	}
	return out
}

// resourceOf names the resource a call addresses, if it names one.
func resourceOf(req *request) string {
	if strings.HasPrefix(req.http.URL.Path, "/tags/") {
		if arn, err := url.PathUnescape(strings.TrimPrefix(req.http.URL.EscapedPath(), "/tags/")); err == nil {
			return arn
		}
	}
	if form, err := url.ParseQuery(string(req.body)); err == nil && form.Get("Action") != "" {
		for _, k := range []string{"SubscriptionArn", "TopicArn", "Name"} {
			if v := form.Get(k); v != "" {
				return v
			}
		}
		return ""
	}
	var fields map[string]any
	if json.Unmarshal(req.body, &fields) != nil {
		return ""
	}
	for _, k := range []string{"DeliveryStreamName", "EndpointConfigName", "ResourceArn", "ModelName", "Name", "name"} {
		if v, ok := fields[k].(string); ok && v != "" {
			return v
		}
	}
	return ""
}

// count counts a call in Calls, CallsFor, CallsByKey and CallsBySession.
func (s *Server) count(req *request, name string) {
	s.calls[name]++
	s.keyCalls[req.accessKey]++
	r := resourceOf(req)
	s.bySession[signedCall{operation: name, resource: r, accessKey: req.accessKey}]++
	if r != "" {
		if s.resourceCalls[r] == nil {
			s.resourceCalls[r] = map[string]int{}
		}
		s.resourceCalls[r][name]++
	}
}
