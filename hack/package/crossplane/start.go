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
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
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
	// Activations are the default ManagedResourceActivationPolicy's, which
	// `crossplane core init --activation` makes (as the Helm chart's
	// provider.defaultActivations): the managed resource kinds, by CRD name
	// or pattern, whose CRDs Crossplane makes for a safe-start package. None
	// activates every kind ("*").
	Activations []string
	// ProviderPackage is the provider's .xpkg.
	ProviderPackage string
	// FunctionPackageRoot is function-patch-and-transform's package folder,
	// built here with crank; FunctionBinary serves it.
	FunctionPackageRoot, FunctionBinary string
	// CoreArgs are further flags of `crossplane core start`.
	CoreArgs []string
	// RBACManager runs Crossplane's RBAC manager (`crossplane rbac start`,
	// logging to crossplane-rbac.log) beside the core, as Crossplane's Helm
	// chart does: it makes each provider revision's ClusterRoles and binds
	// the system one to the ServiceAccount of the revision's Deployment
	// (which StandIn makes). Its metrics server listens on :8080, which
	// `crossplane rbac start` has no flag to move.
	RBACManager bool
	// ProviderServiceAccount, if set, names the provider's ServiceAccount
	// through a DeploymentRuntimeConfig (serviceAccountTemplate) that the
	// Provider refers to, as the README advises: a name that stays across
	// revisions, for the README's ClusterRoleBindings. Otherwise the
	// ServiceAccount is named after the revision, Crossplane's default.
	ProviderServiceAccount string
}

// A Crossplane is Crossplane core and function-patch-and-transform running,
// with the provider's and the function's packages applied from the registry.
type Crossplane struct {
	ProviderRef, FunctionRef string
	// CoreLog is the log of `crossplane core start`, RBACLog the RBAC
	// manager's (if it runs).
	CoreLog, RBACLog string
	// CoreArgs are the flags `crossplane core start` runs with.
	CoreArgs []string
	// MetricsURL is the core's Prometheus endpoint.
	MetricsURL string

	o                    Options
	functionEndpoint     string
	registry             *Registry
	core, function, rbac *Process
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
	ca, err := InitCrossplane(ctx, o.Tools, o.Kubeconfig, o.CRDs, filepath.Join(o.Dir, "client-certs"), o.Activations...)
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
	// Its metrics (the XR circuit breaker's among them) are served on a
	// port of its own; no circuit breaker flag is given: the breaker runs
	// at Crossplane's defaults.
	metricsPort, err := FreePort()
	if err != nil {
		return nil, err
	}
	c.MetricsURL = fmt.Sprintf("http://127.0.0.1:%d/metrics", metricsPort)
	c.CoreArgs = append([]string{"core", "start", "--package-runtime=External", "--enable-webhooks=false",
		"--tls-client-certs-dir=" + filepath.Join(o.Dir, "client-certs"), "--xpkg-cache-dir=" + cache, "--ca-bundle-path=" + c.registry.CAFile,
		"--metrics-port=" + strconv.Itoa(metricsPort), "--health-probe-port=0"}, o.CoreArgs...)
	if c.core, err = StartProcess(o.Dir, "crossplane-core", []string{"KUBECONFIG=" + o.Kubeconfig}, o.Tools.Crossplane, c.CoreArgs...); err != nil {
		return nil, err
	}
	c.CoreLog = c.core.Log

	if o.RBACManager {
		// controller-runtime's default metrics address, which the RBAC
		// manager keeps: a port in use ends it at once.
		l, err := net.Listen("tcp", ":8080")
		if err != nil {
			return nil, fmt.Errorf("the RBAC manager serves its metrics on :8080 (crossplane rbac start has no flag to move them), which is in use: %w", err)
		}
		_ = l.Close()
		if c.rbac, err = StartProcess(o.Dir, "crossplane-rbac", []string{"KUBECONFIG=" + o.Kubeconfig}, o.Tools.Crossplane, "rbac", "start", "--debug"); err != nil {
			return nil, err
		}
		c.RBACLog = c.rbac.Log
	}

	manifest, runtimeConfig := "", "" // the Provider's default: the DeploymentRuntimeConfig "default", which `crossplane core init` makes
	if o.ProviderServiceAccount != "" {
		manifest = fmt.Sprintf("apiVersion: pkg.crossplane.io/v1beta1\nkind: DeploymentRuntimeConfig\nmetadata:\n  name: provider-aws-services\nspec:\n"+
			"  serviceAccountTemplate:\n    metadata:\n      name: %s\n---\n", o.ProviderServiceAccount)
		runtimeConfig = "  runtimeConfigRef:\n    name: provider-aws-services\n"
	}
	manifest += fmt.Sprintf("apiVersion: pkg.crossplane.io/v1\nkind: Provider\nmetadata:\n  name: provider-aws-services\nspec:\n  package: %s\n%s---\n"+
		"apiVersion: pkg.crossplane.io/v1\nkind: Function\nmetadata:\n  name: function-patch-and-transform\nspec:\n  package: %s\n", c.ProviderRef, runtimeConfig, c.FunctionRef)
	if _, err := Kubectl(o.Tools.Kubectl, o.Kubeconfig, manifest, "apply", "-f", "-"); err != nil {
		return nil, err
	}
	return c, nil
}

