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
	"bytes"
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"html"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/registry"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// Namespace is Crossplane's namespace.
const Namespace = "crossplane-system"

// runtimeTLSSecret stands in for the Secret the Deployment runtime makes for
// a package's webhooks.
const runtimeTLSSecret = "external-runtime-tls"

// A CA signs certificates for 127.0.0.1.
type CA struct {
	Cert    *x509.Certificate
	Key     crypto.Signer
	CertPEM []byte
}

// NewCA makes a self-signed CA.
func NewCA(cn string) (*CA, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: cn},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	return &CA{Cert: cert, Key: key, CertPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}, nil
}

// CAFromPEM reads a CA from its certificate and key.
func CAFromPEM(certPEM, keyPEM []byte) (*CA, error) {
	pair, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return nil, err
	}
	cert, err := x509.ParseCertificate(pair.Certificate[0])
	if err != nil {
		return nil, err
	}
	signer, ok := pair.PrivateKey.(crypto.Signer)
	if !ok {
		return nil, errors.New("the CA key cannot sign")
	}
	return &CA{Cert: cert, Key: signer, CertPEM: certPEM}, nil
}

// Serving issues a server certificate for 127.0.0.1 and localhost, as PEM.
func (ca *CA) Serving() (certPEM, keyPEM []byte, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, DNSNames: []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.Cert, &key.PublicKey, ca.Key)
	if err != nil {
		return nil, nil, err
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), nil
}

// A Registry is an OCI registry on 127.0.0.1 that serves TLS with a
// certificate of its own CA.
type Registry struct {
	Host   string // 127.0.0.1:port
	CAFile string // the CA bundle Crossplane is given
	server *httptest.Server
	pool   *x509.CertPool
}

// StartRegistry starts an in-memory registry; dir receives the CA bundle.
func StartRegistry(dir string) (*Registry, error) {
	ca, err := NewCA("registry CA")
	if err != nil {
		return nil, err
	}
	certPEM, keyPEM, err := ca.Serving()
	if err != nil {
		return nil, err
	}
	pair, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return nil, err
	}
	caFile := filepath.Join(dir, "registry-ca.crt")
	if err := os.WriteFile(caFile, ca.CertPEM, 0o600); err != nil {
		return nil, err
	}
	srv := httptest.NewUnstartedServer(registry.New(registry.Logger(log.New(io.Discard, "", 0))))
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12}
	srv.StartTLS()
	pool := x509.NewCertPool()
	pool.AddCert(ca.Cert)
	return &Registry{Host: strings.TrimPrefix(srv.URL, "https://"), CAFile: caFile, server: srv, pool: pool}, nil
}

// Push pushes a package file (an OCI image tarball, as crank writes it) and
// returns its reference.
func (r *Registry) Push(file, repo, tag string) (string, error) {
	img, err := tarball.ImageFromPath(file, nil)
	if err != nil {
		return "", err
	}
	ref, err := name.ParseReference(r.Host + "/" + repo + ":" + tag)
	if err != nil {
		return "", err
	}
	tr := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: r.pool, MinVersion: tls.VersionTLS12}}
	if err := remote.Write(ref, img, remote.WithTransport(tr)); err != nil {
		return "", err
	}
	return ref.String(), nil
}

// Stop stops the registry.
func (r *Registry) Stop() { r.server.Close() }

// Tools are the binaries the harness runs.
type Tools struct {
	Crossplane, Crank, Kubectl string
}

// A Process is a local process the harness started, logging to a file.
type Process struct {
	cmd  *exec.Cmd
	Log  string
	done chan struct{}
	err  error
}

// StartProcess starts a binary with args and extra environment, logging to
// dir/name.log.
func StartProcess(dir, name string, env []string, bin string, args ...string) (*Process, error) {
	logFile := filepath.Join(dir, name+".log")
	f, err := os.Create(logFile) //nolint:gosec // the harness's own log file
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, args...) //nolint:gosec // the harness runs the binaries it built
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		_ = f.Close()
		return nil, err
	}
	p := &Process{cmd: cmd, Log: logFile, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		_ = f.Close()
		close(p.done)
	}()
	return p, nil
}

// Exited reports whether the process has ended, and with which error: a
// process the harness needs running that ended is a failure to report with
// its log, not a timeout to wait out.
func (p *Process) Exited() (bool, error) {
	select {
	case <-p.done:
		if p.err == nil {
			return true, fmt.Errorf("%s exited (log: %s)", filepath.Base(p.cmd.Path), p.Log)
		}
		return true, fmt.Errorf("%s exited: %w (log: %s)", filepath.Base(p.cmd.Path), p.err, p.Log)
	default:
		return false, nil
	}
}

