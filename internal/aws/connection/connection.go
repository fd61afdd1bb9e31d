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

// Package connection is what a kind publishes in its connection Secret
// (spec.writeConnectionSecretToRef): the keys, each declared once by its
// service's package with what it holds, and the details built from them.
//
// A kind publishes what an application, or another Composition, needs to use
// its resource: names, ARNs, IDs and URLs that AWS answers, read by the
// Observe (or the create) the kind makes anyway. It never publishes a secret
// the user gave it, nor a value the user wrote that could embed one.
//
// Every key is named as the API names the field that holds its value, with
// the resource's noun before a bare arn, name, id or url
// (deliveryStreamARN, not arn): an application that takes several resources'
// Secrets as its environment (envFrom) gets no key twice.
package connection

// A Key is a key of a kind's connection Secret.
type Key struct {
	// Name is the key in the Secret.
	Name string
	// Holds says what its value is, for the API reference (docs/api).
	Holds string
}

// Keys are every key a kind publishes, in the order the API reference
// lists them.
type Keys []Key

// Names are the keys' names.
func (ks Keys) Names() []string {
	out := make([]string, 0, len(ks))
	for _, k := range ks {
		out = append(out, k.Name)
	}
	return out
}

// Details are the connection details of values, by key name; a value AWS
// did not answer (empty) is left out rather than published empty.
func Details(values map[string]string) map[string][]byte {
	out := make(map[string][]byte, len(values))
	for k, v := range values {
		if v != "" {
			out[k] = []byte(v)
		}
	}
	return out
}

// Undeclared are the keys of details that ks does not declare: a service's
// tests call it so that its API reference lists every key it publishes.
func Undeclared(ks Keys, details map[string][]byte) []string {
	declared := map[string]bool{}
	for _, k := range ks {
		declared[k.Name] = true
	}
	var out []string
	for k := range details {
		if !declared[k] {
			out = append(out, k)
		}
	}
	return out
}
