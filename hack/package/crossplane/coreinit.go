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
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// InitCrossplane runs `crossplane core init` until it succeeds (on a fresh
// API server the CRDs it installs take a moment to be served), and writes
// Crossplane's client certificates to clientDir. It returns Crossplane's CA.
// The default ManagedResourceActivationPolicy it makes activates activations,
// or every kind if none.
func InitCrossplane(ctx context.Context, t Tools, kubeconfig, crdsDir, clientDir string, activations ...string) (*CA, error) {
	if len(activations) == 0 {
		activations = []string{"*"}
	}
	args := []string{"core", "init", "--enable-webhooks=false", "--cr-ds-path=" + crdsDir,
		"--tlsca-secret-name=crossplane-root-ca", "--tls-client-secret-name=crossplane-tls-client"}
	for _, a := range activations {
		args = append(args, "--activation="+a)
	}
	if _, err := Kubectl(t.Kubectl, kubeconfig, "", "create", "namespace", Namespace); err != nil && !strings.Contains(err.Error(), "AlreadyExists") {
		return nil, err
	}
	var last []byte
	for {
		cmd := exec.CommandContext(ctx, t.Crossplane, args...) //nolint:gosec // the harness's crossplane
		cmd.Env = append(os.Environ(), "KUBECONFIG="+kubeconfig)
		out, err := cmd.CombinedOutput()
		if err == nil {
			break
		}
		last = out
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("crossplane core init: %w: %s", err, last)
		case <-time.After(500 * time.Millisecond):
		}
	}
	secret := func(name string) (map[string][]byte, error) {
		out, err := Kubectl(t.Kubectl, kubeconfig, "", "-n", Namespace, "get", "secret", name, "-o", "json")
		if err != nil {
			return nil, err
		}
		var s struct {
			Data map[string][]byte `json:"data"`
		}
		return s.Data, json.Unmarshal([]byte(out), &s)
	}
	client, err := secret("crossplane-tls-client")
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(clientDir, 0o700); err != nil {
		return nil, err
	}
	for _, k := range []string{"ca.crt", "tls.crt", "tls.key"} {
		if err := os.WriteFile(filepath.Join(clientDir, k), client[k], 0o600); err != nil {
			return nil, err
		}
	}
	root, err := secret("crossplane-root-ca")
	if err != nil {
		return nil, err
	}
	ca, err := CAFromPEM(root["tls.crt"], root["tls.key"])
	if err != nil {
		return nil, err
	}
	// The Secret every revision must name before its objects are installed;
	// it holds the CA a package's webhooks would be served with.
	_, err = Kubectl(t.Kubectl, kubeconfig, "", "-n", Namespace, "create", "secret", "generic", runtimeTLSSecret,
		"--from-literal=tls.crt="+string(bytes.TrimSpace(ca.CertPEM)))
	if err != nil && !strings.Contains(err.Error(), "AlreadyExists") {
		return nil, err
	}
	return ca, nil
}

// FunctionCerts writes the certificates a function serves gRPC with: a
// server certificate for 127.0.0.1 signed by Crossplane's CA, and that CA,
// which also signed the client certificate Crossplane presents.
func FunctionCerts(ca *CA, dir string) error {
	certPEM, keyPEM, err := ca.Serving()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	for k, v := range map[string][]byte{"tls.crt": certPEM, "tls.key": keyPEM, "ca.crt": ca.CertPEM} {
		if err := os.WriteFile(filepath.Join(dir, k), v, 0o600); err != nil {
			return err
		}
	}
	return nil
}
