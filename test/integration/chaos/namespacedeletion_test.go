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

package chaos

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/provider/config"
	"github.com/cloudkinds/provider-aws-services/test/controlplane"
	"github.com/cloudkinds/provider-aws-services/test/emulator"
	"github.com/cloudkinds/provider-aws-services/test/workload"
)

const (
	// nsdConfig names the test's ClusterProviderConfig and, in each
	// namespace that has one, its ProviderConfig; nsdKey is the key the
	// ProviderConfig signs with.
	nsdConfig = "namespace-deletion"
	nsdKey    = "AKIDNAMESPACEDELETION"
	// nsdDelay is how long the emulator keeps a resource CREATING,
	// UPDATING or DELETING.
	nsdDelay = time.Second
	// restartAfter is how long into the namespace's deletion the provider
	// is killed and started again. Where the deletion then is depends on
	// the namespace controller, which goes through every namespaced kind
	// before the provider's: on two busy cores it has reached none of
	// the objects yet 5 s in, and they are deleted while the provider
	// starts again. The test logs how far it had got.
	restartAfter = 5 * time.Second
	// deletionBudget is how long a namespace deleted whole may take to go,
	// and its AWS resources and claims with it, from its deletion: a
	// minute, and the emulator's deletions that take time (a delivery
	// stream's and an endpoint's DELETING state), one after the other at
	// worst.
	deletionBudget = 60*time.Second + 2*nsdDelay
	// claimsNamespace is where the provider keeps its ownership claims:
	// its namespace, default when it runs out of a cluster without
	// --namespace, as process runs it.
	claimsNamespace = "default"
)

// TestANamespaceDeletedAcrossARestart: a namespace deleted whole, with one
// object of every kind and, through a ProviderConfig, the config and its
// credentials Secret, while the provider is killed with SIGKILL 5 s into the
// deletion and started again. Kubernetes' namespace controller
// (kube-controllers, for this test only) deletes everything in the namespace
// at once, as in a cluster; whatever the killed provider had begun or not
// (a delete asked of AWS, a claim released, a finalizer removed) the new one
// finishes, from what it finds when it starts: the Namespace goes within
// deletionBudget, nothing is left on AWS, no resource was created again, and
// no claim is held.
func TestANamespaceDeletedAcrossARestart(t *testing.T) {
	if env.BuildErr != nil {
		t.Fatal(env.BuildErr)
	}
	ctx := context.Background()
	kube := env.ControlPlane.Client

	// Only this test needs namespaces emptied; the others of the package
	// delete none, and run without it.
	stopKubeControllers, err := env.ControlPlane.StartKubeControllers()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := stopKubeControllers(); err != nil {
			t.Error(err)
		}
	})

	em := emulator.New(emulator.Options{CreateDelay: nsdDelay, UpdateDelay: nsdDelay, DeleteDelay: nsdDelay})
	srv := httptest.NewServer(em)
	t.Cleanup(srv.Close)
	topicARN := em.CreateTopic(region, "namespace-deletion")
	em.CreateModel(region, model)

	cpc := &v1alpha1.ClusterProviderConfig{ObjectMeta: metav1.ObjectMeta{Name: nsdConfig}, Spec: v1alpha1.ClusterProviderConfigSpec{ProviderConfigSpec: v1alpha1.ProviderConfigSpec{
		Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceNone},
		Region:      aws.String(region),
		Endpoint:    &v1alpha1.EndpointOverride{URL: srv.URL},
	}}}
	if err := kube.Create(ctx, cpc); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = kube.Delete(ctx, cpc) })

	dir := t.TempDir()
	kubeconfig := filepath.Join(dir, "kubeconfig")
	if err := os.WriteFile(kubeconfig, env.ControlPlane.KubeConfig, 0o600); err != nil {
		t.Fatal(err)
	}
	p := &process{t: t, kubeconfig: kubeconfig, logDir: dir, metrics: freeAddress(t)}
	p.start()
	t.Cleanup(func() { p.kill() })

	for _, through := range []string{v1alpha1.ProviderConfigKind, v1alpha1.ClusterProviderConfigKind} {
		t.Run(through, func(t *testing.T) {
			p.mu.Lock()
			firstLog := len(p.logs)
			p.mu.Unlock()
			defer func() {
				if t.Failed() {
					p.mu.Lock()
					logs := p.logs[max(firstLog-1, 0):]
					p.mu.Unlock()
					for _, l := range logs {
						if out, err := os.ReadFile(l); err == nil {
							t.Logf("--- %s (last 8 KiB) ---\n%s", filepath.Base(l), tail(out, 8192))
						}
					}
				}
			}()
			deleteAcrossARestart(ctx, t, kube, em, p, srv.URL, topicARN, through)
		})
	}
	t.Run("AConfigThatNeverWorked", func(t *testing.T) { deleteNeverWorked(ctx, t, kube, topicARN) })
}

