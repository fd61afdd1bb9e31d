// Package compositions renders the example Compositions with the Crossplane
// CLI and function-patch-and-transform running as a local process, and
// validates every example and every rendered resource offline against the
// provider's CRDs.
package compositions

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/yaml"
)

var (
	root  = repoRoot()
	tools = filepath.Join(root, ".cache", "package-tools")
)

func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}

// startFunction runs function-patch-and-transform on a free local port and
// returns a functions file that points crossplane render at it.
func startFunction(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	fn := exec.Command(filepath.Join(tools, "function-patch-and-transform"), "--insecure", "--address="+addr)
	if err := fn.Start(); err != nil {
		t.Fatalf("cannot start the function (run make package-tools): %v", err)
	}
	t.Cleanup(func() { _ = fn.Process.Kill(); _, _ = fn.Process.Wait() })
	for deadline := time.Now().Add(10 * time.Second); ; {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the function did not start listening")
		}
		time.Sleep(50 * time.Millisecond)
	}
	b, err := os.ReadFile(filepath.Join(root, "examples", "compositions", "functions", "functions.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(t.TempDir(), "functions.yaml")
	if err := os.WriteFile(f, bytes.ReplaceAll(b, []byte("localhost:9443"), []byte(addr)), 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}

func crank(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(filepath.Join(tools, "crank"), args...)
	cmd.Dir = root
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	err := cmd.Run()
	if err != nil {
		err = fmt.Errorf("%w: %s%s", err, stderr.String(), out.String())
	}
	return out.String(), err
}

// validate checks resources offline against the provider's CRDs, the XRDs
// and the stand-ins of the reference targets; no schema may be missing.
func validate(t *testing.T, resources string) string {
	t.Helper()
	cache := t.TempDir()
	// crossplane beta validate takes Crossplane's own schemas (for the
	// runtime example's Provider and DeploymentRuntimeConfig) from its
	// cache: they are put there from the Crossplane module, not downloaded.
	entry := filepath.Join(cache, "xpkg.crossplane.io", "crossplane", "crossplane@v2.2.0")
	if err := os.MkdirAll(entry, 0o755); err != nil {
		t.Fatal(err)
	}
	dir, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/crossplane/crossplane/v2").Output()
	if err != nil {
		t.Fatal(err)
	}
	crds, _ := filepath.Glob(filepath.Join(strings.TrimSpace(string(dir)), "cluster", "crds", "*.yaml"))
	for _, f := range crds {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(entry, filepath.Base(f)), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	xrds, _ := filepath.Glob(filepath.Join(root, "examples", "compositions", "*", "definition.yaml"))
	extensions := strings.Join(append([]string{"package/crds", "test/testdata/crds"}, rel(xrds)...), ",")
	out, err := crank(t, "beta", "validate", "--cache-dir", cache, "--crossplane-image", "xpkg.crossplane.io/crossplane/crossplane:v2.2.0",
		"--error-on-missing-schemas", extensions, resources)
	if err != nil {
		t.Fatalf("validation failed:\n%v", err)
	}
	return out
}

func rel(paths []string) []string {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		r, _ := filepath.Rel(root, p)
		out = append(out, r)
	}
	return out
}

// render runs crossplane render twice, as two reconciles would: the second
// pass sees the status the first wrote to the composite.
func render(t *testing.T, functions, dir string) []map[string]any {
	t.Helper()
	args := func(xr string) []string {
		a := []string{"render", xr, filepath.Join(dir, "composition.yaml"), functions, "--include-full-xr"}
		if _, err := os.Stat(filepath.Join(root, dir, "observed.yaml")); err == nil {
			a = append(a, "--observed-resources", filepath.Join(dir, "observed.yaml"))
		}
		return a
	}
	first, err := crank(t, args(filepath.Join(dir, "xr.yaml"))...)
	if err != nil {
		t.Fatal(err)
	}
	xr := filepath.Join(t.TempDir(), "xr.yaml")
	if err := os.WriteFile(xr, []byte(strings.SplitN(strings.TrimPrefix(first, "---\n"), "\n---\n", 2)[0]), 0o600); err != nil {
		t.Fatal(err)
	}
	second, err := crank(t, args(xr)...)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "rendered.yaml")
	if err := os.WriteFile(out, []byte(second), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s", validate(t, out))
	var objs []map[string]any
	for _, doc := range strings.Split(second, "\n---\n") {
		var o map[string]any
		if err := yaml.Unmarshal([]byte(doc), &o); err == nil && o != nil {
			objs = append(objs, o)
		}
	}
	return objs
}

func find(objs []map[string]any, kind string) []map[string]any {
	var out []map[string]any
	for _, o := range objs {
		if o["kind"] == kind {
			out = append(out, o)
		}
	}
	return out
}

func get(o map[string]any, path ...string) any {
	var v any = o
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[p]
	}
	return v
}

func TestEventDelivery(t *testing.T) {
	objs := render(t, startFunction(t), filepath.Join("examples", "compositions", "eventdelivery"))
	for _, kind := range []string{"DeliveryStream", "Subscription", "Endpoint", "Topic"} {
		if len(find(objs, kind)) != 1 {
			t.Errorf("want one %s, got %d", kind, len(find(objs, kind)))
		}
	}
	if n := len(find(objs, "Role")); n != 2 {
		t.Errorf("want two Roles, got %d", n)
	}
	sub := find(objs, "Subscription")[0]
	if got := get(sub, "spec", "forProvider", "endpoint"); got != "arn:aws:firehose:us-east-1:123456789012:deliverystream/orders" {
		t.Errorf("the Subscription feeds %v, not the stream", got)
	}
	for _, sel := range [][]string{
		{"Subscription", "topicSelector"}, {"Subscription", "subscriptionRoleSelector"}, {"Endpoint", "roleSelector"},
	} {
		o := find(objs, sel[0])[0]
		if get(o, "spec", "forProvider", sel[1], "matchControllerRef") != true {
			t.Errorf("%s.%s does not match the controller reference", sel[0], sel[1])
		}
	}
	stream := find(objs, "DeliveryStream")[0]
	if get(stream, "spec", "forProvider", "httpEndpointDestinationConfiguration", "roleSelector", "matchControllerRef") != true {
		t.Error("the stream's role is not selected by controller reference")
	}
	for _, o := range objs {
		if strings.Contains(fmt.Sprint(get(o, "spec", "forProvider")), "arn:aws:iam::") {
			t.Errorf("%s carries a copied role ARN", o["kind"])
		}
	}
}

func TestAgentCredential(t *testing.T) {
	objs := render(t, startFunction(t), filepath.Join("examples", "compositions", "agentcredential"))
	p := find(objs, "APIKeyCredentialProvider")
	if len(p) != 1 {
		t.Fatalf("want one APIKeyCredentialProvider, got %d", len(p))
	}
	if get(p[0], "spec", "forProvider", "name") != "team-a-search" || get(p[0], "spec", "forProvider", "apiKey", "name") != "search-api-key" ||
		get(p[0], "spec", "writeConnectionSecretToRef", "name") != "search-agent-credential" {
		t.Errorf("composed: %v", p[0]["spec"])
	}
}

// TestExamplesValidate validates every example manifest of examples/ against
// the CRDs, offline; the Secrets beside them are Kubernetes' own kind.
func TestExamplesValidate(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(root, "examples", "*", "*.yaml"))
	xrs, _ := filepath.Glob(filepath.Join(root, "examples", "compositions", "*", "xr.yaml"))
	var docs []string
	for _, f := range append(files, xrs...) {
		if strings.HasSuffix(filepath.Dir(f), "compositions") {
			continue // functions.yaml
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, doc := range strings.Split(string(b), "\n---\n") {
			var o map[string]any
			if err := yaml.Unmarshal([]byte(doc), &o); err != nil || o == nil || o["kind"] == "Secret" {
				continue
			}
			docs = append(docs, doc)
		}
	}
	all := filepath.Join(t.TempDir(), "examples.yaml")
	if err := os.WriteFile(all, []byte(strings.Join(docs, "\n---\n")), 0o600); err != nil {
		t.Fatal(err)
	}
	out := validate(t, all)
	if want := fmt.Sprintf("Total %d resources: 0 missing schemas, %d success cases, 0 failure cases", len(docs), len(docs)); !strings.Contains(out, want) {
		t.Errorf("validation:\n%s", out)
	}
	t.Logf("%s", out)
}
