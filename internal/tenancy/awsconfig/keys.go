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

package awsconfig

import (
	"fmt"
)

// sessionKey identifies everything a session depends on.
type sessionKey struct {
	kind, namespace, name string
	generation            int64
	secretVersion         string
	region                string
	// tenant is the namespace of the managed resources the session serves,
	// with namespace sessions; "" without, where one session serves all.
	tenant string
}

// supersedes says whether the session of k replaces the one of old: a new
// version of a config (or of its secret) replaces the sessions of every
// namespace in every region, a session of the same version only its own.
func (k sessionKey) supersedes(old sessionKey) bool {
	if old.config() != k.config() {
		return false
	}
	if old.generation != k.generation || old.secretVersion != k.secretVersion {
		// Its config or Secrets changed: no reconcile asks for the
		// old version again, in any region.
		return true
	}
	return old.region == k.region && old.tenant == k.tenant
}

// A configKey names a config.
type configKey struct{ kind, namespace, name string }

// An accountKey is a config in a region.
type accountKey struct {
	config configKey
	region string
}

func (k sessionKey) config() configKey {
	return configKey{kind: k.kind, namespace: k.namespace, name: k.name}
}

// String is the key's name for singleflight.
func (k sessionKey) String() string {
	return fmt.Sprintf("%s/%s/%s/%d/%s/%s/%s", k.kind, k.namespace, k.name, k.generation, k.secretVersion, k.region, k.tenant)
}
