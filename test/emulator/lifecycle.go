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
	"time"
)

// settle moves every resource's asynchronous state on to the present and
// forgets the resources whose deletion finished.
func (s *Server) settle() {
	now := s.opts.Now()
	for k, r := range s.streams {
		if r.settle(now) {
			delete(s.streams, k)
		}
	}
	for k, r := range s.endpoints {
		if r.settle(now) {
			delete(s.endpoints, k)
		}
	}
}

// visible says whether a resource created at created can be read yet.
func (s *Server) visible(service string, created time.Time) bool {
	return !s.opts.Now().Before(created.Add(s.invisible[service]))
}

// A lifecycle is the asynchronous state of a resource: its current state and
// the state it reaches at a given time.
type lifecycle struct {
	State string
	next  string
	at    time.Time
}

const deleted = "<deleted>"

func (l *lifecycle) begin(now time.Time, state, next string, delay time.Duration) {
	l.State, l.next, l.at = state, next, now.Add(delay)
}

// settle reports whether the resource is gone.
func (l *lifecycle) settle(now time.Time) bool {
	if l.next != "" && !now.Before(l.at) {
		l.State, l.next = l.next, ""
	}
	return l.State == deleted
}
