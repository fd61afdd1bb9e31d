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
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
)

func TestSessionsAreCached(t *testing.T) {
	f := newFixture(t, secret("crossplane-system", "aws", "credentials", iniFile))
	spec := v1alpha1.ProviderConfigSpec{Region: aws.String("us-east-1"), Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceSecret,
		SecretRef: &xpv2.SecretKeySelector{SecretReference: xpv2.SecretReference{Name: "aws", Namespace: "crossplane-system"}, Key: "credentials"}}}
	pc := clusterConfig("default", f.url, spec)
	ctx := context.Background()
	_ = f.kube.Create(ctx, pc)
	mg := managed("ns", v1alpha1.ClusterProviderConfigKind, "default", nil)

	first, _ := f.cache.Session(ctx, mg, nil)
	for range 99 {
		s, err := f.cache.Session(ctx, mg, nil)
		if err != nil || s != first {
			t.Fatalf("a steady-state reconcile got a new session (%v)", err)
		}
	}
	if diff := cmp.Diff(Stats{Loads: 1, IdentityCalls: 1}, f.cache.Stats()); diff != "" {
		t.Errorf("100 reconciles: -want, +got:\n%s", diff)
	}
	if n := f.aws.CallCount("sts:GetCallerIdentity"); n != 1 {
		t.Errorf("STS calls for 100 reconciles: want 1, got %d", n)
	}

	// A new secret version, a new config generation, another region: each
	// builds a new session.
	s := &corev1.Secret{}
	_ = f.kube.Get(ctx, client.ObjectKey{Namespace: "crossplane-system", Name: "aws"}, s)
	s.Data["credentials"] = []byte("[default]\naws_access_key_id=AKIDROTATED\naws_secret_access_key=x\n")
	_ = f.kube.Update(ctx, s)
	rotated, _ := f.cache.Session(ctx, mg, nil)
	if rotated == first || callerARN(t, rotated) != "arn:aws:iam::000000000000:user/AKIDROTATED" {
		t.Error("a rotated credential secret did not give a new session")
	}
	_ = f.kube.Get(ctx, client.ObjectKey{Name: "default"}, pc)
	pc.Generation = 2 // the API server's answer to a change of the spec
	pc.Spec.DefaultTags = map[string]string{"cost-center": "42"}
	_ = f.kube.Update(ctx, pc)
	if s, _ := f.cache.Session(ctx, mg, nil); s == rotated || s.DefaultTags["cost-center"] != "42" {
		t.Error("a new config generation (new default tags) did not give a new session carrying them")
	}
	if rotated.DefaultTags != nil {
		t.Errorf("the previous session's default tags changed: %v", rotated.DefaultTags)
	}
	if s, _ := f.cache.Session(ctx, mg, aws.String("eu-west-1")); s.Region != "eu-west-1" {
		t.Error("another region did not give its own session")
	}
	if got := f.cache.Stats().Loads; got != 4 {
		t.Errorf("loads: want 4, got %d", got)
	}
	if len(f.cache.sessions) != 2 {
		t.Errorf("superseded sessions are kept: %d", len(f.cache.sessions))
	}
}

func TestASlowConfigStallsNoOther(t *testing.T) {
	f := newFixture(t)
	release := make(chan struct{})
	var slowCalls atomic.Int64
	hanging := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		slowCalls.Add(1)
		<-release
		f.aws.ServeHTTP(w, r)
	}))
	t.Cleanup(hanging.Close)
	t.Cleanup(func() {
		select {
		case <-release:
		default:
			close(release)
		}
	})
	none := v1alpha1.ProviderConfigSpec{Region: aws.String("us-east-1"), Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceNone}}
	ctx := context.Background()
	_ = f.kube.Create(ctx, clusterConfig("slow", hanging.URL, none))
	_ = f.kube.Create(ctx, clusterConfig("fast", f.url, none))

	// Twenty reconciles of the slow config's resources wait on STS ...
	var wg sync.WaitGroup
	slow := make([]*Session, 20)
	for i := range slow {
		wg.Add(1)
		go func() {
			defer wg.Done()
			slow[i], _ = f.cache.Session(ctx, managed("ns", v1alpha1.ClusterProviderConfigKind, "slow", nil), nil)
		}()
	}
	deadline := time.Now().Add(5 * time.Second)
	for slowCalls.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}

	// ... while another config's session is built at once.
	done := make(chan error, 1)
	go func() {
		_, err := f.cache.Session(ctx, managed("ns", v1alpha1.ClusterProviderConfigKind, "fast", nil), nil)
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the session of a healthy config waited for a config whose STS call hangs")
	}

	close(release)
	wg.Wait()
	for i, s := range slow {
		if s == nil || s != slow[0] {
			t.Fatalf("reconcile %d of the slow config got session %v, not the one shared session", i, s)
		}
	}
	if n := slowCalls.Load(); n != 1 {
		t.Errorf("twenty concurrent reconciles of one config called STS %d times, want 1", n)
	}
}

