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
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
)

// An Answer makes the emulator answer the calls of one operation with an AWS
// error of the test's choosing, instead of running the operation: any code
// and status, including those the emulated operation never returns, so that
// a test can reach the provider's handling of every error AWS documents.
//
// A call meets the first answer in force that matches it, in the order they
// were injected, before any Fault's counted errors, rates and the rate quotas
// (SetQuotas): the operation does not run, no Fault counts down and no quota
// token is taken. A Fault's Latency still delays the call. The call is
// counted in Calls, CallsFor and the others as any call is, and in Outcomes
// as "throttled" when Status is 429 or Code is a throttling code (Throttling,
// ThrottlingException, LimitExceededException with a "Rate exceeded"
// message...), else as "error" when Status is 500 or more, else as
// "refused". Calls signed with a FaultFree key meet no answer.
//
// An answer ends after Count calls, or when the emulator's clock
// (Options.Now) reaches Until, whichever comes first; it is then removed. At
// least one of the two must be set.
type Answer struct {
	// Operation is the operation answered, "service:Operation" as Calls
	// names it: "firehose:CreateDeliveryStream", "sns:Subscribe",
	// "bedrock-agentcore:TagResource".
	Operation string
	// Resource, when set, scopes the answer to the calls about one
	// resource: those whose resource, as CallsFor names it, is Resource, or
	// whose request path or body contains Resource anywhere (a form-encoded
	// body is also searched decoded, so an ARN matches an SNS call that
	// carries it in any parameter). A name or an ARN therefore matches every
	// call that mentions it, including a list filter or another resource
	// whose name contains it: pick a name no other call of the test
	// contains. Empty answers every call of the operation.
	Resource string
	// Code is the AWS error code the caller reads (smithy.APIError's
	// ErrorCode): letters, digits, '.', '_' and '-', as AWS's codes are; the
	// SDKs cut a code at ':' and '#'.
	Code string
	// Status is the HTTP status of the answer, in 400..599; 0 means 400.
	Status int
	// Message is the error message; empty means
	// "injected by the emulator: <Code>".
	Message string
	// Count answers this many calls, then the answer ends. Answers reports
	// the calls left. Zero: no count, the window alone ends it.
	Count int
	// Until answers every call until the emulator's clock reaches it. Zero:
	// no window, the count alone ends it.
	Until time.Time
}

