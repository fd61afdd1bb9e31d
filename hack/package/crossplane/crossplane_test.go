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
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// root is the repository root.
var root = func() string { r, _ := filepath.Abs("../../.."); return r }()

func tools(t *testing.T) Tools {
	t.Helper()
	dir := os.Getenv("PACKAGE_TOOLS")
	if dir == "" {
		dir = filepath.Join(root, ".cache", "package-tools")
	}
	matches, _ := filepath.Glob(filepath.Join(dir, "crossplane-v*"))
	if len(matches) == 0 {
		t.Fatalf("no Crossplane core in %s: run make package-tools", dir)
	}
	return Tools{Crossplane: matches[0], Crank: filepath.Join(dir, "crank"), Kubectl: filepath.Join(controlPlaneDir(), "kubectl")}
}

func controlPlaneDir() string {
	if d := os.Getenv("KUBEBUILDER_ASSETS"); d != "" {
		return d
	}
	return filepath.Join(root, ".cache", "controlplane")
}

// eventually retries check until it succeeds or timeout passes.
func eventually(t *testing.T, timeout time.Duration, what string, check func() error) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		err := check()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v: %v", what, timeout, err)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// What a user would accept: a composite Ready this long after kubectl apply,
// a change of a composite on AWS this long after kubectl patch.
const (
	readyWithin  = 30 * time.Second
	changeWithin = 30 * time.Second
)

// changeAfterReady is how long after seeing a composite Ready its user
// changes it. Crossplane's circuit breaker gives a composite 100 tokens and
// one more a second, and a creation spends nearly all of them: measured from
// the API server's audit log for EventDelivery (six composed resources),
// 99–105 tokens in 4–7 s, of which the provider's writes are 30 (4–5 per
// composed resource) and Crossplane's own writes of the composite 51–59. A
// change in the same second as Ready would open the breaker on Crossplane's
// writes alone; a user's change comes later, and the breaker has refilled
// this much by then.
const changeAfterReady = 20 * time.Second

