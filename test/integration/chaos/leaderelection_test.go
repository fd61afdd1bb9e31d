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
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

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

// A replica is one provider process of two or more that elect a leader. Each
// signs its AWS calls with a key of its own (the ClusterProviderConfig takes
// credentials from the environment), so that the emulator tells which
// replica called AWS.
type replica struct {
	*process
	key, health string
}

func newReplica(t *testing.T, kubeconfig, dir, name, key string) *replica {
	t.Helper()
	health := freeAddress(t)
	return &replica{key: key, health: health, process: &process{
		t: t, kubeconfig: kubeconfig, logDir: dir, metrics: freeAddress(t), name: name, health: health,
		args:    []string{"--leader-election", "--namespace=" + leHome},
		environ: []string{"AWS_ACCESS_KEY_ID=" + key, "AWS_SECRET_ACCESS_KEY=secret-" + key, "AWS_EC2_METADATA_DISABLED=true"},
	}}
}

// probe answers a GET of the replica's health endpoint path: its status and
// body, or 0 when nothing answers.
func (r *replica) probe(path string) (int, string) {
	resp, err := http.Get("http://" + r.health + path)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, strings.TrimSpace(string(b))
}

// log returns what the replica's last run has logged so far.
func (r *replica) log(t *testing.T) string {
	t.Helper()
	r.mu.Lock()
	path := r.logs[len(r.logs)-1]
	r.mu.Unlock()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// rss is the replica's resident memory, from /proc.
func (r *replica) rss() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cmd == nil {
		return "gone"
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", r.cmd.Process.Pid))
	if err != nil {
		return err.Error()
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmRSS:") {
			return strings.Join(strings.Fields(strings.TrimPrefix(l, "VmRSS:")), " ")
		}
	}
	return "unknown"
}

// waitReady starts the replica and waits until its /readyz answers 200.
// It returns the replica's log at that moment and the reasons
// /readyz/controllers gave while it was not ready.
func (r *replica) waitReady(t *testing.T) (log string, reasons []string) {
	t.Helper()
	r.start()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		code, _ := r.probe("/readyz")
		if code == http.StatusOK {
			return r.log(t), reasons
		}
		if code, body := r.probe("/readyz/controllers"); code == http.StatusInternalServerError && !slices.Contains(reasons, body) {
			reasons = append(reasons, body)
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s: /readyz not ready after a minute; it said %q; log:\n%s", r.name, reasons, tail([]byte(r.log(t)), 4096))
	return "", nil
}

// controllersLogging returns the controllers named in the log's lines that
// contain what.
func controllersLogging(log, what string) []string {
	re := regexp.MustCompile(`"controller": "([^"]+)"`)
	var out []string
	for _, l := range strings.Split(log, "\n") {
		if !strings.Contains(l, what) {
			continue
		}
		if m := re.FindStringSubmatch(l); len(m) > 1 && !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	slices.Sort(out)
	return out
}

// controllerCount is the number of controllers a replica runs: one per kind,
// two for the provider configs and one for the usages being deleted.
var controllerCount = len(kinds) + 3

// logsIfFailed prints the end of every log of the replicas when the test
// failed.
func logsIfFailed(t *testing.T, replicas ...*replica) {
	t.Helper()
	if !t.Failed() {
		return
	}
	for _, r := range replicas {
		for _, l := range r.logs {
			if out, err := os.ReadFile(l); err == nil {
				t.Logf("--- %s (last 6 KiB) ---\n%s", filepath.Base(l), tail(out, 6144))
			}
		}
	}
}

func tail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}

// holder reads who holds the leader's Lease.
func holder(ctx context.Context, kube client.Client) string {
	l := &coordinationv1.Lease{}
	if err := kube.Get(ctx, types.NamespacedName{Namespace: leHome, Name: leaseName}, l); err != nil {
		return ""
	}
	return aws.ToString(l.Spec.HolderIdentity)
}

// watchHolder reports the first time the leader's Lease has a holder other
// than was, polling every 50 ms until ctx ends.
func watchHolder(ctx context.Context, kube client.Client, was string) <-chan time.Time {
	out := make(chan time.Time, 1)
	go func() {
		for ctx.Err() == nil {
			if h := holder(ctx, kube); h != "" && h != was {
				out <- time.Now()
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	}()
	return out
}

// unready watches the objects of the namespace and records every moment one
// of them is not Ready, until stop is called.
type unready struct {
	mu   sync.Mutex
	seen []string
	stop context.CancelFunc
}

func watchUnready(t *testing.T) *unready {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	u := &unready{stop: cancel}
	wc, err := client.NewWithWatch(env.ControlPlane.Config, client.Options{Scheme: env.ControlPlane.Scheme})
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range kinds {
		w, err := wc.Watch(ctx, workload.List(kind), client.InNamespace(leNamespace))
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			defer w.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case ev, ok := <-w.ResultChan():
					if !ok {
						return
					}
					mg, isMR := ev.Object.(resource.Managed)
					if !isMR || ev.Type == watch.Deleted {
						continue
					}
					if c := mg.GetCondition(xpv2.TypeReady); c.Status != corev1.ConditionTrue {
						u.mu.Lock()
						u.seen = append(u.seen, fmt.Sprintf("%s at %s: Ready=%s %s %q", objectName(mg), time.Now().Format("15:04:05.000"), c.Status, c.Reason, c.Message))
						u.mu.Unlock()
					}
				}
			}
		}()
	}
	return u
}

