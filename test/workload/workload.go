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

// Package workload is what the tests that run the provider as a process
// (the crash storm, the scale benchmark) give it to do: objects of every
// kind that the emulator accepts, and the provider's binary itself.
package workload

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/provider"
	"github.com/cloudkinds/provider-aws-services/test/controlplane"
)

// Kinds are the provider's managed resource kinds (provider.Kinds), by
// name; Set.Object makes an object of each.
var Kinds = func() []string {
	var out []string
	for _, k := range provider.Kinds() {
		out = append(out, k.GroupVersionKind.Kind)
	}
	return out
}()

// Account is the emulated account.
const Account = "000000000000"

// The Secrets the objects read, in their namespace, and their keys.
const (
	AccessKeySecret = "endpoint-key"
	AccessKeyKey    = "accessKey"
	APIKeySecret    = "api-key"
	APIKeyKey       = "apiKey"
)

// A Set says what the objects refer to: the SNS topic Subscriptions
// subscribe to and the SageMaker model EndpointConfigs serve, both of which
// must exist in the emulator.
type Set struct {
	TopicARN, Model string
}

// Object returns an object of kind named name in namespace ns (nil for a
// kind it does not know), using the
// ClusterProviderConfig "default". Its updatable field (the tag "version",
// a Subscription's filter policy, an Endpoint's description) holds version.
func (s Set) Object(kind, ns, name, version string) resource.Managed {
	ref := &xpv2.ProviderConfigReference{Kind: v1alpha1.ClusterProviderConfigKind, Name: "default"}
	om := metav1.ObjectMeta{Namespace: ns, Name: name}
	if r, ok := registered[kind]; ok {
		return r.object(s, ref, om, name, version)
	}
	return nil
}

// A registration is a kind's workload from a file of its own, as make kind
// writes one: its object and its empty list.
type registration struct {
	object func(s Set, ref *xpv2.ProviderConfigReference, om metav1.ObjectMeta, name, version string) resource.Managed
	list   func() client.ObjectList
}

var registered = map[string]registration{}

// register adds a kind's workload (from its file's init).
func register(kind string, object func(Set, *xpv2.ProviderConfigReference, metav1.ObjectMeta, string, string) resource.Managed, list func() client.ObjectList) {
	registered[kind] = registration{object: object, list: list}
}

// FilterPolicy is the filter policy of a Subscription at version.
func FilterPolicy(version string) string { return `{"version": ["` + version + `"]}` }

// List returns an empty list of a kind (nil for a kind it does not know).
func List(kind string) client.ObjectList {
	if r, ok := registered[kind]; ok {
		return r.list()
	}
	return nil
}

// BuildProvider builds the provider's binary into dir and returns its path.
func BuildProvider(dir string) (string, error) {
	binary := filepath.Join(dir, "provider")
	build := exec.Command("go", "build", "-o", binary, "./cmd/provider")
	build.Dir = controlplane.RepoRoot()
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("cannot build the provider: %w\n%s", err, out)
	}
	return binary, nil
}

// An Env is what a package that runs the provider as a process shares: the
// control plane and the provider's binary (or why it could not be built).
type Env struct {
	ControlPlane *controlplane.ControlPlane
	Binary       string
	BuildErr     error
}

// Main is the TestMain of such a package: it starts the control plane (with
// the schemes that prepare adds to its client), builds the provider, runs the
// tests and cleans up.
func Main(m *testing.M, env *Env, prepare ...func(*runtime.Scheme) error) {
	cp, err := controlplane.Start()
	if err != nil {
		fmt.Fprintln(os.Stderr, "cannot start the control plane:", err)
		os.Exit(1)
	}
	for _, p := range prepare {
		if err := p(cp.Scheme); err != nil {
			fmt.Fprintln(os.Stderr, "cannot prepare the control plane's client:", err)
			_ = cp.Stop()
			os.Exit(1)
		}
	}
	dir, _ := os.MkdirTemp("", "provider-")
	env.ControlPlane = cp
	env.Binary, env.BuildErr = BuildProvider(dir)
	code := m.Run()
	_ = cp.Stop()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}
