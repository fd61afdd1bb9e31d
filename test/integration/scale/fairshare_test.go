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

package scale

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	streamingv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/ackannotations"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/managedoptions"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/budget"
	"github.com/cloudkinds/provider-aws-services/test/crowd"
	"github.com/cloudkinds/provider-aws-services/test/emulator"
	"github.com/cloudkinds/provider-aws-services/test/workload"
)

const (
	// fairConfig is the one ClusterProviderConfig (one account, one region)
	// of every stream; not BenchmarkScale's "default", so that the two can
	// share a control plane.
	fairConfig = "fairshare"
	quietNS    = "quiet"
	noisyNS    = "noisy"
	teams      = 10
	// lag is how long after noisy's flood begins quiet does its work: the
	// flood's queues are long by then.
	lag = 15 * time.Second
	// slack is how much slower than alone quiet's work may be in a flood.
	slack = 10 * time.Second
	// boundSlack is how far over the AWS bound a flood may take.
	boundSlack = 1.15
	// invalidPolicy is a deletion policy that is neither retain nor delete:
	// the deletion of an object carrying it waits, calling nothing
	// (ackannotations.Initialize), until the policy is fixed.
	invalidPolicy = "keep"
)

// fairSettings are the size of BenchmarkFairShare.
type fairSettings struct {
	settings        // BenchmarkScale's: BENCH_LATENCY, BENCH_QUOTAS, BENCH_MAX_RECONCILE_RATE
	flood    int    // BENCH_FAIR_FLOOD: noisy's streams
	stuck    int    // BENCH_FAIR_STUCK: of them, those deleted with an invalid deletion policy
	ten      int    // BENCH_FAIR_TEN: streams of each of ten namespaces
	logs     string // BENCH_FAIR_LOGS: a folder to keep the provider's log in
	debug    bool   // BENCH_FAIR_DEBUG=1: the provider logs at debug level
}

func fairSettingsFromEnv(b *testing.B) fairSettings {
	b.Helper()
	s := fairSettings{settings: settingsFromEnv(b), flood: 1000, stuck: 500, ten: 100, logs: os.Getenv("BENCH_FAIR_LOGS")}
	for name, dst := range map[string]*int{"BENCH_FAIR_FLOOD": &s.flood, "BENCH_FAIR_STUCK": &s.stuck, "BENCH_FAIR_TEN": &s.ten} {
		if v := os.Getenv(name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				b.Fatalf("%s=%q: want a whole number above 0", name, v)
			}
			*dst = n
		}
	}
	s.stuck = min(s.stuck, s.flood)
	s.debug = os.Getenv("BENCH_FAIR_DEBUG") == "1"
	return s
}

// quietTimes are how long quiet's work took: a new stream until Ready and
// Synced, a changed tag until AWS has it, a deleted stream until it is gone
// from Kubernetes. Zero is work not done. missed names the operations not
// done within the run's quietPatience; their times are that.
type quietTimes struct {
	create, change, gone time.Duration
	missed               string
}

func (t quietTimes) String() string {
	return fmt.Sprintf("create %.1f s, change %.1f s, delete %.1f s%s", t.create.Seconds(), t.change.Seconds(), t.gone.Seconds(), t.missed)
}

// A scenario is what one scenario measured.
type scenario struct {
	name string
	load string        // noisy's work
	took time.Duration // until noisy's work was done; 0 when not measured
	// stalled says how much of noisy's work was done when the run's
	// patience ran out; empty when all was.
	stalled string
	bound   opLoad // the AWS bound of noisy's work (and quiet's)
	quiet   quietTimes
	// quietWait is the time quiet's changes whose turn came in the scenario
	// waited for it (provider_aws_services_namespace_turn_wait_seconds):
	// earlier work that waited until then counts too.
	quietWait float64
	// Throttled answers, as the provider counted them
	// (provider_aws_services_aws_calls_total) and as the emulator gave them.
	throttledProvider, throttledAWS int
	wall                            time.Duration // the scenario's, its cleanup included
}

// fairFigures are what BenchmarkFairShare measures.
type fairFigures struct {
	s         fairSettings
	flags     flags
	alone     []quietTimes // quiet's rounds alone
	scenarios []scenario   // after scenario 1
	// Scenario 4: of the stuck deletions, those still held at its end, and
	// the AWS calls and deletes made for them; the reconciles run during it.
	held, stuckCalls, stuckDeletes int
	reconciles                     float64
	// Scenario 5: each namespace's time until all its streams were Ready.
	teamTimes map[string]time.Duration
}

// fairLast holds the figures of the one run.
var fairLast *fairFigures

