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
	"cmp"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
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
	"github.com/cloudkinds/provider-aws-services/test/emulator"
)

const (
	// wantUID is the image's non-root user (hack/package/image).
	wantUID = 65532
	// namespace is the provider's, as Crossplane installs it.
	namespace = "crossplane-system"
	// serviceAccountDir is where a kubelet mounts a pod's in-cluster
	// configuration.
	serviceAccountDir = "/var/run/secrets/kubernetes.io/serviceaccount"
	// testCADir is the folder SSL_CERT_DIR names in the container: the
	// emulator's CA alone, as a user mounts a private CA from a ConfigMap.
	testCADir = "/etc/ssl/test-ca"
	// toolsDir holds the test's certcheck and the certificates it checks.
	toolsDir = "/test-tools"
	timeout  = 2 * time.Minute
	// memoryLimit is the example DeploymentRuntimeConfig's.
	memoryLimit = 256 << 20
)

// amazonRoots are the SHA-256 fingerprints of Amazon Root CA 1 to 4, which
// every AWS endpoint's certificate chains to
// (https://www.amazontrust.com/repository/).
var amazonRoots = map[string]string{
	"Amazon Root CA 1": "8ecde6884f3d87b1125ba31ac3fcb13d7016de7f57cc904fe1cb97c6ae98196e",
	"Amazon Root CA 2": "1ba5b2aa8c65401a82960118f80bec4f62304d83cec4713a19c39c011ea46db4",
	"Amazon Root CA 3": "18ce6cfe7bf14e60b2e347b8dfe868cb31d02ebb3ada271569f50343b46db3a4",
	"Amazon Root CA 4": "e35d28419ed02025cfa69038cd623962458da5c695fbdea3c22b0bfb25897092",
}