// Stop stops the process.
func (p *Process) Stop() {
	if p == nil || p.cmd.Process == nil {
		return
	}
	_ = p.cmd.Process.Signal(os.Interrupt)
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
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

// A revision is the part of a package revision the harness reads.
type revision struct {
	Metadata struct {
		Name   string            `json:"name"`
		UID    string            `json:"uid"`
		Labels map[string]string `json:"labels"`
	} `json:"metadata"`
	Spec struct {
		DesiredState string `json:"desiredState"`
		Image        string `json:"image"`
	} `json:"spec"`
	Status struct {
		Endpoint            string           `json:"endpoint"`
		TLSServerSecretName string           `json:"tlsServerSecretName"`
		Conditions          []map[string]any `json:"conditions"`
	} `json:"status"`
}

// StandInForRuntime writes to every revision of kind (providerrevisions,
// functionrevisions) what the Deployment runtime would: the TLS Secret name,
// the function's endpoint (if any) and RuntimeHealthy. For an active provider
// revision it first makes the ServiceAccount and the Deployment the
// Deployment runtime makes (standInForDeployment): the RBAC manager binds
// the provider's roles to the ServiceAccount the Deployment names. It
// reports whether every revision had it all already; every error carries
// kubectl's output.
func StandInForRuntime(kubectl, kubeconfig, kind, endpoint string) (bool, error) {
	out, err := Kubectl(kubectl, kubeconfig, "", "get", kind+".pkg.crossplane.io", "-o", "json")
	if err != nil {
		return false, err
	}
	var list struct {
		Items []revision `json:"items"`
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		return false, fmt.Errorf("%s: %w: %s", kind, err, out)
	}
	done := true
	var errs []error
	for _, r := range list.Items {
		status := map[string]any{}
		if r.Status.TLSServerSecretName == "" {
			status["tlsServerSecretName"] = runtimeTLSSecret
		}
		if endpoint != "" && r.Status.Endpoint != endpoint {
			status["endpoint"] = endpoint
		}
		healthy := false
		for _, c := range r.Status.Conditions {
			if c["type"] == "RuntimeHealthy" && c["status"] == "True" {
				healthy = true
			}
		}
		if !healthy {
			if kind == "providerrevisions" && r.Spec.DesiredState == "Active" {
				if err := standInForDeployment(kubectl, kubeconfig, r); err != nil {
					errs = append(errs, err)
					done = false
					continue
				}
			}
			conditions := append([]map[string]any{}, r.Status.Conditions...)
			conditions = append(conditions, map[string]any{
				"type": "RuntimeHealthy", "status": "True", "reason": "HealthyPackageRevision",
				"lastTransitionTime": time.Now().UTC().Format(time.RFC3339),
				"message":            "the harness runs the package as a local process",
			})
			status["conditions"] = conditions
		}
		if len(status) == 0 {
			continue
		}
		done = false
		patch, err := json.Marshal(map[string]any{"status": status})
		if err != nil {
			return false, err
		}
		if _, err := Kubectl(kubectl, kubeconfig, "", "patch", kind+".pkg.crossplane.io", r.Metadata.Name,
			"--subresource=status", "--type=merge", "-p", string(patch)); err != nil {
			errs = append(errs, err)
		}
	}
	return done && len(list.Items) > 0 && len(errs) == 0, errors.Join(errs...)
}

// standInForDeployment makes, for a provider revision, the two objects of
// the Deployment runtime (crossplane internal/controller/pkg/runtime,
// runtime.go and runtime_provider.go) that other controllers read: the
// ServiceAccount, named as the serviceAccountTemplate of the Provider's
// DeploymentRuntimeConfig says or else after the revision, and the
// Deployment, named after the revision, that runs as that ServiceAccount,
// both controlled by the revision. The RBAC manager binds the revision's
// system ClusterRole to the ServiceAccounts of the Deployments the revision
// controls (internal/controller/rbac/provider/binding). A bare API server
// runs no Deployment: the harness runs the provider itself, with a token of
// this ServiceAccount (ServiceAccountKubeconfig). Of the runtime config only
// the ServiceAccount's name is honoured.
func standInForDeployment(kubectl, kubeconfig string, r revision) error {
	if r.Spec.Image == "" {
		return fmt.Errorf("provider revision %s names no image yet", r.Metadata.Name)
	}
	// The runtime config is the Provider's: Crossplane copies it to the
	// revision for its Deployment runtime only, not for the External one.
	parent := r.Metadata.Labels["pkg.crossplane.io/package"]
	out, err := Kubectl(kubectl, kubeconfig, "", "get", "providers.pkg.crossplane.io", parent, "--ignore-not-found",
		"-o", "jsonpath={.metadata.name} {.spec.runtimeConfigRef.name}")
	if err != nil {
		return fmt.Errorf("the runtime config of %s: %w", r.Metadata.Name, err)
	}
	if strings.TrimSpace(out) == "" {
		// The Provider is gone: the revision awaits the garbage
		// collector, and no runtime runs it.
		return nil
	}
	_, config, _ := strings.Cut(out, " ")
	name := r.Metadata.Name
	if config != "" {
		out, err := Kubectl(kubectl, kubeconfig, "", "get", "deploymentruntimeconfigs.pkg.crossplane.io", config,
			"-o", "jsonpath={.spec.serviceAccountTemplate.metadata.name}")
		if err != nil {
			return fmt.Errorf("the runtime config of %s: %w", r.Metadata.Name, err)
		}
		if out != "" {
			name = out
		}
	}
	owner := []map[string]any{{
		"apiVersion": "pkg.crossplane.io/v1", "kind": "ProviderRevision", "name": r.Metadata.Name, "uid": r.Metadata.UID,
		"controller": true, "blockOwnerDeletion": true,
	}}
	labels := map[string]string{
		"pkg.crossplane.io/revision": r.Metadata.Name,
		"pkg.crossplane.io/provider": parent,
	}
	sa := map[string]any{
		"apiVersion": "v1", "kind": "ServiceAccount",
		"metadata": map[string]any{"name": name, "namespace": Namespace, "ownerReferences": owner},
	}
	deployment := map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": r.Metadata.Name, "namespace": Namespace, "ownerReferences": owner},
		"spec": map[string]any{
			"replicas": 1,
			"selector": map[string]any{"matchLabels": labels},
			"template": map[string]any{
				"metadata": map[string]any{"labels": labels},
				"spec": map[string]any{
					"serviceAccountName": name,
					"containers":         []map[string]any{{"name": "package-runtime", "image": r.Spec.Image}},
				},
			},
		},
	}
	for _, obj := range []map[string]any{sa, deployment} {
		b, err := json.Marshal(obj)
		if err != nil {
			return err
		}
		if _, err := Kubectl(kubectl, kubeconfig, string(b), "apply", "-f", "-"); err != nil {
			return fmt.Errorf("standing in for the Deployment runtime of %s: %w", r.Metadata.Name, err)
		}
	}
	return nil
}