// BenchmarkFairShare measures how the provider shares one AWS account's
// quota between namespaces ("teams"). Its binary runs with its own defaults
// against the emulator of BenchmarkScale, which enforces AWS's published
// quotas (Firehose: 5 calls a second per operation, of which the budgets
// take 80 %); every stream is a DeliveryStream of one ClusterProviderConfig,
// so all share one budget per operation. Inside a budget the namespaces
// waiting take turns (internal/tenancy/budget/turns.go): one team's flood
// should delay another's work by a few slots, not by the flood.
//
//  1. quiet alone: one create, one change and one delete in namespace quiet,
//     at once, each timed (three rounds: the baseline is their median);
//  2. create flood: noisy applies BENCH_FAIR_FLOOD streams at once, and 15 s
//     later quiet does its three again: quiet within 10 s of alone, noisy's
//     flood within 1.15 × the AWS bound, no throttled answer;
//  3. change flood: noisy changes all its streams at once; quiet as in 2;
//  4. stuck deletions: BENCH_FAIR_STUCK of noisy's streams, which carry an
//     invalid deletion policy, are deleted and wait; quiet changes a stream;
//  5. ten namespaces apply BENCH_FAIR_TEN streams each at once: (max − min)
//     / mean of their times to all Ready at most 0.2.
//
// A target missed is reported, not failed. It does its work once, whatever
// b.N is.
//
//	make bench.fair
//	make bench.fair BENCH_FAIR_FLOOD=100 BENCH_FAIR_STUCK=50 BENCH_FAIR_TEN=20
func BenchmarkFairShare(b *testing.B) {
	if fairLast == nil {
		f := runFair(b)
		// Printed, not logged: a benchmark's log is cut at ten lines.
		fmt.Println(f.table())
		fairLast = f
	}
	fairLast.report(b)
}

// fairRun is the state of the run: the provider, the emulator, and quiet's
// streams.
type fairRun struct {
	b    *testing.B
	ctx  context.Context
	kube client.Client
	em   *emulator.Server
	p    *process
	q    budget.Quotas
	// patience is how long a flood may take: twice the longest flood's AWS
	// bound, and two minutes; longer, it stalled. quiet's work that takes
	// longer than that bound and two minutes waited for the flood, or for
	// ever. Either is reported, and the run goes on.
	patience, quietPatience time.Duration
	start                   time.Time
	// live are quiet's streams, oldest first; next numbers its next, and
	// version its next change.
	live          []string
	next, version int
}

func runFair(b *testing.B) *fairFigures {
	b.Helper()
	if env.BuildErr != nil {
		b.Fatal(env.BuildErr)
	}
	s := fairSettingsFromEnv(b)
	fl, err := readFlags(env.Binary, s.maxReconcileRate)
	if err != nil {
		b.Fatal(err)
	}
	f := &fairFigures{s: s, flags: fl}
	r := &fairRun{b: b, ctx: context.Background(), kube: env.ControlPlane.Client, q: budget.Quotas{Share: budget.DefaultShare}, start: time.Now()}
	longest := awsLoads(map[string]int{"DeliveryStream": max(s.flood, teams*s.ten)}, r.q)[0].time()
	r.patience, r.quietPatience = 2*longest+2*time.Minute, longest+2*time.Minute

	r.em = emulator.New(emulator.Options{Seed: 1, CreateDelay: 2 * time.Second, UpdateDelay: 2 * time.Second, DeleteDelay: 2 * time.Second})
	if s.latency > 0 || s.jitter > 0 {
		r.em.SetFaults(map[string]emulator.Fault{"*": {Latency: s.latency, LatencyJitter: s.jitter}})
	}
	if s.quotas {
		r.em.SetQuotas(emulator.PublishedQuotas)
	}
	srv := httptest.NewServer(r.em)
	defer srv.Close()
	dir := s.logs
	if dir == "" {
		dir = b.TempDir()
	}
	kubeconfig := filepath.Join(dir, "kubeconfig")
	if err := os.WriteFile(kubeconfig, env.ControlPlane.KubeConfig, 0o600); err != nil {
		b.Fatal(err)
	}
	args := fl.args()
	if s.debug {
		args = append(args, "--debug")
	}
	if r.p, err = startProvider(kubeconfig, dir, 1, args); err != nil {
		b.Fatal(err)
	}
	defer r.p.Kill()
	r.logf("provider log: %s", r.p.Log)
	if _, err := r.p.waitForMetrics(time.Minute); err != nil {
		b.Fatal(err)
	}
	r.must(r.prepare(srv.URL))

	f.alone = r.alone()
	f.scenarios = append(f.scenarios, r.createFlood(s), r.changeFlood(s))
	sc, held, calls, deletes, reconciles := r.stuckDeletions(s)
	f.scenarios = append(f.scenarios, sc)
	f.held, f.stuckCalls, f.stuckDeletes, f.reconciles = held, calls, deletes, reconciles
	sc, f.teamTimes = r.tenNamespaces(s)
	f.scenarios = append(f.scenarios, sc)

	// Leave the control plane as it was, for a benchmark after this one.
	for _, ns := range append([]string{quietNS}, teamNames()...) {
		r.must(r.letGo(ns))
	}
	if err := r.kube.Delete(r.ctx, &v1alpha1.ClusterProviderConfig{ObjectMeta: metav1.ObjectMeta{Name: fairConfig}}); err != nil {
		b.Log(err)
	}
	if err := r.p.Stop(); err != nil {
		b.Error(err)
	}
	return f
}

