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

package apis

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	pkgv1 "github.com/crossplane/crossplane/apis/v2/pkg/v1"
	pkgv1beta1 "github.com/crossplane/crossplane/apis/v2/pkg/v1beta1"
	"github.com/google/go-cmp/cmp"
	extv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/yaml"

	agentcorecontrolv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/agentcorecontrol/v1alpha1"
	eventbusv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/eventbus/v1alpha1"
	mlplatformv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/mlplatform/v1alpha1"
	notificationv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/notification/v1alpha1"
	streamingv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
)

func newScheme(t *testing.T) *runtime.Scheme {
	t.Helper()
	s := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	if err := AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	// Crossplane's package kinds, for the runtime example.
	if err := pkgv1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	if err := pkgv1beta1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestExamplesDecodeStrictly decodes every document of examples/ into its Go
// type and fails on any field the type does not know.
func TestExamplesDecodeStrictly(t *testing.T) {
	s := newScheme(t)
	files, err := filepath.Glob("../examples/*/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples found: %v", err)
	}
	kinds := map[string]bool{}
	for _, f := range files {
		for i, doc := range readDocuments(t, f) {
			var meta struct {
				APIVersion string `json:"apiVersion"`
				Kind       string `json:"kind"`
			}
			if err := json.Unmarshal(doc, &meta); err != nil {
				t.Fatalf("%s #%d: %v", f, i, err)
			}
			gvk := schema.FromAPIVersionAndKind(meta.APIVersion, meta.Kind)
			obj, err := s.New(gvk)
			if err != nil {
				t.Errorf("%s #%d: unknown kind %s: %v", f, i, gvk, err)
				continue
			}
			dec := json.NewDecoder(bytes.NewReader(doc))
			dec.DisallowUnknownFields()
			if err := dec.Decode(obj); err != nil {
				t.Errorf("%s #%d (%s): %v", f, i, gvk.Kind, err)
			}
			kinds[gvk.Kind] = true
		}
	}
	for _, k := range []string{"APIKeyCredentialProvider", "EndpointConfig", "Subscription", "DeliveryStream", "Endpoint", "ProviderConfig", "ClusterProviderConfig"} {
		if !kinds[k] {
			t.Errorf("examples/ has no %s", k)
		}
	}
}

func readDocuments(t *testing.T, path string) [][]byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := utilyaml.NewYAMLReader(bufio.NewReader(f))
	var docs [][]byte
	for {
		y, err := r.Read()
		if errors.Is(err, io.EOF) {
			return docs
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if len(bytes.TrimSpace(y)) == 0 {
			continue
		}
		j, err := yaml.YAMLToJSON(y)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		docs = append(docs, j)
	}
}

// TestKindsAreModernManaged checks at run time what the reconciler will
// assert: each kind, as registered in the scheme, is a namespaced managed
// resource with a typed provider config reference.
func TestKindsAreModernManaged(t *testing.T) {
	s := newScheme(t)
	gvks := []schema.GroupVersionKind{
		agentcorecontrolv1alpha1.APIKeyCredentialProviderGroupVersionKind,
		mlplatformv1alpha1.EndpointConfigGroupVersionKind,
		notificationv1alpha1.SubscriptionGroupVersionKind,
		streamingv1alpha1.DeliveryStreamGroupVersionKind,
		eventbusv1alpha1.EndpointGroupVersionKind,
	}
	for _, gvk := range gvks {
		obj, err := s.New(gvk)
		if err != nil {
			t.Errorf("%s is not registered: %v", gvk, err)
			continue
		}
		if _, ok := obj.(resource.ModernManaged); !ok {
			t.Errorf("%s does not satisfy resource.ModernManaged", gvk.Kind)
		}
	}
}

// TestCRDsCoverTheContract walks the generated CRD schemas along every field
// path of the contract (testdata/contract-paths.txt).
func TestCRDsCoverTheContract(t *testing.T) {
	crds := loadCRDs(t)
	paths := readContractPaths(t)
	for _, p := range paths {
		crd, ok := crds[p.kind]
		if !ok {
			t.Errorf("no CRD for kind %s", p.kind)
			continue
		}
		root := crd.Spec.Versions[0].Schema.OpenAPIV3Schema
		base := []string{"spec", "forProvider"}
		if p.status {
			base = []string{"status", "atProvider"}
		}
		err := walk(root, append(base, p.segments...), p.required)
		if err != "" && !p.status && len(p.segments) == 1 && requiredUnlessImport(root.Properties["spec"], p.segments[0]) {
			// Required of every object but an import, by a rule on the spec.
			err = walk(root, append(base, p.segments...), false)
		}
		if err != "" {
			t.Errorf("%s %s: %s", p.kind, p.raw, err)
		}
	}

	// The contract leaves partition out of two kinds' metadata.
	for _, kind := range []string{"EndpointConfig", "DeliveryStream"} {
		root := crds[kind].Spec.Versions[0].Schema.OpenAPIV3Schema
		if walk(root, []string{"status", "atProvider", "ackResourceMetadata", "partition"}, false) == "" {
			t.Errorf("%s: status.atProvider.ackResourceMetadata.partition exists, but the contract has none", kind)
		}
	}
}

