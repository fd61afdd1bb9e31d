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
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"
)

// A Fault is injected into the calls of a scope: every call ("*"), the calls
// of one service ("firehose", "sagemaker", "sns", "events",
// "bedrock-agentcore", "sts") or those of one operation
// ("firehose:DescribeDeliveryStream", named as in Calls).
//
// A call meets the fault of the most specific scope that has one, and only
// that one: its operation's, else its service's, else "*"'s. A zero Fault
// therefore exempts its scope from the faults of broader ones.
//
// The fault meets the call with the first of these that applies:
//   - while Throttle counts down, the service's throttling error instead of
//     running the operation;
//   - while ServerError counts down, HTTP 500 InternalFailure instead of
//     running it;
//   - while DropAnswer counts down, the operation runs, and HTTP 500
//     InternalFailure replaces its answer, whatever it was: a create
//     creates, and its caller is told it failed;
//   - while DropConnection counts down, the operation runs, and the
//     connection is reset instead of answering;
//   - the throttling error with probability ThrottleRate, or else HTTP 500
//     with probability ErrorRate, instead of running it;
//
// and delays every call, answered or not, by Latency plus a uniformly random
// part of LatencyJitter. A fault whose counts ran out and that has nothing
// else left is removed, so that broader scopes apply again.
type Fault struct {
	// Throttle answers this many calls with the service's throttling error.
	Throttle int `json:"throttle"`
	// ServerError answers this many calls with an HTTP 500 internal error.
	ServerError int `json:"serverError"`
	// DropAnswer runs this many calls, then answers each with an HTTP 500
	// internal error instead of what the operation answered: AWS did the
	// work and the caller is told it failed, as when AWS fails after the
	// change. Outcomes counts the call by what the operation did (ok or
	// refused). A call over its rate quota (SetQuotas) is throttled
	// instead, and does not count down.
	DropAnswer int `json:"dropAnswer"`
	// DropConnection runs this many calls, then resets the connection
	// instead of answering: AWS did the work and the answer never arrives,
	// as when a connection breaks or times out. Counted as DropAnswer is.
	DropConnection int `json:"dropConnection"`
	// ThrottleRate is the probability, in [0, 1], that a call is answered
	// with the service's throttling error.
	ThrottleRate float64 `json:"throttleRate"`
	// ErrorRate is the probability, in [0, 1], that a call is answered with
	// an HTTP 500 internal error. Throttling is drawn first: a call is
	// throttled with probability ThrottleRate and fails with probability
	// ErrorRate (or what ThrottleRate leaves of 1, if less).
	ErrorRate float64 `json:"errorRate"`
	// Latency delays every call.
	Latency time.Duration `json:"latency"`
	// LatencyJitter delays every call by a further uniformly random duration
	// in [0, LatencyJitter).
	LatencyJitter time.Duration `json:"latencyJitter"`
}

// faultJSON is a Fault as JSON: durations are Go duration strings ("50ms").
type faultJSON struct {
	Throttle       int     `json:"throttle"`
	ServerError    int     `json:"serverError"`
	DropAnswer     int     `json:"dropAnswer"`
	DropConnection int     `json:"dropConnection"`
	ThrottleRate   float64 `json:"throttleRate"`
	ErrorRate      float64 `json:"errorRate"`
	Latency        string  `json:"latency,omitempty"`
	LatencyJitter  string  `json:"latencyJitter,omitempty"`
}

// MarshalJSON writes the fault with its durations as Go duration strings.
func (f Fault) MarshalJSON() ([]byte, error) {
	return json.Marshal(faultJSON{
		Throttle: f.Throttle, ServerError: f.ServerError, DropAnswer: f.DropAnswer, DropConnection: f.DropConnection,
		ThrottleRate: f.ThrottleRate, ErrorRate: f.ErrorRate, Latency: f.Latency.String(), LatencyJitter: f.LatencyJitter.String(),
	})
}

