//go:build e2e

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
// Package e2e runs the local stack the way a new user does.
package e2e

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/internal/provider"
	"github.com/cloudkinds/provider-aws-services/test/controlplane"
)

// TestMakeDev runs `make dev`, checks that every example is Ready and that
// the output tells the user what to do next, then runs `make dev-down` and
// checks that nothing is left running.
func TestMakeDev(t *testing.T) {
	root := controlplane.RepoRoot()
	state := t.TempDir()
	addr := freeAddress(t)
	env := append(os.Environ(), "DEV_STATE="+state, "EMULATOR_ADDRESS="+addr)

	started := time.Now()
	out, err := run(root, env, "make", "dev")
	t.Logf("make dev took %v", time.Since(started).Round(time.Second))
	defer func() {
		if out, err := run(root, env, "make", "dev-down"); err != nil {
			t.Errorf("make dev-down: %v\n%s", err, out)
		}
	}()
	if err != nil {
		t.Fatalf("make dev: %v\n%s", err, out)
	}
	for _, want := range []string{"every example is Ready", "export KUBECONFIG=", "make dev-down", "READY", "SYNCED", "Crossplane composes"} {
		if !strings.Contains(out, want) {
			t.Errorf("the output does not say %q:\n%s", want, out)
		}
	}
	// The trace of each composite, every row Synced and Ready.
	for _, root := range []string{"EventDelivery/orders (team-a)", "AgentCredential/search (team-a)"} {
		if !strings.Contains(out, root) {
			t.Errorf("no trace of %s in the output", root)
		}
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "(team-a)") && !strings.Contains(l, "True     True") {
			t.Errorf("a composed resource is not Synced and Ready: %s", l)
		}
	}

	cfg, err := clientcmd.BuildConfigFromFlags("", filepath.Join(state, "kubeconfig"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.New(cfg, client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range provider.Kinds() {
		kind := k.GroupVersionKind.Kind
		l := &unstructured.UnstructuredList{}
		l.SetAPIVersion(k.GroupVersionKind.GroupVersion().String())
		l.SetKind(kind + "List")
		if err := c.List(context.Background(), l); err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		if len(l.Items) == 0 {
			t.Errorf("no %s was applied", kind)
		}
		for _, u := range l.Items {
			if s := readyStatus(u); s != corev1.ConditionTrue {
				t.Errorf("%s %s is not Ready: %s", kind, u.GetName(), s)
			}
		}
	}

	// What the team's applications mount: the connection Secrets the composed
	// resources write into the composites' namespace, holding what the
	// composites' status shows.
	connectionDetails(t, c)

	if out, err := run(root, env, "make", "dev-down"); err != nil {
		t.Fatalf("make dev-down: %v\n%s", err, out)
	}
	for _, name := range []string{"crossplane", "provider", "emulator", "controlplane"} {
		if _, err := os.Stat(filepath.Join(state, name+".pid")); err == nil {
			t.Errorf("%s is still recorded as running", name)
		}
	}
	if conn, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		conn.Close()
		t.Errorf("the emulator still listens on %s", addr)
	}
	if err := c.List(context.Background(), &corev1.NamespaceList{}); err == nil {
		t.Error("the API server still answers")
	}
}

// connectionDetails checks the connection Secrets of the example
// composites in team-a: the stream's ARN and the global endpoint's URL are
// those the EventDelivery's status shows, and the AgentCredential's Secret
// names its credential provider; and those of the examples of every kind.
func connectionDetails(t *testing.T, c client.Client) {
	t.Helper()
	ctx := context.Background()
	xr := &unstructured.Unstructured{}
	xr.SetAPIVersion("platform.example.org/v1alpha1")
	xr.SetKind("EventDelivery")
	if err := c.Get(ctx, client.ObjectKey{Namespace: "team-a", Name: "orders"}, xr); err != nil {
		t.Fatal(err)
	}
	streamARN, _, _ := unstructured.NestedString(xr.Object, "status", "streamARN")
	endpointURL, _, _ := unstructured.NestedString(xr.Object, "status", "endpointURL")
	if !strings.HasPrefix(streamARN, "arn:aws:firehose:") || !strings.HasPrefix(endpointURL, "https://") {
		t.Fatalf("the EventDelivery's status: streamARN %q, endpointURL %q", streamARN, endpointURL)
	}
	want := map[string]map[string]string{
		"orders-stream":   {"deliveryStreamARN": streamARN},
		"orders-endpoint": {"endpointURL": endpointURL},
	}
	deadline := time.Now().Add(30 * time.Second)
	for name, keys := range want {
		for {
			sec := &corev1.Secret{}
			err := c.Get(ctx, client.ObjectKey{Namespace: "team-a", Name: name}, sec)
			if err == nil {
				for k, v := range keys {
					if got := string(sec.Data[k]); got != v {
						err = fmt.Errorf("secret team-a/%s: %s is %q, the composite's status says %q", name, k, got, v)
					}
				}
			}
			if err == nil {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal(err)
			}
			time.Sleep(time.Second)
		}
	}
	sec := &corev1.Secret{}
	if err := c.Get(ctx, client.ObjectKey{Namespace: "team-a", Name: "search-agent-credential"}, sec); err != nil || len(sec.Data["credentialProviderARN"]) == 0 {
		t.Errorf("the AgentCredential's connection Secret: %v %v", keys(sec.Data), err)
	}
	// And the example of every kind, in default, its own.
	for name, key := range map[string]string{
		"clickstream-connection": "deliveryStreamARN", "orders-to-queue-connection": "subscriptionARN",
		"orders-global-connection": "endpointURL", "churn-model-connection": "endpointConfigARN", "search-api-connection": "credentialProviderARN",
	} {
		sec := &corev1.Secret{}
		if err := c.Get(ctx, client.ObjectKey{Namespace: "default", Name: name}, sec); err != nil || len(sec.Data[key]) == 0 {
			t.Errorf("the example's connection Secret default/%s has no %s: %v %v", name, key, keys(sec.Data), err)
		}
	}
}

func keys(m map[string][]byte) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func run(dir string, env []string, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func freeAddress(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

func readyStatus(u unstructured.Unstructured) corev1.ConditionStatus {
	conditions, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, c := range conditions {
		if m, ok := c.(map[string]any); ok && m["type"] == string(xpv2.TypeReady) {
			return corev1.ConditionStatus(fmt.Sprint(m["status"]))
		}
	}
	return corev1.ConditionUnknown
}