// TestImageRunsAsItShips runs the packaged amd64 image as a cluster runs
// it: unpacked into an OCI bundle, run by runc as the image's user on a
// read-only root filesystem with no capabilities, with a ServiceAccount's
// token, the cluster's CA and namespace mounted where a kubelet mounts
// them. The provider becomes ready, serves its metrics, and makes an
// example Ready against the AWS emulator over TLS, trusting a CA mounted
// through SSL_CERT_DIR beside the CA bundle it ships with.
func TestImageRunsAsItShips(t *testing.T) {
	ctx := t.Context()
	runc := runcBinary(t)
	dir := t.TempDir()
	bundle := filepath.Join(dir, "bundle")

	img, err := Unpack(imageTarball(), bundle)
	if err != nil {
		t.Fatalf("cannot unpack the image (run make image): %v", err)
	}
	t.Logf("image %s: %s tarball (%s of compressed layers), %s unpacked in %d files",
		filepath.Base(imageTarball()), mib(img.TarballBytes), mib(img.LayerBytes), mib(img.RootfsBytes), img.Files)

	uid, gid, err := img.User()
	if err != nil {
		t.Fatal(err)
	}
	if uid != wantUID || gid != wantUID || img.Config.OS != "linux" || img.Config.Architecture != "amd64" {
		t.Fatalf("image: user %q (uid %d gid %d) %s/%s; want uid and gid %d, linux/amd64", img.Config.Config.User, uid, gid,
			img.Config.OS, img.Config.Architecture, wantUID)
	}
	caBundle, ok := img.Config.Env("SSL_CERT_FILE")
	if !ok {
		t.Fatal("the image's environment names no CA bundle (SSL_CERT_FILE)")
	}
	amazon := shippedAmazonRoots(t, img, caBundle)

	cp, err := controlplane.Start()
	if err != nil {
		t.Fatalf("cannot start the control plane (run make controlplane): %v", err)
	}
	t.Cleanup(func() { _ = cp.Stop() })

	// The emulator behind TLS, with a certificate of a CA of the test's own
	// that only SSL_CERT_DIR makes the provider trust.
	testCA, serving := newCA(t, "provider-aws-services test CA")
	aws := emulator.New(emulator.Options{})
	srv := httptest.NewUnstartedServer(aws)
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{serving}, MinVersion: tls.VersionTLS12}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	stranger, _ := newCA(t, "a CA nobody trusts")

	// What the kubelet and the user mount, and the test's tools.
	mounts := map[string]map[string][]byte{
		"serviceaccount": inClusterConfig(ctx, t, cp),
		"test-ca":        {"emulator-ca.pem": testCA},
		"tools":          {"stranger-ca.pem": stranger},
	}
	for name, pemBytes := range amazon {
		mounts["tools"][pemFile(name)] = pemBytes
	}
	for folder, files := range mounts {
		writeFolder(t, filepath.Join(dir, folder), files)
	}
	buildCertcheck(t, filepath.Join(dir, "tools", "certcheck"))

	apiServer, err := url.Parse(cp.Config.Host)
	if err != nil {
		t.Fatal(err)
	}
	metricsAddr, healthAddr := freeAddress(t), freeAddress(t)
	p := Process{
		Args: append(slices.Concat(img.Config.Config.Entrypoint, img.Config.Config.Cmd),
			"--metrics-bind-address="+metricsAddr, "--health-probe-bind-address="+healthAddr, "--namespace="+namespace),
		Env: append(slices.Clone(img.Config.Config.Env),
			"KUBERNETES_SERVICE_HOST="+apiServer.Hostname(), "KUBERNETES_SERVICE_PORT="+apiServer.Port(), "SSL_CERT_DIR="+testCADir),
		Cwd: cmp.Or(img.Config.Config.WorkingDir, "/"),
		UID: uid, GID: gid,
		Binds: []Bind{
			{Source: filepath.Join(dir, "serviceaccount"), Destination: serviceAccountDir},
			{Source: filepath.Join(dir, "test-ca"), Destination: testCADir},
			{Source: filepath.Join(dir, "tools"), Destination: toolsDir},
		},
		// No writable folder, not even a tmpfs /tmp: the provider needs
		// none.
		MemoryLimit: memoryLimit,
	}
	if err := WriteSpec(bundle, p); err != nil {
		t.Fatal(err)
	}

	r := &Runc{Binary: runc, Root: filepath.Join(dir, "runc")}
	log := filepath.Join(dir, "provider.log")
	c, err := r.Run(fmt.Sprintf("provider-aws-services-test-%d", os.Getpid()), bundle, log)
	if err != nil {
		t.Fatal(err)
	}
	stopped := false
	t.Cleanup(func() {
		if !stopped {
			_ = c.Stop(10 * time.Second)
		}
		if t.Failed() {
			b, _ := os.ReadFile(log)
			t.Logf("the container's output:\n%s", b)
		}
	})

	t.Run("the provider starts and is ready", func(t *testing.T) {
		started := time.Now()
		waitFor(t, c, "/readyz to answer 200", func() (bool, string) {
			code, body := get(ctx, "http://"+healthAddr+"/readyz")
			return code == http.StatusOK, fmt.Sprintf("%d %s", code, body)
		})
		t.Logf("ready %v after runc run", time.Since(started).Round(100*time.Millisecond))
	})
	if t.Failed() {
		t.FailNow()
	}

	t.Run("it runs confined as configured", func(t *testing.T) {
		pid, err := c.Pid(ctx)
		if err != nil {
			t.Fatal(err)
		}
		status := procFields(t, pid, "status")
		for field, want := range map[string]string{
			"Uid": fmt.Sprintf("%d\t%[1]d\t%[1]d\t%[1]d", wantUID), "Gid": fmt.Sprintf("%d\t%[1]d\t%[1]d\t%[1]d", wantUID),
			"NoNewPrivs": "1", "CapEff": "0000000000000000", "CapPrm": "0000000000000000", "CapBnd": "0000000000000000",
		} {
			if status[field] != want {
				t.Errorf("/proc/%d/status %s: %q, want %q", pid, field, status[field], want)
			}
		}
		if opts := rootMountOptions(t, pid); !slices.Contains(opts, "ro") {
			t.Errorf("the root filesystem is mounted %v, not read-only", opts)
		}
	})

	t.Run("it keeps Go's heap under the container's memory limit", func(t *testing.T) {
		b, err := os.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		var said struct {
			Msg            string `json:"msg"`
			ContainerLimit int64  `json:"containerLimitBytes"`
			GoLimit        int64  `json:"goLimitBytes"`
		}
		for line := range strings.Lines(string(b)) {
			if json.Unmarshal([]byte(line), &said) == nil && strings.HasPrefix(said.Msg, "Go's memory limit") {
				break
			}
			said.Msg = ""
		}
		if said.Msg == "" {
			t.Fatal("the provider did not say it set Go's memory limit from the container's")
		}
		if said.ContainerLimit != memoryLimit || said.GoLimit <= 0 || said.GoLimit >= memoryLimit {
			t.Errorf("container limit %d (want %d), Go's limit %d (want above 0 and below it)", said.ContainerLimit, memoryLimit, said.GoLimit)
		}
	})

	t.Run("it trusts the CA bundle it ships and the CA mounted through SSL_CERT_DIR", func(t *testing.T) {
		args := []string{toolsDir + "/certcheck", "untrusted:" + toolsDir + "/stranger-ca.pem"}
		for name := range amazon {
			args = append(args, "trusted:"+toolsDir+"/"+pemFile(name))
		}
		args = append(args, "trusted:"+testCADir+"/emulator-ca.pem")
		out, err := c.Exec(ctx, args...)
		t.Logf("certcheck in the container:\n%s", out)
		if err != nil {
			t.Error(err)
		}
	})

	t.Run("an example becomes Ready against the emulator over TLS", func(t *testing.T) {
		started := time.Now()
		cpc := example(t, "providerconfig/clusterproviderconfig.yaml")[0]
		if err := unstructured.SetNestedField(cpc.Object, srv.URL, "spec", "endpoint", "url"); err != nil {
			t.Fatal(err)
		}
		endpoint := example(t, "eventbus/endpoint.yaml")[0]
		for _, o := range []*unstructured.Unstructured{cpc, endpoint} {
			if err := cp.Client.Create(ctx, o); err != nil {
				t.Fatalf("cannot apply %s %s: %v", o.GetKind(), o.GetName(), err)
			}
		}
		waitFor(t, c, "the Endpoint to be Ready", func() (bool, string) {
			got := endpoint.DeepCopy()
			if err := cp.Client.Get(ctx, client.ObjectKeyFromObject(endpoint), got); err != nil {
				return false, err.Error()
			}
			conditions, _, _ := unstructured.NestedSlice(got.Object, "status", "conditions")
			for _, cond := range conditions {
				if m, ok := cond.(map[string]any); ok && m["type"] == string(xpv2.TypeReady) && m["status"] == string(corev1.ConditionTrue) {
					return true, ""
				}
			}
			return false, fmt.Sprint(conditions)
		})
		if inv := aws.Inventory(); !slices.Contains(inv.Endpoints, "orders-global") {
			t.Errorf("the emulator has no endpoint orders-global: %v", inv.Endpoints)
		}
		if n := aws.CallCount("events:CreateEndpoint"); n != 1 {
			t.Errorf("events:CreateEndpoint was called %d times, want 1", n)
		}
		t.Logf("Ready %v after it was applied, after %d AWS calls over TLS", time.Since(started).Round(100*time.Millisecond), total(aws.Calls()))
	})

	t.Run("it serves its metrics", func(t *testing.T) {
		code, body := get(ctx, "http://"+metricsAddr+"/metrics")
		var series []string
		for line := range strings.Lines(body) {
			if strings.HasPrefix(line, "provider_aws_services_") {
				series = append(series, strings.TrimSpace(line))
			}
		}
		if code != http.StatusOK || len(series) == 0 {
			t.Fatalf("/metrics: %d, %d provider_aws_services_ series:\n%.2000s", code, len(series), body)
		}
		if !slices.ContainsFunc(series, func(s string) bool { return strings.Contains(s, `operation="CreateEndpoint"`) }) {
			t.Errorf("no series counts the CreateEndpoint call:\n%s", strings.Join(series, "\n"))
		}
		t.Logf("%d provider_aws_services_ series", len(series))
	})

	t.Run("it stops on SIGTERM", func(t *testing.T) {
		stopped = true
		if err := c.Stop(30 * time.Second); err != nil {
			t.Fatal(err)
		}
		if err := c.Err(); err != nil {
			t.Errorf("the provider did not exit cleanly on SIGTERM: %v", err)
		}
	})
}

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

