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
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/cloudkinds/provider-aws-services/hack/package/compositions"
	pkgkinds "github.com/cloudkinds/provider-aws-services/hack/package/kinds"
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
	defer cancel()

	// A real API server and etcd, with nothing installed. It authorizes by
	// RBAC alone, signs service account tokens, and audits the requests of
	// service accounts.
	auditPolicy, auditLog := filepath.Join(dir, "audit-policy.yaml"), filepath.Join(dir, "audit.log")
	if err := os.WriteFile(auditPolicy, []byte(AuditPolicy), 0o600); err != nil {
		t.Fatal(err)
	}
	env := &envtest.Environment{BinaryAssetsDirectory: controlPlaneDir()}
	env.ControlPlane.GetAPIServer().Configure().Set("audit-policy-file", auditPolicy).Set("audit-log-path", auditLog)
	if _, err := env.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = env.Stop() }()
	kubeconfig := filepath.Join(dir, "kubeconfig")
	if err := os.WriteFile(kubeconfig, env.KubeConfig, 0o600); err != nil {
		t.Fatal(err)
	}
	k := func(stdin string, args ...string) string {
		t.Helper()
		out, err := Kubectl(tl.Kubectl, kubeconfig, stdin, args...)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}

	// Crossplane core and its RBAC manager, with the provider's package,
	// pushed to a registry as a user's CI would push it, and
	// function-patch-and-transform's.
	started := time.Now()
	xp, err := Start(ctx, Options{
		Tools: tl, Kubeconfig: kubeconfig, Dir: dir,
		CRDs: filepath.Join(moduleDir(t, "github.com/crossplane/crossplane/v2"), "cluster", "crds"),
		// A platform team's policy: two kinds active at first
		// (ActivatedLater activates the others).
		Activations:         firstActivated,
		ProviderPackage:     xpkg,
		FunctionPackageRoot: filepath.Join(moduleDir(t, "github.com/crossplane-contrib/function-patch-and-transform"), "package"),
		FunctionBinary:      filepath.Join(filepath.Dir(tl.Crank), "function-patch-and-transform"),
		CoreArgs:            []string{"--debug"},
		RBACManager:         true,
		// A name that stays across revisions, for the README's binding.
		ProviderServiceAccount: "provider-aws-services",
	})
	if err != nil {
		t.Fatal(err)
	}
	defer xp.Stop()
	// The XR circuit breaker at Crossplane's defaults: no flag of it given.
	for _, a := range xp.CoreArgs {
		if strings.HasPrefix(a, "--circuit-breaker") {
			t.Fatalf("Crossplane runs with %s: the breaker must run at its defaults", a)
		}
	}
	defer func() {
		if b, err := os.ReadFile(xp.CoreLog); err == nil {
			if d := os.Getenv("CROSSPLANE_LOG_COPY"); d != "" {
				_ = os.WriteFile(d, b, 0o600)
			}
		}
		if t.Failed() {
			for _, p := range []string{"crossplane-core", "crossplane-rbac", "provider", "function", "emulator"} {
				if b, err := os.ReadFile(filepath.Join(dir, p+".log")); err == nil {
					t.Logf("--- %s log (last 4 KiB) ---\n%s", p, tail(b, 4096))
				}
			}
		}
	}()
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

	// The provider's identity: the ServiceAccount of its revision's
	// Deployment, bound by the RBAC manager to the revision's system
	// ClusterRole, and to nothing else but the README's ClusterRoles.
	var sa, system string
	eventually(t, time.Minute, "the provider's ServiceAccount", func() (err error) {
		sa, system, err = xp.ProviderServiceAccount()
		return err
	})
	if sa != "provider-aws-services" {
		ref, _ := Kubectl(tl.Kubectl, kubeconfig, "", "get", "providerrevisions.pkg.crossplane.io", "-o", "jsonpath={.items[*].spec.runtimeConfigRef}")
		drc, _ := Kubectl(tl.Kubectl, kubeconfig, "", "get", "deploymentruntimeconfigs.pkg.crossplane.io", "-o", "json")
		t.Fatalf("the provider runs as %s/%s, not as its DeploymentRuntimeConfig names it; revisions' runtimeConfigRef: %s; %s", Namespace, sa, ref, drc)
	}
	var rules string
	eventually(t, time.Minute, "the RBAC manager binds "+system+" to "+Namespace+"/"+sa, func() (err error) {
		rules, err = xp.ProviderBound()
		return err
	})
	t.Logf("Crossplane's RBAC manager grants %s/%s (ClusterRole %s), as [groups] [resources] [verbs]:\n%s", Namespace, sa, system, rules)
	saKubeconfig := filepath.Join(dir, "provider-kubeconfig")
	if err := ServiceAccountKubeconfig(tl.Kubectl, kubeconfig, Namespace, sa, saKubeconfig); err != nil {
		t.Fatal(err)
	}
	asProvider := func(args ...string) (string, error) { return Kubectl(tl.Kubectl, saKubeconfig, "", args...) }
	if who, err := asProvider("auth", "whoami", "-o", "jsonpath={.status.userInfo.username}"); err != nil || who != "system:serviceaccount:"+Namespace+":"+sa {
		t.Fatalf("the provider's kubeconfig is %q (%v), not the ServiceAccount %s/%s", who, err, Namespace, sa)
	}
	// Reference targets are what the RBAC manager does not grant.
	// kubectl auth can-i, with the group spelled out (the kind is not
	// served yet): a SelfSubjectAccessReview as the provider.
	mayReadRoles := func() error {
		review := `{"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectAccessReview","spec":{"resourceAttributes":` +
			`{"namespace":"team-a","verb":"get","group":"iam.aws.m.upbound.io","resource":"roles"}}}`
		out, err := Kubectl(tl.Kubectl, saKubeconfig, review, "create", "-f", "-", "-o", "jsonpath={.status.allowed}")
		if err != nil {
			return err
		}
		if out != "true" {
			return fmt.Errorf("get roles.iam.aws.m.upbound.io in team-a: allowed=%q", out)
		}
		return nil
	}
	if err := mayReadRoles(); err == nil {
		t.Fatal("the provider may read reference targets before the README's ClusterRole is bound")
	}
	userRoles, err := filepath.Glob(filepath.Join(root, "cluster", "rbac", "*.yaml"))
	if err != nil || len(userRoles) == 0 {
		t.Fatalf("no ClusterRoles in cluster/rbac: %v", err)
	}
	for _, f := range userRoles {
		// As the README says: kubectl apply, then one ClusterRoleBinding
		// per ClusterRole, named after it, to the provider's ServiceAccount.
		for _, obj := range strings.Fields(k("", "apply", "-f", f, "-o", "name")) {
			role, ok := strings.CutPrefix(obj, "clusterrole.rbac.authorization.k8s.io/")
			if !ok {
				t.Fatalf("%s holds %s: cluster/rbac holds ClusterRoles only", f, obj)
			}
			k("", "create", "clusterrolebinding", strings.ReplaceAll(role, ":", "-"), "--clusterrole="+role, "--serviceaccount="+Namespace+":"+sa)
			t.Logf("applied and bound %s (%s)", role, filepath.Base(f))
		}
	}
	eventually(t, 10*time.Second, "the provider may read reference targets with the README's ClusterRole bound", func() error {
		return mayReadRoles()
	})

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
	// breakerClosed checks Crossplane's XR circuit breakers since its last
	// call. strict fails the test on an opening (while composites are
	// applied, Ready and changed: what a user waits on); otherwise an
	// opening is only reported (while they are deleted, which the harness's
	// stand-in garbage collector drives with its own loop of writes).
	var seenOpens float64
	seenLogged := 0
	breakerClosed := func(t *testing.T, composites, strict bool) {
		t.Helper()
		report := t.Errorf
		if !strict {
			report = t.Logf
		}
		opens, events, err := xp.Breaker()
		if err != nil {
			t.Errorf("reading Crossplane's metrics: %v", err)
			return
		}
		t.Logf("Crossplane's XR circuit breakers: %v watch events handled, %v openings in all", events, opens)
		if opens > seenOpens {
			report("Crossplane's XR circuit breaker opened %v times (circuit_breaker_opens_total)", opens-seenOpens)
		}
		seenOpens = opens
		if composites && events == 0 {
			t.Errorf("circuit_breaker_events_total is 0 with composites reconciled: %s does not show the breakers", xp.MetricsURL)
		}
		if b, err := os.ReadFile(xp.CoreLog); err != nil {
			t.Error(err)
		} else if n := strings.Count(string(b), "Circuit breaker is open"); n > seenLogged {
			report("Crossplane's core logged %q %d times", "Circuit breaker is open", n-seenLogged)
			seenLogged = n
		}
	}
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

