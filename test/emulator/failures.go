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
	"net"
	"net/http"
	"time"
)

func internalFailure() *apiError {
	return errorf(500, "InternalFailure", "The request processing has failed because of an unknown error, exception or failure.")
}

// ResetConnection closes the request's connection without an answer, with
// a TCP reset where the connection is TCP: the caller reads
// "connection reset by peer".
func ResetConnection(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		// An HTTP/2 stream cannot be taken over: it ends without an answer.
		panic(http.ErrAbortHandler)
	}
	if tcp, ok := conn.(*net.TCPConn); ok {
		_ = tcp.SetLinger(0)
	}
	_ = conn.Close()
}

// fault counts the call and applies the first injected answer that matches
// it (Answer), else the fault of the most specific scope that has one: the
// operation, else the service, else "*". Counted faults come first; then one
// draw decides between throttling (ThrottleRate), failing (ErrorRate) and
// letting the call through. It returns the error that answers the call
// instead of running it, or how the answer of the call, run, is lost.
func (s *Server) fault(req *request) (*apiError, answerLoss) {
	s.mu.Lock()
	name := req.service + ":" + req.operation
	if !s.uncounted[req.accessKey] {
		s.count(req, name)
	}
	scope, f := s.faultFor(req.service, name)
	var out *apiError
	if s.faultFree[req.accessKey] {
		f = nil
	} else {
		// An injected answer comes before everything else: the test asked
		// for exactly this error.
		out = s.answerFor(req, name)
	}
	var latency time.Duration
	lose := keepAnswer
	if f != nil {
		latency = f.Latency
		if f.LatencyJitter > 0 {
			latency += time.Duration(s.rng.Int64N(int64(f.LatencyJitter)))
		}
	}
	if f != nil && out == nil {
		throttle, fail := false, false
		switch {
		case f.Throttle > 0:
			f.Throttle--
			throttle = true
		case f.ServerError > 0:
			f.ServerError--
			fail = true
		case f.DropAnswer > 0:
			lose = dropAnswer
		case f.DropConnection > 0:
			lose = dropConnection
		case f.ThrottleRate > 0 || f.ErrorRate > 0:
			u := s.rng.Float64()
			throttle = u < f.ThrottleRate
			fail = !throttle && u < f.ThrottleRate+f.ErrorRate
		}
		if (throttle || fail) && *f == (Fault{}) {
			// Its counts ran out and nothing is left: broader scopes apply again.
			delete(s.faults, scope)
		}
		switch {
		case throttle:
			out = throttling(req.service)
			s.outcome(name, OutcomeThrottled)
		case fail:
			out = internalFailure()
			s.outcome(name, OutcomeError)
		}
	}
	if out == nil && s.overQuota(req.region, name) {
		// Over AWS's rate quota for the operation (SetQuotas).
		out = throttling(req.service)
		s.outcome(name, OutcomeThrottled)
		lose = keepAnswer
	}
	if lose != keepAnswer {
		// The call runs: the count goes down now (the operation counts
		// its own outcome).
		if lose == dropAnswer {
			f.DropAnswer--
		} else {
			f.DropConnection--
		}
		if *f == (Fault{}) {
			delete(s.faults, scope)
		}
	}
	s.mu.Unlock()
	if latency > 0 {
		time.Sleep(latency)
	}
	return out, lose
}

func throttling(service string) *apiError {
	switch service {
	case "sns", "sts":
		return errorf(400, "Throttling", "Rate exceeded")
	case "firehose":
		return errorf(400, "LimitExceededException", "Rate exceeded for operation.")
	case "sagemaker":
		return errorf(400, "ThrottlingException", "Rate exceeded")
	default:
		return errorf(429, "ThrottlingException", "Rate exceeded")
	}
}
