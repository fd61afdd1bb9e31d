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

package importer

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"
	"sigs.k8s.io/yaml"
)

// Options say where the manifests' objects go: their namespace, the
// provider config they use (kind ProviderConfig or ClusterProviderConfig),
// and the region they name.
type Options struct {
	Namespace                              string
	ProviderConfigKind, ProviderConfigName string
	Region                                 string
}

// hashLength is how many hex digits of the identifier's SHA-256 an object
// name ends with when the identifier is no DNS label itself.
const hashLength = 10

var notLabel = regexp.MustCompile(`[^a-z0-9]+`)

// ObjectName is the name of the object that imports the resource id of
// kind k: the identifier itself when it is a DNS-1123 label (at most 63
// lowercase letters, digits and '-'); otherwise its readable part made one
// (lowercased, every run of other characters a '-', cut to fit) and a hash
// of the whole identifier, so that two identifiers never share a name
// (Name and name, a_b and a-b, two subscriptions of one topic) and the same
// identifier always gets the same one.
func ObjectName(k Kind, id string) string {
	if len(validation.IsDNS1123Label(id)) == 0 {
		return id
	}
	base := id
	if k.Base != nil {
		base = k.Base(id)
	}
	sum := sha256.Sum256([]byte(id))
	hash := hex.EncodeToString(sum[:])[:hashLength]
	base = strings.Trim(notLabel.ReplaceAllString(strings.ToLower(base), "-"), "-")
	base = strings.TrimRight(base[:min(len(base), validation.DNS1123LabelMaxLength-1-hashLength)], "-")
	if base == "" {
		return hash
	}
	return base + "-" + hash
}

// Manifest is the observe-only object that imports the resource id of kind
// k: it names the resource and nothing more (its name field, or for a
// subscription its ARN as the external name), in the region of o.
func Manifest(k Kind, id string, o Options) map[string]any {
	metadata := map[string]any{"name": ObjectName(k, id), "namespace": o.Namespace}
	forProvider := map[string]any{"region": o.Region}
	if k.NameField == "" {
		metadata["annotations"] = map[string]any{"crossplane.io/external-name": id}
	} else {
		forProvider[k.NameField] = id
	}
	return map[string]any{
		"apiVersion": k.GroupVersion().String(),
		"kind":       k.Kind,
		"metadata":   metadata,
		"spec": map[string]any{
			"managementPolicies": []any{"Observe"},
			"providerConfigRef":  map[string]any{"kind": o.ProviderConfigKind, "name": o.ProviderConfigName},
			"forProvider":        forProvider,
		},
	}
}

// Render writes manifests as YAML documents, each after a "---" line; it
// refuses two objects of one kind and name, which would be one object.
func Render(manifests []map[string]any) ([]byte, error) {
	var b bytes.Buffer
	seen := map[string]bool{}
	for _, m := range manifests {
		md, _ := m["metadata"].(map[string]any)
		key := fmt.Sprintf("%v %v/%v", m["kind"], md["namespace"], md["name"])
		if seen[key] {
			return nil, fmt.Errorf("two resources would be imported as %s", key)
		}
		seen[key] = true
		y, err := yaml.Marshal(m)
		if err != nil {
			return nil, err
		}
		b.WriteString("---\n")
		b.Write(y)
	}
	return b.Bytes(), nil
}