// activate sets the activations of the default
// ManagedResourceActivationPolicy, as a platform team edits it.
func activate(c *composed, activations ...string) {
	c.t.Helper()
	patch, err := json.Marshal(map[string]any{"spec": map[string]any{"activate": activations}})
	if err != nil {
		c.t.Fatal(err)
	}
	c.k("", "patch", "managedresourceactivationpolicies.apiextensions.crossplane.io", "default", "--type=merge", "-p", string(patch))
}

// probe asks the provider's health server for url, as a kubelet would.
func probe(url string) error {
	resp, err := http.Get(url) //nolint:noctx,gosec // a probe of the test's own provider
	if err != nil {
		return err
	}
	defer resp.Body.Close() //nolint:errcheck // read only
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s: %s", url, resp.Status, strings.TrimSpace(string(b)))
	}
	return nil
}

// watchReady probes url every 100 ms until stop, which returns how many
// probes it made and what each failed one said.
func watchReady(url string) (stop func() (probes int, failed []string)) {
	var probes int
	var failed []string
	done, ended := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(ended)
		for {
			if err := probe(url); err != nil {
				failed = append(failed, err.Error())
			}
			probes++
			select {
			case <-done:
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	}()
	return func() (int, []string) { close(done); <-ended; return probes, failed }
}

// composed runs the steps of the subtests that compose through Crossplane.
type composed struct {
	t                    *testing.T
	tl                   Tools
	kubeconfig, emulator string
	rep                  *reporter
	// running reports a process the steps need that has ended.
	running func() error
	// beforeDelete checks what must hold before a composite is deleted.
	beforeDelete func(t *testing.T)
}

// within is within, stopping the test at once if a process it needs ended.
func (c *composed) within(since time.Time, limit, patience time.Duration, what string, check func() error) time.Duration {
	c.t.Helper()
	return within(c.t, since, limit, patience, what, func() error {
		if err := c.running(); err != nil {
			c.t.Fatal(err)
		}
		return check()
	})
}

func (c composed) with(t *testing.T) *composed { c.t = t; return &c }

func (c *composed) k(stdin string, args ...string) string {
	c.t.Helper()
	out, err := Kubectl(c.tl.Kubectl, c.kubeconfig, stdin, args...)
	if err != nil {
		c.t.Fatal(err)
	}
	return out
}

// ready reports an object (a composite or a managed resource) Ready, or its
// conditions, and fails the test if a composite's Responsive condition says
// Crossplane's circuit breaker is open for it.
func (c *composed) ready(ns, obj string) error {
	out, err := Kubectl(c.tl.Kubectl, c.kubeconfig, "", "-n", ns, "get", obj, "-o", "json")
	if err != nil {
		return err
	}
	var xr struct {
		Status struct {
			Conditions []struct{ Type, Status, Reason, Message string } `json:"conditions"`
		} `json:"status"`
	}
	if err := json.Unmarshal([]byte(out), &xr); err != nil {
		return fmt.Errorf("%w: %s", err, out)
	}
	ready := false
	var why []string
	for _, cd := range xr.Status.Conditions {
		if cd.Type == "Responsive" && cd.Status == "False" {
			c.t.Errorf("%s: Crossplane's circuit breaker is open for it: %s: %s", obj, cd.Reason, cd.Message)
		}
		if cd.Type == "Ready" && cd.Status == "True" {
			ready = true
		}
		if cd.Status != "True" {
			why = append(why, fmt.Sprintf("%s=%s %s: %s", cd.Type, cd.Status, cd.Reason, cd.Message))
		}
	}
	if !ready {
		return fmt.Errorf("%s not Ready: %s", obj, strings.Join(why, "; "))
	}
	return nil
}

// collectGarbage stands in for the garbage collector, reporting its errors
// at once.
func (c *composed) collectGarbage(kinds ...string) {
	c.rep.report("stand-in garbage collector", CollectGarbage(c.tl.Kubectl, c.kubeconfig, kinds...))
}

// everyKind brings each of the provider's kinds, as its example
// applies it, to Ready, and deletes them: every kind works with the
// permissions the provider is given.
func (c *composed) everyKind() {
	kinds, err := pkgkinds.Examples(root) // example: the resource it applies
	if err != nil {
		c.t.Fatal(err)
	}
	applied := time.Now()
	for ex := range kinds {
		c.k("", "apply", "-f", filepath.Join(root, "examples", ex))
	}
	// Deleted whatever happens: the subtests after this one count what AWS
	// holds.
	defer func() {
		for _, obj := range kinds {
			c.k("", "-n", "default", "delete", obj, "--wait=false", "--ignore-not-found")
		}
		c.within(time.Now(), time.Minute, 3*time.Minute, "every kind: kubectl delete to nothing left on AWS", func() error {
			for _, obj := range kinds {
				if _, err := Kubectl(c.tl.Kubectl, c.kubeconfig, "", "-n", "default", "get", obj); err == nil {
					return fmt.Errorf("%s still exists", obj)
				}
			}
			inv, err := inventory(c.emulator)
			if err != nil {
				return err
			}
			for kind, l := range inv {
				if len(l) != 0 {
					return fmt.Errorf("AWS holds %d %s", len(l), kind)
				}
			}
			return nil
		})
	}()
	for _, obj := range kinds {
		c.within(applied, readyWithin, 3*time.Minute, obj+": kubectl apply to Ready", func() error { return c.ready("default", obj) })
	}
}

// agentCredential brings the AgentCredential example to Ready through
// Crossplane, changes its cost center and deletes it.
func (c *composed) agentCredential() {
	t := c.t
	ex := filepath.Join(root, "examples", "compositions", "agentcredential")
	c.k("", "create", "namespace", "team-a")
	c.k("", "-n", "team-a", "create", "secret", "generic", "search-api-key", "--from-literal=apiKey=sk-test-0123456789")
	obj := "agentcredentials.platform.example.org/search"
	applied := applyExample(t, c.tl, c.kubeconfig, ex, "agentcredentials.platform.example.org")
	c.within(applied, readyWithin, 3*time.Minute, "AgentCredential: kubectl apply to Ready", func() error { return c.ready("team-a", obj) })
	t.Logf("crossplane beta trace:\n%s", traceReady(t, c.tl, c.kubeconfig, "team-a", obj, 2))

	arn := "arn:aws:bedrock-agentcore:us-east-1:000000000000:token-vault/default/apikeycredentialprovider/" + compositions.AWSName("team-a", "search")
	eventually(t, 30*time.Second, "tags on AWS", func() error { return awsTag(c.emulator, arn, "cost-center", "42") })
	// The credential provider's connection Secret, in the composite's
	// namespace: its name and ARNs, never the key.
	eventually(t, 30*time.Second, "the AgentCredential's connection Secret", func() error {
		return c.connectionSecret("team-a", "search-agent-credential", map[string]func(string) bool{
			"credentialProviderName": equals(compositions.AWSName("team-a", "search")),
			"credentialProviderARN":  equals(arn),
			"apiKeySecretARN": func(v string) bool {
				return strings.HasPrefix(v, "arn:aws:secretsmanager:us-east-1:000000000000:secret:")
			},
		}, "sk-test-0123456789")
	})
	patched := time.Now()
	c.k("", "-n", "team-a", "patch", obj, "--type=merge", "-p", `{"spec":{"costCenter":"43"}}`)
	c.within(patched, changeWithin, 3*time.Minute, "AgentCredential: kubectl patch to the changed cost center on AWS", func() error {
		return awsTag(c.emulator, arn, "cost-center", "43")
	})
	if err := c.ready("team-a", obj); err != nil {
		t.Errorf("after the change: %v", err)
	}

	c.beforeDelete(c.t)
	c.k("", "-n", "team-a", "delete", obj, "--wait=false")
	c.within(time.Now(), time.Minute, 3*time.Minute, "AgentCredential: kubectl delete to nothing left on AWS", func() error {
		c.collectGarbage("apikeycredentialproviders.agentcorecontrol.services.k8s.aws")
		inv, err := inventory(c.emulator)
		if err != nil {
			return err
		}
		if n := len(inv["apiKeyCredentialProviders"]); n != 0 {
			return fmt.Errorf("%d credential providers left", n)
		}
		if _, err := Kubectl(c.tl.Kubectl, c.kubeconfig, "", "-n", "team-a", "get", obj); err == nil {
			return fmt.Errorf("the composite still exists")
		}
		return nil
	})
}

// eventDelivery brings the EventDelivery example to Ready through
// Crossplane, changes its filter policy and deletes it.
func (c *composed) eventDelivery() {
	t := c.t
	ex := filepath.Join(root, "examples", "compositions", "eventdelivery")
	// Stand-ins of provider-upjet-aws's Topic and Role kinds (same group,
	// version, kind and scope), which the Composition composes.
	c.k("", "apply", "-f", filepath.Join(root, "test", "testdata", "crds", "reference-targets.yaml"))
	c.k("", "-n", "team-a", "create", "secret", "generic", "collector-access-key", "--from-literal=accessKey=collector-key-0123")
	obj := "eventdeliveries.platform.example.org/orders"
	applied := applyExample(t, c.tl, c.kubeconfig, ex, "eventdeliveries.platform.example.org")
	c.within(applied, readyWithin, 3*time.Minute, "EventDelivery: kubectl apply to Ready", func() error {
		// provider-upjet-aws's part, played by the harness; its errors
		// are reported at once.
		if err := StandInForUpjet(c.tl.Kubectl, c.kubeconfig, c.emulator); err != nil {
			c.rep.report("stand-in for provider-upjet-aws", err)
			return err
		}
		c.rep.report("stand-in for provider-upjet-aws", nil)
		return c.ready("team-a", obj)
	})
	t.Logf("crossplane beta trace:\n%s", traceReady(t, c.tl, c.kubeconfig, "team-a", obj, 6))

	inv, err := inventory(c.emulator)
	if err != nil {
		t.Fatal(err)
	}
	if len(inv["deliveryStreams"]) != 1 || len(inv["subscriptions"]) != 1 || len(inv["endpoints"]) != 1 {
		t.Fatalf("AWS holds %v", inv)
	}
	var sub struct {
		ARN      string `json:"arn"`
		TopicARN string `json:"topicArn"`
	}
	if err := json.Unmarshal(inv["subscriptions"][0], &sub); err != nil {
		t.Fatal(err)
	}
	// The connection Secrets the stream, the subscription and the global
	// endpoint write into the composite's namespace, for the team's
	// applications: AWS's names, ARNs and URL, the same the composite's
	// status shows, and neither the access key nor the delivery URL.
	var streamName, endpointName string
	if json.Unmarshal(inv["deliveryStreams"][0], &streamName) != nil || json.Unmarshal(inv["endpoints"][0], &endpointName) != nil {
		t.Fatalf("AWS holds %s", inv)
	}
	endpoint, err := describeEndpoint(c.emulator, endpointName)
	if err != nil {
		t.Fatal(err)
	}
	xr := map[string]string{}
	for _, f := range []string{"streamARN", "endpointURL"} {
		xr[f] = c.k("", "-n", "team-a", "get", obj, "-o", "jsonpath={.status."+f+"}")
	}
	if xr["streamARN"] != "arn:aws:firehose:us-east-1:000000000000:deliverystream/"+streamName || xr["endpointURL"] != endpoint.EndpointURL {
		t.Errorf("the composite's status: %v; AWS holds stream %s and endpoint URL %s", xr, streamName, endpoint.EndpointURL)
	}
	secrets := []string{"collector-key-0123", "collector.team-a.example.com"}
	eventually(t, 30*time.Second, "the EventDelivery's connection Secrets", func() error {
		for name, want := range map[string]map[string]func(string) bool{
			"orders-stream":       {"deliveryStreamName": equals(streamName), "deliveryStreamARN": equals(xr["streamARN"])},
			"orders-subscription": {"subscriptionARN": equals(sub.ARN), "topicARN": equals(sub.TopicARN)},
			"orders-endpoint": {
				"endpointName": equals(endpointName), "endpointARN": equals(endpoint.ARN),
				"endpointID": equals(endpoint.EndpointID), "endpointURL": equals(xr["endpointURL"]),
			},
		} {
			if err := c.connectionSecret("team-a", name, want, secrets...); err != nil {
				return err
			}
		}
		return nil
	})
	time.Sleep(changeAfterReady)
	patched := time.Now()
	c.k("", "-n", "team-a", "patch", obj, "--type=merge", "-p", `{"spec":{"filterPolicy":"{\"type\": [\"order_cancelled\"]}"}}`)
	c.within(patched, changeWithin, 3*time.Minute, "EventDelivery: kubectl patch to the changed filter policy on AWS", func() error {
		out, err := SNS(c.emulator, url.Values{"Action": {"GetSubscriptionAttributes"}, "SubscriptionArn": {sub.ARN}})
		if err != nil {
			return err
		}
		if !strings.Contains(out, "order_cancelled") {
			return fmt.Errorf("attributes: %s", out)
		}
		return nil
	})
	if err := c.ready("team-a", obj); err != nil {
		t.Errorf("after the change: %v", err)
	}

	c.beforeDelete(c.t)
	c.k("", "-n", "team-a", "delete", obj, "--wait=false")
	c.within(time.Now(), time.Minute, 3*time.Minute, "EventDelivery: kubectl delete to nothing left on AWS", func() error {
		c.collectGarbage("deliverystreams.streaming.services.k8s.aws", "subscriptions.notification.services.k8s.aws",
			"endpoints.eventbus.services.k8s.aws", "topics.sns.aws.m.upbound.io", "roles.iam.aws.m.upbound.io")
		inv, err := inventory(c.emulator)
		if err != nil {
			return err
		}
		for _, kind := range []string{"deliveryStreams", "subscriptions", "endpoints"} {
			if n := len(inv[kind]); n != 0 {
				return fmt.Errorf("%d %s left", n, kind)
			}
		}
		if _, err := Kubectl(c.tl.Kubectl, c.kubeconfig, "", "-n", "team-a", "get", obj); err == nil {
			return fmt.Errorf("the composite still exists")
		}
		return nil
	})
}

// connectionSecret checks the connection Secret ns/name: it holds exactly
// the keys of want, each value as want's check of it says, and no value holds
// any of secrets.
func (c *composed) connectionSecret(ns, name string, want map[string]func(string) bool, secrets ...string) error {
	out, err := Kubectl(c.tl.Kubectl, c.kubeconfig, "", "-n", ns, "get", "secret", name, "-o", "json")
	if err != nil {
		return err
	}
	var sec struct {
		Data map[string][]byte `json:"data"`
	}
	if err := json.Unmarshal([]byte(out), &sec); err != nil {
		return err
	}
	if len(sec.Data) != len(want) {
		return fmt.Errorf("secret %s/%s holds %d keys, want %d: %s", ns, name, len(sec.Data), len(want), keysOf(sec.Data))
	}
	for k, ok := range want {
		v, found := sec.Data[k]
		if !found || !ok(string(v)) {
			return fmt.Errorf("secret %s/%s: %s is %q", ns, name, k, v)
		}
	}
	for k, v := range sec.Data {
		for _, s := range secrets {
			if strings.Contains(string(v), s) {
				c.t.Errorf("secret %s/%s: %s holds a secret the composite was given", ns, name, k)
			}
		}
	}
	return nil
}

func equals(want string) func(string) bool { return func(v string) bool { return v == want } }

func keysOf(m map[string][]byte) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	return strings.Join(keys, ", ")
}