// UnmarshalJSON reads a fault as MarshalJSON writes it; absent members are
// zero, unknown members are an error.
func (f *Fault) UnmarshalJSON(b []byte) error {
	var in faultJSON
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(&in); err != nil {
		return fmt.Errorf("fault: %w", err)
	}
	out := Fault{
		Throttle: in.Throttle, ServerError: in.ServerError, DropAnswer: in.DropAnswer, DropConnection: in.DropConnection,
		ThrottleRate: in.ThrottleRate, ErrorRate: in.ErrorRate,
	}
	for _, p := range []struct {
		name string
		in   string
		out  *time.Duration
	}{{"latency", in.Latency, &out.Latency}, {"latencyJitter", in.LatencyJitter, &out.LatencyJitter}} {
		if p.in == "" {
			continue
		}
		v, err := time.ParseDuration(p.in)
		if err != nil {
			return fmt.Errorf("fault: %s %q is not a duration such as \"50ms\"", p.name, p.in)
		}
		*p.out = v
	}
	*f = out
	return nil
}

// services are the signing names of the emulated services, which name the
// service scopes of faults and eventual consistency.
var services = map[string]bool{"firehose": true, "sagemaker": true, "sns": true, "events": true, "bedrock-agentcore": true, "sts": true}

// Emulates reports whether the emulator serves the service whose requests
// are signed for signingName.
func Emulates(signingName string) bool { return services[signingName] }

func serviceNames() string {
	names := make([]string, 0, len(services))
	for n := range services {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// ValidateFaults reports the first fault that names an unknown scope or has
// a rate outside [0, 1] or a negative count or duration. InjectFault and
// SetFaults take any fault; the emulator's endpoint and command check them
// with this.
func ValidateFaults(faults map[string]Fault) error {
	scopes := make([]string, 0, len(faults))
	for k := range faults {
		scopes = append(scopes, k)
	}
	sort.Strings(scopes)
	for _, scope := range scopes {
		f := faults[scope]
		svc, op, isOp := strings.Cut(scope, ":")
		switch {
		case scope == "*":
		case !services[svc]:
			return fmt.Errorf("fault scope %q: want \"*\", a service or service:Operation, where the service is one of %s", scope, serviceNames())
		case isOp && op == "":
			return fmt.Errorf("fault scope %q names no operation", scope)
		}
		for _, r := range []struct {
			name string
			v    float64
		}{{"throttleRate", f.ThrottleRate}, {"errorRate", f.ErrorRate}} {
			if !(r.v >= 0 && r.v <= 1) {
				return fmt.Errorf("fault %q: %s %v is not a probability in [0, 1]", scope, r.name, r.v)
			}
		}
		if f.Throttle < 0 || f.ServerError < 0 || f.DropAnswer < 0 || f.DropConnection < 0 {
			return fmt.Errorf("fault %q: negative count", scope)
		}
		if f.Latency < 0 || f.LatencyJitter < 0 {
			return fmt.Errorf("fault %q: negative latency", scope)
		}
	}
	return nil
}

// InjectFault sets the fault of a scope: "*", a service, or an operation
// named "service:Operation" as in Calls, for example
// "firehose:DescribeDeliveryStream".
func (s *Server) InjectFault(scope string, f Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults[scope] = &f
}

// RemoveFault removes the fault of a scope, if it has one: broader scopes
// apply to its calls again.
func (s *Server) RemoveFault(scope string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.faults, scope)
}

// SetFaults replaces every fault with faults, keyed by scope.
func (s *Server) SetFaults(faults map[string]Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.setFaults(faults)
}

func (s *Server) setFaults(faults map[string]Fault) {
	s.faults = make(map[string]*Fault, len(faults))
	for k, f := range faults {
		s.faults[k] = &f
	}
}

// Faults returns the faults in force, keyed by scope, with the counts they
// have left.
func (s *Server) Faults() map[string]Fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]Fault, len(s.faults))
	for k, f := range s.faults {
		out[k] = *f
	}
	return out
}

// ClearFaults removes every fault. Eventual consistency and the injected
// answers (InjectAnswer) stay.
func (s *Server) ClearFaults() {
	s.SetFaults(nil)
}