// TestCRDVersionsAndScope checks the group, version, scope and names of every
// kind against the contract's first table.
func TestCRDVersionsAndScope(t *testing.T) {
	type names struct{ Group, Version, Scope, Plural, Singular, ListKind string }
	want := map[string]names{
		"APIKeyCredentialProvider": {"agentcorecontrol.services.k8s.aws", "v1alpha1", "Namespaced", "apikeycredentialproviders", "apikeycredentialprovider", "APIKeyCredentialProviderList"},
		"EndpointConfig":           {"mlplatform.services.k8s.aws", "v1alpha1", "Namespaced", "endpointconfigs", "endpointconfig", "EndpointConfigList"},
		"Subscription":             {"notification.services.k8s.aws", "v1alpha1", "Namespaced", "subscriptions", "subscription", "SubscriptionList"},
		"DeliveryStream":           {"streaming.services.k8s.aws", "v1alpha1", "Namespaced", "deliverystreams", "deliverystream", "DeliveryStreamList"},
		"Endpoint":                 {"eventbus.services.k8s.aws", "v1alpha1", "Namespaced", "endpoints", "endpoint", "EndpointList"},
		"ProviderConfig":           {"aws.services.k8s.aws", "v1alpha1", "Namespaced", "providerconfigs", "providerconfig", "ProviderConfigList"},
		"ClusterProviderConfig":    {"aws.services.k8s.aws", "v1alpha1", "Cluster", "clusterproviderconfigs", "clusterproviderconfig", "ClusterProviderConfigList"},
		"ProviderConfigUsage":      {"aws.services.k8s.aws", "v1alpha1", "Namespaced", "providerconfigusages", "providerconfigusage", "ProviderConfigUsageList"},
	}
	// The contract's kinds; a kind added since is the registry's to check
	// (internal/provider, TestEveryKindIsRegisteredEverywhere).
	got := map[string]names{}
	for kind, crd := range loadCRDs(t) {
		if _, contract := want[kind]; contract {
			got[kind] = names{crd.Spec.Group, crd.Spec.Versions[0].Name, string(crd.Spec.Scope), crd.Spec.Names.Plural, crd.Spec.Names.Singular, crd.Spec.Names.ListKind}
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("CRD names: -want, +got:\n%s", diff)
	}
}

func loadCRDs(t *testing.T) map[string]*extv1.CustomResourceDefinition {
	t.Helper()
	files, err := filepath.Glob("../package/crds/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no CRDs in package/crds: %v", err)
	}
	crds := map[string]*extv1.CustomResourceDefinition{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		crd := &extv1.CustomResourceDefinition{}
		if err := yaml.UnmarshalStrict(b, crd); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		crds[crd.Spec.Names.Kind] = crd
	}
	return crds
}

type contractPath struct {
	raw      string
	kind     string
	status   bool
	segments []string
	required bool
}

func readContractPaths(t *testing.T) []contractPath {
	t.Helper()
	b, err := os.ReadFile("testdata/contract-paths.txt")
	if err != nil {
		t.Fatal(err)
	}
	var paths []contractPath
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		kind, raw, _ := strings.Cut(line, " ")
		p := contractPath{raw: raw, kind: kind}
		path := strings.TrimSuffix(raw, "!")
		p.required = path != raw
		side, rest, _ := strings.Cut(path, ".")
		p.status = side == "status"
		for _, seg := range strings.Split(rest, ".") {
			if name, ok := strings.CutSuffix(seg, "[]"); ok {
				p.segments = append(p.segments, name, "[]")
				continue
			}
			p.segments = append(p.segments, seg)
		}
		paths = append(paths, p)
	}
	if len(paths) < 100 {
		t.Fatalf("read only %d contract paths", len(paths))
	}
	return paths
}

// walk follows segments from s; "[]" steps into array items. It returns what
// is wrong, or "" when the path exists (and, if required, is required by its
// parent).
func walk(s *extv1.JSONSchemaProps, segments []string, required bool) string {
	for i, seg := range segments {
		if seg == "[]" {
			if s.Type != "array" || s.Items == nil || s.Items.Schema == nil {
				return strings.Join(segments[:i], ".") + " is not an array of objects"
			}
			s = s.Items.Schema
			continue
		}
		child, ok := s.Properties[seg]
		if !ok {
			return "no field " + strings.Join(segments[:i+1], ".")
		}
		if i == len(segments)-1 && required && !contains(s.Required, seg) {
			return strings.Join(segments[:i+1], ".") + " is not required"
		}
		s = &child
	}
	return ""
}

// importOnly is the condition under which the rules of a spec relax what a
// create needs: management policies that only observe (an import).
const importOnly = "has(self.managementPolicies) && self.managementPolicies.all(p, p == 'Observe')"

// requiredUnlessImport reports whether a rule of spec requires
// forProvider's field of every object but one whose policies only observe.
func requiredUnlessImport(spec extv1.JSONSchemaProps, field string) bool {
	for _, r := range spec.XValidations {
		if strings.HasPrefix(r.Rule, importOnly+" || ") && strings.Contains(r.Rule, "has(self.forProvider."+field+")") {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
