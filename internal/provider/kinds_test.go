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

package provider

import (
	"errors"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/cloudkinds/provider-aws-services/apis"
	"github.com/cloudkinds/provider-aws-services/internal/aws/quota"
	"github.com/cloudkinds/provider-aws-services/internal/provider/importer"
	"github.com/cloudkinds/provider-aws-services/test/emulator"
	"github.com/cloudkinds/provider-aws-services/test/emulator/snapshot"
	"github.com/cloudkinds/provider-aws-services/test/workload"
)

// repoRoot is the repository's root, from this package's folder.
const repoRoot = "../.."

// TestEveryKindIsRegisteredEverywhere: a kind in the provider's list
// (kinds) is registered in every other place a kind must be
// (docs/development.md, "Adding a kind"), and every managed kind of those
// places is in the list: the API scheme, its CRD, its page of docs/api and
// its section of docs/api-mapping.md, its connection details in the
// README and docs/api-mapping.md, an example, the quotas of its create
// operation, the emulator, which must understand that operation, and the
// workloads of the chaos and scale tests.
func TestEveryKindIsRegisteredEverywhere(t *testing.T) {
	scheme := runtime.NewScheme()
	if err := apis.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	examples := manifestKinds(t, filepath.Join(repoRoot, "examples"))
	mapping := read(t, filepath.Join(repoRoot, "docs", "api-mapping.md"))
	readme := read(t, filepath.Join(repoRoot, "README.md"))
	em := emulator.New(emulator.Options{})
	srv := httptest.NewServer(em)
	t.Cleanup(srv.Close)

	listed := map[string]bool{}
	for _, k := range kinds {
		gvk := k.GroupVersionKind
		listed[gvk.Kind] = true
		t.Run(gvk.Kind, func(t *testing.T) {
			if !scheme.Recognizes(gvk) {
				t.Errorf("%s is not in the API scheme (apis.AddToScheme)", gvk)
			}
			if _, err := os.Stat(crdFile(gvk)); err != nil {
				t.Errorf("no CRD: %v (make generate)", err)
			}
			if _, err := os.Stat(filepath.Join(repoRoot, "docs", "api", strings.ToLower(gvk.Kind)+".md")); err != nil {
				t.Errorf("no API reference page: %v (make generate)", err)
			}
			if !strings.Contains(mapping, "\n## "+gvk.Kind+" — ") {
				t.Errorf("docs/api-mapping.md has no section \"## %s — <service>\"", gvk.Kind)
			}
			if len(k.ConnectionKeys) == 0 {
				t.Errorf("declares no connection details (reconciler.Registration.ConnectionKeys)")
			}
			for _, key := range k.ConnectionKeys {
				if !strings.Contains(readme, "`"+key.Name+"`") || !strings.Contains(mapping, "`"+key.Name+"`") {
					t.Errorf("connection detail %s is not in the README's table and docs/api-mapping.md's section", key.Name)
				}
			}
			if !examples[gvk.GroupVersion().String()+"/"+gvk.Kind] {
				t.Errorf("no manifest in examples/ of apiVersion %s, kind %s", gvk.GroupVersion(), gvk.Kind)
			}
			if _, known := quota.Of(k.Create); !known {
				t.Errorf("quota.Table knows nothing of %s: add its quota, or its service's (assumed when AWS publishes none)", k.Create)
			}
			if !slices.Contains(workload.Kinds, gvk.Kind) {
				t.Errorf("not among the chaos and scale tests' workloads (workload.Kinds)")
			}
			if !slices.ContainsFunc(importer.Kinds, func(ik importer.Kind) bool { return ik.GroupVersionKind == gvk }) {
				t.Errorf("the import command does not list it (importer.Kinds)")
			}
			understood(t, srv.URL, em, k.Create)
		})
	}

	// And the other way: every managed kind of the API is listed.
	for gvk, typ := range scheme.AllKnownTypes() {
		if _, managed := reflect.New(typ).Interface().(resource.Managed); !managed {
			continue
		}
		if !listed[gvk.Kind] {
			t.Errorf("%s is a managed kind of the API that the provider does not list (kinds)", gvk)
		}
	}
	for _, k := range importer.Kinds {
		if !listed[k.Kind] {
			t.Errorf("importer.Kinds has %s, which the provider does not list (kinds)", k.Kind)
		}
	}
	for _, kind := range workload.Kinds {
		if !listed[kind] {
			t.Errorf("workload.Kinds has %s, which the provider does not list (kinds)", kind)
		}
	}
}

// understood checks that the emulator understands op, from the request the
// SDK sends for it.
func understood(t *testing.T, url string, em *emulator.Server, op quota.Operation) {
	t.Helper()
	snap, err := snapshot.Read(snapshot.Module(op.Service), op.Name)
	if errors.Is(err, snapshot.ErrNone) {
		t.Logf("the SDK ships no snapshot of %s: the emulator is not checked", op)
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	status, body, err := snapshot.Replay(url, quota.SigningName(op.Service), snap)
	if err != nil {
		t.Fatal(err)
	}
	if !snapshot.Understood(body) {
		t.Errorf("the emulator does not understand %s: %d %s", op, status, body)
	}
	for call := range em.Calls() {
		if strings.HasSuffix(call, ":"+op.Name) {
			return
		}
	}
	t.Errorf("the emulator did not count %s among its calls: %v", op, em.Calls())
}

// crdFile is where make generate writes the CRD of gvk.
func crdFile(gvk schema.GroupVersionKind) string {
	plural := strings.ToLower(gvk.Kind) + "s"
	return filepath.Join(repoRoot, "package", "crds", gvk.Group+"_"+plural+".yaml")
}

var (
	apiVersionLine = regexp.MustCompile(`(?m)^apiVersion:\s*(\S+)\s*$`)
	kindLine       = regexp.MustCompile(`(?m)^kind:\s*(\S+)\s*$`)
)

// manifestKinds returns the "apiVersion/kind" of every top-level document of
// the YAML files under dir.
func manifestKinds(t *testing.T, dir string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".yaml") {
			return err
		}
		for _, doc := range strings.Split(read(t, path), "\n---") {
			v, k := apiVersionLine.FindStringSubmatch(doc), kindLine.FindStringSubmatch(doc)
			if v != nil && k != nil {
				out[v[1]+"/"+k[1]] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
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
