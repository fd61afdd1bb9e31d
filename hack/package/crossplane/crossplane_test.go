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
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// root is the repository root.
var root = func() string { r, _ := filepath.Abs("../../.."); return r }()

func tools(t *testing.T) Tools {
	t.Helper()
	dir := os.Getenv("PACKAGE_TOOLS")
	if dir == "" {
		dir = filepath.Join(root, ".cache", "package-tools")
	}
	matches, _ := filepath.Glob(filepath.Join(dir, "crossplane-v*"))
	if len(matches) == 0 {
		t.Fatalf("no Crossplane core in %s: run make package-tools", dir)
	}
	return Tools{Crossplane: matches[0], Crank: filepath.Join(dir, "crank"), Kubectl: filepath.Join(controlPlaneDir(), "kubectl")}
}

func controlPlaneDir() string {
	if d := os.Getenv("KUBEBUILDER_ASSETS"); d != "" {
		return d
	}
	return filepath.Join(root, ".cache", "controlplane")
}

// eventually retries check until it succeeds or timeout passes.
func eventually(t *testing.T, timeout time.Duration, what string, check func() error) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		err := check()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v: %v", what, timeout, err)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// TestInstalledAndComposedByCrossplane installs the provider's package and
// function-patch-and-transform through Crossplane's package manager from a
// TLS registry, then brings each example composite to Ready through
// Crossplane, changes it, and deletes it, checking AWS (the emulator) at each
// step.
func TestInstalledAndComposedByCrossplane(t *testing.T) {
	xpkg := filepath.Join(root, "_output", "xpkg", "provider-aws-services.xpkg")
	providerBin := filepath.Join(root, "_output", "bin", "linux_"+runtime.GOARCH, "provider")
	for _, f := range []string{xpkg, providerBin} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("%s: run make xpkg first", f)
		}
	}
	tl := tools(t)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()

	// A real API server and etcd, with nothing installed.
	env := &envtest.Environment{BinaryAssetsDirectory: controlPlaneDir()}
	cfg, err := env.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = env.Stop() }()
	_ = cfg
	kubeconfig := filepath.Join(dir, "kubeconfig")
	if err := os.WriteFile(kubeconfig, env.KubeConfig, 0o600); err != nil {
		t.Fatal(err)
	}
	k := func(stdin string, args ...string) string {
		t.Helper()
		out, err := Kubectl(tl.Kubectl, kubeconfig, stdin, args...)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}

	// Crossplane core with the provider's package, pushed to a registry as
	// a user's CI would push it, and function-patch-and-transform's.
	started := time.Now()
	xp, err := Start(ctx, Options{
		Tools: tl, Kubeconfig: kubeconfig, Dir: dir,
		CRDs:                filepath.Join(moduleDir(t, "github.com/crossplane/crossplane/v2"), "cluster", "crds"),
		ProviderPackage:     xpkg,
		FunctionPackageRoot: filepath.Join(moduleDir(t, "github.com/crossplane-contrib/function-patch-and-transform"), "package"),
		FunctionBinary:      filepath.Join(filepath.Dir(tl.Crank), "function-patch-and-transform"),
		CoreArgs:            []string{"--debug"},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer xp.Stop()
	defer func() {
		if b, err := os.ReadFile(xp.CoreLog); err == nil {
			if n := strings.Count(string(b), "Circuit breaker is open"); n > 0 {
				t.Logf("Crossplane's XR circuit breaker opened %d times", n)
			}
			if d := os.Getenv("CROSSPLANE_LOG_COPY"); d != "" {
				_ = os.WriteFile(d, b, 0o600)
			}
		}
		if t.Failed() {
			for _, p := range []string{"crossplane-core", "provider", "function", "emulator"} {
				if b, err := os.ReadFile(filepath.Join(dir, p+".log")); err == nil {
					t.Logf("--- %s log (last 4 KiB) ---\n%s", p, tail(b, 4096))
				}
			}
		}
	}()
	fnRef := xp.FunctionRef

	// What the Deployment runtime would write, the harness writes.
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			xp.StandIn()
			select {
			case <-stop:
				return
			case <-time.After(time.Second):
			}
		}
	}()
	for _, pkg := range []string{"providers.pkg.crossplane.io/provider-aws-services", "functions.pkg.crossplane.io/function-patch-and-transform"} {
		eventually(t, 3*time.Minute, pkg+" Installed and Healthy", func() error { return packageHealthy(tl, kubeconfig, pkg) })
	}
	t.Logf("packages installed and healthy %v after core init", time.Since(started).Round(time.Second))
	for _, crd := range []string{"deliverystreams.streaming.services.k8s.aws", "apikeycredentialproviders.agentcorecontrol.services.k8s.aws", "clusterproviderconfigs.aws.services.k8s.aws"} {
		eventually(t, time.Minute, crd+" installed from the package", func() error {
			_, err := Kubectl(tl.Kubectl, kubeconfig, "", "get", "crd", crd)
			return err
		})
	}

	// The AWS emulator and the provider, as the package's Deployment would
	// run it.
	emPort, err := FreePort()
	if err != nil {
		t.Fatal(err)
	}
	emulatorBin := filepath.Join(dir, "aws-emulator")
	if out, err := exec.Command("go", "build", "-C", root, "-o", emulatorBin, "./test/emulator/cmd/aws-emulator").CombinedOutput(); err != nil { //nolint:gosec // builds the project's emulator
		t.Fatalf("building the emulator: %v\n%s", err, out)
	}
	em, err := StartProcess(dir, "emulator", nil, emulatorBin, fmt.Sprintf("--address=127.0.0.1:%d", emPort), "--topic=orders")
	if err != nil {
		t.Fatal(err)
	}
	defer em.Stop()
	emulator := fmt.Sprintf("http://127.0.0.1:%d", emPort)
	prov, err := StartProcess(dir, "provider", []string{"KUBECONFIG=" + kubeconfig}, providerBin,
		"--debug", "--poll=10s", "--namespace="+Namespace, "--metrics-bind-address=127.0.0.1:0", "--health-probe-bind-address=127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer prov.Stop()
	pc, err := os.ReadFile(filepath.Join(root, "examples", "providerconfig", "clusterproviderconfig.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	k(strings.ReplaceAll(string(pc), "http://127.0.0.1:4566", emulator), "apply", "-f", "-")

	t.Run("RuntimeConfigExample", func(t *testing.T) {
		// Validated by the API server with Crossplane's CRDs, as kubectl
		// apply would be.
		if _, err := Kubectl(tl.Kubectl, kubeconfig, "", "apply", "--dry-run=server", "-f", filepath.Join(root, "examples", "runtime", "deploymentruntimeconfig.yaml")); err != nil {
			t.Error(err)
		}
	})
	t.Run("RefusedPackage", func(t *testing.T) {
		// A function's package installed as a Provider: Crossplane refuses it,
		// and the harness reports Crossplane's own words.
		k(fmt.Sprintf("apiVersion: pkg.crossplane.io/v1\nkind: Provider\nmetadata:\n  name: not-a-provider\nspec:\n  package: %s\n", fnRef), "apply", "-f", "-")
		eventually(t, 2*time.Minute, "refusal reported", func() error {
			err := packageHealthy(tl, kubeconfig, "providers.pkg.crossplane.io/not-a-provider")
			if err == nil || !strings.Contains(err.Error(), "package meta type is not Provider") {
				return fmt.Errorf("no refusal yet: %v", err)
			}
			t.Logf("Crossplane refuses the package: %v", err)
			return nil
		})
		k("", "delete", "providers.pkg.crossplane.io/not-a-provider")
	})
	t.Run("AgentCredential", func(t *testing.T) {
		ex := filepath.Join(root, "examples", "compositions", "agentcredential")
		k("", "create", "namespace", "team-a")
		k("", "-n", "team-a", "create", "secret", "generic", "search-api-key", "--from-literal=apiKey=sk-test-0123456789")
		applied := applyExample(t, tl, kubeconfig, ex, "agentcredentials.platform.example.org")
		eventually(t, 3*time.Minute, "AgentCredential Ready", func() error {
			_, err := Kubectl(tl.Kubectl, kubeconfig, "", "-n", "team-a", "wait", "--for=condition=Ready", "--timeout=1s", "agentcredentials.platform.example.org/search")
			return err
		})
		t.Logf("AgentCredential: kubectl apply to Ready in %v", time.Since(applied).Round(100*time.Millisecond))
		trace := traceReady(t, tl, kubeconfig, "team-a", "agentcredentials.platform.example.org/search", 2)
		t.Logf("crossplane beta trace:\n%s", trace)

		arn := "arn:aws:bedrock-agentcore:us-east-1:000000000000:token-vault/default/apikeycredentialprovider/" + exampleAWSName("team-a", "search")
		eventually(t, 30*time.Second, "tags on AWS", func() error { return awsTag(emulator, arn, "cost-center", "42") })
		k("", "-n", "team-a", "patch", "agentcredentials.platform.example.org/search", "--type=merge", "-p", `{"spec":{"costCenter":"43"}}`)
		eventually(t, 5*time.Minute, "the changed cost center on AWS", func() error { return awsTag(emulator, arn, "cost-center", "43") })

		k("", "-n", "team-a", "delete", "agentcredentials.platform.example.org/search", "--wait=false")
		eventually(t, 5*time.Minute, "nothing left on AWS", func() error {
			if err := CollectGarbage(tl.Kubectl, kubeconfig, "apikeycredentialproviders.agentcorecontrol.services.k8s.aws"); err != nil {
				return err
			}
			inv, err := inventory(emulator)
			if err != nil {
				return err
			}
			if n := len(inv["apiKeyCredentialProviders"]); n != 0 {
				return fmt.Errorf("%d credential providers left", n)
			}
			_, err = Kubectl(tl.Kubectl, kubeconfig, "", "-n", "team-a", "get", "agentcredentials.platform.example.org/search")
			if err == nil {
				return fmt.Errorf("the composite still exists")
			}
			return nil
		})
	})
	t.Run("EventDelivery", func(t *testing.T) { testEventDelivery(t, tl, kubeconfig, emulator) })
}

// testEventDelivery brings the EventDelivery example to Ready through
// Crossplane, changes its filter policy and deletes it.
func testEventDelivery(t *testing.T, tl Tools, kubeconfig, emulator string) {
	k := func(stdin string, args ...string) string {
		t.Helper()
		out, err := Kubectl(tl.Kubectl, kubeconfig, stdin, args...)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	ex := filepath.Join(root, "examples", "compositions", "eventdelivery")
	// Stand-ins of provider-upjet-aws's Topic and Role kinds (same group,
	// version, kind and scope), which the Composition composes.
	k("", "apply", "-f", filepath.Join(root, "test", "testdata", "crds", "reference-targets.yaml"))
	k("", "-n", "team-a", "create", "secret", "generic", "collector-access-key", "--from-literal=accessKey=collector-key-0123")
	applied := applyExample(t, tl, kubeconfig, ex, "eventdeliveries.platform.example.org")
	eventually(t, 4*time.Minute, "EventDelivery Ready", func() error {
		if err := StandInForUpjet(tl.Kubectl, kubeconfig, emulator); err != nil {
			return err
		}
		_, err := Kubectl(tl.Kubectl, kubeconfig, "", "-n", "team-a", "wait", "--for=condition=Ready", "--timeout=1s", "eventdeliveries.platform.example.org/orders")
		return err
	})
	t.Logf("EventDelivery: kubectl apply to Ready in %v", time.Since(applied).Round(100*time.Millisecond))
	t.Logf("crossplane beta trace:\n%s", traceReady(t, tl, kubeconfig, "team-a", "eventdeliveries.platform.example.org/orders", 6))

	inv, err := inventory(emulator)
	if err != nil {
		t.Fatal(err)
	}
	if len(inv["deliveryStreams"]) != 1 || len(inv["subscriptions"]) != 1 || len(inv["endpoints"]) != 1 {
		t.Fatalf("AWS holds %v", inv)
	}
	var sub struct {
		ARN string `json:"arn"`
	}
	if err := json.Unmarshal(inv["subscriptions"][0], &sub); err != nil {
		t.Fatal(err)
	}
	k("", "-n", "team-a", "patch", "eventdeliveries.platform.example.org/orders", "--type=merge", "-p", `{"spec":{"filterPolicy":"{\"type\": [\"order_cancelled\"]}"}}`)
	eventually(t, 5*time.Minute, "the changed filter policy on AWS", func() error {
		out, err := SNS(emulator, url.Values{"Action": {"GetSubscriptionAttributes"}, "SubscriptionArn": {sub.ARN}})
		if err != nil {
			return err
		}
		if !strings.Contains(out, "order_cancelled") {
			return fmt.Errorf("attributes: %s", out)
		}
		return nil
	})

	k("", "-n", "team-a", "delete", "eventdeliveries.platform.example.org/orders", "--wait=false")
	eventually(t, 5*time.Minute, "nothing left on AWS", func() error {
		if err := CollectGarbage(tl.Kubectl, kubeconfig, "deliverystreams.streaming.services.k8s.aws", "subscriptions.notification.services.k8s.aws",
			"endpoints.eventbus.services.k8s.aws", "topics.sns.aws.m.upbound.io", "roles.iam.aws.m.upbound.io"); err != nil {
			return err
		}
		inv, err := inventory(emulator)
		if err != nil {
			return err
		}
		for _, kind := range []string{"deliveryStreams", "subscriptions", "endpoints"} {
			if n := len(inv[kind]); n != 0 {
				return fmt.Errorf("%d %s left", n, kind)
			}
		}
		if _, err := Kubectl(tl.Kubectl, kubeconfig, "", "-n", "team-a", "get", "eventdeliveries.platform.example.org/orders"); err == nil {
			return fmt.Errorf("the composite still exists")
		}
		return nil
	})
}

// applyExample applies an example's XRD (named xrd), waits until it is
// established, applies its Composition and then its composite, and returns
// when the composite was applied.
func applyExample(t *testing.T, tl Tools, kubeconfig, dir, xrd string) time.Time {
	t.Helper()
	apply := func(file string) {
		t.Helper()
		if _, err := Kubectl(tl.Kubectl, kubeconfig, "", "apply", "-f", filepath.Join(dir, file)); err != nil {
			t.Fatal(err)
		}
	}
	apply("definition.yaml")
	eventually(t, time.Minute, "XRD established", func() error {
		_, err := Kubectl(tl.Kubectl, kubeconfig, "", "wait", "--for=condition=Established", "--timeout=1s", "xrd/"+xrd)
		return err
	})
	apply("composition.yaml")
	applied := time.Now()
	apply("xr.yaml")
	return applied
}

// packageHealthy reports a package Installed and Healthy, or Crossplane's
// own words why not.
func packageHealthy(tl Tools, kubeconfig, pkg string) error {
	out, err := Kubectl(tl.Kubectl, kubeconfig, "", "get", pkg, "-o", "json")
	if err != nil {
		return err
	}
	var p struct {
		Status struct {
			Conditions []struct{ Type, Status, Reason, Message string } `json:"conditions"`
		} `json:"status"`
	}
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		return err
	}
	ok := map[string]bool{}
	var why []string
	for _, c := range p.Status.Conditions {
		ok[c.Type] = c.Status == "True"
		if c.Status != "True" {
			why = append(why, fmt.Sprintf("%s=%s %s: %s", c.Type, c.Status, c.Reason, c.Message))
		}
	}
	if !ok["Installed"] || !ok["Healthy"] {
		return fmt.Errorf("%s: %s", pkg, strings.Join(why, "; "))
	}
	return nil
}

// traceReady runs `crossplane beta trace` and requires every row of the
// tree (at least rows of them) Synced and Ready.
func traceReady(t *testing.T, tl Tools, kubeconfig, ns, obj string, rows int) string {
	t.Helper()
	var out []byte
	eventually(t, time.Minute, "trace all Ready", func() error {
		cmd := exec.Command(tl.Crank, "beta", "trace", "-n", ns, obj) //nolint:gosec // the harness's crank
		cmd.Env = append(os.Environ(), "KUBECONFIG="+kubeconfig)
		var err error
		out, err = cmd.CombinedOutput()
		if err != nil {
			return fmt.Errorf("%w: %s", err, out)
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if len(lines) < rows+1 {
			return fmt.Errorf("%d rows:\n%s", len(lines)-1, out)
		}
		for _, l := range lines[1:] {
			f := strings.Fields(l)
			if !strings.Contains(l, "True") || strings.Contains(strings.Join(f, " "), "False") {
				return fmt.Errorf("not all Ready:\n%s", out)
			}
		}
		return nil
	})
	return string(out)
}

// awsTag checks a tag of an AgentCore resource in the emulator, through its
// ListTagsForResource API.
func awsTag(emulator, arn, key, want string) error {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, emulator+"/tags/"+strings.ReplaceAll(arn, "/", "%2F"), nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=AKIDTEST/20260101/us-east-1/bedrock-agentcore/aws4_request, SignedHeaders=host, Signature=0")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close() //nolint:errcheck // read only
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	var out struct {
		Tags map[string]string `json:"tags"`
	}
	if err := json.Unmarshal(b, &out); err != nil {
		return fmt.Errorf("%w: %s", err, b)
	}
	if out.Tags[key] != want {
		return fmt.Errorf("tag %s is %q, want %q (%s)", key, out.Tags[key], want, b)
	}
	return nil
}

// inventory is the emulator's list of resources, by kind.
func inventory(emulator string) (map[string][]json.RawMessage, error) {
	resp, err := http.Get(emulator + "/_emulator/resources") //nolint:noctx // a test's short read
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close() //nolint:errcheck // read only
	out := map[string][]json.RawMessage{}
	return out, json.NewDecoder(resp.Body).Decode(&out)
}

// exampleAWSName is the AWS name the example Compositions give a resource of
// the composite namespace/name (docs/decisions.md, "Names in Compositions";
// hack/package/compositions checks the rendered names against the same rule).
func exampleAWSName(namespace, name string) string {
	prefix := namespace + "-" + name
	if i := strings.IndexByte(prefix, '.'); i >= 0 {
		prefix = prefix[:i]
	}
	if len(prefix) > 55 {
		prefix = prefix[:55]
	}
	prefix = strings.TrimRight(prefix, "-")
	sum := sha256.Sum256([]byte(namespace + "/" + name))
	return prefix + "-" + hex.EncodeToString(sum[:])[:8]
}

// moduleDir is where a module of this one's build list lies.
func moduleDir(t *testing.T, module string) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", module).Output() //nolint:gosec // go list of a fixed module
	if err != nil {
		t.Fatalf("go list -m %s: %v", module, err)
	}
	return strings.TrimSpace(string(out))
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}
