//go:build integration

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

package integration

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/crossplane/crossplane-runtime/v2/pkg/controller"
	"github.com/crossplane/crossplane-runtime/v2/pkg/feature"
	"github.com/crossplane/crossplane-runtime/v2/pkg/gate"
	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	corev1 "k8s.io/api/core/v1"
	extv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/kube/kubeclient"
	"github.com/cloudkinds/provider-aws-services/internal/kube/secretkey"
	awscontroller "github.com/cloudkinds/provider-aws-services/internal/provider"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/awsconfig"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/budget"
	"github.com/cloudkinds/provider-aws-services/test/controlplane"
	"github.com/cloudkinds/provider-aws-services/test/emulator"
)

// A cluster where a ManagedResourceActivationPolicy activated two of the
// provider's kinds: the provider, with safe start, is ready with those two;
// a third kind activated later (its CRD created) is set up without a
// restart and its object becomes Ready, and the provider stays ready
// throughout. It runs on a control plane of its own, since the suite's has
// every CRD.
func TestAKindActivatedLaterStartsWithoutARestart(t *testing.T) {
	crds := filepath.Join(controlplane.RepoRoot(), "package", "crds")
	crd := func(name string) string { return filepath.Join(crds, name+".yaml") }
	cp2, err := controlplane.StartWith(
		crd("aws.services.k8s.aws_providerconfigs"), crd("aws.services.k8s.aws_clusterproviderconfigs"), crd("aws.services.k8s.aws_providerconfigusages"),
		crd("streaming.services.k8s.aws_deliverystreams"), crd("notification.services.k8s.aws_subscriptions"))
	if err != nil {
		t.Fatalf("cannot start a control plane: %v", err)
	}
	defer func() { _ = cp2.Stop() }()
	// Safe start reads CRDs, as main's scheme knows them.
	if err := extv1.AddToScheme(cp2.Scheme); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	// The provider as main starts it with safe start on (its default).
	srv := httptest.NewServer(emulator.New(emulator.Options{}))
	defer srv.Close()
	health := freeAddress(t)
	logFile := filepath.Join(t.TempDir(), "provider.log")
	f, err := os.Create(logFile)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if t.Failed() {
			b, _ := os.ReadFile(logFile)
			t.Logf("provider log (last 4 KiB):\n%s", b[max(0, len(b)-4096):])
		}
	}()
	zl := zap.New(zap.UseDevMode(true), zap.WriteTo(f))
	mgr, err := ctrl.NewManager(cp2.Config, ctrl.Options{
		Scheme: cp2.Scheme, Logger: zl,
		Cache:                  awscontroller.CacheOptions(time.Hour, "default"),
		Client:                 awscontroller.ClientOptions(),
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: health,
		// The suite's own provider runs controllers of the same names in
		// this process.
		Controller: config.Controller{SkipNameValidation: ptr.To(true)},
	})
	if err != nil {
		t.Fatal(err)
	}
	o := controller.Options{Logger: logging.NewLogrLogger(zl), PollInterval: testPoll, MaxConcurrentReconciles: 5, Features: &feature.Flags{},
		Gate: new(gate.Gate[schema.GroupVersionKind])}
	budgets := budget.New(testQuotas)
	key, err := secretkey.LoadKey(ctx, cp2.Client, "default")
	if err != nil {
		t.Fatal(err)
	}
	shared := reconciler.Shared{Sessions: awsconfig.NewCache(kubeclient.New(mgr), awsconfig.WithBudgets(budgets)), Fingerprints: key, Polling: &testPolling, Budgets: budgets, Namespace: "default"}
	if err := awscontroller.Setup(mgr, o, shared); err != nil {
		t.Fatal(err)
	}
	started := time.Now()
	go func() { _ = mgr.Start(ctx) }()
	if err := cp2.Client.Create(ctx, &v1alpha1.ClusterProviderConfig{
		ObjectMeta: metav1.ObjectMeta{Name: "emulator"},
		Spec: v1alpha1.ClusterProviderConfigSpec{ProviderConfigSpec: v1alpha1.ProviderConfigSpec{
			Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceNone},
			Region:      aws.String("us-east-1"),
			Endpoint:    &v1alpha1.EndpointOverride{URL: srv.URL},
		}},
	}); err != nil {
		t.Fatal(err)
	}

	probe := func(path string) error {
		resp, err := http.Get("http://" + health + path)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("%s: %d %s", path, resp.StatusCode, strings.TrimSpace(string(b)))
		}
		return nil
	}
	eventually(t, 20*time.Second, "/readyz with two of the five kinds' CRDs", func() error { return probe("/readyz/controllers") })
	t.Logf("ready %v after start, with the CRDs of DeliveryStream and Subscription only", time.Since(started).Round(100*time.Millisecond))

	// From now on, every answer of /readyz is 200, probed as often as a
	// kubelet would at its most eager.
	var mu sync.Mutex
	var drops []string
	probes := 0
	stopProbing := make(chan struct{})
	probing := make(chan struct{})
	go func() {
		defer close(probing)
		for {
			err := probe("/readyz")
			mu.Lock()
			probes++
			if err != nil {
				drops = append(drops, err.Error())
			}
			mu.Unlock()
			select {
			case <-stopProbing:
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	}()

	// The Endpoint kind is activated: its CRD is created and established.
	activated := time.Now()
	if _, err := envtest.InstallCRDs(cp2.Config, envtest.CRDInstallOptions{Paths: []string{crd("eventbus.services.k8s.aws_endpoints")}, ErrorIfPathMissing: true}); err != nil {
		t.Fatal(err)
	}
	ensureNamespaceOn(t, cp2.Client, "team-late")
	mg := newEndpoint("team-late", "orders-late")
	if err := cp2.Client.Create(ctx, mg); err != nil {
		t.Fatal(err)
	}
	eventually(t, 20*time.Second, "an Endpoint Ready after its kind was activated", func() error {
		if err := cp2.Client.Get(ctx, client.ObjectKeyFromObject(mg), mg); err != nil {
			return err
		}
		if c := mg.GetCondition(xpv2.TypeReady); c.Status != corev1.ConditionTrue {
			return fmt.Errorf("Ready=%s %s: %s", c.Status, c.Reason, c.Message)
		}
		return nil
	})
	t.Logf("the Endpoint Ready %v after its CRD was created", time.Since(activated).Round(100*time.Millisecond))
	close(stopProbing)
	<-probing
	mu.Lock()
	defer mu.Unlock()
	if len(drops) > 0 {
		t.Errorf("/readyz failed %d of %d times while a kind was activated, first: %s", len(drops), probes, drops[0])
	}
	if probes < 10 {
		t.Errorf("/readyz was probed only %d times", probes)
	}
	if err := probe("/healthz"); err != nil {
		t.Errorf("healthz: %v", err)
	}
}

// freeAddress returns an address on loopback that no one listens on.
func freeAddress(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// ensureNamespaceOn creates a namespace on kube.
func ensureNamespaceOn(t *testing.T, kube client.Client, name string) {
	t.Helper()
	if err := kube.Create(context.Background(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}); err != nil {
		t.Fatal(err)
	}
}