// prepare creates the namespaces, their Secrets, the ClusterProviderConfig
// and quiet's two streams, and waits until those are Ready.
func (r *fairRun) prepare(endpoint string) error {
	for _, ns := range append([]string{quietNS, noisyNS}, teamNames()...) {
		if err := r.kube.Create(r.ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil && !kerrors.IsAlreadyExists(err) {
			return err
		}
		sec := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: workload.AccessKeySecret}, StringData: map[string]string{workload.AccessKeyKey: "fair"}}
		if err := r.kube.Create(r.ctx, sec); err != nil && !kerrors.IsAlreadyExists(err) {
			return err
		}
	}
	pc := &v1alpha1.ClusterProviderConfig{ObjectMeta: metav1.ObjectMeta{Name: fairConfig}, Spec: v1alpha1.ClusterProviderConfigSpec{ProviderConfigSpec: v1alpha1.ProviderConfigSpec{
		Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceNone},
		Region:      aws.String("us-east-1"),
		Endpoint:    &v1alpha1.EndpointOverride{URL: endpoint},
	}}}
	if err := r.kube.Create(r.ctx, pc); err != nil {
		return err
	}
	r.live, r.next = []string{"quiet-0", "quiet-1"}, 2
	return crowd.Parallel(2, 2, func(i int) error {
		_, err := r.create(fairStream(quietNS, r.live[i], nil))
		return err
	})
}

// alone is scenario 1: quiet's work with nothing else going on, three times.
func (r *fairRun) alone() []quietTimes {
	r.logf("scenario 1: quiet alone")
	out := make([]quietTimes, 0, 3)
	for range 3 {
		// A stream deleted within the creation grace period of its create
		// waits it out (crossplane-runtime takes its not-found for AWS's
		// eventual consistency): quiet deletes only streams older than that.
		time.Sleep(managedoptions.CreationGracePeriod)
		t, err := r.quietRound(true)
		r.must(err)
		out = append(out, t)
	}
	return out
}

// createFlood is scenario 2: noisy applies its streams at once; quiet works
// 15 s into the flood. The first of noisy's streams carry an invalid
// deletion policy from the start, for scenario 4: on a live object it only
// warns.
func (r *fairRun) createFlood(s fairSettings) scenario {
	sc := scenario{name: "2. create flood", load: fmt.Sprintf("%d creates", s.flood),
		// noisy's creates and quiet's one, each with its look once AWS is done.
		bound: awsLoads(map[string]int{"DeliveryStream": s.flood + 1}, r.q)[0]}
	r.measure(&sc, func() {
		objs := make([]*streamingv1alpha1.DeliveryStream, s.flood)
		for i := range objs {
			var a map[string]string
			if i < s.stuck {
				a = map[string]string{ackannotations.AnnotationDeletionPolicy: invalidPolicy}
			}
			objs[i] = fairStream(noisyNS, noisyName(i), a)
		}
		start := time.Now()
		var took map[string]time.Duration
		sc.quiet = r.duringFlood(start, func() error {
			return crowd.Parallel(len(objs), 8, func(i int) error { return r.kube.Create(r.ctx, objs[i]) })
		}, func() error {
			var ready map[string]int
			var err error
			took, ready, err = r.readyTimes(start, map[string]int{noisyNS: s.flood})
			sc.took, sc.stalled, err = r.stalled(err, took[noisyNS], ready[noisyNS], s.flood)
			return err
		})
	})
	return sc
}

// changeFlood is scenario 3: every one of noisy's streams gets a new tag
// value at once; quiet works 15 s into it.
func (r *fairRun) changeFlood(s fairSettings) scenario {
	sc := scenario{name: "3. change flood", load: fmt.Sprintf("%d tag changes", s.flood), bound: changeBound(s.flood+1, r.q)}
	r.measure(&sc, func() {
		names := map[string]bool{}
		for i := range s.flood {
			names[noisyName(i)] = true
		}
		start := time.Now()
		sc.quiet = r.duringFlood(start, func() error {
			return crowd.Parallel(s.flood, 8, func(i int) error {
				return r.kube.Patch(r.ctx, stub(noisyNS, noisyName(i)), tagPatch("flood"))
			})
		}, func() error {
			last, n, err := r.tagged(names, start)
			sc.took, sc.stalled, err = r.stalled(err, last.Sub(start), n, s.flood)
			return err
		})
	})
	return sc
}