// ServiceAccountKubeconfig writes to file a kubeconfig of the API server that
// kubeconfig names, whose identity is the ServiceAccount namespace/name: a
// token the API server issues through the TokenRequest API (envtest's API
// server signs service account tokens), as the kubelet mounts one in a pod.
// Its requests are authorized as that ServiceAccount's, by RBAC alone.
func ServiceAccountKubeconfig(kubectl, kubeconfig, namespace, name, file string) error {
	token, err := Kubectl(kubectl, kubeconfig, "", "-n", namespace, "create", "token", name, "--duration=2h")
	if err != nil {
		return err
	}
	raw, err := Kubectl(kubectl, kubeconfig, "", "config", "view", "--raw", "--minify", "-o", "json")
	if err != nil {
		return err
	}
	var cfg struct {
		Clusters []struct {
			Cluster map[string]any `json:"cluster"`
		} `json:"clusters"`
	}
	if err := json.Unmarshal([]byte(raw), &cfg); err != nil || len(cfg.Clusters) != 1 {
		return fmt.Errorf("the cluster of %s: %v: %s", kubeconfig, err, raw)
	}
	user := "system:serviceaccount:" + namespace + ":" + name
	b, err := json.Marshal(map[string]any{
		"apiVersion": "v1", "kind": "Config", "current-context": "provider",
		"clusters": []map[string]any{{"name": "envtest", "cluster": cfg.Clusters[0].Cluster}},
		"users":    []map[string]any{{"name": user, "user": map[string]any{"token": strings.TrimSpace(token)}}},
		"contexts": []map[string]any{{"name": "provider", "context": map[string]any{"cluster": "envtest", "user": user, "namespace": namespace}}},
	})
	if err != nil {
		return err
	}
	return os.WriteFile(file, b, 0o600)
}

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