func (u *unready) report() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return slices.Clone(u.seen)
}

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

// A slowAPIServer stands between the provider and the API server and holds
// every request for as long as it is told, as an overloaded API server
// answers late.
type slowAPIServer struct {
	srv   *httptest.Server
	delay atomic.Int64
}

func newSlowAPIServer(t *testing.T) *slowAPIServer {
	t.Helper()
	cfg := env.ControlPlane.Config
	rt, err := rest.TransportFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	host := cfg.Host
	if !strings.Contains(host, "://") {
		host = "https://" + host
	}
	u, err := url.Parse(host)
	if err != nil {
		t.Fatal(err)
	}
	p := httputil.NewSingleHostReverseProxy(u)
	p.Transport = rt
	p.FlushInterval = -1 // watches stream
	s := &slowAPIServer{}
	s.srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(time.Duration(s.delay.Load()))
		p.ServeHTTP(w, r)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

// kubeconfig writes a kubeconfig that reaches the API server through s; s
// signs in as the test does.
func (s *slowAPIServer) kubeconfig(t *testing.T, path string) {
	t.Helper()
	kc := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters: [{name: slow, cluster: {server: %q, insecure-skip-tls-verify: true}}]
users: [{name: slow, user: {}}]
contexts: [{name: slow, context: {cluster: slow, user: slow}}]
current-context: slow
`, s.srv.URL)
	if err := os.WriteFile(path, []byte(kc), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestLeaderElectionOnASlowAPIServer runs two replicas through an API
// server that answers every request 4 s late for longer than the lease
// lasts: the leader keeps renewing within its 10 s deadline, and the lease
// never changes hands.
func TestLeaderElectionOnASlowAPIServer(t *testing.T) {
	if env.BuildErr != nil {
		t.Fatal(env.BuildErr)
	}
	const slowFor, late = 30 * time.Second, 4 * time.Second
	ctx := context.Background()
	kube := env.ControlPlane.Client
	if err := kube.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: leHome}}); err != nil && !kerrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
	// Whoever held the lease before (TestLeaderElection) is gone: a new
	// leader need not wait for it to expire.
	_ = kube.Delete(ctx, &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Namespace: leHome, Name: leaseName}})

	slow := newSlowAPIServer(t)
	dir := t.TempDir()
	kubeconfig := filepath.Join(dir, "kubeconfig")
	slow.kubeconfig(t, kubeconfig)
	a := newReplica(t, kubeconfig, dir, "slow-a", "AKIDSLOWA")
	b := newReplica(t, kubeconfig, dir, "slow-b", "AKIDSLOWB")
	defer a.kill()
	defer b.kill()
	defer logsIfFailed(t, a, b)
	a.waitReady(t)
	leader := holder(ctx, kube)
	if leader == "" {
		t.Fatal("replica A is ready and holds no lease")
	}
	b.waitReady(t)

	slow.delay.Store(int64(late))
	slowSince := time.Now()
	watching, stopWatching := context.WithCancel(ctx)
	changed := watchHolder(watching, kube, leader)
	select {
	case at := <-changed:
		t.Errorf("the lease changed hands %s into an API server answering %s late", at.Sub(slowSince).Round(time.Second), late)
	case <-time.After(slowFor):
	}
	stopWatching()
	slow.delay.Store(0)
	for _, r := range []*replica{a, b} {
		r.mu.Lock()
		running := r.cmd != nil && r.cmd.ProcessState == nil
		r.mu.Unlock()
		if !running {
			t.Errorf("%s exited while the API server was slow", r.name)
		}
	}
	if log := a.log(t); strings.Contains(log, "Failed to renew lease") || strings.Contains(log, "leader election lost") {
		t.Error("the leader gave the lease up while the API server was slow")
	}
	if !t.Failed() {
		t.Logf("an API server answering every request %s late for %s: the leader kept the lease", late, slowFor)
	}
}