// deleteNeverWorked makes a namespace of one object of every kind on a
// ProviderConfig whose endpoint the provider refuses (the instance metadata
// service), so that nothing is ever created, and deletes it: it goes within
// 30 s, with no usage and no claim left, although the provider's sweeps come
// only every 5 minutes: its objects have nothing to delete on AWS and hold
// nothing.
func deleteNeverWorked(ctx context.Context, t *testing.T, kube client.Client, topicARN string) {
	ns := "never-worked"
	if err := kube.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil {
		t.Fatal(err)
	}
	createSecrets(t, kube, ns, map[string]string{workload.AccessKeySecret: "nsd-access-key", workload.APIKeySecret: "sk-nsd"})
	createConfig(t, kube, ns, nsdConfig, nsdKey, "http://169.254.169.254")
	objects := make([]resource.Managed, 0, len(kinds))
	for _, kind := range kinds {
		mg := workload.Set{TopicARN: topicARN, Model: model}.Object(kind, ns, "never-"+strings.ToLower(kind), before)
		mg.(resource.ModernManaged).SetProviderConfigReference(&xpv2.ProviderConfigReference{Kind: v1alpha1.ProviderConfigKind, Name: nsdConfig}) //nolint:forcetypeassert // every kind is one
		if err := kube.Create(ctx, mg); err != nil {
			t.Fatal(err)
		}
		objects = append(objects, mg)
	}
	// Each object recorded its use of the config, and was refused.
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(250 * time.Millisecond) {
		usages := &v1alpha1.ProviderConfigUsageList{}
		if err := kube.List(ctx, usages, client.InNamespace(ns)); err != nil {
			t.Fatal(err)
		}
		if len(usages.Items) >= len(objects) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d usages of %d objects after a minute", len(usages.Items), len(objects))
		}
	}
	if err := kube.Delete(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for {
		err := controlplane.NamespaceGone(ctx, kube, ns)
		if err == nil {
			break
		}
		if time.Since(start) > 30*time.Second {
			usages := &v1alpha1.ProviderConfigUsageList{}
			_ = kube.List(ctx, usages, client.InNamespace(ns))
			t.Fatalf("the namespace not gone 30 s after its deletion (%v); %d usages left", err, len(usages.Items))
		}
		time.Sleep(250 * time.Millisecond)
	}
	t.Logf("a namespace whose config never worked: gone after %s", time.Since(start).Round(100*time.Millisecond))
	if held := heldClaims(ctx, t, kube, objects); len(held) > 0 {
		t.Errorf("claims left: %v", held)
	}
}

