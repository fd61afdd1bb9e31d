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
	"io"
	"net/http"
	"sort"
	"strings"
	"time"
)

// serveControl answers the emulator's own endpoints under /_emulator/, for
// people and scripts using the standalone command:
//
//	GET    /_emulator/calls      call counts per operation, as JSON
//	                             {"firehose:CreateDeliveryStream": 2, ...}
//	GET    /_emulator/outcomes   outcomes per operation, as JSON
//	                             {"firehose:CreateDeliveryStream": {"ok": 1,
//	                             "throttled": 1, "error": 0, "refused": 0}}
//	POST   /_emulator/reset      forget the call counts and outcomes
//	GET    /_emulator/faults     the faults and eventual consistency in force:
//	                             {"faults": {"*": {"throttle": 0,
//	                             "serverError": 0, "dropAnswer": 0,
//	                             "dropConnection": 0, "throttleRate": 0.1,
//	                             "errorRate": 0.05, "latency": "0s",
//	                             "latencyJitter": "200ms"}, "sns": {...},
//	                             "firehose:CreateDeliveryStream": {...}},
//	                             "eventualConsistency": {"firehose": "2s"}}
//	PUT    /_emulator/faults     replace every fault and every eventual
//	                             consistency delay with the body, shaped as
//	                             GET answers (POST too). Absent maps and
//	                             members are none or zero; durations are Go
//	                             durations ("50ms"). Answers the new state,
//	                             or 400 on bad JSON, an unknown scope or
//	                             service, a rate outside [0, 1] or a negative
//	                             count or duration.
//	DELETE /_emulator/faults     remove every fault and eventual consistency
//	                             delay (heal); answers the empty state. The
//	                             injected answers stay.
//	GET    /_emulator/answers    the injected answers in force, in the order
//	                             they meet calls (see Answer), with the calls
//	                             and the time left: [{"operation":
//	                             "firehose:CreateDeliveryStream", "resource":
//	                             "orders", "code": "InvalidKMSResourceException",
//	                             "status": 400, "message": "...", "count": 2,
//	                             "for": "1m59.9s"}]
//	POST   /_emulator/answers    inject one answer, shaped as one element of
//	                             GET's list: operation and code are required,
//	                             resource scopes it to calls whose path or
//	                             body names it, status defaults to 400,
//	                             message to "injected by the emulator:
//	                             <code>", and count (calls) or for (a Go
//	                             duration, counted from now) or both end it.
//	                             Answers the list, or 400 on bad JSON, an
//	                             unknown member or service, an empty code or
//	                             operation, a status outside 400..599, or
//	                             neither count nor for.
//	DELETE /_emulator/answers    remove every injected answer; answers []
//	GET    /_emulator/resources  the resources that exist, as the JSON of an
//	                             Inventory: {"deliveryStreams": ["s"],
//	                             "endpointConfigs": [], "endpoints": [],
//	                             "apiKeyCredentialProviders": [],
//	                             "subscriptions": [{"arn": "...", "topicArn":
//	                             "...", "protocol": "sqs", "endpoint": "...",
//	                             "pending": false}]}
//	GET    /_emulator/creations  every create AWS accepted so far, in order,
//	                             as the JSON of a list of Creation (history.go):
//	                             [{"seq": 1, "service": "firehose", "kind":
//	                             "DeliveryStream", "region": "us-east-1",
//	                             "name": "s", "arn": "...", "accessKey":
//	                             "AKID...", "caller": "arn:aws:iam::...",
//	                             "time": "2026-01-01T00:00:00Z"}]; a
//	                             subscription has no name but its topicArn,
//	                             protocol and endpoint
//	GET    /_emulator/writes     every accepted call that changes a resource,
//	                             in order, as the JSON of a list of Write:
//	                             [{"seq": 1, "service": "sns", "operation":
//	                             "Subscribe", "region": "us-east-1",
//	                             "resource": "arn:...", "accessKey": "...",
//	                             "time": "..."}]
//	GET    /_emulator/health     200 when the emulator serves
//
// Scopes of faults are "*" (every call), a service (firehose, sagemaker,
// sns, events, bedrock-agentcore, sts) or "service:Operation"; a call meets
// the fault of its most specific scope only (see Fault).
func (s *Server) serveControl(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/_emulator/calls":
		writeJSON(w, s.Calls())
	case "/_emulator/outcomes":
		if !allowGet(w, r) {
			return
		}
		writeJSON(w, s.Outcomes())
	case "/_emulator/reset":
		if r.Method != http.MethodPost {
			http.Error(w, "use POST", http.StatusMethodNotAllowed)
			return
		}
		s.ResetCalls()
	case "/_emulator/faults":
		s.serveFaults(w, r)
	case "/_emulator/answers":
		s.serveAnswers(w, r)
	case "/_emulator/resources":
		if !allowGet(w, r) {
			return
		}
		writeJSON(w, s.Inventory())
	case "/_emulator/creations":
		if !allowGet(w, r) {
			return
		}
		writeJSON(w, s.Creations())
	case "/_emulator/writes":
		if !allowGet(w, r) {
			return
		}
		writeJSON(w, s.Writes())
	case "/_emulator/health":
		_, _ = w.Write([]byte("ok\n"))
	default:
		http.NotFound(w, r)
	}
}

