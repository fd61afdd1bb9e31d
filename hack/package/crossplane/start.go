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

package crossplane

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// Options say what Start runs and installs.
type Options struct {
	Tools      Tools
	Kubeconfig string
	// Dir receives certificates, packages, the package cache and the logs
	// (crossplane-core.log, function.log).
	Dir string
	// CRDs are Crossplane's own (cluster/crds of its module).
	CRDs string
	// ProviderPackage is the provider's .xpkg.
	ProviderPackage string
	// FunctionPackageRoot is function-patch-and-transform's package folder,
	// built here with crank; FunctionBinary serves it.
	FunctionPackageRoot, FunctionBinary string
	// CoreArgs are further flags of `crossplane core start`.
	CoreArgs []string
}

// A Crossplane is Crossplane core and function-patch-and-transform running,
// with the provider's and the function's packages applied from the registry.
type Crossplane struct {
	ProviderRef, FunctionRef string
	// CoreLog is the log of `crossplane core start`.
	CoreLog string

	o                Options
	functionEndpoint string
	registry         *Registry
	core, function   *Process
}

// Start initializes Crossplane, pushes both packages to a registry of its
// own, starts the function and Crossplane core, and applies the Provider and
// Function. Call StandIn until the packages are Healthy, and Stop at the end.
func Start(ctx context.Context, o Options) (_ *Crossplane, err error) {
	c := &Crossplane{o: o}
	defer func() {
		if err != nil {
			c.Stop()
		}
	}()
	ca, err := InitCrossplane(ctx, o.Tools, o.Kubeconfig, o.CRDs, filepath.Join(o.Dir, "client-certs"))
	if err != nil {
		return nil, err
	}
	if c.registry, err = StartRegistry(o.Dir); err != nil {
		return nil, err
	}
	if c.ProviderRef, err = c.registry.Push(o.ProviderPackage, "provider-aws-services", "v0.0.1-test"); err != nil {
		return nil, err
	}
	fnPkg := filepath.Join(o.Dir, "function-patch-and-transform.xpkg")
	if err := BuildPackage(o.Tools.Crank, o.FunctionPackageRoot, fnPkg); err != nil {
		return nil, err
	}
	if c.FunctionRef, err = c.registry.Push(fnPkg, "function-patch-and-transform", "v0.5.0"); err != nil {
		return nil, err
	}

	// The function, as a local process serving Crossplane's mutual TLS.
	port, err := FreePort()
	if err != nil {
		return nil, err
	}
	if err := FunctionCerts(ca, filepath.Join(o.Dir, "function-certs")); err != nil {
		return nil, err
	}
	c.functionEndpoint = fmt.Sprintf("dns:///127.0.0.1:%d", port)
	if c.function, err = StartProcess(o.Dir, "function", nil, o.FunctionBinary,
		fmt.Sprintf("--address=127.0.0.1:%d", port), "--tls-certs-dir="+filepath.Join(o.Dir, "function-certs")); err != nil {
		return nil, err
	}

	// Crossplane core: the package manager and the composition engine.
	cache := filepath.Join(o.Dir, "xpkg-cache")
	if err := os.MkdirAll(cache, 0o700); err != nil {
		return nil, err
	}
	args := append([]string{"core", "start", "--package-runtime=External", "--enable-webhooks=false",
		"--tls-client-certs-dir=" + filepath.Join(o.Dir, "client-certs"), "--xpkg-cache-dir=" + cache, "--ca-bundle-path=" + c.registry.CAFile,
		"--metrics-port=0", "--health-probe-port=0", "--poll-interval=15s"}, o.CoreArgs...)
	if c.core, err = StartProcess(o.Dir, "crossplane-core", []string{"KUBECONFIG=" + o.Kubeconfig}, o.Tools.Crossplane, args...); err != nil {
		return nil, err
	}
	c.CoreLog = c.core.Log

	manifest := fmt.Sprintf("apiVersion: pkg.crossplane.io/v1\nkind: Provider\nmetadata:\n  name: provider-aws-services\nspec:\n  package: %s\n---\n"+
		"apiVersion: pkg.crossplane.io/v1\nkind: Function\nmetadata:\n  name: function-patch-and-transform\nspec:\n  package: %s\n", c.ProviderRef, c.FunctionRef)
	if _, err := Kubectl(o.Tools.Kubectl, o.Kubeconfig, manifest, "apply", "-f", "-"); err != nil {
		return nil, err
	}
	return c, nil
}

// StandIn writes to every package revision what the Deployment runtime
// would, once; it reports whether every revision had it already.
func (c *Crossplane) StandIn() bool {
	providers, _ := StandInForRuntime(c.o.Tools.Kubectl, c.o.Kubeconfig, "providerrevisions", "")
	functions, _ := StandInForRuntime(c.o.Tools.Kubectl, c.o.Kubeconfig, "functionrevisions", c.functionEndpoint)
	return providers && functions
}

// Stop stops Crossplane core, the function and the registry.
func (c *Crossplane) Stop() {
	c.core.Stop()
	c.function.Stop()
	if c.registry != nil {
		c.registry.Stop()
	}
}

// BuildPackage builds a package folder into file with crank, without a
// runtime image (the External runtime runs none).
func BuildPackage(crank, root, file string) error {
	if out, err := exec.Command(crank, "xpkg", "build", "--package-root", root, "--package-file", file).CombinedOutput(); err != nil { //nolint:gosec // the harness's crank
		return fmt.Errorf("crank xpkg build %s: %w: %s", root, err, out)
	}
	return nil
}
