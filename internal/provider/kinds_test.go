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

package provider_test

import (
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"

	"github.com/cloudkinds/provider-aws-services/apis"
	"github.com/cloudkinds/provider-aws-services/internal/aws/connection"
	"github.com/cloudkinds/provider-aws-services/internal/aws/quota"
	"github.com/cloudkinds/provider-aws-services/internal/provider"
	"github.com/cloudkinds/provider-aws-services/internal/provider/importer"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler"
	"github.com/cloudkinds/provider-aws-services/test/emulator"
	"github.com/cloudkinds/provider-aws-services/test/emulator/snapshot"
	"github.com/cloudkinds/provider-aws-services/test/workload"
)

// repoRoot is the repository's root, from this package's folder.
const repoRoot = "../.."

// TestEveryKindIsRegisteredEverywhere: every kind in the provider's list
// (provider.Kinds) passes every check of registered (one per place a kind
// must be), and every managed kind of the API is in the list. The lists
// built from provider.Kinds (the import command's, the README's table, the
// help text, make dev's examples, the e2e test's, the workloads') need no
// check but that they are built from it.
func TestEveryKindIsRegisteredEverywhere(t *testing.T) {
	r := newRegistry(t)
	listed := map[schema.GroupVersionKind]bool{}
	for _, k := range provider.Kinds() {
		listed[k.GroupVersionKind] = true
		t.Run(k.GroupVersionKind.Kind, func(t *testing.T) {
			for _, c := range r.checks() {
				if err := c.check(k); err != nil {
					t.Errorf("%s: %v", c.name, err)
				}
			}
		})
	}
	for gvk, typ := range r.scheme.AllKnownTypes() {
		if _, managed := reflect.New(typ).Interface().(resource.Managed); managed && !listed[gvk] {
			t.Errorf("%s is a managed kind of the API that the provider does not list (internal/provider/kinds.go)", gvk)
		}
	}
	if got, want := len(importer.Kinds), len(listed); got != want {
		t.Errorf("the import command lists %d kinds, the provider %d", got, want)
	}
	if got, want := len(workload.Kinds), len(listed); got != want {
		t.Errorf("the workloads have %d kinds, the provider %d", got, want)
	}
}

// TestAKindRegisteredNowhereFailsEveryCheck: a kind that is in the list
// and in none of the places fails each check, so that no check passes
// what it should catch.
func TestAKindRegisteredNowhereFailsEveryCheck(t *testing.T) {
	r := newRegistry(t)
	phantom := reconciler.Kind{
		GroupVersionKind: schema.GroupVersionKind{Group: "phantom.services.k8s.aws", Version: "v1alpha1", Kind: "Phantom"},
		Create:           quota.Operation{Service: "Phantom", Name: "CreatePhantom"},
		ConnectionKeys:   connection.Keys{{Name: "phantomARN"}},
		Example:          "examples/phantom/phantom.yaml",
	}
	var passed []string
	for _, c := range r.checks() {
		if c.check(phantom) == nil {
			passed = append(passed, c.name)
		}
	}
	if diff := cmp.Diff([]string(nil), passed); diff != "" {
		t.Errorf("checks a kind registered nowhere passes: -want, +got:\n%s", diff)
	}
}

// A registry is what the checks read once.
type registry struct {
	t        *testing.T
	scheme   *runtime.Scheme
	mapping  string
	readme   string
	emulator *emulator.Server
	url      string
}

func newRegistry(t *testing.T) *registry {
	t.Helper()
	scheme := runtime.NewScheme()
	if err := apis.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	em := emulator.New(emulator.Options{})
	srv := httptest.NewServer(em)
	t.Cleanup(srv.Close)
	return &registry{t: t, scheme: scheme, emulator: em, url: srv.URL,
		mapping: read(t, filepath.Join(repoRoot, "docs", "api-mapping.md")),
		readme:  read(t, filepath.Join(repoRoot, "README.md")),
	}
}

// A check is one place a kind must be registered.
type check struct {
	name  string
	check func(reconciler.Kind) error
}