// CollectGarbage stands in for kube-controller-manager's garbage collector,
// which a bare API server lacks: it deletes the objects of kinds whose
// controlling owner no longer exists. Crossplane deletes a composite's
// resources through that collector (the composite owns them).
func CollectGarbage(kubectl, kubeconfig string, kinds ...string) error {
	for _, kind := range kinds {
		out, err := Kubectl(kubectl, kubeconfig, "", "get", kind, "-A", "-o", "json")
		if err != nil {
			return err
		}
		var list struct {
			Items []struct {
				Metadata struct {
					Name            string `json:"name"`
					Namespace       string `json:"namespace"`
					OwnerReferences []struct {
						APIVersion string `json:"apiVersion"`
						Kind       string `json:"kind"`
						Name       string `json:"name"`
						UID        string `json:"uid"`
						Controller bool   `json:"controller"`
					} `json:"ownerReferences"`
				} `json:"metadata"`
			} `json:"items"`
		}
		if err := json.Unmarshal([]byte(out), &list); err != nil {
			return fmt.Errorf("%s: %w: %s", kind, err, out)
		}
		for _, it := range list.Items {
			for _, o := range it.Metadata.OwnerReferences {
				if !o.Controller {
					continue
				}
				group := ""
				if g, _, ok := strings.Cut(o.APIVersion, "/"); ok {
					group = "." + g
				}
				uid, err := Kubectl(kubectl, kubeconfig, "", "-n", it.Metadata.Namespace, "get", strings.ToLower(o.Kind)+group, o.Name,
					"-o", "jsonpath={.metadata.uid}", "--ignore-not-found")
				if err != nil {
					return err
				}
				if uid == o.UID {
					continue
				}
				if _, err := Kubectl(kubectl, kubeconfig, "", "-n", it.Metadata.Namespace, "delete", kind, it.Metadata.Name, "--wait=false", "--ignore-not-found"); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// StandInForUpjet plays provider-upjet-aws for the kinds the example
// Compositions compose besides this provider's (SNS Topic, IAM Role): a
// Topic is created in the emulator, a Role is given its ARN, and both are
// reported Ready, as that provider would once AWS had them. A cluster runs
// that provider; this harness has no need of it beyond those two facts.
func StandInForUpjet(kubectl, kubeconfig, emulator string) error {
	for _, kind := range []string{"topics.sns.aws.m.upbound.io", "roles.iam.aws.m.upbound.io"} {
		out, err := Kubectl(kubectl, kubeconfig, "", "get", kind, "-A", "-o", "json")
		if err != nil {
			return err
		}
		var list struct {
			Items []struct {
				Metadata struct{ Name, Namespace string } `json:"metadata"`
				Status   struct {
					AtProvider struct {
						ARN string `json:"arn"`
					} `json:"atProvider"`
				} `json:"status"`
			} `json:"items"`
		}
		if err := json.Unmarshal([]byte(out), &list); err != nil {
			return fmt.Errorf("%s: %w: %s", kind, err, out)
		}
		for _, it := range list.Items {
			if it.Status.AtProvider.ARN != "" {
				continue
			}
			arn := "arn:aws:iam::000000000000:role/" + it.Metadata.Name
			if strings.HasPrefix(kind, "topics.") {
				if arn, err = createTopic(emulator, it.Metadata.Name); err != nil {
					return err
				}
			}
			now := time.Now().UTC().Format(time.RFC3339)
			patch, err := json.Marshal(map[string]any{"status": map[string]any{
				"atProvider": map[string]any{"arn": arn},
				"conditions": []map[string]any{
					{"type": "Ready", "status": "True", "reason": "Available", "lastTransitionTime": now},
					{"type": "Synced", "status": "True", "reason": "ReconcileSuccess", "lastTransitionTime": now},
				},
			}})
			if err != nil {
				return err
			}
			if _, err := Kubectl(kubectl, kubeconfig, "", "-n", it.Metadata.Namespace, "patch", kind, it.Metadata.Name,
				"--subresource=status", "--type=merge", "-p", string(patch)); err != nil {
				return err
			}
		}
	}
	return nil
}

// SNS calls the emulator with SNS's query protocol; the emulator takes the
// region from the credential scope and does not check the signature.
func SNS(emulator string, form url.Values) (string, error) {
	form.Set("Version", "2010-03-31")
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, emulator+"/", strings.NewReader(form.Encode()))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=AKIDHARNESS/20260101/us-east-1/sns/aws4_request, SignedHeaders=host, Signature=0")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close() //nolint:errcheck // read only
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", err
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("%s: %s", form.Get("Action"), b)
	}
	return html.UnescapeString(string(b)), nil
}

func createTopic(emulator, name string) (string, error) {
	out, err := SNS(emulator, url.Values{"Action": {"CreateTopic"}, "Name": {name}})
	if err != nil {
		return "", err
	}
	_, rest, ok := strings.Cut(out, "<TopicArn>")
	arn, _, ok2 := strings.Cut(rest, "</TopicArn>")
	if !ok || !ok2 {
		return "", fmt.Errorf("no TopicArn in %s", out)
	}
	return arn, nil
}
