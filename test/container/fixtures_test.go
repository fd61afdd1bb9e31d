//go:build e2e

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

package container

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"io"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	"github.com/cloudkinds/provider-aws-services/test/controlplane"
)

// imageTarball is IMAGE_TARBALL, else the amd64 image `make image` writes.
func imageTarball() string {
	if f := os.Getenv("IMAGE_TARBALL"); f != "" {
		return f
	}
	return filepath.Join(controlplane.RepoRoot(), "_output", "image", "provider-amd64.tar")
}

// runcBinary is RUNC, else runc on the PATH (hack/container/runc.sh
// installs it).
func runcBinary(t *testing.T) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Fatal("runc runs the container as root: run this test as root")
	}
	if r := os.Getenv("RUNC"); r != "" {
		return r
	}
	r, err := exec.LookPath("runc")
	if err != nil {
		t.Fatal("no runc: hack/container/runc.sh installs it (make test.container runs it)")
	}
	return r
}

// shippedAmazonRoots reads the CA bundle at file in the image, checks that
// every certificate in it parses and that it holds Amazon Root CA 1 to 4,
// and returns those four as PEM, by name.
func shippedAmazonRoots(t *testing.T, img *Image, file string) map[string][]byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(img.Rootfs, file))
	if err != nil {
		t.Fatalf("the CA bundle SSL_CERT_FILE names: %v", err)
	}
	byFingerprint := map[string][]byte{}
	for rest := b; ; {
		var block *pem.Block
		if block, rest = pem.Decode(rest); block == nil {
			break
		}
		if _, err := x509.ParseCertificate(block.Bytes); err != nil {
			t.Errorf("a certificate of %s does not parse: %v", file, err)
		}
		sum := sha256.Sum256(block.Bytes)
		byFingerprint[hex.EncodeToString(sum[:])] = pem.EncodeToMemory(block)
	}
	out := map[string][]byte{}
	for name, fp := range amazonRoots {
		if p, ok := byFingerprint[fp]; ok {
			out[name] = p
		} else {
			t.Errorf("the CA bundle %s lacks %s (SHA-256 %s)", file, name, fp)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	t.Logf("CA bundle %s: %d certificates, %s, Amazon Root CA 1 to 4 among them", file, len(byFingerprint), mib(int64(len(b))))
	return out
}

// pemFile names the file of a CA's PEM: amazon-root-ca-1.pem.
func pemFile(name string) string {
	return strings.ToLower(strings.ReplaceAll(name, " ", "-")) + ".pem"
}

// inClusterConfig returns the files a kubelet mounts at serviceAccountDir
// for a pod of the ServiceAccount provider-aws-services in namespace, bound
// to cluster-admin: a token the API server issued through the TokenRequest
// API, the cluster's CA and the namespace.
func inClusterConfig(ctx context.Context, t *testing.T, cp *controlplane.ControlPlane) map[string][]byte {
	t.Helper()
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "provider-aws-services", Namespace: namespace}}
	for _, o := range []client.Object{
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace}},
		sa,
		&rbacv1.ClusterRoleBinding{
			ObjectMeta: metav1.ObjectMeta{Name: "provider-aws-services"},
			RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "cluster-admin"},
			Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: sa.Name, Namespace: namespace}},
		},
	} {
		if err := cp.Client.Create(ctx, o); err != nil {
			t.Fatal(err)
		}
	}
	tr := &authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: ptr.To[int64](3600)}}
	if err := cp.Client.SubResource("token").Create(ctx, sa, tr); err != nil {
		t.Fatalf("cannot request a token of %s: %v", sa.Name, err)
	}
	if len(cp.Config.CAData) == 0 {
		t.Fatal("the control plane's configuration has no CA")
	}
	return map[string][]byte{"token": []byte(tr.Status.Token), "ca.crt": cp.Config.CAData, "namespace": []byte(namespace)}
}

// writeFolder writes files into dir, readable by the container's user as a
// kubelet's volumes are (0755, 0644).
func writeFolder(t *testing.T, dir string, files map[string][]byte) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// buildCertcheck builds ./certcheck, static, to out.
func buildCertcheck(t *testing.T, out string) {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), "go", "build", "-trimpath", "-o", out, "./certcheck")
	cmd.Dir = filepath.Join(controlplane.RepoRoot(), "test", "container")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("cannot build certcheck: %v\n%s", err, b)
	}
}

// newCA returns the PEM of a new self-signed CA named cn and a serving
// certificate it signed for 127.0.0.1.
func newCA(t *testing.T, cn string) ([]byte, tls.Certificate) {
	t.Helper()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	ca := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: cn},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	leaf := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "emulator"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, DNSNames: []string{"localhost"},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	leafDER, err := x509.CreateCertificate(rand.Reader, leaf, ca, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}),
		tls.Certificate{Certificate: [][]byte{leafDER}, PrivateKey: key}
}

// example returns the objects of the example file under examples/.
func example(t *testing.T, file string) []*unstructured.Unstructured {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(controlplane.RepoRoot(), "examples", file))
	if err != nil {
		t.Fatal(err)
	}
	var out []*unstructured.Unstructured
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(b)))
	for {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		u := &unstructured.Unstructured{}
		if err := yaml.Unmarshal(doc, &u.Object); err != nil {
			t.Fatal(err)
		}
		if len(u.Object) > 0 {
			out = append(out, u)
		}
	}
}