// faultFor returns the fault of the most specific scope of a call, and the
// scope, or nil. The caller holds s.mu.
func (s *Server) faultFor(service, operation string) (string, *Fault) {
	for _, scope := range []string{operation, service, "*"} {
		if f, ok := s.faults[scope]; ok {
			return scope, f
		}
	}
	return "", nil
}

// SetEventualConsistency makes resources of a service ("firehose",
// "sagemaker", "sns", "events", "bedrock-agentcore") invisible to reads for d
// after they were created, as AWS's eventually consistent reads can be. Zero
// (or less) makes them visible at once again.
func (s *Server) SetEventualConsistency(service string, d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d <= 0 {
		delete(s.invisible, service)
		return
	}
	s.invisible[service] = d
}

// EventualConsistency returns how long each service's new resources stay
// invisible to reads, for the services that have a delay.
func (s *Server) EventualConsistency() map[string]time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]time.Duration, len(s.invisible))
	for k, v := range s.invisible {
		out[k] = v
	}
	return out
}

// setChaos replaces the faults and the eventual consistency at once.
func (s *Server) setChaos(faults map[string]Fault, invisible map[string]time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.setFaults(faults)
	s.invisible = map[string]time.Duration{}
	for k, d := range invisible {
		if d > 0 {
			s.invisible[k] = d
		}
	}
}

// The outcomes of a counted call, as Outcomes counts them.
const (
	// OutcomeOK is a call whose operation ran and succeeded.
	OutcomeOK = "ok"
	// OutcomeThrottled is a call an injected fault answered with throttling,
	// or a rate quota (SetQuotas), or an injected answer with a throttling
	// error (Answer).
	OutcomeThrottled = "throttled"
	// OutcomeError is a call an injected fault answered with HTTP 500, or an
	// injected answer with a status of 500 or more.
	OutcomeError = "error"
	// OutcomeRefused is a call whose operation ran and returned an AWS error
	// (not found, validation, conflict, access denied...), or that an
	// injected answer refused with a status below 500.
	OutcomeRefused = "refused"
)

// outcome counts the outcome of a call. The caller holds s.mu.
func (s *Server) outcome(operation, outcome string) {
	m := s.outcomes[operation]
	if m == nil {
		m = map[string]int{OutcomeOK: 0, OutcomeThrottled: 0, OutcomeError: 0, OutcomeRefused: 0}
		s.outcomes[operation] = m
	}
	m[outcome]++
}

// Outcomes returns, per operation ("service:Operation", as in Calls), how
// many of its calls ended in each outcome: "ok", "throttled", "error" and
// "refused" (see OutcomeOK and the others); every operation called has all
// four. Its counts add up to Calls', once the calls are answered. Requests
// that are not calls (unsigned, naming no operation) count in neither.
func (s *Server) Outcomes() map[string]map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]map[string]int, len(s.outcomes))
	for op, m := range s.outcomes {
		c := make(map[string]int, len(m))
		for k, v := range m {
			c[k] = v
		}
		out[op] = c
	}
	return out
}

// SetCallHook sets a function the server calls after an operation ran and
// succeeded (no injected fault, no AWS error), outside the server's lock and
// before the answer is written: a test can stop the caller there, to lose the
// answer of a call whose change happened. The hook runs on the request's
// goroutine, so the answer waits for it; it may call the Server. nil removes
// it.
func (s *Server) SetCallHook(hook func(service, operation string)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hook = hook
}

// SetCreationHook sets a function the server calls after a create that AWS
// accepted (a Creation, see Creations: not a Subscribe that SNS answered
// with the subscription that exists), with that creation, outside the
// server's lock and before the answer is written, after the call hook: a
// test can stop the caller there, to lose the answer of a create. It runs on
// the request's goroutine, so the answer waits for it; it may call the
// Server. nil removes it.
func (s *Server) SetCreationHook(hook func(Creation)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.creationHook = hook
}
