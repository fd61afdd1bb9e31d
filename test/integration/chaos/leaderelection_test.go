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
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
	awscontroller "github.com/cloudkinds/provider-aws-services/internal/provider"
	"github.com/cloudkinds/provider-aws-services/test/emulator"
	"github.com/cloudkinds/provider-aws-services/test/workload"
)

// The leader election test's namespaces: the objects', and the provider's
// own, where its replicas hold the leader's Lease (and keep their ownership
// claims and fingerprint key).
const (
	leNamespace = "leader-election"
	leHome      = "provider-leader-election"
	leConfig    = "leader-election"
	leaseName   = "crossplane-leader-election-provider-aws-services"
)

// failoverBudget is how long a change made right after the leader's crash
// may take to reach AWS.
const failoverBudget = 20 * time.Second

// failover changes every object to version v and returns how long after
// since each change took to reach AWS, longest last, or fails the test when
// one has not within the budget.
func failover(t *testing.T, c awsClients, objects []resource.Managed, v string, since time.Time, budget time.Duration) time.Duration {
	t.Helper()
	kube := env.ControlPlane.Client
	for _, mg := range objects {
		setVersion(t, kube, mg, v)
	}
	var longest time.Duration
	pending := slices.Clone(objects)
	deadline := since.Add(budget + 10*time.Second)
	for len(pending) > 0 && time.Now().Before(deadline) {
		pending = slices.DeleteFunc(pending, func(mg resource.Managed) bool {
			got, err := c.version(context.Background(), mg)
			if err != nil || got != v {
				return false
			}
			longest = max(longest, time.Since(since))
			return true
		})
		time.Sleep(50 * time.Millisecond)
	}
	for _, mg := range pending {
		t.Errorf("%s: the change to %s did not reach AWS within %s", objectName(mg), v, time.Since(since).Round(time.Millisecond))
	}
	return longest
}

