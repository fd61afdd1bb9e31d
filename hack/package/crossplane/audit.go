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

package crossplane

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
)

// AuditPolicy is an API server audit policy (--audit-policy-file) that
// records, at the Metadata level, every request of a service account once it
// is answered (a watch once its response starts): who asked, with which
// client, the verb, the object and the answer's code. With it the harness
// sees each request a provider running as its ServiceAccount made, and each
// one RBAC refused, rather than inferring them from the provider's log.
const AuditPolicy = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived, Panic]
rules:
  - level: Metadata
    userGroups: ["system:serviceaccounts"]
  - level: None
`

// An AuditedRequest is what the audit log says of a request.
type AuditedRequest struct {
	AuditID    string `json:"auditID"`
	UserAgent  string `json:"userAgent"`
	Verb       string `json:"verb"`
	RequestURI string `json:"requestURI"`
	User       struct {
		Username string `json:"username"`
	} `json:"user"`
	ObjectRef *struct {
		Resource    string `json:"resource"`
		Subresource string `json:"subresource"`
		Namespace   string `json:"namespace"`
		Name        string `json:"name"`
		APIGroup    string `json:"apiGroup"`
	} `json:"objectRef"`
	ResponseStatus struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"responseStatus"`
}

// Permission is the request as RBAC reads it: verb, group and resource
// (with its subresource), or verb and path for a non-resource URL.
func (r AuditedRequest) Permission() string {
	if r.ObjectRef == nil {
		path, _, _ := strings.Cut(r.RequestURI, "?")
		return r.Verb + " " + path
	}
	res := r.ObjectRef.Resource
	if r.ObjectRef.Subresource != "" {
		res += "/" + r.ObjectRef.Subresource
	}
	group := r.ObjectRef.APIGroup
	if group == "" {
		group = `""`
	}
	return r.Verb + " " + group + " " + res
}

// String says which request it was and how it was answered.
func (r AuditedRequest) String() string {
	where := ""
	if r.ObjectRef != nil && r.ObjectRef.Namespace != "" {
		where = " in " + r.ObjectRef.Namespace
	}
	if r.ObjectRef != nil && r.ObjectRef.Name != "" {
		where += " named " + r.ObjectRef.Name
	}
	return fmt.Sprintf("%s%s (%s): %d %s", r.Permission(), where, r.RequestURI, r.ResponseStatus.Code, r.ResponseStatus.Message)
}

// Audited reads the requests of user from an audit log written with
// AuditPolicy, each once (a long-running request is logged when its response
// starts and again when it completes), in the order they were made, leaving
// out those of the clients whose user agent starts with one of skip (the
// harness's own kubectl, when it asks as that user).
func Audited(file, user string, skip ...string) ([]AuditedRequest, error) {
	f, err := os.Open(file) //nolint:gosec // the harness's audit log
	if err != nil {
		return nil, err
	}
	defer f.Close() //nolint:errcheck // read only
	var out []AuditedRequest
	seen := map[string]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 4*1024*1024)
next:
	for sc.Scan() {
		var r AuditedRequest
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		if r.User.Username != user {
			continue
		}
		for _, s := range skip {
			if strings.HasPrefix(r.UserAgent, s) {
				continue next
			}
		}
		if i, ok := seen[r.AuditID]; ok {
			out[i] = r // the later stage, with the final answer
			continue
		}
		seen[r.AuditID] = len(out)
		out = append(out, r)
	}
	return out, sc.Err()
}

// Permissions are the distinct permissions of requests, sorted, each with
// how many requests needed it.
func Permissions(rs []AuditedRequest) []string {
	n := map[string]int{}
	for _, r := range rs {
		n[r.Permission()]++
	}
	out := make([]string, 0, len(n))
	for p, c := range n {
		out = append(out, fmt.Sprintf("%s (%d)", p, c))
	}
	sort.Strings(out)
	return out
}