// stuckDeletions is scenario 4: the first BENCH_FAIR_STUCK of noisy's
// streams are deleted, and wait for their invalid deletion policy; 15 s
// later quiet changes a stream. It returns too how many of them were still
// held at its end, the AWS calls and deletes made for them, and the
// reconciles run during it. noisy's streams are let go at its end.
func (r *fairRun) stuckDeletions(s fairSettings) (sc scenario, held, calls, deletes int, reconciles float64) {
	sc = scenario{name: "4. stuck deletions", load: fmt.Sprintf("%d deletions held", s.stuck)}
	r.measure(&sc, func() {
		before, err := r.p.scrape()
		r.must(err)
		callsBefore := r.callsFor(s.stuck)
		start := time.Now()
		r.must(crowd.Parallel(s.stuck, 8, func(i int) error { return r.kube.Delete(r.ctx, stub(noisyNS, noisyName(i))) }))
		time.Sleep(time.Until(start.Add(lag)))
		t, err := r.quietRound(false)
		r.must(err)
		sc.quiet = t

		after, err := r.p.scrape()
		r.must(err)
		reconciles = metricSum(after, "provider_aws_services_reconciles_total{") - metricSum(before, "provider_aws_services_reconciles_total{")
		calls = r.callsFor(s.stuck) - callsBefore
		stuck := map[string]bool{}
		for i := range s.stuck {
			stuck[noisyName(i)] = true
		}
		for _, w := range r.em.Writes() {
			if w.IsDelete() && stuck[w.Resource] && w.Time.After(start) {
				deletes++
			}
		}
		l := &streamingv1alpha1.DeliveryStreamList{}
		r.must(r.kube.List(r.ctx, l, client.InNamespace(noisyNS)))
		for i := range l.Items {
			if l.Items[i].DeletionTimestamp != nil {
				held++
			}
		}
		r.must(r.letGo(noisyNS))
	})
	return sc, held, calls, deletes, reconciles
}

// tenNamespaces is scenario 5: ten namespaces apply their streams at once,
// interleaved so that none is first.
func (r *fairRun) tenNamespaces(s fairSettings) (scenario, map[string]time.Duration) {
	sc := scenario{name: "5. ten namespaces", load: fmt.Sprintf("%d × %d creates", teams, s.ten),
		bound: awsLoads(map[string]int{"DeliveryStream": teams * s.ten}, r.q)[0]}
	var took map[string]time.Duration
	r.measure(&sc, func() {
		want := map[string]int{}
		for _, ns := range teamNames() {
			want[ns] = s.ten
		}
		start := time.Now()
		apply := crowd.Parallel(teams*s.ten, 8, func(i int) error {
			ns := teamNames()[i%teams]
			return r.kube.Create(r.ctx, fairStream(ns, fmt.Sprintf("%s-%d", ns, i/teams), nil))
		})
		r.must(apply)
		var ready map[string]int
		var err error
		took, ready, err = r.readyTimes(start, want)
		n := 0
		for _, ns := range teamNames() {
			n += min(ready[ns], s.ten)
			sc.took = max(sc.took, took[ns])
		}
		sc.took, sc.stalled, err = r.stalled(err, sc.took, n, teams*s.ten)
		r.must(err)
	})
	return sc, took
}

// duringFlood starts noisy's flood (apply) and what waits for its end
// (wait), does quiet's work once lag has passed since start, and returns
// its times once both are done.
func (r *fairRun) duringFlood(start time.Time, apply, wait func() error) quietTimes {
	errs := make(chan error, 2)
	go func() { errs <- apply() }()
	go func() { errs <- wait() }()
	time.Sleep(time.Until(start.Add(lag)))
	t, err := r.quietRound(true)
	r.must(err)
	r.must(<-errs)
	r.must(<-errs)
	return t
}

// measure runs a scenario, and counts its wall time, the throttled
// answers and quiet's waits for its turn.
func (r *fairRun) measure(sc *scenario, do func()) {
	r.logf("scenario %s: %s", sc.name, sc.load)
	before := r.counters()
	start := time.Now()
	do()
	sc.wall = time.Since(start)
	after := r.counters()
	sc.throttledProvider = int(after.throttledProvider - before.throttledProvider)
	sc.throttledAWS = int(after.throttledAWS - before.throttledAWS)
	sc.quietWait = after.quietWait - before.quietWait
	r.logf("scenario %s done in %s: noisy %s (AWS bound %s); quiet: %s; throttled %d/%d",
		sc.name, minutes(sc.wall), minutes(sc.took), minutes(sc.bound.time()), sc.quiet, sc.throttledProvider, sc.throttledAWS)
}

type counters struct{ throttledProvider, throttledAWS, quietWait float64 }

func (r *fairRun) counters() counters {
	text, err := r.p.scrape()
	r.must(err)
	return counters{
		throttledProvider: metricWhere(text, "provider_aws_services_aws_calls_total", map[string]string{"outcome": "throttled"}),
		throttledAWS:      float64(throttled(r.em.Outcomes())),
		quietWait:         metricWhere(text, "provider_aws_services_namespace_turn_wait_seconds_sum", map[string]string{"namespace": quietNS, "class": "change"}),
	}
}