// The session is built under a context of its own: the first caller's
// cancellation does not fail the callers that wait with it, and a caller
// gives up on its own deadline while the build goes on.
func TestSessionWaitersKeepTheirOwnContexts(t *testing.T) {
	f := newFixture(t)
	release := make(chan struct{})
	var calls atomic.Int64
	hanging := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		<-release
		f.aws.ServeHTTP(w, r)
	}))
	t.Cleanup(hanging.Close)
	none := v1alpha1.ProviderConfigSpec{Region: aws.String("us-east-1"), Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceNone}}
	_ = f.kube.Create(context.Background(), clusterConfig("slow", hanging.URL, none))
	mg := managed("ns", v1alpha1.ClusterProviderConfigKind, "slow", nil)

	// The first caller starts the build and is cancelled.
	first, cancelFirst := context.WithCancel(context.Background())
	firstErr := make(chan error, 1)
	go func() {
		_, err := f.cache.Session(first, mg, nil)
		firstErr <- err
	}()
	deadline := time.Now().Add(5 * time.Second)
	for calls.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	// A second caller waits with it ...
	second := make(chan error, 1)
	var got *Session
	go func() {
		var err error
		got, err = f.cache.Session(context.Background(), mg, nil)
		second <- err
	}()
	// ... and a third gives up on its own short deadline.
	short, cancelShort := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancelShort()
	start := time.Now()
	if _, err := f.cache.Session(short, mg, nil); err == nil || time.Since(start) > 3*time.Second {
		t.Fatalf("a caller with a 100ms deadline returned after %s with %v", time.Since(start), err)
	}
	cancelFirst()
	if err := <-firstErr; err == nil {
		t.Error("the cancelled first caller got a session")
	}
	close(release)
	if err := <-second; err != nil || got == nil {
		t.Fatalf("the first caller's cancellation failed a caller waiting with it: %v", err)
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("STS called %d times, want 1", n)
	}
}

// TestSessionBuiltNeverWaits: asked for a session it has not built, the
// cache starts its build and answers ErrBuilding at once, however slow the
// endpoint; once built, the session; a failed build's error for failedFor.
func TestSessionBuiltNeverWaits(t *testing.T) {
	f := newFixture(t)
	release := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-release
		f.aws.ServeHTTP(w, r)
	}))
	t.Cleanup(slow.Close)
	t.Cleanup(func() {
		select {
		case <-release:
		default:
			close(release)
		}
	})
	ctx := context.Background()
	_ = f.kube.Create(ctx, clusterConfig("slow", slow.URL, v1alpha1.ProviderConfigSpec{Region: aws.String("us-east-1"), Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceNone}}))
	mg := managed("ns", v1alpha1.ClusterProviderConfigKind, "slow", nil)
	start := time.Now()
	for range 3 {
		if _, err := f.cache.SessionBuilt(ctx, mg, nil); !errors.Is(err, ErrBuilding) {
			t.Fatalf("while the endpoint is silent: %v, want ErrBuilding", err)
		}
	}
	if waited := time.Since(start); waited > time.Second {
		t.Errorf("three asks waited %v for a silent endpoint", waited)
	}
	close(release)
	var s *Session
	for deadline := time.Now().Add(10 * time.Second); s == nil && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		s, _ = f.cache.SessionBuilt(ctx, mg, nil)
	}
	if s == nil || s.AccountID != "000000000000" {
		t.Fatalf("once the endpoint answered: %v", s)
	}
	if n := f.cache.Stats().IdentityCalls; n != 1 {
		t.Errorf("%d identity calls, want 1: one build however many asked", n)
	}
}

