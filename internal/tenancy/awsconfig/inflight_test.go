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

package awsconfig

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestTenantCallsInFlight: a namespace whose endpoint holds its answers has
// at most tenantCallsInFlight calls waiting on it; the next is not made, and
// gives its worker back within tenantSlotWait; another namespace's calls
// are not held; once the answers come, the namespace costs nothing.
func TestTenantCallsInFlight(t *testing.T) {
	hold := make(chan struct{})
	var arrived sync.WaitGroup
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			arrived.Done()
			<-hold
		}
		_, _ = io.WriteString(w, "ok")
	}))
	defer slow.Close()
	f := newInFlight()
	teamB, teamA := f.client(http.DefaultClient, "team-b"), f.client(http.DefaultClient, "team-a")
	get := func(c interface {
		Do(*http.Request) (*http.Response, error)
	}, path string) error {
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, slow.URL+path, http.NoBody)
		resp, err := c.Do(req)
		if err != nil {
			return err
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		return resp.Body.Close()
	}

	arrived.Add(tenantCallsInFlight)
	held := make(chan error, tenantCallsInFlight)
	for range tenantCallsInFlight {
		go func() { held <- get(teamB, "/slow") }()
	}
	arrived.Wait()
	start := time.Now()
	err := get(teamB, "/slow")
	if err == nil || !strings.Contains(err.Error(), "already have 4 calls waiting") {
		t.Errorf("a call beyond the cap: %v, want it not made", err)
	}
	if waited := time.Since(start); waited > tenantSlotWait+time.Second {
		t.Errorf("a call beyond the cap held its worker %s", waited)
	}
	if err := get(teamA, "/fast"); err != nil {
		t.Errorf("another namespace's call: %v", err)
	}
	close(hold)
	for range tenantCallsInFlight {
		if err := <-held; err != nil {
			t.Error(err)
		}
	}
	if diff := cmp.Diff(0, f.namespaces()); diff != "" {
		t.Errorf("namespaces kept once their calls ended: -want, +got:\n%s", diff)
	}
}