// emulatorEndpoint is a global endpoint as EventBridge describes it.
type emulatorEndpoint struct {
	ARN         string `json:"Arn"`
	EndpointID  string `json:"EndpointId"`
	EndpointURL string `json:"EndpointUrl"`
}

// describeEndpoint asks the emulator's EventBridge for a global endpoint,
// with its JSON protocol; the emulator takes the region from the credential
// scope and does not check the signature.
func describeEndpoint(emulator, name string) (emulatorEndpoint, error) {
	var e emulatorEndpoint
	body, _ := json.Marshal(map[string]string{"Name": name})
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, emulator+"/", strings.NewReader(string(body)))
	if err != nil {
		return e, err
	}
	req.Header.Set("Content-Type", "application/x-amz-json-1.1")
	req.Header.Set("X-Amz-Target", "AWSEvents.DescribeEndpoint")
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=AKIDHARNESS/20260101/us-east-1/events/aws4_request, SignedHeaders=host, Signature=0")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return e, err
	}
	defer resp.Body.Close() //nolint:errcheck // read only
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return e, err
	}
	if resp.StatusCode != http.StatusOK {
		return e, fmt.Errorf("DescribeEndpoint %s: %s", name, b)
	}
	return e, json.Unmarshal(b, &e)
}

// applyExample applies an example's XRD (named xrd), waits until it is
// established, applies its Composition and then its composite, and returns
// when the composite was applied.
func applyExample(t *testing.T, tl Tools, kubeconfig, dir, xrd string) time.Time {
	t.Helper()
	apply := func(file string) {
		t.Helper()
		if _, err := Kubectl(tl.Kubectl, kubeconfig, "", "apply", "-f", filepath.Join(dir, file)); err != nil {
			t.Fatal(err)
		}
	}
	apply("definition.yaml")
	eventually(t, time.Minute, "XRD established", func() error {
		_, err := Kubectl(tl.Kubectl, kubeconfig, "", "wait", "--for=condition=Established", "--timeout=1s", "xrd/"+xrd)
		return err
	})
	apply("composition.yaml")
	applied := time.Now()
	apply("xr.yaml")
	return applied
}