// TestSessionsShareOneHTTPClient: the sessions of two accounts, and every SDK
// client made from them, send through one HTTP client (one pool of
// connections to the service endpoints); a namespaced config's own endpoint
// goes through the tenants' guarded one.
func TestSessionsShareOneHTTPClient(t *testing.T) {
	f := newFixture(t,
		secret("crossplane-system", "a", "credentials", "[default]\naws_access_key_id=AKIDA\naws_secret_access_key=x\n"),
		secret("crossplane-system", "b", "credentials", "[default]\naws_access_key_id=AKIDB\naws_secret_access_key=x\n"),
		secret("team-a", "c", "credentials", "[default]\naws_access_key_id=AKIDC\naws_secret_access_key=x\n"))
	ctx := context.Background()
	credentials := func(ns, name string) v1alpha1.ProviderCredentials {
		return v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceSecret,
			SecretRef: &xpv2.SecretKeySelector{SecretReference: xpv2.SecretReference{Name: name, Namespace: ns}, Key: "credentials"}}
	}
	for _, name := range []string{"a", "b"} {
		if err := f.kube.Create(ctx, clusterConfig(name, f.url, v1alpha1.ProviderConfigSpec{Region: aws.String("us-east-1"), Credentials: credentials("crossplane-system", name)})); err != nil {
			t.Fatal(err)
		}
	}
	tenant := &v1alpha1.ProviderConfig{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "c", Generation: 1}, Spec: v1alpha1.ProviderConfigSpec{
		Region: aws.String("us-east-1"), Endpoint: &v1alpha1.EndpointOverride{URL: f.url}, Credentials: credentials("", "c"),
	}}
	if err := f.kube.Create(ctx, tenant); err != nil {
		t.Fatal(err)
	}

	session := func(kind, name string) *Session {
		t.Helper()
		s, err := f.cache.Session(ctx, managed("team-a", kind, name, nil), nil)
		if err != nil {
			t.Fatalf("session of %s %s: %v", kind, name, err)
		}
		return s
	}
	a, b, c := session(v1alpha1.ClusterProviderConfigKind, "a"), session(v1alpha1.ClusterProviderConfigKind, "b"), session(v1alpha1.ProviderConfigKind, "c")
	if a.AccountID == b.AccountID && callerARN(t, a) == callerARN(t, b) {
		t.Fatal("the two configs gave one session: the test shows nothing")
	}
	// An SDK client copies a BuildableClient into a transport of its own;
	// the shared one must reach its calls as it is.
	clientOf := func(s *Session) aws.HTTPClient { return sts.NewFromConfig(s.Config).Options().HTTPClient }
	if clientOf(a) != clientOf(b) || clientOf(a) != a.Config.HTTPClient {
		t.Error("the clients of two accounts' sessions send through HTTP clients of their own")
	}
	if capped, ok := clientOf(c).(capped); !ok || capped.next != f.cache.tenantHTTP || capped.namespace != "team-a" {
		t.Error("a namespaced config's own endpoint is not reached through the tenants' guarded HTTP client, capped for its namespace")
	}
}

// TestBrokenKeepsOnlyTheLatestVersion: a tenant who edits its config's
// region in a loop, each version failing, leaves one failure recorded, not
// one a version: a new version of a config supersedes the older ones in
// every region.
func TestBrokenKeepsOnlyTheLatestVersion(t *testing.T) {
	c := NewCache(nil)
	for i := range 200 {
		k := sessionKey{kind: v1alpha1.ProviderConfigKind, namespace: "team-b", name: "own", generation: int64(i + 1), region: "aa-a-" + strconv.Itoa(i)}
		c.mu.Lock()
		c.noteBroken(k, errors.New("cannot reach the endpoint"))
		c.mu.Unlock()
	}
	if n := len(c.broken); n != 1 {
		t.Errorf("%d failures recorded, want 1", n)
	}
}
