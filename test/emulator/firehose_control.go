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

// FailStreamCreation makes the next creation of the stream named name end in
// CREATING_FAILED with the given failure.
func (s *Server) FailStreamCreation(name string, f FailureDescription) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.streamFailures[name] = f
}

type keyFailure struct {
	FailureDescription
}

// FailKey makes every key-service operation on keyARN fail with f: a stream
// created with it ends in CREATING_FAILED, enabling or disabling encryption
// with it ends in ENABLING_FAILED or DISABLING_FAILED, and deleting a stream
// encrypted with it, unless forced, in DELETING_FAILED (its grant cannot be
// retired).
func (s *Server) FailKey(keyARN string, f FailureDescription) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.keyFailures[keyARN] = keyFailure{f}
}

// StreamStatus returns the status of a stream, or "" when there is none.
func (s *Server) StreamStatus(region, name string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.settle()
	if d, ok := s.streams[key(region, name)]; ok {
		return d.State
	}
	return ""
}

// StreamAccessKey returns the access key the stream delivers with; tests use
// it to see that a rotation reached AWS.
func (s *Server) StreamAccessKey(region, name string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d, ok := s.streams[key(region, name)]; ok && d.destination.EndpointConfiguration != nil && d.destination.EndpointConfiguration.AccessKey != nil {
		return *d.destination.EndpointConfiguration.AccessKey
	}
	return ""
}

// ReplaceBufferingHints makes Firehose replace the HTTP endpoint buffering
// hints of the stream named name with what f returns, as AWS may replace
// hints with better values.
func (s *Server) ReplaceBufferingHints(name string, f func(sizeInMBs, intervalInSeconds int64) (int64, int64)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hintsRewrite[name] = f
}

func (s *Server) rewriteHints(name string, h *fhHTTP) {
	f := s.hintsRewrite[name]
	if f == nil || h.BufferingHints == nil || h.BufferingHints.SizeInMBs == nil || h.BufferingHints.IntervalInSeconds == nil {
		return
	}
	size, interval := f(*h.BufferingHints.SizeInMBs, *h.BufferingHints.IntervalInSeconds)
	h.BufferingHints = &fhBufferingHints{SizeInMBs: &size, IntervalInSeconds: &interval}
}