// within waits, from since, until check succeeds, fails the test if that
// took longer than limit, and returns how long it took, which it logs. It
// waits up to patience, so that a slow run is measured, not only failed;
// past patience it stops the test.
func within(t *testing.T, since time.Time, limit, patience time.Duration, what string, check func() error) time.Duration {
	t.Helper()
	for {
		err := check()
		took := time.Since(since)
		if err == nil {
			t.Logf("%s after %v (limit %v)", what, took.Round(100*time.Millisecond), limit)
			if took > limit {
				t.Errorf("%s took %v, more than %v", what, took.Round(100*time.Millisecond), limit)
			}
			return took
		}
		if took > patience {
			t.Fatalf("%s: not within %v: %v", what, patience, err)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// A reporter logs the errors of work done in the background (the
// stand-ins) at once, with kubectl's output: the first error of each kind of
// work, every change of error, and recovery, not the same error every second.
type reporter struct {
	t    *testing.T
	mu   sync.Mutex
	last map[string]string
}

func (r *reporter) report(what string, err error) {
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.last == nil {
		r.last = map[string]string{}
	}
	if msg == r.last[what] {
		return
	}
	r.last[what] = msg
	if err != nil {
		r.t.Logf("%s failed: %v", what, err)
	} else {
		r.t.Logf("%s works again", what)
	}
}

// TestInstalledAndComposedByCrossplane installs the provider's package and
// function-patch-and-transform through Crossplane's package manager from a
// TLS registry, runs the provider as the ServiceAccount Crossplane's RBAC
// manager grants a provider revision its permissions, with nothing more than
// the README's ClusterRoles, with Crossplane's activation policy activating
// two kinds (the provider ready with them), then a third (Ready without a
// restart of the provider, which stays ready), then the others; brings every
// kind and each example composite to Ready, changes and deletes them, checking AWS (the emulator) at each step.
// A composite must be Ready within 30 s of kubectl apply and its change on
// AWS within 30 s of kubectl patch; Crossplane's XR circuit breaker runs at
// its defaults and must never open; no request of the provider may be
// forbidden.
func TestInstalledAndComposedByCrossplane(t *testing.T) {
	xpkg := filepath.Join(root, "_output", "xpkg", "provider-aws-services.xpkg")
	providerBin := filepath.Join(root, "_output", "bin", "linux_"+runtime.GOARCH, "provider")
	for _, f := range []string{xpkg, providerBin} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("%s: run make xpkg first", f)
		}
	}
	tl := tools(t)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	// Cancelled after startCrossplane's cleanups, which stop what it started.
	t.Cleanup(cancel)

	kubeconfig, xp, started := startCrossplane(ctx, t, tl, dir, xpkg)
	auditLog := filepath.Join(dir, auditFile)
	k := func(stdin string, args ...string) string {
		t.Helper()
		out, err := Kubectl(tl.Kubectl, kubeconfig, stdin, args...)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}

	fnRef := xp.FunctionRef

	// What the Deployment runtime would write and make, the harness writes
	// and makes; its errors are in the test's output at once.
	rep := &reporter{t: t}
	stop, stopped := make(chan struct{}), make(chan struct{})
	defer func() { close(stop); <-stopped }()
	go func() {
		defer close(stopped)
		for {
			_, err := xp.StandIn()
			rep.report("stand-in for the Deployment runtime", err)
			select {
			case <-stop:
				return
			case <-time.After(time.Second):
			}
		}
	}()
	for _, pkg := range []string{"providers.pkg.crossplane.io/provider-aws-services", "functions.pkg.crossplane.io/function-patch-and-transform"} {
		eventually(t, 3*time.Minute, pkg+" Installed and Healthy", func() error {
			if err := xp.Exited(); err != nil {
				t.Fatal(err)
			}
			return packageHealthy(tl, kubeconfig, pkg)
		})
	}
	t.Logf("packages installed and healthy %v after core init", time.Since(started).Round(time.Second))
	for _, crd := range append([]string{"clusterproviderconfigs.aws.services.k8s.aws"}, firstActivated...) {
		eventually(t, time.Minute, crd+" installed from the package", func() error {
			_, err := Kubectl(tl.Kubectl, kubeconfig, "", "get", "crd", crd)
			return err
		})
	}
	// A kind the policy does not activate has its ManagedResourceDefinition,
	// inactive, and no CRD.
	if state := k("", "get", "managedresourcedefinitions.apiextensions.crossplane.io", activatedLater, "-o", "jsonpath={.spec.state}"); state != "Inactive" {
		t.Errorf("the ManagedResourceDefinition %s is %q, want Inactive", activatedLater, state)
	}
	if out, err := Kubectl(tl.Kubectl, kubeconfig, "", "get", "crd", activatedLater, "--ignore-not-found", "-o", "name"); err != nil || out != "" {
		t.Errorf("the CRD of a kind not activated: %q, %v; want none", out, err)
	}

	// The provider's identity, as the RBAC manager binds it and the README
	// binds more.
	sa, saKubeconfig := providerIdentity(t, xp, tl, kubeconfig, dir, k)

	// The AWS emulator and the provider, as the package's Deployment would
	// run it: as the ServiceAccount.
	emPort, err := FreePort()
	if err != nil {
		t.Fatal(err)
	}
	emulatorBin := filepath.Join(dir, "aws-emulator")
	if out, err := exec.Command("go", "build", "-C", root, "-o", emulatorBin, "./test/emulator/cmd/aws-emulator").CombinedOutput(); err != nil { //nolint:gosec // builds the project's emulator
		t.Fatalf("building the emulator: %v\n%s", err, out)
	}
	em, err := StartProcess(dir, "emulator", nil, emulatorBin, fmt.Sprintf("--address=127.0.0.1:%d", emPort), "--topic=orders", "--model=churn-model")
	if err != nil {
		t.Fatal(err)
	}
	defer em.Stop()
	emulator := fmt.Sprintf("http://127.0.0.1:%d", emPort)
	healthPort, err := FreePort()
	if err != nil {
		t.Fatal(err)
	}
	health := fmt.Sprintf("http://127.0.0.1:%d", healthPort)
	providerStarted := time.Now()
	prov, err := StartProcess(dir, "provider", []string{"KUBECONFIG=" + saKubeconfig}, providerBin,
		"--debug", "--namespace="+Namespace, "--metrics-bind-address=127.0.0.1:0", fmt.Sprintf("--health-probe-bind-address=127.0.0.1:%d", healthPort))
	if err != nil {
		t.Fatal(err)
	}
	defer prov.Stop()
	// Ready with the two kinds active, as the kubelet would see it: the
	// Deployment, and so the Provider, can become available.
	eventually(t, time.Minute, "the provider's /readyz with two kinds active", func() error {
		if ended, err := prov.Exited(); ended {
			t.Fatalf("the provider ended: %v", err)
		}
		return probe(health + "/readyz/controllers")
	})
	t.Logf("the provider is ready %v after its start, with two kinds active", time.Since(providerStarted).Round(100*time.Millisecond))
	pc, err := os.ReadFile(filepath.Join(root, "examples", "providerconfig", "clusterproviderconfig.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	k(strings.ReplaceAll(string(pc), "http://127.0.0.1:4566", emulator), "apply", "-f", "-")

	// Crossplane's XR circuit breaker never opens: its metric, and its log
	// line (the composite's Responsive condition is checked where a
	// composite is read).
	br := &breaker{xp: xp}
	breakerClosed := br.closed
	env2 := &composed{tl: tl, kubeconfig: kubeconfig, emulator: emulator, rep: rep, beforeDelete: func(t *testing.T) { breakerClosed(t, true, true) }, running: func() error {
		if ended, err := prov.Exited(); ended {
			return err
		}
		if ended, err := em.Exited(); ended {
			return err
		}
		return xp.Exited()
	}}

	t.Run("ActivatedLater", func(t *testing.T) {
		// The examples of the two kinds active become Ready; then the
		// policy activates a third kind, whose example becomes Ready, and
		// the provider stays ready throughout; then every kind, for the
		// subtests after this one. The examples stay: EveryKind applies
		// them again, and deletes them.
		c := env2.with(t)
		applied := time.Now()
		for _, ex := range []string{"streaming/deliverystream.yaml", "notification/subscription.yaml"} {
			c.k("", "apply", "-f", filepath.Join(root, "examples", ex))
		}
		for _, obj := range []string{"deliverystreams.streaming.services.k8s.aws/clickstream", "subscriptions.notification.services.k8s.aws/orders-to-queue"} {
			c.within(applied, readyWithin, time.Minute, obj+": kubectl apply to Ready", func() error { return c.ready("default", obj) })
		}
		stop := watchReady(health + "/readyz")
		activated := time.Now()
		activate(c, append(firstActivated, activatedLater)...)
		c.within(activated, 10*time.Second, time.Minute, activatedLater+" made by Crossplane", func() error {
			if _, err := Kubectl(tl.Kubectl, kubeconfig, "", "get", "crd", activatedLater); err != nil {
				mrd, _ := Kubectl(tl.Kubectl, kubeconfig, "", "get", "managedresourcedefinitions.apiextensions.crossplane.io", activatedLater,
					"-o", "jsonpath={.spec.state} {.status.conditions}")
				mrap, _ := Kubectl(tl.Kubectl, kubeconfig, "", "get", "managedresourceactivationpolicies.apiextensions.crossplane.io", "-o", "jsonpath={.items}")
				return fmt.Errorf("%w; its ManagedResourceDefinition: %s; the policies: %s", err, mrd, mrap)
			}
			return nil
		})
		c.k("", "apply", "-f", filepath.Join(root, "examples", "eventbus", "endpoint.yaml"))
		// The kind's controller starts at safe start's next look at its
		// CRD, at most 10 s later.
		c.within(activated, readyWithin, time.Minute, "endpoints.eventbus.services.k8s.aws/orders-global: activated to Ready", func() error {
			return c.ready("default", "endpoints.eventbus.services.k8s.aws/orders-global")
		})
		probes, failed := stop()
		if len(failed) > 0 {
			t.Errorf("the provider's /readyz failed %d of %d times while a kind was activated, first: %s", len(failed), probes, failed[0])
		}
		if probes < 10 {
			t.Errorf("/readyz was probed only %d times", probes)
		}
		if err := probe(health + "/healthz"); err != nil {
			t.Error(err)
		}
		activate(c, "*")
		c.within(time.Now(), 10*time.Second, time.Minute, "every kind's CRD made by Crossplane", func() error {
			for _, crd := range []string{"apikeycredentialproviders.agentcorecontrol.services.k8s.aws", "endpointconfigs.mlplatform.services.k8s.aws"} {
				if _, err := Kubectl(tl.Kubectl, kubeconfig, "", "get", "crd", crd); err != nil {
					return err
				}
			}
			return nil
		})
	})
	t.Run("RuntimeConfigExample", func(t *testing.T) {
		// Every runtime config example (the tuned one, the one with change
		// logs), validated by the API server with Crossplane's CRDs, as
		// kubectl apply would be.
		if _, err := Kubectl(tl.Kubectl, kubeconfig, "", "apply", "--dry-run=server", "-f", filepath.Join(root, "examples", "runtime")); err != nil {
			t.Error(err)
		}
	})
	t.Run("RefusedPackage", func(t *testing.T) {
		// A function's package installed as a Provider: Crossplane refuses it,
		// and the harness reports Crossplane's own words.
		k(fmt.Sprintf("apiVersion: pkg.crossplane.io/v1\nkind: Provider\nmetadata:\n  name: not-a-provider\nspec:\n  package: %s\n", fnRef), "apply", "-f", "-")
		eventually(t, 2*time.Minute, "refusal reported", func() error {
			err := packageHealthy(tl, kubeconfig, "providers.pkg.crossplane.io/not-a-provider")
			if err == nil || !strings.Contains(err.Error(), "package meta type is not Provider") {
				return fmt.Errorf("no refusal yet: %v", err)
			}
			t.Logf("Crossplane refuses the package: %v", err)
			return nil
		})
		k("", "delete", "providers.pkg.crossplane.io/not-a-provider")
	})
	t.Run("EveryKind", func(t *testing.T) { env2.with(t).everyKind() })
	t.Run("AgentCredential", func(t *testing.T) {
		env2.with(t).agentCredential()
		breakerClosed(t, true, false)
	})
	t.Run("EventDelivery", func(t *testing.T) {
		env2.with(t).eventDelivery()
		breakerClosed(t, true, false)
	})
	t.Run("StaleUsage", func(t *testing.T) {
		// A ProviderConfigUsage that lost its controller reference, as a
		// restore from a backup leaves it: crossplane-runtime's
		// ProviderConfig reconciler deletes it, with the verb the RBAC
		// manager does not grant (cluster/rbac/provider-config-usages.yaml).
		k(`apiVersion: aws.services.k8s.aws/v1alpha1
kind: ProviderConfigUsage
metadata:
  name: restored-without-owner
  namespace: default
  labels:
    crossplane.io/provider-config: default
    crossplane.io/provider-config-kind: ClusterProviderConfig
providerConfigRef:
  kind: ClusterProviderConfig
  name: default
resourceRef:
  apiVersion: notification.services.k8s.aws/v1alpha1
  kind: Subscription
  name: restored
`, "apply", "-f", "-")
		env2.with(t).within(time.Now(), 30*time.Second, time.Minute, "the stale ProviderConfigUsage deleted", func() error {
			out, err := Kubectl(tl.Kubectl, kubeconfig, "", "-n", "default", "get", "providerconfigusages.aws.services.k8s.aws", "restored-without-owner", "--ignore-not-found", "-o", "name")
			if err != nil {
				return err
			}
			if out != "" {
				return fmt.Errorf("%s is still there", strings.TrimSpace(out))
			}
			return nil
		})
	})
	t.Run("Permissions", func(t *testing.T) {
		// The provider ran as its ServiceAccount throughout, and the API
		// server refused it nothing: every request it made, from the API
		// server's audit log.
		if ended, err := prov.Exited(); ended {
			t.Errorf("the provider is no longer running: %v", err)
		}
		user := "system:serviceaccount:" + Namespace + ":" + sa
		reqs, err := Audited(auditLog, user, "kubectl")
		if err != nil {
			t.Fatal(err)
		}
		if len(reqs) == 0 {
			t.Fatalf("no request of %s in the audit log %s", user, auditLog)
		}
		t.Logf("the provider's %d requests, by the permission each needs:\n%s", len(reqs), strings.Join(Permissions(reqs), "\n"))
		var refused []string
		for _, r := range reqs {
			if r.ResponseStatus.Code == http.StatusForbidden || r.ResponseStatus.Code == http.StatusUnauthorized {
				refused = append(refused, r.String())
			}
		}
		if len(refused) > 0 {
			t.Errorf("the API server refused %d requests of the provider, first:\n%s", len(refused), strings.Join(refused[:min(len(refused), 20)], "\n"))
		}
		// And the provider's own log agrees.
		b, err := os.ReadFile(prov.Log)
		if err != nil {
			t.Fatal(err)
		}
		var forbidden []string
		for _, l := range strings.Split(string(b), "\n") {
			if strings.Contains(strings.ToLower(l), "forbidden") {
				forbidden = append(forbidden, l)
			}
		}
		if len(forbidden) > 0 {
			t.Errorf("the provider logged %d refusals, first:\n%s", len(forbidden), strings.Join(forbidden[:min(len(forbidden), 10)], "\n"))
		}
	})
	breakerClosed(t, true, false)
}

// firstActivated are the kinds the default ManagedResourceActivationPolicy
// activates at first, as the README's example policy names them;
// activatedLater is a kind it activates later.
var (
	firstActivated = []string{"deliverystreams.streaming.services.k8s.aws", "subscriptions.notification.services.k8s.aws"}
	activatedLater = "endpoints.eventbus.services.k8s.aws"
)
