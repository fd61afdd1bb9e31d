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

// Package controlplane starts a real kube-apiserver and etcd for tests and for
// the local stack, with the provider's CRDs installed. The binaries are those
// hack/controlplane/build.sh builds from the Go module proxy.
package controlplane

import (
	"errors"
	"os"
	"path/filepath"
	goruntime "runtime"

	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/cloudkinds/provider-aws-services/apis"
)

// A ControlPlane is a running kube-apiserver and etcd.
type ControlPlane struct {
	env *envtest.Environment

	// Config reaches the API server as an administrator.
	Config *rest.Config
	// Client is a client of Config that knows the provider's types.
	Client client.Client
	// Scheme knows Kubernetes' and the provider's types.
	Scheme *runtime.Scheme
	// KubeConfig is a kubeconfig file's content for Config.
	KubeConfig []byte
}

// RepoRoot is the root of the repository this package was built from.
func RepoRoot() string {
	_, file, _, _ := goruntime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// Start starts a control plane and installs the CRDs of package/crds and of
// extraCRDs (files or folders). The binaries are taken from
// $KUBEBUILDER_ASSETS, else from .cache/controlplane.
func Start(extraCRDs ...string) (*ControlPlane, error) {
	return StartWith(append([]string{filepath.Join(RepoRoot(), "package", "crds")}, extraCRDs...)...)
}

// StartWith starts a control plane with only the CRDs of crds (files or
// folders) installed: a cluster where some of the provider's kinds are not
// active.
func StartWith(crds ...string) (*ControlPlane, error) {
	assets := os.Getenv("KUBEBUILDER_ASSETS")
	if assets == "" {
		assets = filepath.Join(RepoRoot(), ".cache", "controlplane")
	}
	if _, err := os.Stat(filepath.Join(assets, "kube-apiserver")); err != nil {
		return nil, errors.New("no kube-apiserver in " + assets + ": run 'make controlplane'")
	}
	s := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(s); err != nil {
		return nil, err
	}
	if err := apis.AddToScheme(s); err != nil {
		return nil, err
	}
	env := &envtest.Environment{
		BinaryAssetsDirectory: assets,
		CRDDirectoryPaths:     crds,
		ErrorIfCRDPathMissing: true,
		Scheme:                s,
	}
	cfg, err := env.Start()
	if err != nil {
		return nil, err
	}
	c, err := client.New(cfg, client.Options{Scheme: s})
	if err != nil {
		_ = env.Stop()
		return nil, err
	}
	return &ControlPlane{env: env, Config: cfg, Client: c, Scheme: s, KubeConfig: env.KubeConfig}, nil
}

// Stop stops the API server and etcd and removes their data.
func (cp *ControlPlane) Stop() error {
	return cp.env.Stop()
}

// ReferenceTargetCRDs are test stand-ins for the kinds references resolve.
func ReferenceTargetCRDs() string {
	return filepath.Join(RepoRoot(), "test", "testdata", "crds")
}