// packageHealthy reports a package Installed and Healthy, or Crossplane's
// own words why not.
func packageHealthy(tl Tools, kubeconfig, pkg string) error {
	out, err := Kubectl(tl.Kubectl, kubeconfig, "", "get", pkg, "-o", "json")
	if err != nil {
		return err
	}
	var p struct {
		Status struct {
			Conditions []struct{ Type, Status, Reason, Message string } `json:"conditions"`
		} `json:"status"`
	}
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		return err
	}
	ok := map[string]bool{}
	var why []string
	for _, c := range p.Status.Conditions {
		ok[c.Type] = c.Status == "True"
		if c.Status != "True" {
			why = append(why, fmt.Sprintf("%s=%s %s: %s", c.Type, c.Status, c.Reason, c.Message))
		}
	}
	if !ok["Installed"] || !ok["Healthy"] {
		return fmt.Errorf("%s: %s", pkg, strings.Join(why, "; "))
	}
	return nil
}

// traceReady runs `crossplane beta trace` and requires every row of the
// tree (at least rows of them) Synced and Ready.
func traceReady(t *testing.T, tl Tools, kubeconfig, ns, obj string, rows int) string {
	t.Helper()
	var out []byte
	eventually(t, time.Minute, "trace all Ready", func() error {
		cmd := exec.Command(tl.Crank, "beta", "trace", "-n", ns, obj) //nolint:gosec // the harness's crank
		cmd.Env = append(os.Environ(), "KUBECONFIG="+kubeconfig)
		var err error
		out, err = cmd.CombinedOutput()
		if err != nil {
			return fmt.Errorf("%w: %s", err, out)
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if len(lines) < rows+1 {
			return fmt.Errorf("%d rows:\n%s", len(lines)-1, out)
		}
		for _, l := range lines[1:] {
			f := strings.Fields(l)
			if !strings.Contains(l, "True") || strings.Contains(strings.Join(f, " "), "False") {
				return fmt.Errorf("not all Ready:\n%s", out)
			}
		}
		return nil
	})
	return string(out)
}

// awsTag checks a tag of an AgentCore resource in the emulator, through its
// ListTagsForResource API.
func awsTag(emulator, arn, key, want string) error {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, emulator+"/tags/"+strings.ReplaceAll(arn, "/", "%2F"), nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=AKIDTEST/20260101/us-east-1/bedrock-agentcore/aws4_request, SignedHeaders=host, Signature=0")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close() //nolint:errcheck // read only
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	var out struct {
		Tags map[string]string `json:"tags"`
	}
	if err := json.Unmarshal(b, &out); err != nil {
		return fmt.Errorf("%w: %s", err, b)
	}
	if out.Tags[key] != want {
		return fmt.Errorf("tag %s is %q, want %q (%s)", key, out.Tags[key], want, b)
	}
	return nil
}

// inventory is the emulator's list of resources, by kind.
func inventory(emulator string) (map[string][]json.RawMessage, error) {
	resp, err := http.Get(emulator + "/_emulator/resources") //nolint:noctx // a test's short read
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close() //nolint:errcheck // read only
	out := map[string][]json.RawMessage{}
	return out, json.NewDecoder(resp.Body).Decode(&out)
}

// moduleDir is where a module of this one's build list lies.
func moduleDir(t *testing.T, module string) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", module).Output() //nolint:gosec // go list of a fixed module
	if err != nil {
		t.Fatalf("go list -m %s: %v", module, err)
	}
	return strings.TrimSpace(string(out))
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}