func (r *registry) checks() []check {
	return []check{
		{"described", func(k reconciler.Kind) error {
			if k.Noun == "" || k.Setup == nil || k.Import.List == nil {
				return errors.New("want a noun, a Setup and an import List (reconciler.Define, reconciler.Import)")
			}
			// The import command reads and writes the name as a field
			// of forProvider's own.
			if k.NameField != "" && !nameField.MatchString(k.NameField) {
				return fmt.Errorf("the name field %s is not a field of spec.forProvider's own", k.NameField)
			}
			return nil
		}},
		{"in the API scheme", func(k reconciler.Kind) error {
			if !r.scheme.Recognizes(k.GroupVersionKind) {
				return fmt.Errorf("%s is not in apis.AddToScheme", k.GroupVersionKind)
			}
			return nil
		}},
		{"has a CRD", func(k reconciler.Kind) error {
			plural := strings.ToLower(k.GroupVersionKind.Kind) + "s"
			_, err := os.Stat(filepath.Join(repoRoot, "package", "crds", k.GroupVersionKind.Group+"_"+plural+".yaml"))
			return hint(err, "make generate")
		}},
		{"has an API reference page", func(k reconciler.Kind) error {
			_, err := os.Stat(filepath.Join(repoRoot, "docs", "api", strings.ToLower(k.GroupVersionKind.Kind)+".md"))
			return hint(err, "make generate")
		}},
		{"in docs/api-mapping.md", func(k reconciler.Kind) error {
			if !strings.Contains(r.mapping, "\n## "+k.GroupVersionKind.Kind+" — ") {
				return fmt.Errorf("no section \"## %s — <service>\"", k.GroupVersionKind.Kind)
			}
			return nil
		}},
		{"connection details told", func(k reconciler.Kind) error {
			if len(k.ConnectionKeys) == 0 {
				return errors.New("declares no connection details (reconciler.Kind.ConnectionKeys)")
			}
			for _, key := range k.ConnectionKeys {
				if !strings.Contains(r.readme, "`"+key.Name+"`") || !strings.Contains(r.mapping, "`"+key.Name+"`") {
					return fmt.Errorf("connection detail %s is not in the README's table and docs/api-mapping.md's section", key.Name)
				}
			}
			return nil
		}},
		{"in the README's table", func(k reconciler.Kind) error {
			if !strings.Contains(r.readme, "\n| "+k.GroupVersionKind.Kind+" | "+k.GroupVersionKind.Group+" |") {
				return errors.New("not in the README's table of kinds (make generate)")
			}
			return nil
		}},
		{"has an example", func(k reconciler.Kind) error {
			if k.Example == "" {
				return errors.New("names no example (reconciler.Kind.Example)")
			}
			b, err := os.ReadFile(filepath.Join(repoRoot, k.Example))
			if err != nil {
				return err
			}
			if !manifests(string(b))[k.GroupVersionKind.GroupVersion().String()+"/"+k.GroupVersionKind.Kind] {
				return fmt.Errorf("%s holds no object of apiVersion %s, kind %s", k.Example, k.GroupVersionKind.GroupVersion(), k.GroupVersionKind.Kind)
			}
			return nil
		}},
		{"has a quota", func(k reconciler.Kind) error {
			if _, known := quota.Of(k.Create); !known {
				return fmt.Errorf("quota.Table knows nothing of %s: add its quota, or its service's (assumed when AWS publishes none)", k.Create)
			}
			return nil
		}},
		{"emulated", func(k reconciler.Kind) error {
			if !emulator.Emulates(quota.SigningName(k.Create.Service)) {
				return fmt.Errorf("the emulator does not serve %s", k.Create.Service)
			}
			return r.understood(k.Create)
		}},
		{"has a workload", func(k reconciler.Kind) error {
			mg := workload.Set{}.Object(k.GroupVersionKind.Kind, "ns", "name", "1")
			if mg == nil || workload.List(k.GroupVersionKind.Kind) == nil || !slices.Contains(workload.Kinds, k.GroupVersionKind.Kind) {
				return errors.New("the chaos and scale tests' workload makes no object or list of it (workload.Set.Object, workload.List)")
			}
			gvk, err := apiutil.GVKForObject(mg, r.scheme)
			if err != nil {
				return err
			}
			if gvk != k.GroupVersionKind {
				return fmt.Errorf("the workload's object is a %v", gvk)
			}
			return nil
		}},
	}
}

// understood says whether the emulator understands op, from the request
// the SDK sends for it.
func (r *registry) understood(op quota.Operation) error {
	snap, err := snapshot.Read(snapshot.Module(op.Service), op.Name)
	if errors.Is(err, snapshot.ErrNone) {
		r.t.Logf("the SDK ships no snapshot of %s: the emulator is not checked", op)
		return nil
	}
	if err != nil {
		return err
	}
	status, body, err := snapshot.Replay(r.url, quota.SigningName(op.Service), snap)
	if err != nil {
		return err
	}
	if !snapshot.Understood(body) {
		return fmt.Errorf("the emulator does not understand %s: %d %s", op, status, body)
	}
	for call := range r.emulator.Calls() {
		if strings.HasSuffix(call, ":"+op.Name) {
			return nil
		}
	}
	return fmt.Errorf("the emulator did not count %s among its calls: %v", op, r.emulator.Calls())
}

func hint(err error, fix string) error {
	if err != nil {
		return fmt.Errorf("%w (%s)", err, fix)
	}
	return nil
}

var (
	nameField      = regexp.MustCompile(`^spec\.forProvider\.[A-Za-z0-9]+$`)
	apiVersionLine = regexp.MustCompile(`(?m)^apiVersion:\s*(\S+)\s*$`)
	kindLine       = regexp.MustCompile(`(?m)^kind:\s*(\S+)\s*$`)
)

// manifests returns the "apiVersion/kind" of every top-level document of
// a YAML file.
func manifests(yaml string) map[string]bool {
	out := map[string]bool{}
	for _, doc := range strings.Split(yaml, "\n---") {
		v, k := apiVersionLine.FindStringSubmatch(doc), kindLine.FindStringSubmatch(doc)
		if v != nil && k != nil {
			out[v[1]+"/"+k[1]] = true
		}
	}
	return out
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
