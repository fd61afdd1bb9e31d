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
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// providerIdentity checks the provider's identity: the ServiceAccount of its
// revision's Deployment, bound by the RBAC manager to the revision's system
// ClusterRole, and to nothing else until the README's ClusterRoles are
// bound to it as the README says, which this does. It returns the
// ServiceAccount and a kubeconfig of it.
func providerIdentity(t *testing.T, xp *Crossplane, tl Tools, kubeconfig, dir string, k func(stdin string, args ...string) string) (sa, saKubeconfig string) {
	t.Helper()
	var system string
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
	saKubeconfig = filepath.Join(dir, "provider-kubeconfig")
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
	return sa, saKubeconfig
}

// A breaker checks Crossplane's XR circuit breakers since its last check.
type breaker struct {
	xp         *Crossplane
	seenOpens  float64
	seenLogged int
}

// closed checks Crossplane's XR circuit breakers since its last call.
// strict fails the test on an opening (while composites are applied, Ready
// and changed: what a user waits on); otherwise an opening is only
// reported (while they are deleted, which the harness's stand-in garbage
// collector drives with its own loop of writes).
func (br *breaker) closed(t *testing.T, composites, strict bool) {
	t.Helper()
	report := t.Errorf
	if !strict {
		report = t.Logf
	}
	opens, events, err := br.xp.Breaker()
	if err != nil {
		t.Errorf("reading Crossplane's metrics: %v", err)
		return
	}
	t.Logf("Crossplane's XR circuit breakers: %v watch events handled, %v openings in all", events, opens)
	if opens > br.seenOpens {
		report("Crossplane's XR circuit breaker opened %v times (circuit_breaker_opens_total)", opens-br.seenOpens)
	}
	br.seenOpens = opens
	if composites && events == 0 {
		t.Errorf("circuit_breaker_events_total is 0 with composites reconciled: %s does not show the breakers", br.xp.MetricsURL)
	}
	if b, err := os.ReadFile(br.xp.CoreLog); err != nil {
		t.Error(err)
	} else if n := strings.Count(string(b), "Circuit breaker is open"); n > br.seenLogged {
		report("Crossplane's core logged %q %d times", "Circuit breaker is open", n-br.seenLogged)
		br.seenLogged = n
	}
}

// auditFile is where, in the test's folder, the API server audits the
// requests of service accounts.
const auditFile = "audit.log"

// startCrossplane starts a real API server and etcd, with nothing
// installed, which authorizes by RBAC alone, signs service account tokens
// and audits the requests of service accounts; then Crossplane core and its
// RBAC manager, with the provider's package, pushed to a registry as a
// user's CI would push it, and function-patch-and-transform's. All stop
// when the test ends; a failed test's output holds their logs' ends. It
// returns the kubeconfig, Crossplane, and when Crossplane was started.
func startCrossplane(ctx context.Context, t *testing.T, tl Tools, dir, xpkg string) (kubeconfig string, _ *Crossplane, started time.Time) {
	t.Helper()
	// A real API server and etcd, with nothing installed. It authorizes by
	// RBAC alone, signs service account tokens, and audits the requests of
	// service accounts.
	auditPolicy, auditLog := filepath.Join(dir, "audit-policy.yaml"), filepath.Join(dir, auditFile)
	if err := os.WriteFile(auditPolicy, []byte(AuditPolicy), 0o600); err != nil {
		t.Fatal(err)
	}
	env := &envtest.Environment{BinaryAssetsDirectory: controlPlaneDir()}
	env.ControlPlane.GetAPIServer().Configure().Set("audit-policy-file", auditPolicy).Set("audit-log-path", auditLog)
	if _, err := env.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = env.Stop() })
	kubeconfig = filepath.Join(dir, "kubeconfig")
	if err := os.WriteFile(kubeconfig, env.KubeConfig, 0o600); err != nil {
		t.Fatal(err)
	}
	// Crossplane core and its RBAC manager, with the provider's package,
	// pushed to a registry as a user's CI would push it, and
	// function-patch-and-transform's.
	started = time.Now()
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
	t.Cleanup(xp.Stop)
	// The XR circuit breaker at Crossplane's defaults: no flag of it given.
	for _, a := range xp.CoreArgs {
		if strings.HasPrefix(a, "--circuit-breaker") {
			t.Fatalf("Crossplane runs with %s: the breaker must run at its defaults", a)
		}
	}
	t.Cleanup(func() {
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
	})
	return kubeconfig, xp, started
}
