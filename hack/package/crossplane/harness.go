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

// Package crossplane runs Crossplane core as users run it, without a
// container runtime: `crossplane core init` and `crossplane core start`
// against a real API server, with the External package runtime, pulling
// packages from an OCI registry on 127.0.0.1 with TLS. Where a cluster would
// run a package's Deployment, the harness runs the binary as a local process
// and writes to the package revision's status, and makes, what the
// Deployment runtime would have:
//
//   - status.endpoint of a FunctionRevision: the function's local gRPC
//     address (the Deployment runtime writes its Service's address);
//   - status.tlsServerSecretName: a Secret with the CA, which Crossplane
//     requires of every revision before it installs the package's objects
//     (the Deployment runtime makes that Secret for the package's webhooks);
//   - the RuntimeHealthy condition, once the process is started (the
//     Deployment runtime sets it from the Deployment's availability);
//   - for a provider, the ServiceAccount and the Deployment that runs as it
//     (no pod runs: a bare API server has no controllers), so that
//     Crossplane's RBAC manager, if it runs (Options.RBACManager), binds the
//     provider revision's ClusterRole to that ServiceAccount, and the
//     provider can run with that ServiceAccount's token
//     (ServiceAccountKubeconfig), with no more permissions than in a
//     cluster.
//
// The function serves gRPC with a certificate signed by Crossplane's own CA
// (the Secret crossplane-root-ca that `core init` makes), as the Deployment
// runtime's certificates are, so Crossplane's mutual TLS is the real one.
package crossplane

import (
	"fmt"
	"net"
	"os/exec"
	"strings"
)

// Namespace is Crossplane's namespace.
const Namespace = "crossplane-system"

// runtimeTLSSecret stands in for the Secret the Deployment runtime makes for
// a package's webhooks.
const runtimeTLSSecret = "external-runtime-tls"

// Tools are the binaries the harness runs.
type Tools struct {
	Crossplane, Crank, Kubectl string
}

// Kubectl runs kubectl against kubeconfig, with stdin if given.
func Kubectl(kubectl, kubeconfig, stdin string, args ...string) (string, error) {
	cmd := exec.Command(kubectl, append([]string{"--kubeconfig", kubeconfig}, args...)...) //nolint:gosec // the harness's kubectl
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("kubectl %s: %w: %s", strings.Join(args, " "), err, out)
	}
	return string(out), nil
}

// FreePort returns a free port on 127.0.0.1.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close() //nolint:errcheck // a listener only probed for its port
	return l.Addr().(*net.TCPAddr).Port, nil
}
