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
	"fmt"
	"net/http"
	"regexp"
)

// Accounts serves several AWS accounts at one endpoint, as AWS does: each
// account is a Server of its own (its resources, its quotas, its calls),
// and a request goes to the account of the access key it is signed with.
// A key of no account goes to the first.
type Accounts struct {
	// IDs are the accounts' IDs, in order; Keys the access key of each.
	IDs, Keys []string
	servers   map[string]*Server // by access key
	first     *Server
}

// NewAccounts returns n accounts, 100000000001 to 1000000000nn, whose
// access keys are AKIDACCOUNT01 to AKIDACCOUNTnn, each a Server with o (its
// Account set to its ID).
func NewAccounts(n int, o Options) *Accounts {
	a := &Accounts{servers: make(map[string]*Server, n)}
	for i := range n {
		id, key := fmt.Sprintf("1000000000%02d", i+1), fmt.Sprintf("AKIDACCOUNT%02d", i+1)
		o.Account = id
		s := New(o)
		a.IDs, a.Keys = append(a.IDs, id), append(a.Keys, key)
		a.servers[key] = s
		if a.first == nil {
			a.first = s
		}
	}
	return a
}

// Account returns the Server of the i-th account.
func (a *Accounts) Account(i int) *Server { return a.servers[a.Keys[i]] }

var accessKeyOf = regexp.MustCompile(`Credential=([^/]+)/`)

// ServeHTTP hands the request to the account of its access key.
func (a *Accounts) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s := a.first
	if m := accessKeyOf.FindStringSubmatch(r.Header.Get("Authorization")); m != nil {
		if of, ok := a.servers[m[1]]; ok {
			s = of
		}
	}
	s.ServeHTTP(w, r)
}

// each runs fn for every account's Server.
func (a *Accounts) each(fn func(*Server)) {
	for _, k := range a.Keys {
		fn(a.servers[k])
	}
}

// SetQuotas gives every account the same quotas (Server.SetQuotas): each
// account's are its own, as AWS's are.
func (a *Accounts) SetQuotas(quotas map[string]float64) {
	a.each(func(s *Server) { s.SetQuotas(quotas) })
}

// SetFaults sets every account's faults (Server.SetFaults).
func (a *Accounts) SetFaults(faults map[string]Fault) {
	a.each(func(s *Server) { s.SetFaults(faults) })
}

// ResetCalls resets every account's counts of calls.
func (a *Accounts) ResetCalls() { a.each((*Server).ResetCalls) }

// Calls sums the calls of every account (Server.Calls).
func (a *Accounts) Calls() map[string]int {
	out := map[string]int{}
	a.each(func(s *Server) {
		for k, v := range s.Calls() {
			out[k] += v
		}
	})
	return out
}

// Outcomes sums the outcomes of every account (Server.Outcomes).
func (a *Accounts) Outcomes() map[string]map[string]int {
	out := map[string]map[string]int{}
	a.each(func(s *Server) {
		for op, by := range s.Outcomes() {
			if out[op] == nil {
				out[op] = map[string]int{}
			}
			for k, v := range by {
				out[op][k] += v
			}
		}
	})
	return out
}
