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

// Package importer finds the AWS resources of an account and region that no
// object of the cluster manages, and writes observe-only manifests that
// bring them under Crossplane: the provider's import command.
//
// Each kind is one row of Kinds, read from the kind's own value
// (reconciler.Kind.Import): how AWS lists its resources and how its objects
// name them; how its manifests name and identify them is manifest.go. What the cluster holds (objects and the provider's
// ownership claims) is read once (cluster.go); Decide says, for each
// resource, whether it is free to import, and if not, why.
package importer

import (
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/cloudkinds/provider-aws-services/internal/provider"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler"
)

// A Kind is one of the provider's kinds, as the import sees it.
type Kind struct {
	schema.GroupVersionKind
	// NameField is the spec.forProvider field that names a resource; ""
	// for a kind whose resources are named by the ARN AWS gives them, in
	// the external-name annotation (Subscription).
	NameField string
	// Tagged is true for the kinds AWS can tag: their owner tags are read.
	Tagged bool
	// How AWS lists the kind's resources, and which an object names.
	reconciler.Import
}

// Kinds are the provider's kinds, in the order the import lists them.
var Kinds = kindsOf(provider.Kinds())

func kindsOf(ks []reconciler.Kind) []Kind {
	out := make([]Kind, 0, len(ks))
	for _, k := range ks {
		out = append(out, Kind{GroupVersionKind: k.GroupVersionKind, NameField: strings.TrimPrefix(k.NameField, "spec.forProvider."), Tagged: k.Tagged, Import: k.Import})
	}
	return out
}

// names returns the identifiers an object of a name-keyed kind names: its
// name field and its external name.
func (k Kind) names(u *unstructured.Unstructured) []string {
	if k.Named != nil {
		return k.Named(u)
	}
	var out []string
	if v, _, _ := unstructured.NestedString(u.Object, "spec", "forProvider", k.NameField); v != "" {
		out = append(out, v)
	}
	if v := externalName(u); v != "" {
		out = append(out, v)
	}
	return out
}

func externalName(u *unstructured.Unstructured) string {
	return u.GetAnnotations()["crossplane.io/external-name"]
}
