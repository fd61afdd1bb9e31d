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
	"net/http/httptest"
	"net/netip"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/crossplane/crossplane-runtime/v2/pkg/controller"
	"github.com/crossplane/crossplane-runtime/v2/pkg/feature"
	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/kube/kubeclient"
	"github.com/cloudkinds/provider-aws-services/internal/kube/secretkey"
	awscontroller "github.com/cloudkinds/provider-aws-services/internal/provider"
	"github.com/cloudkinds/provider-aws-services/internal/provider/changelogs"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/managedoptions"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/awsconfig"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/budget"
	"github.com/cloudkinds/provider-aws-services/test/emulator"
)

// A stack is the provider's controllers running against the control plane
// and an emulated AWS, with a ClusterProviderConfig named "emulator" that
// reaches it without credentials.
type stack struct {
	aws      *emulator.Server
	url      string
	kube     client.Client
	sessions *awsconfig.Cache
	budgets  *budget.Budgets
	// changeLogs is the stand-in sidecar the provider's change logs go to.
	changeLogs *changeLogSidecar
}

// testPoll is the poll interval of the provider under test.
const testPoll = time.Second

// testPolling is the provider's polling under test: a resource may ask for
// no less than 2 s, and polls are not jittered, so that polls can be counted.
var testPolling = managedoptions.Polling{MinInterval: 2 * time.Second, BackoffLimit: 30 * time.Second}

// testSweep is how often the claims and usages whose owner went without
// releasing them are swept.
const testSweep = 2 * time.Second

// loopback is where the emulator listens.
var loopback = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}

// testQuotas are the AWS quotas of the provider under test: its budgets and
// their gate run on every call, but at a rate the tests, which poll every
// second, never spend unless they mean to.
var testQuotas = budget.Quotas{Share: 1, Of: map[string]float64{
	"Firehose:*": 200, "EventBridge:*": 200, "SNS:*": 200, "SageMaker:*": 200, "Bedrock AgentCore Control:*": 200,
}}

var (
	// providerLog is the file the provider under test logs to, at debug
	// level.
	providerLog string
	// stopStack stops the provider and the emulator, if they started.
	stopStack = func() {}
	stackOnce sync.Once
	theStack  *stack
	stackErr  error
)

// provider returns the running stack, starting it on first use.
func provider(t *testing.T) *stack {
	t.Helper()
	stackOnce.Do(func() { theStack, stackErr = startStack() })
	if stackErr != nil {
		t.Fatalf("cannot start the provider: %v", stackErr)
	}
	return theStack
}

func startStack() (*stack, error) {
	e := emulator.New(emulator.Options{})
	srv := httptest.NewServer(e)
	mgr, err := ctrl.NewManager(cp.Config, ctrl.Options{
		Scheme:                 cp.Scheme,
		Cache:                  awscontroller.CacheOptions(time.Hour, "default"),
		Client:                 awscontroller.ClientOptions(),
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
	})
	if err != nil {
		return nil, err
	}
	logFile, err := os.CreateTemp("", "provider-*.log")
	if err != nil {
		return nil, err
	}
	providerLog = logFile.Name()
	fmt.Fprintln(os.Stderr, "provider log:", providerLog)
	zl := zap.New(zap.UseDevMode(true), zap.WriteTo(logFile))
	ctrl.SetLogger(zl)
	o := controller.Options{
		Logger:                  logging.NewLogrLogger(zl),
		PollInterval:            testPoll,
		MaxConcurrentReconciles: 5,
		Features:                &feature.Flags{},
	}
	o.Features.Enable(feature.EnableBetaManagementPolicies)
	// Change logs on, as --enable-changelogs sets them, to a stand-in
	// sidecar (changelogs_test.go).
	sidecar, err := startChangeLogSidecar()
	if err != nil {
		return nil, err
	}
	o.Features.Enable(feature.EnableAlphaChangeLogs)
	if o.ChangeLogOptions, err = changelogs.Options(sidecar.socket, "test"); err != nil {
		return nil, err
	}
	budgets := budget.New(testQuotas)
	// The teams' namespaced configs reach the emulator on loopback, as an
	// admin allows with --tenant-endpoint-network.
	sessions := awsconfig.NewCache(kubeclient.New(mgr), awsconfig.WithBudgets(budgets), awsconfig.WithTenantEndpointNetworks(loopback))
	key, err := secretkey.LoadKey(context.Background(), cp.Client, "default")
	if err != nil {
		return nil, err
	}
	if err := awscontroller.Setup(mgr, o, reconciler.Shared{Sessions: sessions, Fingerprints: key, Polling: &testPolling, Budgets: budgets, Namespace: "default", Sweeps: reconciler.NewSweeps(mgr, o.Logger, "default", testSweep)}); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	stopStack = func() {
		cancel()
		srv.Close()
		sidecar.stop()
	}
	go func() { _ = mgr.Start(ctx) }()

	pc := &v1alpha1.ClusterProviderConfig{
		ObjectMeta: metav1.ObjectMeta{Name: "emulator"},
		Spec: v1alpha1.ClusterProviderConfigSpec{ProviderConfigSpec: v1alpha1.ProviderConfigSpec{
			Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceNone},
			Region:      aws.String("us-east-1"),
			Endpoint:    &v1alpha1.EndpointOverride{URL: srv.URL},
		}},
	}
	if err := cp.Client.Create(context.Background(), pc); err != nil {
		return nil, err
	}
	return &stack{aws: e, url: srv.URL, kube: cp.Client, sessions: sessions, budgets: budgets, changeLogs: sidecar}, nil
}