// StandIn writes to every package revision what the Deployment runtime
// would, once; it reports whether every revision had it already, and every
// kubectl error, with kubectl's output, at once.
func (c *Crossplane) StandIn() (bool, error) {
	providers, perr := StandInForRuntime(c.o.Tools.Kubectl, c.o.Kubeconfig, "providerrevisions", "")
	functions, ferr := StandInForRuntime(c.o.Tools.Kubectl, c.o.Kubeconfig, "functionrevisions", c.functionEndpoint)
	return providers && functions, errors.Join(perr, ferr)
}

// Exited reports the first of the harness's long-running processes (core,
// RBAC manager, function) that has ended.
func (c *Crossplane) Exited() error {
	for _, p := range []*Process{c.core, c.rbac, c.function} {
		if p == nil {
			continue
		}
		if ended, err := p.Exited(); ended {
			return err
		}
	}
	return nil
}

// ProviderServiceAccount is the ServiceAccount the Deployment of the
// provider's current revision runs as (which StandIn makes as the
// Deployment runtime would), and the name of the revision's system
// ClusterRole and ClusterRoleBinding, which the RBAC manager makes.
func (c *Crossplane) ProviderServiceAccount() (sa, system string, err error) {
	rev, err := Kubectl(c.o.Tools.Kubectl, c.o.Kubeconfig, "", "get", "providers.pkg.crossplane.io/provider-aws-services", "-o", "jsonpath={.status.currentRevision}")
	if err != nil {
		return "", "", err
	}
	if rev == "" {
		return "", "", errors.New("provider-aws-services has no current revision yet")
	}
	sa, err = Kubectl(c.o.Tools.Kubectl, c.o.Kubeconfig, "", "-n", Namespace, "get", "deployment", rev, "-o", "jsonpath={.spec.template.spec.serviceAccountName}")
	if err != nil {
		return "", "", err
	}
	return sa, "crossplane:provider:" + rev + ":system", nil
}

// ProviderBound checks that the RBAC manager bound the provider revision's
// system ClusterRole to its ServiceAccount, and returns that role's rules.
func (c *Crossplane) ProviderBound() (rules string, err error) {
	if err := c.Exited(); err != nil {
		return "", err
	}
	sa, system, err := c.ProviderServiceAccount()
	if err != nil {
		return "", err
	}
	out, err := Kubectl(c.o.Tools.Kubectl, c.o.Kubeconfig, "", "get", "clusterrolebinding", system, "-o", "json")
	if err != nil {
		return "", err
	}
	var b struct {
		RoleRef  struct{ Kind, Name string }              `json:"roleRef"`
		Subjects []struct{ Kind, Name, Namespace string } `json:"subjects"`
	}
	if err := json.Unmarshal([]byte(out), &b); err != nil {
		return "", fmt.Errorf("%w: %s", err, out)
	}
	bound := false
	for _, s := range b.Subjects {
		bound = bound || (s.Kind == "ServiceAccount" && s.Namespace == Namespace && s.Name == sa)
	}
	if b.RoleRef.Kind != "ClusterRole" || b.RoleRef.Name != system || !bound {
		return "", fmt.Errorf("%s does not bind %s to %s/%s: %s", system, system, Namespace, sa, out)
	}
	return Kubectl(c.o.Tools.Kubectl, c.o.Kubeconfig, "", "get", "clusterrole", system, "-o", "jsonpath={range .rules[*]}{.apiGroups} {.resources} {.verbs}{\"\\n\"}{end}")
}

// Breaker reads Crossplane's XR circuit breaker metrics from the core's
// Prometheus endpoint, summed over controllers: how often a breaker opened
// (circuit_breaker_opens_total) and how many watch events the breakers
// handled (circuit_breaker_events_total, which shows they are at work).
func (c *Crossplane) Breaker() (opens, events float64, err error) {
	resp, err := http.Get(c.MetricsURL) //nolint:noctx // a test's short read
	if err != nil {
		return 0, 0, err
	}
	defer resp.Body.Close() //nolint:errcheck // read only
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		return 0, 0, fmt.Errorf("%s: %s: %s", c.MetricsURL, resp.Status, b)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 0, 64*1024), 1024*1024)
	for sc.Scan() {
		line := sc.Text()
		var sum *float64
		switch {
		case strings.HasPrefix(line, "circuit_breaker_opens_total"):
			sum = &opens
		case strings.HasPrefix(line, "circuit_breaker_events_total"):
			sum = &events
		default:
			continue
		}
		f := strings.Fields(line)
		v, err := strconv.ParseFloat(f[len(f)-1], 64)
		if err != nil {
			return 0, 0, fmt.Errorf("%q: %w", line, err)
		}
		*sum += v
	}
	return opens, events, sc.Err()
}

// Stop stops Crossplane core, the RBAC manager, the function and the
// registry.
func (c *Crossplane) Stop() {
	c.core.Stop()
	c.rbac.Stop()
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