// answerCode is what an error code may be: what AWS's codes are made of,
// and nothing the SDKs would cut (':', '#') or the XML of the query protocol
// would have to escape.
var answerCode = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9._-]*$`)

// ValidateAnswer reports what is wrong with an answer: an operation that is
// not "service:Operation" of an emulated service, a code that is empty or
// not one the SDKs read back unchanged, a status outside 400..599 (0 is
// 400), a negative count, or neither a count nor a window. InjectAnswer
// panics on what this refuses; the emulator's endpoint answers 400.
func ValidateAnswer(a Answer) error {
	svc, op, isOp := strings.Cut(a.Operation, ":")
	switch {
	case a.Operation == "":
		return fmt.Errorf("answer: operation is required, as \"service:Operation\" (firehose:CreateDeliveryStream)")
	case !services[svc]:
		return fmt.Errorf("answer: operation %q: the service %q is not one of %s", a.Operation, svc, serviceNames())
	case !isOp || op == "":
		return fmt.Errorf("answer: operation %q names no operation; want \"service:Operation\" (%s:...)", a.Operation, svc)
	case a.Code == "":
		return fmt.Errorf("answer %s: code is required", a.Operation)
	case !answerCode.MatchString(a.Code):
		return fmt.Errorf("answer %s: code %q is not an AWS error code (letters, digits, '.', '_', '-')", a.Operation, a.Code)
	case a.Status != 0 && (a.Status < 400 || a.Status > 599):
		return fmt.Errorf("answer %s: status %d is not an HTTP error status in 400..599", a.Operation, a.Status)
	case a.Count < 0:
		return fmt.Errorf("answer %s: count %d is negative", a.Operation, a.Count)
	case a.Count == 0 && a.Until.IsZero():
		return fmt.Errorf("answer %s: give a count of calls or a window (\"for\" in JSON, Until in Go) to end it", a.Operation)
	}
	return nil
}

// InjectAnswer adds an answer after those in force; it panics on an answer
// ValidateAnswer refuses, as that is a mistake of the test. It keeps the
// answer with the defaults filled in (Status 400, the default Message), as
// Answers lists it.
func (s *Server) InjectAnswer(a Answer) {
	if err := ValidateAnswer(a); err != nil {
		panic(err)
	}
	if a.Status == 0 {
		a.Status = 400
	}
	if a.Message == "" {
		a.Message = "injected by the emulator: " + a.Code
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.answers = append(s.answers, a)
}

// Answers returns the answers in force, in the order injected, with the
// calls their counts have left.
func (s *Server) Answers() []Answer {
	answers, _ := s.answersNow()
	return answers
}

// answersNow returns the answers in force and the clock they were read at,
// so that the time left of their windows is counted from the same instant.
func (s *Server) answersNow() ([]Answer, time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.opts.Now()
	s.endAnswers(now)
	return slices.Clone(s.answers), now
}

// ClearAnswers removes every answer. Faults stay, as ClearFaults leaves the
// answers.
func (s *Server) ClearAnswers() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.answers = nil
}

// endAnswers removes the answers whose window passed. A count that runs out
// removes its answer at once (answerFor). The caller holds s.mu.
func (s *Server) endAnswers(now time.Time) {
	s.answers = slices.DeleteFunc(s.answers, func(a Answer) bool {
		return !a.Until.IsZero() && !now.Before(a.Until)
	})
	if len(s.answers) == 0 {
		s.answers = nil // so that Answers reports none as nil, whatever came before
	}
}

// answerFor returns the error of the first answer in force that matches the
// call of operation name ("service:Operation"), counting it down, and counts
// the call's outcome; or nil. The caller holds s.mu.
func (s *Server) answerFor(req *request, name string) *apiError {
	if len(s.answers) == 0 {
		return nil
	}
	s.endAnswers(s.opts.Now())
	resource, found := "", false // resourceOf parses the body: once, and only if needed
	for i := range s.answers {
		a := &s.answers[i]
		if a.Operation != name {
			continue
		}
		if a.Resource != "" {
			if !found {
				resource, found = resourceOf(req), true
			}
			if resource != a.Resource && !mentions(req, a.Resource) {
				continue
			}
		}
		out := &apiError{code: a.Code, message: a.Message, status: a.Status}
		if a.Count > 0 {
			a.Count--
			if a.Count == 0 {
				s.answers = slices.Delete(s.answers, i, i+1)
			}
		}
		s.outcome(name, answerOutcome(out))
		return out
	}
	return nil
}

// mentions reports whether a request's path or body contains what.
func mentions(req *request, what string) bool {
	if strings.Contains(req.http.URL.Path, what) || strings.Contains(req.http.URL.EscapedPath(), what) ||
		bytes.Contains(req.body, []byte(what)) {
		return true
	}
	// The query protocol percent-encodes its parameters: an ARN's colons
	// travel as %3A.
	if strings.HasPrefix(req.http.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
		if body, err := url.QueryUnescape(string(req.body)); err == nil {
			return strings.Contains(body, what)
		}
	}
	return false
}

// throttlingCodes are the codes the SDKs retry as throttling, and that the
// emulated services answer when a call is over its rate.
var throttlingCodes = map[string]bool{
	"Throttling": true, "ThrottlingException": true, "ThrottledException": true, "RequestThrottledException": true,
	"TooManyRequestsException": true, "RequestLimitExceeded": true, "RequestThrottled": true, "SlowDown": true,
}

// answerOutcome is the outcome Outcomes counts for an answered call.
func answerOutcome(e *apiError) string {
	switch {
	case e.status == 429 || throttlingCodes[e.code],
		// Firehose throttles with LimitExceededException, which also
		// means a resource limit; its message tells them apart.
		e.code == "LimitExceededException" && strings.Contains(e.message, "Rate exceeded"):
		return OutcomeThrottled
	case e.status >= 500:
		return OutcomeError
	default:
		return OutcomeRefused
	}
}

// answerJSON is an Answer as the /_emulator/answers endpoint reads and
// writes it. Its window is a duration ("for"), not a time, so that a caller
// needs no clock in common with the emulator: the emulator counts it from
// when it receives the answer, and lists the time left.
type answerJSON struct {
	Operation string `json:"operation"`
	Resource  string `json:"resource,omitempty"`
	Code      string `json:"code"`
	Status    int    `json:"status,omitempty"`
	Message   string `json:"message,omitempty"`
	Count     int    `json:"count,omitempty"`
	For       string `json:"for,omitempty"`
}

// parseAnswer reads one answer document, its window counted from now.
func parseAnswer(body []byte, now time.Time) (Answer, error) {
	var in answerJSON
	d := json.NewDecoder(bytes.NewReader(body))
	d.DisallowUnknownFields()
	if err := d.Decode(&in); err != nil {
		return Answer{}, fmt.Errorf("bad answer document: %w", err)
	}
	if d.More() {
		return Answer{}, fmt.Errorf("bad answer document: more than one JSON value")
	}
	a := Answer{Operation: in.Operation, Resource: in.Resource, Code: in.Code, Status: in.Status, Message: in.Message, Count: in.Count}
	if in.For != "" {
		w, err := time.ParseDuration(strings.TrimSpace(in.For))
		if err != nil || w <= 0 {
			return Answer{}, fmt.Errorf("answer: for %q is not a positive duration such as \"200ms\"", in.For)
		}
		a.Until = now.Add(w)
	}
	return a, ValidateAnswer(a)
}

// answersJSON lists answers as the endpoint does, their windows as the time
// left at now.
func answersJSON(answers []Answer, now time.Time) []answerJSON {
	out := make([]answerJSON, 0, len(answers))
	for _, a := range answers {
		j := answerJSON{Operation: a.Operation, Resource: a.Resource, Code: a.Code, Status: a.Status, Message: a.Message, Count: a.Count}
		if !a.Until.IsZero() {
			j.For = a.Until.Sub(now).String()
		}
		out = append(out, j)
	}
	return out
}