// waitFor polls done until it is true, for up to timeout, and fails the
// test, saying what done last said, if it never is or if the container
// exits first.
func waitFor(t *testing.T, c *Container, what string, done func() (bool, string)) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	last := ""
	for time.Now().Before(deadline) {
		var ok bool
		if ok, last = done(); ok {
			return
		}
		select {
		case <-c.Exited():
			t.Fatalf("the container exited (%v) while waiting for %s; last: %s", c.Err(), what, last)
		case <-time.After(500 * time.Millisecond):
		}
	}
	t.Fatalf("no %s after %v; last: %s", what, timeout, last)
}

func get(ctx context.Context, u string) (int, string) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, http.NoBody)
	if err != nil {
		return 0, err.Error()
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// procFields reads /proc/PID/FILE's "Name:\tvalue" lines.
func procFields(t *testing.T, pid int, file string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/%s", pid, file))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for line := range strings.Lines(string(b)) {
		if k, v, ok := strings.Cut(line, ":"); ok {
			out[k] = strings.TrimSpace(v)
		}
	}
	return out
}

// rootMountOptions are the options of the process's root mount, as its
// mount namespace sees it.
func rootMountOptions(t *testing.T, pid int) []string {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/mountinfo", pid))
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(b)) {
		// ID PARENT MAJOR:MINOR ROOT MOUNTPOINT OPTIONS ...
		if f := strings.Fields(line); len(f) > 5 && f[4] == "/" {
			return strings.Split(f[5], ",")
		}
	}
	t.Fatalf("no root mount in /proc/%d/mountinfo", pid)
	return nil
}

func freeAddress(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

func total(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}