// emulatorConfig is the reference to the stack's ClusterProviderConfig.
func emulatorConfig() *xpv2.ProviderConfigReference {
	return &xpv2.ProviderConfigReference{Kind: v1alpha1.ClusterProviderConfigKind, Name: "emulator"}
}

// namespace creates a namespace of its own for a test.
func namespace(t *testing.T) string {
	t.Helper()
	name := strings.ToLower(strings.NewReplacer("/", "-", "_", "-").Replace(t.Name()))
	if len(name) > 50 {
		name = name[:50]
	}
	name = strings.TrimRight(name, "-") + fmt.Sprintf("-%d", time.Now().UnixNano()%100000)
	ensureNamespace(t, name)
	return name
}

// eventually retries check until it returns nil, or fails the test after
// the timeout with the last error.
func eventually(t *testing.T, timeout time.Duration, what string, check func() error) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	var err error
	for time.Now().Before(deadline) {
		if err = check(); err == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%s: %v", what, err)
}

// conditionOf reads an object and returns its condition of type ct.
func conditionOf(t *testing.T, mg resource.Managed, ct xpv2.ConditionType) (xpv2.Condition, error) {
	t.Helper()
	if err := cp.Client.Get(context.Background(), client.ObjectKeyFromObject(mg), mg); err != nil {
		return xpv2.Condition{}, err
	}
	return mg.GetCondition(ct), nil
}

// isReady reads mg and says why it is not Ready and Synced yet.
func isReady(t *testing.T, mg resource.Managed) error {
	t.Helper()
	ready, err := conditionOf(t, mg, xpv2.TypeReady)
	if err != nil {
		return err
	}
	synced := mg.GetCondition(xpv2.TypeSynced)
	if ready.Status != corev1.ConditionTrue || synced.Status != corev1.ConditionTrue {
		return fmt.Errorf("Ready=%s (%s: %s), Synced=%s (%s: %s)", ready.Status, ready.Reason, ready.Message, synced.Status, synced.Reason, synced.Message)
	}
	return nil
}

// isGone says whether mg no longer exists.
func isGone(mg client.Object) error {
	err := cp.Client.Get(context.Background(), client.ObjectKeyFromObject(mg), mg)
	if kerrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	return fmt.Errorf("%s still exists", mg.GetName())
}

// writes counts the calls of an operation set that change AWS.
func writes(calls map[string]int, service string) map[string]int {
	out := map[string]int{}
	for op, n := range calls {
		name := strings.TrimPrefix(op, service+":")
		if name == op {
			continue
		}
		for _, read := range []string{"Describe", "Get", "List"} {
			if strings.HasPrefix(name, read) {
				name = ""
			}
		}
		if name != "" {
			out[op] = n
		}
	}
	return out
}

func secretWith(namespace, name, key, value string) *corev1.Secret {
	return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name}, StringData: map[string]string{key: value}}
}

// namespacedConfig is a ProviderConfig of namespace, named name, that signs
// with the key "credentials" of its Secret "aws" and calls url in us-east-1.
func namespacedConfig(namespace, name, url string) *v1alpha1.ProviderConfig {
	return &v1alpha1.ProviderConfig{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name}, Spec: v1alpha1.ProviderConfigSpec{
		Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceSecret,
			SecretRef: &xpv2.SecretKeySelector{SecretReference: xpv2.SecretReference{Name: "aws", Namespace: namespace}, Key: "credentials"}},
		Region:   aws.String("us-east-1"),
		Endpoint: &v1alpha1.EndpointOverride{URL: url},
	}}
}
