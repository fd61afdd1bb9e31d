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
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
)

// A protocol reads operations from and writes results to one AWS wire
// protocol.
type protocol interface {
	operation(r *http.Request, body []byte) (service, operation string)
	writeResult(w http.ResponseWriter, req *request, out any)
	writeError(w http.ResponseWriter, req *request, err *apiError)
}

var (
	jsonProtocol  protocol = awsJSON{}
	queryProtocol protocol = awsQuery{}
	restProtocol  protocol = restJSON{}
)

func protocolOf(r *http.Request) protocol {
	switch {
	case r.Header.Get("X-Amz-Target") != "":
		return jsonProtocol
	case strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded"):
		return queryProtocol
	default:
		return restProtocol
	}
}

func readBody(r *http.Request) ([]byte, error) {
	if r.Body == nil {
		return nil, nil
	}
	defer r.Body.Close()
	return io.ReadAll(io.LimitReader(r.Body, 8<<20))
}

// awsJSON is awsJson1_1: POST / with X-Amz-Target "<prefix>.<Operation>".
type awsJSON struct{}

var jsonTargets = map[string]string{
	"Firehose_20150804": "firehose",
	"SageMaker":         "sagemaker",
	"AWSEvents":         "events",
}

func (awsJSON) operation(r *http.Request, _ []byte) (string, string) {
	prefix, op, ok := strings.Cut(r.Header.Get("X-Amz-Target"), ".")
	if !ok {
		return "", ""
	}
	return jsonTargets[prefix], op
}

func (awsJSON) writeResult(w http.ResponseWriter, _ *request, out any) {
	w.Header().Set("Content-Type", "application/x-amz-json-1.1")
	w.Header().Set("X-Amzn-RequestId", requestID())
	if out == nil {
		out = struct{}{}
	}
	_ = json.NewEncoder(w).Encode(out)
}

func (awsJSON) writeError(w http.ResponseWriter, _ *request, e *apiError) {
	w.Header().Set("Content-Type", "application/x-amz-json-1.1")
	w.Header().Set("X-Amzn-RequestId", requestID())
	w.WriteHeader(e.status)
	_ = json.NewEncoder(w).Encode(map[string]string{"__type": e.code, "message": e.message})
}

// awsQuery is the query protocol of SNS and STS: a form-encoded POST with
// Action and Version, answered in XML.
type awsQuery struct{}

func (awsQuery) operation(*http.Request, []byte) (string, string) { return "", "" }

func queryAction(body []byte) string {
	v, err := url.ParseQuery(string(body))
	if err != nil {
		return ""
	}
	return v.Get("Action")
}

var queryNamespaces = map[string]string{
	"sns": "http://sns.amazonaws.com/doc/2010-03-31/",
	"sts": "https://sts.amazonaws.com/doc/2011-06-15/",
}

// A queryResult is the XML of an operation's <Operation>Result element.
type queryResult struct {
	Inner string
}

func (awsQuery) writeResult(w http.ResponseWriter, req *request, out any) {
	w.Header().Set("Content-Type", "text/xml")
	inner := ""
	if r, ok := out.(queryResult); ok {
		inner = r.Inner
	}
	fmt.Fprintf(w, `<%[1]sResponse xmlns="%[2]s"><%[1]sResult>%[3]s</%[1]sResult><ResponseMetadata><RequestId>%[4]s</RequestId></ResponseMetadata></%[1]sResponse>`,
		req.operation, queryNamespaces[req.service], inner, requestID())
}

func (awsQuery) writeError(w http.ResponseWriter, req *request, e *apiError) {
	w.Header().Set("Content-Type", "text/xml")
	w.WriteHeader(e.status)
	kind := "Sender"
	if e.status >= 500 {
		kind = "Receiver"
	}
	fmt.Fprintf(w, `<ErrorResponse xmlns="%s"><Error><Type>%s</Type><Code>%s</Code><Message>%s</Message></Error><RequestId>%s</RequestId></ErrorResponse>`,
		queryNamespaces[req.service], kind, e.code, xmlEscape(e.message), requestID())
}

func xmlEscape(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}

// restJSON is restJson1 as AgentCore Control uses it: the operation is in the
// method and path, errors carry X-Amzn-ErrorType.
type restJSON struct{}

// A restResult is a restJson1 response: a status code and a JSON body.
type restResult struct {
	status int
	body   any
}

func (restJSON) operation(r *http.Request, _ []byte) (string, string) {
	p := r.URL.EscapedPath()
	switch {
	case strings.HasPrefix(p, "/identities/") && r.Method == http.MethodPost:
		return "bedrock-agentcore", strings.TrimPrefix(p, "/identities/")
	case strings.HasPrefix(p, "/tags/"):
		switch r.Method {
		case http.MethodGet:
			return "bedrock-agentcore", "ListTagsForResource"
		case http.MethodPost:
			return "bedrock-agentcore", "TagResource"
		case http.MethodDelete:
			return "bedrock-agentcore", "UntagResource"
		}
	}
	return "bedrock-agentcore", ""
}

func (restJSON) writeResult(w http.ResponseWriter, _ *request, out any) {
	res, _ := out.(restResult)
	if res.status == 0 {
		res.status = http.StatusOK
	}
	w.Header().Set("X-Amzn-RequestId", requestID())
	if res.body == nil {
		w.WriteHeader(res.status)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(res.status)
	_ = json.NewEncoder(w).Encode(res.body)
}

func (restJSON) writeError(w http.ResponseWriter, _ *request, e *apiError) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Amzn-ErrorType", e.code)
	w.Header().Set("X-Amzn-RequestId", requestID())
	w.WriteHeader(e.status)
	_ = json.NewEncoder(w).Encode(map[string]string{"message": e.message})
}

var requestSeq atomic.Int64

func requestID() string {
	return fmt.Sprintf("00000000-0000-4000-8000-%012d", requestSeq.Add(1))
}

// decodeJSON reads a JSON request body into in, refusing what does not parse
// with the SerializationException AWS answers.
func decodeJSON(body []byte, in any) *apiError {
	if len(body) == 0 {
		body = []byte("{}")
	}
	if err := json.Unmarshal(body, in); err != nil {
		return errorf(400, "SerializationException", "Start of structure or map found where not expected.")
	}
	return nil
}
