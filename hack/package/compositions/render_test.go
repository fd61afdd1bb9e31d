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
	"regexp"
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
	first := renderXR(t, functions, dir, filepath.Join(dir, "xr.yaml"), true)
	xr := filepath.Join(t.TempDir(), "xr.yaml")
	if err := os.WriteFile(xr, []byte(strings.SplitN(strings.TrimPrefix(first, "---\n"), "\n---\n", 2)[0]), 0o600); err != nil {
		t.Fatal(err)
	}
	second := renderXR(t, functions, dir, xr, true)
	out := filepath.Join(t.TempDir(), "rendered.yaml")
	if err := os.WriteFile(out, []byte(second), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s", validate(t, out))
	return parse(second)
}

// renderXR runs crossplane render once for the composite in file xr, with
// the example's observed resources if observed is set and it has them.
func renderXR(t *testing.T, functions, dir, xr string, observed bool) string {
	t.Helper()
	args := []string{"render", xr, filepath.Join(dir, "composition.yaml"), functions, "--include-full-xr"}
	if _, err := os.Stat(filepath.Join(root, dir, "observed.yaml")); err == nil && observed {
		args = append(args, "--observed-resources", filepath.Join(dir, "observed.yaml"))
	}
	out, err := crank(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func parse(rendered string) []map[string]any {
	var objs []map[string]any
	for _, doc := range strings.Split(rendered, "\n---\n") {
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
	// The example's name, spelled out once; awsName must agree.
	name := AWSName("team-a", "orders")
	if want := "team-a-orders-75c1a60b"; name != want {
		t.Fatalf("AWSName(team-a, orders) = %s, want %s", name, want)
	}
	if got := get(find(objs, "DeliveryStream")[0], "spec", "forProvider", "deliveryStreamName"); got != name {
		t.Errorf("the stream is named %v, want %s", got, name)
	}
	if got := get(find(objs, "Endpoint")[0], "spec", "forProvider", "name"); got != name {
		t.Errorf("the global endpoint is named %v, want %s", got, name)
	}
	// observed.yaml holds the stream as AWS created it, under its name.
	sub := find(objs, "Subscription")[0]
	if got := get(sub, "spec", "forProvider", "endpoint"); got != "arn:aws:firehose:us-east-1:123456789012:deliverystream/"+name {
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
	// Each of the provider's composed resources writes its connection
	// Secret into the composite's namespace, named after the composite.
	for kind, secret := range map[string]string{"DeliveryStream": "orders-stream", "Subscription": "orders-subscription", "Endpoint": "orders-endpoint"} {
		if got := get(find(objs, kind)[0], "spec", "writeConnectionSecretToRef", "name"); got != secret {
			t.Errorf("the %s writes its connection Secret to %v, want %s", kind, got, secret)
		}
	}
	// observed.yaml holds the global endpoint as EventBridge made it: its URL
	// reaches the composite's status.
	if xr := find(objs, "EventDelivery"); len(xr) != 1 {
		t.Errorf("want the composite in the output, got %d", len(xr))
	} else if got := get(xr[0], "status", "endpointURL"); got != "https://abcde.xyz.endpoint.events.amazonaws.com" {
		t.Errorf("the composite's status shows the global endpoint's URL as %v", got)
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
	name := AWSName("team-a", "search")
	if want := "team-a-search-2fed7edb"; name != want {
		t.Fatalf("AWSName(team-a, search) = %s, want %s", name, want)
	}
	if get(p[0], "spec", "forProvider", "name") != name || get(p[0], "spec", "forProvider", "apiKey", "name") != "search-api-key" ||
		get(p[0], "spec", "writeConnectionSecretToRef", "name") != "search-agent-credential" {
		t.Errorf("composed: %v", p[0]["spec"])
	}
}

// namedField is a field of a composed resource that holds an AWS name, with
// the contract's pattern and the CRD's length limit for it
// (../shared/spec/resource-kinds.md, package/crds).
type namedField struct {
	kind    string
	path    []string
	max     int
	pattern *regexp.Regexp
}

// The AWS names each example Composition sets. The Topic and the Roles of
// EventDelivery are named by their provider after their object names, which
// Crossplane derives from the composite's name and UID.
var namedFields = map[string][]namedField{
	"eventdelivery": {
		{"DeliveryStream", []string{"spec", "forProvider", "deliveryStreamName"}, 64, regexp.MustCompile(`^[a-zA-Z0-9_.-]+$`)},
		{"Endpoint", []string{"spec", "forProvider", "name"}, 64, regexp.MustCompile(`^[.\-_A-Za-z0-9]+$`)},
	},
	"agentcredential": {
		{"APIKeyCredentialProvider", []string{"spec", "forProvider", "name"}, 128, regexp.MustCompile(`^[a-zA-Z0-9_-]+$`)},
	},
}

// TestAWSNamesCannotCollide renders each example Composition for composites
// of many namespaces and names, among them pairs whose "<namespace>-<name>"
// is the same (team-a/x and team/a-x), one name in two namespaces, and
// namespaces and names of the longest lengths Kubernetes allows, and requires
// every AWS name to be the one the rule gives, valid for its kind, and
// different for every composite.
func TestAWSNamesCannotCollide(t *testing.T) {
	// 63 characters: a namespace's limit, and a composite's (Crossplane
	// limits the names of composites to 63).
	ns63 := "team-" + strings.Repeat("n", 57) + "1"
	ns63b := "team-" + strings.Repeat("n", 57) + "2" // differs in the last character
	name63 := "app-" + strings.Repeat("x", 58) + "1"
	name63b := "app-" + strings.Repeat("x", 58) + "2"
	dotted63 := strings.Repeat("d", 30) + "." + strings.Repeat("d", 32)
	composites := [][2]string{
		{"team-a", "x"}, {"team", "a-x"}, // the same "<namespace>-<name>"
		{"team-a", "orders"}, {"team-b", "orders"}, // one name in two namespaces
		{"team-a", "orders.v2"}, {"team-a", "orders-v2"}, // a dot, which some kinds refuse
		{ns63, name63}, {ns63, name63b}, {ns63b, name63}, // the same first 55 characters
		{"a", name63}, {"b", name63},
		{ns63, dotted63}, {"a", "b"},
		{strings.Repeat("m", 54), "orders"}, // the cut falls on the hyphen
	}
	for _, c := range composites {
		if len(c[0]) > 63 || len(c[1]) > 63 {
			t.Fatalf("%s/%s is not a Kubernetes namespace and name", c[0], c[1])
		}
	}
	functions := startFunction(t)
	for example, fields := range namedFields {
		t.Run(example, func(t *testing.T) {
			dir := filepath.Join("examples", "compositions", example)
			b, err := os.ReadFile(filepath.Join(root, dir, "xr.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			owner := map[string]map[string]string{} // kind, AWS name: composite
			var rendered []string
			for _, c := range composites {
				var xr map[string]any
				if err := yaml.Unmarshal(b, &xr); err != nil {
					t.Fatal(err)
				}
				xr["metadata"] = map[string]any{"namespace": c[0], "name": c[1]}
				y, err := yaml.Marshal(xr)
				if err != nil {
					t.Fatal(err)
				}
				file := filepath.Join(t.TempDir(), "xr.yaml")
				if err := os.WriteFile(file, y, 0o600); err != nil {
					t.Fatal(err)
				}
				out := renderXR(t, functions, dir, file, false)
				rendered = append(rendered, out)
				objs := parse(out)
				composite := c[0] + "/" + c[1]
				for _, f := range fields {
					o := find(objs, f.kind)
					if len(o) != 1 {
						t.Errorf("%s: want one %s, got %d", composite, f.kind, len(o))
						continue
					}
					got, _ := get(o[0], f.path...).(string)
					if want := AWSName(c[0], c[1]); got != want {
						t.Errorf("%s: %s %s is %q, want %q", composite, f.kind, f.path[len(f.path)-1], got, want)
					}
					if len(got) < 1 || len(got) > f.max || !f.pattern.MatchString(got) {
						t.Errorf("%s: %s name %q (%d characters) is not valid: 1 to %d characters matching %s", composite, f.kind, got, len(got), f.max, f.pattern)
					}
					if owner[f.kind] == nil {
						owner[f.kind] = map[string]string{}
					}
					if other, ok := owner[f.kind][got]; ok {
						t.Errorf("%s and %s both get the %s name %q", other, composite, f.kind, got)
					}
					owner[f.kind][got] = composite
				}
			}
			// The rendered resources, the longest names among them, pass the
			// CRDs' validation too.
			all := filepath.Join(t.TempDir(), "rendered.yaml")
			if err := os.WriteFile(all, []byte(strings.Join(rendered, "\n---\n")), 0o600); err != nil {
				t.Fatal(err)
			}
			if out := validate(t, all); !strings.Contains(out, " 0 failure cases") {
				t.Errorf("validation:\n%s", out)
			}
		})
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
