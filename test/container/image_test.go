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
	"cmp"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

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
