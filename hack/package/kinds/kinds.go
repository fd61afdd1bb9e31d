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

// Package kinds reads the provider's kinds as the package ships them: its
// CRDs (package/crds) and each managed kind's example (examples/). This
// module cannot import the provider's internal packages, so its tests read
// what the provider's own list of kinds generates and is checked against
// (TestEveryKindIsRegisteredEverywhere).
package kinds

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// ConfigGroup is the API group of the provider's configs, the CRDs that
// are not managed kinds.
const ConfigGroup = "aws.services.k8s.aws"

// A CRD is one CRD of the package.
type CRD struct {
	Kind, Group, Plural string
}

// Resource is how kubectl names the CRD's objects: "plural.group".
func (c CRD) Resource() string { return c.Plural + "." + c.Group }

// Managed reports whether the CRD is a managed kind, not a config.
func (c CRD) Managed() bool { return c.Group != ConfigGroup }

// CRDs returns the CRDs in root's package/crds.
func CRDs(root string) ([]CRD, error) {
	files, err := filepath.Glob(filepath.Join(root, "package", "crds", "*.yaml"))
	if err != nil || len(files) == 0 {
		return nil, errors.Join(errors.New("no CRDs in package/crds"), err)
	}
	out := make([]CRD, 0, len(files))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var crd struct {
			Spec struct {
				Group string
				Names struct{ Kind, Plural string }
			}
		}
		if err := yaml.Unmarshal(b, &crd); err != nil {
			return nil, err
		}
		out = append(out, CRD{Kind: crd.Spec.Names.Kind, Group: crd.Spec.Group, Plural: crd.Spec.Names.Plural})
	}
	return out, nil
}

// Examples returns, for each managed kind of the package, its example
// under root's examples/ (not a composition's) and the object it applies,
// as kubectl names it: "plural.group/name".
func Examples(root string) (map[string]string, error) {
	crds, err := CRDs(root)
	if err != nil {
		return nil, err
	}
	byKind := map[string]CRD{}
	for _, c := range crds {
		if c.Managed() {
			byKind[c.Group+"/"+c.Kind] = c
		}
	}
	out := map[string]string{}
	dir := filepath.Join(root, "examples")
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !strings.HasSuffix(path, ".yaml") || strings.Contains(path, string(filepath.Separator)+"compositions"+string(filepath.Separator)) {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(b)))
		for {
			doc, err := r.Read()
			if errors.Is(err, io.EOF) {
				return nil
			}
			if err != nil {
				return err
			}
			var obj struct {
				APIVersion string `json:"apiVersion"`
				Kind       string `json:"kind"`
				Metadata   struct{ Name string }
			}
			if yaml.Unmarshal(doc, &obj) != nil {
				continue
			}
			group, _, _ := strings.Cut(obj.APIVersion, "/")
			if c, ok := byKind[group+"/"+obj.Kind]; ok {
				rel, _ := filepath.Rel(dir, path)
				out[rel] = c.Resource() + "/" + obj.Metadata.Name
			}
		}
	})
	if err != nil {
		return nil, err
	}
	for k, c := range byKind {
		found := false
		for _, obj := range out {
			found = found || strings.HasPrefix(obj, c.Resource()+"/")
		}
		if !found {
			return nil, errors.New("no example of " + k + " in examples/")
		}
	}
	return out, nil
}
