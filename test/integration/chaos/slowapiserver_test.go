//go:build integration

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

package chaos

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
)

// A slowAPIServer stands between the provider and the API server and holds
// every request for as long as it is told, as an overloaded API server
// answers late.
type slowAPIServer struct {
	srv   *httptest.Server
	delay atomic.Int64
}

func newSlowAPIServer(t *testing.T) *slowAPIServer {
	t.Helper()
	cfg := env.ControlPlane.Config
	rt, err := rest.TransportFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	host := cfg.Host
	if !strings.Contains(host, "://") {
		host = "https://" + host
	}
	u, err := url.Parse(host)
	if err != nil {
		t.Fatal(err)
	}
	p := httputil.NewSingleHostReverseProxy(u)
	p.Transport = rt
	p.FlushInterval = -1 // watches stream
	s := &slowAPIServer{}
	s.srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(time.Duration(s.delay.Load()))
		p.ServeHTTP(w, r)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

// kubeconfig writes a kubeconfig that reaches the API server through s; s
// signs in as the test does.
func (s *slowAPIServer) kubeconfig(t *testing.T, path string) {
	t.Helper()
	kc := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters: [{name: slow, cluster: {server: %q, insecure-skip-tls-verify: true}}]
users: [{name: slow, user: {}}]
contexts: [{name: slow, context: {cluster: slow, user: slow}}]
current-context: slow
`, s.srv.URL)
	if err := os.WriteFile(path, []byte(kc), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestLeaderElectionOnASlowAPIServer runs two replicas through an API
// server that answers every request 4 s late for longer than the lease
// lasts: the leader keeps renewing within its 10 s deadline, and the lease
// never changes hands.
func TestLeaderElectionOnASlowAPIServer(t *testing.T) {
	if env.BuildErr != nil {
		t.Fatal(env.BuildErr)
	}
	const slowFor, late = 30 * time.Second, 4 * time.Second
	ctx := context.Background()
	kube := env.ControlPlane.Client
	if err := kube.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: leHome}}); err != nil && !kerrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
	// Whoever held the lease before (TestLeaderElection) is gone: a new
	// leader need not wait for it to expire.
	_ = kube.Delete(ctx, &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Namespace: leHome, Name: leaseName}})

	slow := newSlowAPIServer(t)
	dir := t.TempDir()
	kubeconfig := filepath.Join(dir, "kubeconfig")
	slow.kubeconfig(t, kubeconfig)
	a := newReplica(t, kubeconfig, dir, "slow-a", "AKIDSLOWA")
	b := newReplica(t, kubeconfig, dir, "slow-b", "AKIDSLOWB")
	defer a.kill()
	defer b.kill()
	defer logsIfFailed(t, a, b)
	a.waitReady(t)
	leader := holder(ctx, kube)
	if leader == "" {
		t.Fatal("replica A is ready and holds no lease")
	}
	b.waitReady(t)

	slow.delay.Store(int64(late))
	slowSince := time.Now()
	watching, stopWatching := context.WithCancel(ctx)
	changed := watchHolder(watching, kube, leader)
	select {
	case at := <-changed:
		t.Errorf("the lease changed hands %s into an API server answering %s late", at.Sub(slowSince).Round(time.Second), late)
	case <-time.After(slowFor):
	}
	stopWatching()
	slow.delay.Store(0)
	for _, r := range []*replica{a, b} {
		r.mu.Lock()
		running := r.cmd != nil && r.cmd.ProcessState == nil
		r.mu.Unlock()
		if !running {
			t.Errorf("%s exited while the API server was slow", r.name)
		}
	}
	if log := a.log(t); strings.Contains(log, "Failed to renew lease") || strings.Contains(log, "leader election lost") {
		t.Error("the leader gave the lease up while the API server was slow")
	}
	if !t.Failed() {
		t.Logf("an API server answering every request %s late for %s: the leader kept the lease", late, slowFor)
	}
}