// faultsDocument is the body of /_emulator/faults.
type faultsDocument struct {
	Faults              map[string]Fault  `json:"faults"`
	EventualConsistency map[string]string `json:"eventualConsistency"`
}

func (s *Server) serveFaults(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet:
	case http.MethodPut, http.MethodPost:
		var doc faultsDocument
		d := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20))
		d.DisallowUnknownFields()
		if err := d.Decode(&doc); err != nil {
			http.Error(w, "bad faults document: "+err.Error(), http.StatusBadRequest)
			return
		}
		if d.More() {
			http.Error(w, "bad faults document: more than one JSON value", http.StatusBadRequest)
			return
		}
		if err := ValidateFaults(doc.Faults); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		invisible, err := parseConsistency(doc.EventualConsistency)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		s.setChaos(doc.Faults, invisible)
	case http.MethodDelete:
		s.setChaos(nil, nil)
	default:
		w.Header().Set("Allow", "GET, PUT, POST, DELETE")
		http.Error(w, "use GET, PUT, POST or DELETE", http.StatusMethodNotAllowed)
		return
	}
	doc := faultsDocument{Faults: s.Faults(), EventualConsistency: map[string]string{}}
	for svc, d := range s.EventualConsistency() {
		doc.EventualConsistency[svc] = d.String()
	}
	writeJSON(w, doc)
}

// serveAnswers answers /_emulator/answers, with the answers in force after
// the request.
func (s *Server) serveAnswers(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet:
	case http.MethodPost:
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
		if err != nil {
			http.Error(w, "bad answer document: "+err.Error(), http.StatusBadRequest)
			return
		}
		// Its window starts when the emulator reads it, on the emulator's
		// clock.
		a, err := parseAnswer(body, s.opts.Now())
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		s.InjectAnswer(a)
	case http.MethodDelete:
		s.ClearAnswers()
	default:
		w.Header().Set("Allow", "GET, POST, DELETE")
		http.Error(w, "use GET, POST or DELETE", http.StatusMethodNotAllowed)
		return
	}
	answers, now := s.answersNow()
	writeJSON(w, answersJSON(answers, now))
}

func parseConsistency(in map[string]string) (map[string]time.Duration, error) {
	keys := make([]string, 0, len(in))
	for k := range in {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make(map[string]time.Duration, len(in))
	for _, svc := range keys {
		if !services[svc] || svc == "sts" {
			return nil, fmt.Errorf("eventualConsistency: %q is not one of firehose, sagemaker, sns, events, bedrock-agentcore", svc)
		}
		d, err := time.ParseDuration(strings.TrimSpace(in[svc]))
		if err != nil || d < 0 {
			return nil, fmt.Errorf("eventualConsistency %q: %q is not a duration such as \"2s\"", svc, in[svc])
		}
		out[svc] = d
	}
	return out, nil
}

// allowGet answers 405 to anything but a GET.
func allowGet(w http.ResponseWriter, r *http.Request) bool {
	if r.Method == http.MethodGet {
		return true
	}
	w.Header().Set("Allow", http.MethodGet)
	http.Error(w, "use "+http.MethodGet, http.StatusMethodNotAllowed)
	return false
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}