// TestLeaderElection runs two replicas of the provider, with
// --leader-election and the default lease, on one API server. Only the
// leader reconciles and calls AWS; the standby is ready (its controllers set
// up and warm) but does not reconcile. The leader is killed with SIGKILL and
// every object changed at once: the standby takes the lease over, every
// change reaches AWS within 20 s of the kill, every object stays Ready, and
// no AWS resource is created twice nor any write made twice. A third replica
// then stands by, and the leader is stopped cleanly (SIGTERM, as in a rolling
// update): it gives the lease up, and the standby takes over at once.
func TestLeaderElection(t *testing.T) {
	if env.BuildErr != nil {
		t.Fatal(env.BuildErr)
	}
	ctx := context.Background()
	kube := env.ControlPlane.Client
	lease := awscontroller.DefaultLease

	em := emulator.New(emulator.Options{})
	srv := httptest.NewServer(em)
	defer srv.Close()
	em.Uncounted(checkKey)
	topicARN := em.CreateTopic(region, "leader-election")
	em.CreateModel(region, model)
	c := clientsFor(srv.URL)

	dir := t.TempDir()
	kubeconfig := filepath.Join(dir, "kubeconfig")
	if err := os.WriteFile(kubeconfig, env.ControlPlane.KubeConfig, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, ns := range []string{leNamespace, leHome} {
		if err := kube.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil && !kerrors.IsAlreadyExists(err) {
			t.Fatal(err)
		}
	}
	createSecrets(t, kube, leNamespace, map[string]string{workload.AccessKeySecret: "le-access-key", workload.APIKeySecret: "sk-le"})
	pc := &v1alpha1.ClusterProviderConfig{ObjectMeta: metav1.ObjectMeta{Name: leConfig}, Spec: v1alpha1.ClusterProviderConfigSpec{ProviderConfigSpec: v1alpha1.ProviderConfigSpec{
		Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceInjectedIdentity},
		Region:      aws.String(region),
		Endpoint:    &v1alpha1.EndpointOverride{URL: srv.URL},
	}}}
	if err := kube.Create(ctx, pc); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = kube.Delete(ctx, pc) }()

	a := newReplica(t, kubeconfig, dir, "replica-a", "AKIDREPLICAA")
	b := newReplica(t, kubeconfig, dir, "replica-b", "AKIDREPLICAB")
	third := newReplica(t, kubeconfig, dir, "replica-c", "AKIDREPLICAC")
	defer a.kill()
	defer b.kill()
	defer third.kill()
	defer logsIfFailed(t, a, b, third)

	// A starts alone and leads. Its /readyz fails, saying why, until every
	// controller has started.
	log, reasons := a.waitReady(t)
	t.Logf("replica A's /readyz/controllers before it was ready: %q", reasons)
	if len(reasons) == 0 {
		t.Error("replica A's /readyz never said why it was not ready")
	}
	if started := controllersLogging(log, "Starting workers"); len(started) != controllerCount {
		t.Errorf("replica A was ready with %d controllers started, want all %d: %s", len(started), controllerCount, started)
	}
	leaderA := holder(ctx, kube)
	if leaderA == "" {
		t.Fatal("replica A is ready and holds no lease")
	}

	// B stands by: ready with its controllers warm, none started.
	log, reasons = b.waitReady(t)
	t.Logf("replica B's /readyz/controllers before it was ready: %q", reasons)
	if started := controllersLogging(log, "Starting workers"); len(started) > 0 {
		t.Errorf("standby replica B started controllers: %s", started)
	}
	if warm := controllersLogging(log, "Starting EventSource"); len(warm) != controllerCount {
		t.Errorf("standby replica B was ready with %d controllers warm, want all %d: %s", len(warm), controllerCount, warm)
	}
	if h := holder(ctx, kube); h != leaderA {
		t.Fatalf("the lease went from replica A (%s) to %s", leaderA, h)
	}

	var objects []resource.Managed
	for _, kind := range kinds {
		mg := workload.Set{TopicARN: topicARN, Model: model}.Object(kind, leNamespace, "le-"+strings.ToLower(kind), before)
		mg.(resource.ModernManaged).SetProviderConfigReference(&xpv2.ProviderConfigReference{Kind: v1alpha1.ClusterProviderConfigKind, Name: leConfig}) //nolint:forcetypeassert // every kind is one
		if err := kube.Create(ctx, mg); err != nil {
			t.Fatal(err)
		}
		objects = append(objects, mg)
	}
	settled := func(what string, timeout time.Duration) bool {
		t.Helper()
		var stuck []string
		for deadline := time.Now().Add(timeout); ; time.Sleep(200 * time.Millisecond) {
			stuck = stuck[:0]
			for _, mg := range objects {
				if why := notSettled(ctx, kube, mg, false); why != "" {
					stuck = append(stuck, objectName(mg)+": "+why)
				}
			}
			if len(stuck) == 0 || time.Now().After(deadline) {
				break
			}
		}
		for _, s := range stuck {
			t.Errorf("%s: %s", what, s)
		}
		return len(stuck) == 0
	}
	if !settled("created", time.Minute) {
		t.FailNow()
	}
	// A few polls' worth of quiet: the standby still calls nothing.
	time.Sleep(3 * time.Second)
	byKey := em.CallsByKey()
	t.Logf("AWS calls before the kill: replica A %d, replica B %d; memory: leader A %s, standby B %s", byKey[a.key], byKey[b.key], a.rss(), b.rss())
	if byKey[a.key] == 0 || byKey[b.key] != 0 {
		t.Errorf("AWS calls by replica: A (leader) %d, B (standby) %d; want only the leader's", byKey[a.key], byKey[b.key])
	}

	// The leader crashes; every object changes at once.
	ready := watchUnready(t)
	watching, stopWatching := context.WithCancel(ctx)
	defer stopWatching()
	tookOver := watchHolder(watching, kube, leaderA)
	killed := time.Now()
	a.kill()
	worst := failover(t, c, objects, after, killed, failoverBudget)
	var takeover time.Duration
	select {
	case at := <-tookOver:
		takeover = at.Sub(killed)
	case <-time.After(time.Minute):
		t.Fatal("replica B never took the lease over")
	}
	stopWatching()
	// client-go's standby looks every 1 to 2.2 retry periods: it may see
	// the leader's last renewal up to one look after the kill, and the
	// lease expired up to one look after the lease duration.
	takeoverBound := lease.Duration + time.Duration(2*2.2*float64(lease.RetryPeriod))
	t.Logf("SIGKILL of the leader: replica B took the lease over %s after it (lease %s, retry %s: at most %s); every change made at the kill was on AWS %s after it",
		takeover.Round(time.Millisecond), lease.Duration, lease.RetryPeriod, takeoverBound, worst.Round(time.Millisecond))
	if takeover > takeoverBound {
		t.Errorf("replica B took the lease over %s after the kill, want at most %s", takeover.Round(time.Millisecond), takeoverBound)
	}
	if worst > failoverBudget {
		t.Errorf("the changes made at the kill reached AWS %s after it, want at most %s", worst.Round(time.Millisecond), failoverBudget)
	}
	settled("after the failover", 30*time.Second)
	ready.stop()
	for _, s := range ready.report() {
		t.Errorf("not Ready during the failover: %s", s)
	}
	if started := controllersLogging(b.log(t), "Starting workers"); len(started) != controllerCount {
		t.Errorf("replica B leads with %d controllers started, want all %d: %s", len(started), controllerCount, started)
	}
	if code, body := b.probe("/readyz"); code != http.StatusOK {
		t.Errorf("replica B leads and its /readyz answers %d: %s", code, body)
	}

	// A third replica stands by; the leader stops cleanly and gives the
	// lease up.
	third.waitReady(t)
	leaderB := holder(ctx, kube)
	ready = watchUnready(t)
	watching, stopWatching = context.WithCancel(ctx)
	defer stopWatching()
	tookOver = watchHolder(watching, kube, leaderB)
	stopped := time.Now()
	go b.stop(syscall.SIGTERM)
	handedOver := failover(t, c, objects, before, stopped, failoverBudget)
	select {
	case at := <-tookOver:
		takeover = at.Sub(stopped)
	case <-time.After(time.Minute):
		t.Fatal("replica C never took the lease over")
	}
	stopWatching()
	// A lease given up is taken at the standby's next look.
	releaseBound := time.Duration(2*2.2*float64(lease.RetryPeriod)) + time.Second
	t.Logf("SIGTERM of the leader: replica C took the lease over %s after it (at most %s); every change made then was on AWS %s after it", takeover.Round(time.Millisecond), releaseBound, handedOver.Round(time.Millisecond))
	if takeover > releaseBound {
		t.Errorf("replica C took the lease over %s after the leader's SIGTERM, want at most %s: the leader did not give the lease up", takeover.Round(time.Millisecond), releaseBound)
	}
	settled("after the handover", 30*time.Second)
	ready.stop()
	for _, s := range ready.report() {
		t.Errorf("not Ready during the handover: %s", s)
	}

	// No AWS resource created twice, every creation by the first leader;
	// no write made twice by the replicas that took over.
	for id, n := range em.CreationCounts() {
		if n != 1 {
			t.Errorf("%s was created %d times", id, n)
		}
	}
	for _, cr := range em.Creations() {
		if cr.AccessKey != a.key {
			t.Errorf("%s was created by %s, not by the first leader", cr.Identity(), cr.AccessKey)
		}
	}
	if n := len(em.Creations()); n != len(objects) {
		t.Errorf("%d creations, want one per object (%d)", n, len(objects))
	}
	seen := map[string]int{}
	for _, w := range em.Writes() {
		switch w.AccessKey {
		case a.key:
			if w.Time.After(killed) {
				t.Errorf("replica A wrote to AWS after it was killed: %+v", w)
			}
		case b.key, third.key:
			seen[w.AccessKey+" "+w.Operation+" "+w.Resource]++
		}
	}
	for w, n := range seen {
		if n > 1 {
			t.Errorf("write made %d times: %s", n, w)
		}
	}
	t.Logf("AWS writes after the kill: %d, each once", len(seen))

	for _, mg := range objects {
		if err := kube.Delete(ctx, mg); err != nil && !kerrors.IsNotFound(err) {
			t.Error(err)
		}
	}
	for deadline := time.Now().Add(time.Minute); total(em.Inventory()) > 0 && time.Now().Before(deadline); {
		time.Sleep(200 * time.Millisecond)
	}
	if left := em.Inventory(); total(left) > 0 {
		t.Errorf("AWS resources left after every object was deleted: %+v", left)
	}
}