// deleteAcrossARestart makes a namespace of one object of every kind,
// using a config of kind through, deletes it, restarts the provider
// restartAfter later, and checks that everything goes.
func deleteAcrossARestart(ctx context.Context, t *testing.T, kube client.Client, em *emulator.Server, p *process, url, topicARN, through string) {
	// A prefix of each case's own, so that the AWS names of one case are
	// not those of the other.
	prefix := map[string]string{v1alpha1.ProviderConfigKind: "nsd-pc", v1alpha1.ClusterProviderConfigKind: "nsd-cpc"}[through]
	ns := "deleted-whole-" + strings.ToLower(through)
	if err := kube.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil {
		t.Fatal(err)
	}
	createSecrets(t, kube, ns, map[string]string{workload.AccessKeySecret: "nsd-access-key", workload.APIKeySecret: "sk-nsd"})
	ref := &xpv2.ProviderConfigReference{Kind: v1alpha1.ClusterProviderConfigKind, Name: nsdConfig}
	if through == v1alpha1.ProviderConfigKind {
		createConfig(t, kube, ns, nsdConfig, nsdKey, url)
		ref = &xpv2.ProviderConfigReference{Kind: v1alpha1.ProviderConfigKind, Name: nsdConfig}
	}
	objects := make([]resource.Managed, 0, len(kinds))
	for _, kind := range kinds {
		mg := workload.Set{TopicARN: topicARN, Model: model}.Object(kind, ns, prefix+"-"+strings.ToLower(kind), before)
		mg.(resource.ModernManaged).SetProviderConfigReference(ref) //nolint:forcetypeassert // every kind is one
		if err := kube.Create(ctx, mg); err != nil {
			t.Fatal(err)
		}
		objects = append(objects, mg)
	}

	// Everything made: every object Ready, and the credentials Secret
	// held by the provider's finalizer while the config uses it, so that
	// the deletion has it to release too.
	var stuck []string
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(250 * time.Millisecond) {
		stuck = stuck[:0]
		for _, mg := range objects {
			if why := notSettled(ctx, kube, mg, false); why != "" {
				stuck = append(stuck, objectName(mg)+": "+why)
			}
		}
		if through == v1alpha1.ProviderConfigKind {
			sec := &corev1.Secret{}
			if err := kube.Get(ctx, client.ObjectKey{Namespace: ns, Name: "aws"}, sec); err != nil || !meta.FinalizerExists(sec, config.SecretFinalizer) {
				stuck = append(stuck, fmt.Sprintf("the credentials Secret has no %s finalizer: %v %v", config.SecretFinalizer, sec.Finalizers, err))
			}
		}
		if len(stuck) == 0 || time.Now().After(deadline) {
			break
		}
	}
	if len(stuck) > 0 {
		t.Fatalf("not ready 2 minutes after their creation:\n  %s", strings.Join(stuck, "\n  "))
	}

	// Deleting the Namespace is all a user does; the namespace controller
	// deletes what is in it.
	start := time.Now()
	if err := kube.Delete(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil {
		t.Fatal(err)
	}
	// Until the kill, when the namespace controller began to delete the
	// objects; at the kill, how far the deletion had got.
	var marking time.Duration
	present, marked := 0, 0
	for {
		present, marked = 0, 0
		for _, mg := range objects {
			o := mg.DeepCopyObject().(resource.Managed) //nolint:forcetypeassert // a copy of its own type
			if err := kube.Get(ctx, client.ObjectKeyFromObject(mg), o); err == nil {
				present++
				if o.GetDeletionTimestamp() != nil {
					marked++
				}
			}
		}
		if marking == 0 && (marked > 0 || present < len(objects)) {
			marking = time.Since(start)
		}
		if time.Since(start) >= restartAfter {
			break
		}
		time.Sleep(min(100*time.Millisecond, time.Until(start.Add(restartAfter))))
	}
	onAWS, deleteCalls := len(leftOnAWS(em, objects)), 0
	for _, w := range em.Writes() {
		if w.IsDelete() && w.Time.After(start) {
			deleteCalls++
		}
	}
	if !p.kill() {
		t.Error("the provider was not running when it was to be killed")
	}
	p.start()
	// What the kill interrupted: with nothing left at the kill, the case
	// would not have tested a restart.
	began := "not yet"
	if marking > 0 {
		began = "after " + marking.Round(100*time.Millisecond).String()
	}
	t.Logf("at the kill, %s into the deletion: the namespace controller began deleting the objects %s; %d of %d objects still there (%d of them being deleted), %d of their AWS resources on AWS, %d delete calls made to AWS",
		restartAfter, began, present, len(objects), marked, onAWS, deleteCalls)

	var gone, awsClean, released time.Duration
	// When each object went, for the log: the claims go with the last.
	objectGone := make([]time.Duration, len(objects))
	for deadline := start.Add(3 * time.Minute); ; time.Sleep(200 * time.Millisecond) {
		for i, mg := range objects {
			if objectGone[i] == 0 && kerrors.IsNotFound(kube.Get(ctx, client.ObjectKeyFromObject(mg), mg.DeepCopyObject().(client.Object))) { //nolint:forcetypeassert // a copy of its own type
				objectGone[i] = time.Since(start)
			}
		}
		if gone == 0 && controlplane.NamespaceGone(ctx, kube, ns) == nil {
			gone = time.Since(start)
		}
		if awsClean == 0 && len(leftOnAWS(em, objects)) == 0 {
			awsClean = time.Since(start)
		}
		if released == 0 && len(heldClaims(ctx, t, kube, objects)) == 0 {
			released = time.Since(start)
		}
		if (gone > 0 && awsClean > 0 && released > 0) || time.Now().After(deadline) {
			break
		}
	}
	round := func(d time.Duration) string {
		if d == 0 {
			return "never"
		}
		return d.Round(100 * time.Millisecond).String()
	}
	t.Logf("teardown through a %s with the provider restarted %s in: namespace gone after %s, AWS clean after %s, claims released after %s (budget %s)",
		through, restartAfter, round(gone), round(awsClean), round(released), deletionBudget)
	went := make([]string, len(objects))
	for i, mg := range objects {
		went[i] = kindOf(mg) + " " + round(objectGone[i])
	}
	t.Logf("the objects gone after: %s", strings.Join(went, ", "))

	if err := controlplane.NamespaceGone(ctx, kube, ns); err != nil {
		t.Errorf("the namespace %s is not gone %s after its deletion: %v; what stays in it:\n  %s",
			ns, time.Since(start).Round(time.Second), err, strings.Join(whatStays(ctx, kube, ns, objects), "\n  "))
	}
	// Looked at again at the end: a resource deleted and then created
	// again by the restarted provider would have been clean for a while.
	for _, l := range leftOnAWS(em, objects) {
		t.Errorf("left on AWS: %s", l)
	}
	creations := em.Creations()
	for _, mg := range objects {
		n := 0
		for _, c := range creations {
			if c.Identity() == identityOf(mg) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("the AWS resource of %s was created %d times, want once: %s", objectName(mg), n, creationsOf(creations, identityOf(mg)))
		}
	}
	if inv := em.Inventory(); total(inv) != 0 {
		t.Errorf("AWS holds %d resources, want none: %+v", total(inv), inv)
	}
	for _, c := range heldClaims(ctx, t, kube, objects) {
		t.Errorf("claim still held: %s", c)
	}
	for what, d := range map[string]time.Duration{"the namespace to go": gone, "AWS to be clean": awsClean, "the claims to be released": released} {
		if d > deletionBudget {
			t.Errorf("it took %s for %s after the namespace's deletion, over the budget of %s", d.Round(100*time.Millisecond), what, deletionBudget)
		}
	}
}
