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
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/test/emulator"
	"github.com/cloudkinds/provider-aws-services/test/proc"
	"github.com/cloudkinds/provider-aws-services/test/workload"
)

// hostileRSSMargin is how far above idle the provider's RSS may go while
// tenants' endpoints answer endlessly: a few session builds each read at
// most a 1 MiB answer or a 64 KiB error, and their buffers.
const hostileRSSMargin = 32

// hostileConfigs is how many ProviderConfigs of the hostile namespace point
// at the hostile endpoint at once, each with one object.
const hostileConfigs = 4

// TestHostileTenantEndpoint: the provider's binary, with loopback allowed to
// tenants' endpoints (as make dev and this suite run it), and a namespace
// whose ProviderConfigs point at a server that answers every call (a) with
// status 400 and a body that never ends, (b) with status 200 and a body that
// never ends, (c) with a body trickled a byte a second. The provider's RSS,
// sampled throughout, stays within idle + hostileRSSMargin MiB, and is back
// near idle after; meanwhile another namespace's objects, on the emulator,
// become Ready about as fast as with no hostile tenant.
//
// The integration suite's main package runs the provider in its own process
// against a control plane every test shares, so a second provider there
// would reconcile the others' objects: this test runs the binary here, on
// this package's control plane, like the other tests of the binary.
func TestHostileTenantEndpoint(t *testing.T) {
	if env.BuildErr != nil {
		t.Fatal(env.BuildErr)
	}
	ctx := context.Background()
	kube := env.ControlPlane.Client

	var mode atomic.Value // "400", "200" or "trickle"
	mode.Store("400")
	var sent, requests atomic.Int64
	// An error's message, and an account number, that never end: each
	// one token the SDK's XML decoder would hold whole.
	junk := map[string][]byte{"400": bytes.Repeat([]byte(`secret-of-the-hostile-endpoint `), 1536), "200": bytes.Repeat([]byte("7"), 48<<10)}
	hostile := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		w.Header().Set("Content-Type", "text/xml")
		m := mode.Load().(string) //nolint:forcetypeassert // always a string
		switch m {
		case "400":
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte("<ErrorResponse><Error><Code>Hostile</Code><Message>"))
		case "200":
			_, _ = w.Write([]byte("<GetCallerIdentityResponse><GetCallerIdentityResult><Account>"))
		default:
			w.WriteHeader(http.StatusBadRequest)
		}
		for r.Context().Err() == nil {
			var n int
			var err error
			if m == "trickle" {
				n, err = w.Write([]byte("x"))
				w.(http.Flusher).Flush()
				time.Sleep(time.Second)
			} else {
				n, err = w.Write(junk[m])
			}
			sent.Add(int64(n))
			if err != nil {
				return
			}
		}
	}))
	t.Cleanup(hostile.Close)
	em := emulator.New(emulator.Options{})
	good := httptest.NewServer(em)
	t.Cleanup(good.Close)

	const goodNS, hostileNS = "hostile-endpoint-neighbour", "hostile-endpoint-tenant"
	for _, ns := range []string{goodNS, hostileNS} {
		if err := kube.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil {
			t.Fatal(err)
		}
	}
	createConfig(t, kube, goodNS, "aws", "AKIDNEIGHBOUR", good.URL)
	ini := "[default]\naws_access_key_id = AKIDHOSTILE\naws_secret_access_key = s\n"
	if err := kube.Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: hostileNS, Name: "aws"}, StringData: map[string]string{"credentials": ini}}); err != nil {
		t.Fatal(err)
	}

	dir := t.TempDir()
	kubeconfig := filepath.Join(dir, "kubeconfig")
	if err := os.WriteFile(kubeconfig, env.ControlPlane.KubeConfig, 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := proc.Start(env.Binary, []string{"--poll=20s", "--metrics-bind-address=" + freeAddress(t), "--health-probe-bind-address=0", "--tenant-endpoint-network=127.0.0.0/8"},
		[]string{"KUBECONFIG=" + kubeconfig}, filepath.Join(dir, "provider.log"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the provider's log ends:\n%s", p.Tail(40))
		}
		p.Kill()
	})

	// ready creates an object in the neighbour's namespace and returns
	// how long it took to become Ready.
	n := 0
	ready := func() time.Duration {
		t.Helper()
		n++
		mg := neighbourObject(goodNS, fmt.Sprintf("neighbour-%d", n), "aws")
		start := time.Now()
		if err := kube.Create(ctx, mg); err != nil {
			t.Fatal(err)
		}
		for time.Since(start) < 30*time.Second {
			if err := kube.Get(ctx, client.ObjectKeyFromObject(mg), mg); err == nil && mg.GetCondition(xpv2.TypeReady).Status == corev1.ConditionTrue {
				return time.Since(start)
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Fatalf("the neighbour's %s is not Ready after 30s: %+v", mg.GetName(), mg.GetCondition(xpv2.TypeReady))
		return 0
	}
	// rss reads the provider's RSS every 100ms for d and returns the
	// largest and the last.
	rss := func(d time.Duration) (peak, last float64) {
		s := proc.SampleRSS(p, 100*time.Millisecond)
		time.Sleep(d)
		peak, err := s.Finish()
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Alive(); err != nil {
			t.Fatal(err)
		}
		last, err = p.RSSMiB()
		if err != nil {
			t.Fatal(err)
		}
		return peak, last
	}

	// Warmed up: a first object, then the idle RSS.
	ready()
	baseline := ready()
	_, idle := rss(2 * time.Second)
	t.Logf("idle: RSS %.1f MiB; a neighbour's object Ready in %s", idle, baseline.Round(time.Millisecond))

	// toldOverLimit waits for mg's Synced condition to say that the body
	// was over its limit. It is read while its own attack runs: later, the
	// calls the next attack holds open may fill the tenant's share of
	// calls, and its condition then says so instead.
	toldOverLimit := func(mg resource.Managed) {
		var msg string
		for end := time.Now().Add(15 * time.Second); time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
			if err := kube.Get(ctx, client.ObjectKeyFromObject(mg), mg); err != nil {
				t.Fatal(err)
			}
			if msg = mg.GetCondition(xpv2.TypeSynced).Message; strings.Contains(msg, "the response body exceeded") {
				return
			}
		}
		t.Errorf("%s: the condition does not say the body was over its limit: %.300s", mg.GetName(), msg)
	}

	var hostileObjects []resource.Managed
	for _, m := range []string{"400", "200", "trickle"} {
		mode.Store(m)
		sentBefore, requestsBefore := sent.Load(), requests.Load()
		var objects []resource.Managed
		for j := range hostileConfigs {
			name := fmt.Sprintf("hostile-%s-%d", m, j)
			pc := &v1alpha1.ProviderConfig{ObjectMeta: metav1.ObjectMeta{Namespace: hostileNS, Name: name}, Spec: v1alpha1.ProviderConfigSpec{
				Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceSecret,
					SecretRef: &xpv2.SecretKeySelector{SecretReference: xpv2.SecretReference{Name: "aws", Namespace: hostileNS}, Key: "credentials"}},
				Region:   aws.String(region),
				Endpoint: &v1alpha1.EndpointOverride{URL: hostile.URL},
			}}
			if err := kube.Create(ctx, pc); err != nil {
				t.Fatal(err)
			}
			mg := neighbourObject(hostileNS, name, name)
			if err := kube.Create(ctx, mg); err != nil {
				t.Fatal(err)
			}
			objects = append(objects, mg)
		}
		hostileObjects = append(hostileObjects, objects...)
		s := proc.SampleRSS(p, 100*time.Millisecond)
		took := ready()
		time.Sleep(max(0, 6*time.Second-took))
		peak, err := s.Finish()
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: peak RSS %.1f MiB (idle %.1f); the endpoint sent %d KiB over %d requests; a neighbour's object Ready in %s",
			m, peak, idle, (sent.Load()-sentBefore)>>10, requests.Load()-requestsBefore, took.Round(time.Millisecond))
		if requests.Load() == requestsBefore {
			t.Errorf("%s: the hostile endpoint was never called", m)
		}
		if peak > idle+hostileRSSMargin {
			t.Errorf("%s: peak RSS %.1f MiB, more than idle (%.1f MiB) + %d MiB", m, peak, idle, hostileRSSMargin)
		}
		if took > 2*baseline+5*time.Second {
			t.Errorf("%s: a neighbour's object took %s to become Ready, against %s with no hostile tenant", m, took, baseline)
		}
		if m != "trickle" {
			for _, mg := range objects {
				toldOverLimit(mg)
			}
		}
	}
	// No condition quotes what the endpoint sent.
	for _, mg := range hostileObjects {
		if err := kube.Get(ctx, client.ObjectKeyFromObject(mg), mg); err != nil {
			t.Fatal(err)
		}
		if msg := mg.GetCondition(xpv2.TypeSynced).Message; strings.Contains(msg, "secret-of-the-hostile-endpoint") {
			t.Errorf("%s: the condition quotes what the endpoint sent: %.300s", mg.GetName(), msg)
		}
	}
	mode.Store("400")
	_, after := rss(3 * time.Second)
	t.Logf("after: RSS %.1f MiB (idle %.1f)", after, idle)
	if after > idle+hostileRSSMargin/2 {
		t.Errorf("RSS after the attacks %.1f MiB, not back near idle (%.1f MiB)", after, idle)
	}

	// Tidy up for the package's other tests: the objects never created
	// anything, so they go without AWS.
	for _, mg := range hostileObjects {
		_ = kube.Delete(ctx, mg)
	}
	deadline := time.Now().Add(30 * time.Second)
	for _, mg := range hostileObjects {
		for time.Now().Before(deadline) && isPresent(ctx, kube, mg) {
			time.Sleep(200 * time.Millisecond)
		}
		if isPresent(ctx, kube, mg) {
			t.Errorf("%s was not released within 30s", mg.GetName())
		}
	}
}

// neighbourObject is an EventBridge Endpoint named name in ns on the
// ProviderConfig config of ns.
func neighbourObject(ns, name, config string) resource.Managed {
	mg := workload.Set{}.Object("Endpoint", ns, name, "v0")
	mg.(resource.TypedProviderConfigReferencer).SetProviderConfigReference(&xpv2.ProviderConfigReference{Kind: v1alpha1.ProviderConfigKind, Name: config}) //nolint:forcetypeassert // every kind has a typed reference
	return mg
}

func isPresent(ctx context.Context, kube client.Client, mg resource.Managed) bool {
	return kube.Get(ctx, client.ObjectKeyFromObject(mg), mg) == nil
}