// quietRound does quiet's work, its operations at once and each timed on
// its own: with all, it creates a stream, changes its youngest and deletes
// its oldest, so that it keeps two; else it only changes its youngest.
func (r *fairRun) quietRound(all bool) (quietTimes, error) {
	var (
		t     quietTimes
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	run := func(op, name string, dst *time.Duration, do func() (time.Duration, error)) {
		wg.Go(func() {
			d, err := do()
			mu.Lock()
			defer mu.Unlock()
			if errors.Is(err, errLate) {
				r.logf("quiet's %s missed: %v\n%s", op, err, r.diagnose(quietNS, name))
				d, err = r.quietPatience, nil
				t.missed += " " + op + " missed"
			}
			*dst = d
			if err != nil && first == nil {
				first = err
			}
		})
	}
	r.version++
	changed, version := r.live[len(r.live)-1], "v"+strconv.Itoa(r.version)
	run("change", changed, &t.change, func() (time.Duration, error) { return r.change(quietNS, changed, version) })
	if all {
		name, gone := "quiet-"+strconv.Itoa(r.next), r.live[0]
		r.next++
		r.live = append(r.live[1:], name)
		run("create", name, &t.create, func() (time.Duration, error) { return r.create(fairStream(quietNS, name, nil)) })
		run("delete", gone, &t.gone, func() (time.Duration, error) { return r.delete(quietNS, gone) })
	}
	wg.Wait()
	return t, first
}

// create applies a stream and returns how long until it was Ready and
// Synced.
func (r *fairRun) create(mg *streamingv1alpha1.DeliveryStream) (time.Duration, error) {
	t0 := time.Now()
	if err := r.kube.Create(r.ctx, mg); err != nil {
		return 0, err
	}
	return r.until(t0, r.quietPatience, mg.Name+" Ready", func() (bool, error) {
		err := r.kube.Get(r.ctx, client.ObjectKeyFromObject(mg), mg)
		return err == nil && readyAndSynced(mg), err
	})
}

// change sets a stream's tag "version" and returns how long until AWS took
// the tag, by the emulator's record of its writes.
func (r *fairRun) change(ns, name, version string) (time.Duration, error) {
	t0 := time.Now()
	if err := r.kube.Patch(r.ctx, stub(ns, name), tagPatch(version)); err != nil {
		return 0, err
	}
	var at time.Time
	_, err := r.until(t0, r.quietPatience, name+"'s tag at AWS", func() (bool, error) {
		n, last := r.lastTagged(map[string]bool{name: true}, t0)
		at = last
		return n == 1, nil
	})
	return at.Sub(t0), err
}

// delete deletes a stream and returns how long until it was gone from
// Kubernetes.
func (r *fairRun) delete(ns, name string) (time.Duration, error) {
	t0 := time.Now()
	if err := r.kube.Delete(r.ctx, stub(ns, name)); err != nil {
		return 0, err
	}
	return r.until(t0, r.quietPatience, name+" gone", func() (bool, error) {
		err := r.kube.Get(r.ctx, types.NamespacedName{Namespace: ns, Name: name}, &streamingv1alpha1.DeliveryStream{})
		if kerrors.IsNotFound(err) {
			return true, nil
		}
		return false, err
	})
}

// errLate is the error of what took longer than its patience.
var errLate = errors.New("too late")

// until checks done every 100ms until it is, and returns the time since t0:
// an error when it takes longer than patience, or outlives the provider.
func (r *fairRun) until(t0 time.Time, patience time.Duration, what string, done func() (bool, error)) (time.Duration, error) {
	for {
		ok, err := done()
		if err != nil {
			return 0, fmt.Errorf("%s: %w", what, err)
		}
		if ok {
			return time.Since(t0), nil
		}
		if err := r.p.Alive(); err != nil {
			return 0, err
		}
		if time.Since(t0) > patience {
			return 0, fmt.Errorf("%s: %w: not after %s", what, errLate, patience)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// stalled is what a flood's wait for noisy's work says when it ended in
// err: work not done within the run's patience is a stalled flood, which
// the run reports and goes on from.
func (r *fairRun) stalled(err error, took time.Duration, done, want int) (time.Duration, string, error) {
	if !errors.Is(err, errLate) {
		return took, "", err
	}
	r.logf("stalled: %d of %d done after %s", done, want, r.patience)
	return r.patience, fmt.Sprintf("stalled: %d of %d done after %s", done, want, minutes(r.patience)), nil
}

// readyTimes lists the streams of the namespaces of want every second, and
// returns, for each, how long after start its count of streams Ready and
// Synced first reached want, and the last count.
func (r *fairRun) readyTimes(start time.Time, want map[string]int) (map[string]time.Duration, map[string]int, error) {
	out, counts := map[string]time.Duration{}, map[string]int{}
	_, err := r.until(start, r.patience, "the floods Ready", func() (bool, error) {
		for ns, n := range want {
			if _, done := out[ns]; done {
				continue
			}
			l := &streamingv1alpha1.DeliveryStreamList{}
			if err := r.kube.List(r.ctx, l, client.InNamespace(ns)); err != nil {
				return false, err
			}
			ready := 0
			for i := range l.Items {
				if readyAndSynced(&l.Items[i]) {
					ready++
				}
			}
			if counts[ns] = ready; ready >= n {
				out[ns] = time.Since(start)
			}
		}
		if len(out) < len(want) {
			time.Sleep(900 * time.Millisecond)
		}
		return len(out) == len(want), nil
	})
	return out, counts, err
}

// tagged waits until AWS took a tag of every stream of names after start,
// and returns when it took the last, and of how many streams it took one.
func (r *fairRun) tagged(names map[string]bool, start time.Time) (time.Time, int, error) {
	var (
		last time.Time
		n    int
	)
	_, err := r.until(start, r.patience, "the changes at AWS", func() (bool, error) {
		if n, last = r.lastTagged(names, start); n < len(names) {
			time.Sleep(900 * time.Millisecond)
		}
		return n == len(names), nil
	})
	return last, n, err
}

// lastTagged returns of how many streams of names AWS took a tag
// (TagDeliveryStream) since since, and when it took the last.
func (r *fairRun) lastTagged(names map[string]bool, since time.Time) (int, time.Time) {
	seen := map[string]bool{}
	var last time.Time
	for _, w := range r.em.Writes() {
		if w.Operation == "TagDeliveryStream" && names[w.Resource] && w.Time.After(since) {
			seen[w.Resource] = true
			last = w.Time
		}
	}
	return len(seen), last
}

// diagnose says what a stream's object and the emulator show of it.
func (r *fairRun) diagnose(ns, name string) string {
	mg := stub(ns, name)
	if err := r.kube.Get(r.ctx, client.ObjectKeyFromObject(mg), mg); err != nil {
		return err.Error()
	}
	var w strings.Builder
	fmt.Fprintf(&w, "  %s/%s: generation %d, deleted %v, annotations %v\n", ns, name, mg.Generation, mg.DeletionTimestamp, mg.Annotations)
	for _, c := range mg.Status.Conditions {
		fmt.Fprintf(&w, "  %s=%s %s (generation %d, at %s): %s\n", c.Type, c.Status, c.Reason, c.ObservedGeneration, c.LastTransitionTime.Format(time.TimeOnly), c.Message)
	}
	fmt.Fprintf(&w, "  AWS: %s, calls %v; all calls %v", r.em.StreamStatus("us-east-1", name), r.em.CallsFor(name), r.em.Calls())
	if text, err := r.p.scrape(); err == nil {
		for _, l := range providerMetricLines(text) {
			if !strings.Contains(l, "_bucket{") && (strings.Contains(l, "namespace") || strings.Contains(l, "deferred") || strings.Contains(l, "budget_calls_total")) {
				fmt.Fprintf(&w, "\n  %s", l)
			}
		}
	}
	return w.String()
}

// callsFor is how many AWS calls named the first n of noisy's streams.
func (r *fairRun) callsFor(n int) int {
	sum := 0
	for i := range n {
		for _, c := range r.em.CallsFor(noisyName(i)) {
			sum += c
		}
	}
	return sum
}

// letGo deletes the streams of a namespace with the deletion policy retain:
// they leave Kubernetes without an AWS call, so that cleaning up takes
// nothing from the budgets (the streams stay in the emulator, which nobody
// looks at again).
func (r *fairRun) letGo(ns string) error {
	l := &streamingv1alpha1.DeliveryStreamList{}
	if err := r.kube.List(r.ctx, l, client.InNamespace(ns)); err != nil {
		return err
	}
	retain := client.RawPatch(types.MergePatchType, fmt.Appendf(nil, `{"metadata":{"annotations":{%q:%q}}}`,
		ackannotations.AnnotationDeletionPolicy, ackannotations.DeletionPolicyRetain))
	err := crowd.Parallel(len(l.Items), 8, func(i int) error {
		mg := &l.Items[i]
		if err := r.kube.Patch(r.ctx, mg, retain); err != nil {
			return client.IgnoreNotFound(err)
		}
		return client.IgnoreNotFound(r.kube.Delete(r.ctx, mg))
	})
	if err != nil {
		return err
	}
	_, err = r.until(time.Now(), r.patience, "the streams of "+ns+" let go", func() (bool, error) {
		if err := r.kube.List(r.ctx, l, client.InNamespace(ns)); err != nil {
			return false, err
		}
		return len(l.Items) == 0, nil
	})
	return err
}

func (r *fairRun) must(err error) {
	r.b.Helper()
	if err != nil {
		r.b.Fatal(err)
	}
}

// logf prints progress as it happens: b.Log prints only at the end.
func (r *fairRun) logf(format string, args ...any) {
	fmt.Printf("%6.0fs  %s\n", time.Since(r.start).Seconds(), fmt.Sprintf(format, args...))
}

// fairStream is a stream of the benchmark's ClusterProviderConfig, its tag
// "version" at v0.
func fairStream(ns, name string, annotations map[string]string) *streamingv1alpha1.DeliveryStream {
	mg := workload.Set{}.Object("DeliveryStream", ns, name, "v0").(*streamingv1alpha1.DeliveryStream) //nolint:forcetypeassert // Object's DeliveryStream
	mg.Spec.ProviderConfigReference.Name = fairConfig
	mg.SetAnnotations(annotations)
	return mg
}

// stub names a stream, for a patch or a delete.
func stub(ns, name string) *streamingv1alpha1.DeliveryStream {
	return &streamingv1alpha1.DeliveryStream{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
}

// tagPatch sets a stream's tag "version", the field workload.Set.Object
// changes between versions: the provider sends it with TagDeliveryStream.
func tagPatch(version string) client.Patch {
	return client.RawPatch(types.MergePatchType, fmt.Appendf(nil, `{"spec":{"forProvider":{"tags":[{"key":"version","value":%q}]}}}`, version))
}

func noisyName(i int) string { return noisyNS + "-" + strconv.Itoa(i) }

func teamNames() []string {
	out := make([]string, teams)
	for i := range out {
		out[i] = "team-" + strconv.Itoa(i)
	}
	return out
}

func readyAndSynced(mg *streamingv1alpha1.DeliveryStream) bool {
	return mg.GetCondition(xpv2.TypeReady).Status == corev1.ConditionTrue && mg.GetCondition(xpv2.TypeSynced).Status == corev1.ConditionTrue
}

// changeCalls are the AWS calls a change of a Ready stream's tag needs at
// least: the look that finds it (DescribeDeliveryStream, and the tags
// listed to compare them) and the write. Each operation has its own budget,
// so the calls of many changes overlap, and the AWS bound is the longest
// any of the three budgets takes.
var changeCalls = []budget.Operation{
	{Service: firehose.ServiceID, Name: "DescribeDeliveryStream"},
	{Service: firehose.ServiceID, Name: "ListTagsForDeliveryStream"},
	{Service: firehose.ServiceID, Name: "TagDeliveryStream"},
}

// changeBound is the AWS bound of n changes of a stream's tag.
func changeBound(n int, q budget.Quotas) opLoad {
	var out opLoad
	for _, op := range changeCalls {
		if l := (opLoad{op: op, calls: n, rate: q.Rate(op)}); l.time() > out.time() {
			out = l
		}
	}
	return out
}

// metricWhere sums a metric's values over the label sets that have labels.
func metricWhere(text, name string, labels map[string]string) float64 {
	var sum float64
	for _, line := range strings.Split(text, "\n") {
		rest, ok := strings.CutPrefix(line, name+"{")
		end := strings.LastIndexByte(rest, '}')
		if !ok || end < 0 {
			continue
		}
		match := true
		for k, v := range labels {
			match = match && labelValue(rest[:end], k) == v
		}
		fs := strings.Fields(rest[end+1:])
		if !match || len(fs) == 0 {
			continue
		}
		if v, err := strconv.ParseFloat(fs[0], 64); err == nil {
			sum += v
		}
	}
	return sum
}

// base is quiet's work alone: the median of each operation over the rounds.
func (f *fairFigures) base() quietTimes {
	median := func(get func(quietTimes) time.Duration) time.Duration {
		ds := make([]time.Duration, 0, len(f.alone))
		for _, t := range f.alone {
			ds = append(ds, get(t))
		}
		slices.Sort(ds)
		return ds[len(ds)/2]
	}
	return quietTimes{
		create: median(func(t quietTimes) time.Duration { return t.create }),
		change: median(func(t quietTimes) time.Duration { return t.change }),
		gone:   median(func(t quietTimes) time.Duration { return t.gone }),
	}
}

// worst is how much longer than alone quiet's slowest operation was in a
// scenario, and whether it stayed within slack.
func (f *fairFigures) worst(t quietTimes) (time.Duration, bool) {
	b := f.base()
	var w time.Duration
	for _, d := range [][2]time.Duration{{t.create, b.create}, {t.change, b.change}, {t.gone, b.gone}} {
		if d[0] > 0 {
			w = max(w, d[0]-d[1])
		}
	}
	return w, w <= slack
}

// spread is (max − min) / mean of the ten namespaces' times.
func (f *fairFigures) spread() (lo, hi, mean time.Duration, spread float64) {
	for _, d := range f.teamTimes {
		if lo == 0 || d < lo {
			lo = d
		}
		hi = max(hi, d)
		mean += d / time.Duration(len(f.teamTimes))
	}
	return lo, hi, mean, (hi - lo).Seconds() / mean.Seconds()
}

func passFail(ok bool) string {
	if ok {
		return "pass"
	}
	return "FAIL"
}

// opText writes one of quiet's times beside its time alone.
func opText(d, alone time.Duration) string {
	if d == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f s (%+.1f)", d.Seconds(), (d - alone).Seconds())
}

// table writes the figures as markdown tables.
func (f *fairFigures) table() string {
	var w strings.Builder
	s := f.s
	fmt.Fprintf(&w, "\n| setting | value |\n|---|---|\n")
	fmt.Fprintf(&w, "| streams | DeliveryStreams of one ClusterProviderConfig: one account, one region |\n")
	if s.quotas {
		fmt.Fprintf(&w, "| AWS quotas | enforced by the emulator: AWS's published per-operation rates (Firehose 5/s each) |\n")
	} else {
		fmt.Fprintf(&w, "| AWS quotas | not enforced (BENCH_QUOTAS=0) |\n")
	}
	fmt.Fprintf(&w, "| budgets | %.0f %% of the quotas: Firehose %s per operation |\n", budget.DefaultShare*100, perSecond(budget.Quotas{Share: budget.DefaultShare}.Rate(changeCalls[0])))
	fmt.Fprintf(&w, "| provider flags | --poll=%s (default) --max-reconcile-rate=%s |\n", f.flags.poll, f.flags.rate)
	fmt.Fprintf(&w, "| AWS latency per call | %s + up to %s; CREATING, UPDATING, DELETING last 2 s |\n", s.latency, s.jitter)
	fmt.Fprintf(&w, "| sizes | BENCH_FAIR_FLOOD=%d BENCH_FAIR_STUCK=%d BENCH_FAIR_TEN=%d |\n", s.flood, s.stuck, s.ten)

	b := f.base()
	fmt.Fprintf(&w, "\n| quiet's work (15 s into noisy's) | new stream: Ready | tag change: at AWS | deletion: gone | within %s of alone |\n|---|---|---|---|---|\n", slack)
	for i, t := range f.alone {
		fmt.Fprintf(&w, "| 1. alone, round %d | %.1f s | %.1f s | %.1f s | |\n", i+1, t.create.Seconds(), t.change.Seconds(), t.gone.Seconds())
	}
	fmt.Fprintf(&w, "| 1. alone: median (the baseline) | %.1f s | %.1f s | %.1f s | |\n", b.create.Seconds(), b.change.Seconds(), b.gone.Seconds())
	for _, sc := range f.scenarios {
		if sc.quiet == (quietTimes{}) {
			continue
		}
		worst, ok := f.worst(sc.quiet)
		fmt.Fprintf(&w, "| %s | %s | %s | %s | %s (worst %+.1f s)%s |\n", sc.name, opText(sc.quiet.create, b.create), opText(sc.quiet.change, b.change),
			opText(sc.quiet.gone, b.gone), passFail(ok), worst.Seconds(), sc.quiet.missed)
	}

	fmt.Fprintf(&w, "\n| scenario | noisy's work | took | AWS bound (binding budget: calls at its rate) | took / bound (≤ %.2f) | throttled: provider / emulator (want 0) | quiet's turn waits ended in it | wall time |\n|---|---|---|---|---|---|---|---|\n", boundSlack)
	for _, sc := range f.scenarios {
		took, bound, ratio := "-", "-", "-"
		if sc.took > 0 {
			took = minutes(sc.took)
		}
		if sc.stalled != "" {
			took = "**" + sc.stalled + "**"
		}
		if sc.bound.rate > 0 {
			r := sc.took.Seconds() / sc.bound.time().Seconds()
			bound = fmt.Sprintf("%s (%s: %d at %s)", minutes(sc.bound.time()), sc.bound.op, sc.bound.calls, perSecond(sc.bound.rate))
			ratio = fmt.Sprintf("%.2f %s", r, passFail(r <= boundSlack))
		}
		fmt.Fprintf(&w, "| %s | %s | %s | %s | %s | %d / %d %s | %.1f s | %s |\n", sc.name, sc.load, took, bound, ratio,
			sc.throttledProvider, sc.throttledAWS, passFail(sc.throttledProvider == 0 && sc.throttledAWS == 0), sc.quietWait, minutes(sc.wall))
	}
	fmt.Fprintf(&w, "\nstuck deletions (scenario 4): %d of %d still held at its end (want all), %d AWS calls and %d deletes for them (want 0), %.0f reconciles run during it\n",
		f.held, s.stuck, f.stuckCalls, f.stuckDeletes, f.reconciles)

	if len(f.teamTimes) > 0 {
		fmt.Fprintf(&w, "\n| namespace (scenario 5) | its %d streams Ready after |\n|---|---|\n", s.ten)
		for _, ns := range teamNames() {
			fmt.Fprintf(&w, "| %s | %s |\n", ns, minutes(f.teamTimes[ns]))
		}
		lo, hi, mean, spread := f.spread()
		fmt.Fprintf(&w, "\nten namespaces: first %s, last %s, mean %s: (max − min) / mean = %.3f (want ≤ 0.2: %s)\n",
			minutes(lo), minutes(hi), minutes(mean), spread, passFail(spread <= 0.2))
	}
	return w.String()
}

// report reports the figures as the benchmark's metrics.
func (f *fairFigures) report(b *testing.B) {
	base := f.base()
	b.ReportMetric(base.create.Seconds(), "quiet-create-alone-s")
	b.ReportMetric(base.change.Seconds(), "quiet-change-alone-s")
	b.ReportMetric(base.gone.Seconds(), "quiet-delete-alone-s")
	var worst time.Duration
	throttledAnswers := 0
	for _, sc := range f.scenarios {
		w, _ := f.worst(sc.quiet)
		worst = max(worst, w)
		throttledAnswers += max(sc.throttledProvider, sc.throttledAWS)
	}
	b.ReportMetric(worst.Seconds(), "quiet-worst-over-alone-s")
	b.ReportMetric(float64(throttledAnswers), "throttled")
	for _, sc := range f.scenarios {
		if sc.bound.rate > 0 {
			// "2. create flood": create-flood/bound
			_, name, _ := strings.Cut(sc.name, " ")
			b.ReportMetric(sc.took.Seconds()/sc.bound.time().Seconds(), strings.ReplaceAll(name, " ", "-")+"/bound")
		}
	}
	if len(f.teamTimes) > 0 {
		_, _, _, spread := f.spread()
		b.ReportMetric(spread, "ten-namespaces-spread")
	}
}
