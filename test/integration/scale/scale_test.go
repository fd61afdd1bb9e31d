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
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/internal/tenancy/budget"
	"github.com/cloudkinds/provider-aws-services/test/crowd"
	"github.com/cloudkinds/provider-aws-services/test/emulator"
	"github.com/cloudkinds/provider-aws-services/test/proc"
)

// settings are the size of the benchmark, from BENCH_* variables.
type settings struct {
	perKind            int            // BENCH_PER_KIND: resources of each of the five kinds
	counts             map[string]int // BENCH_COUNTS: resources of some kinds, as "DeliveryStream=2000,Subscription=1000"
	quotas             bool           // BENCH_QUOTAS: 1 (default) makes the emulator enforce AWS's published quotas
	crowd              bool           // BENCH_CROWD: 1 crowds the cluster, 0 does not
	crds, crdKiB       int            // BENCH_CRDS, BENCH_CRD_KIB: unrelated CRDs and their schema size
	secrets, secretKiB int            // BENCH_SECRETS, BENCH_SECRET_KIB: Helm release Secrets and their size
	latency, jitter    time.Duration  // BENCH_LATENCY: "30ms+40ms" is 30ms per AWS call plus up to 40ms more
	idle               time.Duration  // BENCH_IDLE: how long the provider idles before its RSS is read
	steadyPolls        int            // BENCH_STEADY_POLLS: poll intervals the steady state is watched for
	maxReconcileRate   string         // BENCH_MAX_RECONCILE_RATE: --max-reconcile-rate; empty leaves the provider's default
	accounts           int            // BENCH_ACCOUNTS: AWS accounts the resources are spread over, each its own ClusterProviderConfig and quotas
	reset              float64        // BENCH_RESET: the share of connections a proxy before the emulator resets after it answered; 0: no proxy
}

func settingsFromEnv(b *testing.B) settings {
	b.Helper()
	s := settings{perKind: 200, crowd: true, crds: 300, crdKiB: 200, secrets: 2000, secretKiB: 32,
		latency: 30 * time.Millisecond, jitter: 40 * time.Millisecond, idle: 30 * time.Second, steadyPolls: 2, accounts: 1}
	num := func(name string, dst *int) {
		if v := os.Getenv(name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				b.Fatalf("%s=%q: want a whole number", name, v)
			}
			*dst = n
		}
	}
	num("BENCH_PER_KIND", &s.perKind)
	num("BENCH_CRDS", &s.crds)
	num("BENCH_CRD_KIB", &s.crdKiB)
	num("BENCH_SECRETS", &s.secrets)
	num("BENCH_SECRET_KIB", &s.secretKiB)
	num("BENCH_STEADY_POLLS", &s.steadyPolls)
	num("BENCH_ACCOUNTS", &s.accounts)
	if s.accounts < 1 {
		b.Fatal("BENCH_ACCOUNTS must be at least 1")
	}
	if v := os.Getenv("BENCH_KINDS"); v != "" {
		// A subset of the kinds, as "Subscription,DeliveryStream".
		kinds = strings.Split(v, ",")
	}
	if s.perKind < 1 {
		b.Fatal("BENCH_PER_KIND must be at least 1")
	}
	s.counts = map[string]int{}
	for _, k := range kinds {
		s.counts[k] = s.perKind
	}
	if v := os.Getenv("BENCH_COUNTS"); v != "" {
		for _, kv := range strings.Split(v, ",") {
			k, n, _ := strings.Cut(kv, "=")
			c, err := strconv.Atoi(n)
			if _, known := s.counts[k]; !known || err != nil || c < 1 {
				b.Fatalf("BENCH_COUNTS=%q: want Kind=N,... of the kinds %v", v, kinds)
			}
			s.counts[k] = c
		}
	}
	// On by default; 0 turns them off.
	for name, dst := range map[string]*bool{"BENCH_QUOTAS": &s.quotas, "BENCH_CROWD": &s.crowd} {
		switch v := os.Getenv(name); v {
		case "", "1", "true":
			*dst = true
		case "0", "false":
			*dst = false
		default:
			b.Fatalf("%s=%q: want 1 or 0", name, v)
		}
	}
	if v := os.Getenv("BENCH_LATENCY"); v != "" {
		lat, jit, _ := strings.Cut(v, "+")
		var err error
		if s.latency, err = time.ParseDuration(lat); err != nil {
			b.Fatalf("BENCH_LATENCY=%q: want a latency and an optional jitter, as \"30ms+40ms\": %v", v, err)
		}
		s.jitter = 0
		if jit != "" {
			if s.jitter, err = time.ParseDuration(jit); err != nil {
				b.Fatalf("BENCH_LATENCY=%q: want a latency and an optional jitter, as \"30ms+40ms\": %v", v, err)
			}
		}
	}
	if v := os.Getenv("BENCH_MAX_RECONCILE_RATE"); v != "" {
		if r, err := strconv.ParseFloat(v, 64); err != nil || math.IsNaN(r) || math.IsInf(r, 0) {
			b.Fatalf("BENCH_MAX_RECONCILE_RATE=%q: want a number", v)
		}
		s.maxReconcileRate = v
	}
	if v := os.Getenv("BENCH_IDLE"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			b.Fatalf("BENCH_IDLE=%q: %v", v, err)
		}
		s.idle = d
	}
	if v := os.Getenv("BENCH_RESET"); v != "" {
		r, err := strconv.ParseFloat(v, 64)
		if err != nil || !(r >= 0 && r < 1) {
			b.Fatalf("BENCH_RESET=%q: want the share of connections to reset after AWS answered, a fraction at least 0 and below 1, as 0.01", v)
		}
		s.reset = r
	}
	return s
}

// figures are what the benchmark measures.
type figures struct {
	s                         settings
	flags                     flags
	awsLoads                  []opLoad // the first is the AWS bound
	idleEmpty, idleCrowded    float64  // MiB
	crowdTime                 time.Duration
	peakSampled, peakHWM      float64 // MiB
	memoryLimit               int64   // bytes, BENCH_MEMORY_LIMIT; 0 when unset
	cgroupPeak                float64 // MiB the memory cgroup was charged at most
	oomKills                  int
	createTime, readyTime     time.Duration
	bound                     time.Duration // the --max-reconcile-rate bound; 0 when it sets none
	callsUntilReady           map[string]int
	writesUntilReady          map[string]int // per kind
	writeWatchesLost          int            // watches of writes that could not resume
	reconcilesUntilReady      float64
	ranUntilReady             float64
	deferredUntilReady        float64
	steadyCalls, steadyWrites int
	steadyWriteOps            map[string]int
	steadyWindow              time.Duration
	steadyRan                 float64 // reconciles run in the steady window
	cpu                       float64
	steadyCPU                 float64 // CPU seconds in the steady window
	heapIdle, heapReady       float64 // go_memstats_heap_inuse_bytes before the load and at all Ready
	liveIdle, liveReady       float64 // the heap after a GC, before the load and at all Ready
	metricLines               []string
	throttledUntilReady       int
	throttledAfterMinute      int
	throttledSteady           int
	achievedPoll              map[string]float64 // mean seconds between two looks, per kind, in the steady window
	steadyLooks               map[string]float64 // looks with a look before them, per kind, in the steady window
	steadyCallsByOp           map[string]int
	deferredSteady            float64
	steadySecretGets          int                // -1 when the API server's metrics could not be read
	kubeRequests              map[string]float64 // the provider's API-server requests until Ready, per method
	cpuUntilReady             cpuUse             // from the first create to all Ready
	resets                    *resetFigures      // nil when BENCH_RESET is 0
	stranded                  []strandedObject   // not Ready at the load's deadline (BENCH_RESET only: otherwise that fails the run)
}

// cpuUse is the CPU seconds the machine's cores were busy, and those of the
// processes that share them.
type cpuUse struct {
	machine, provider, apiserver, etcd float64
}

// cpuNow reads the CPU seconds spent so far.
func cpuNow(p *process) (cpuUse, error) {
	var u cpuUse
	var err error
	if u.machine, err = proc.MachineBusySeconds(); err != nil {
		return u, err
	}
	if u.provider, err = p.CPUSeconds(); err != nil {
		return u, err
	}
	if u.apiserver, err = proc.CPUSecondsOf("kube-apiserver"); err != nil {
		return u, err
	}
	u.etcd, err = proc.CPUSecondsOf("etcd")
	return u, err
}

func (u cpuUse) minus(v cpuUse) cpuUse {
	return cpuUse{machine: u.machine - v.machine, provider: u.provider - v.provider, apiserver: u.apiserver - v.apiserver, etcd: u.etcd - v.etcd}
}

// cpuBound is the least time the machine's cores need for the CPU work the
// load took: where it is near the time to Ready, the cores set the pace.
func (f *figures) cpuBound() time.Duration {
	return time.Duration(f.cpuUntilReady.machine / float64(runtime.NumCPU()) * float64(time.Second))
}

// byMethod sums a counter's lines per value of their method label, as
// client-go's rest_client_requests_total{code,host,method}.
func byMethod(text, prefix string) map[string]float64 {
	out := map[string]float64{}
	for _, line := range strings.Split(text, "\n") {
		if !strings.HasPrefix(line, prefix) {
			continue
		}
		_, rest, ok := strings.Cut(line, `method="`)
		if !ok {
			continue
		}
		method, _, _ := strings.Cut(rest, `"`)
		out[method] += metricSum(line, prefix)
	}
	return out
}

// last holds the figures of the one run, reported again if the benchmark is
// called with a larger b.N.
var last *figures

// BenchmarkScale runs the provider's binary against a real API server and
// the AWS emulator, on an empty and then a crowded cluster, under a load of
// BENCH_PER_KIND resources of each kind, and at steady state. It does its
// work once, whatever b.N is: run it with -benchtime 1x.
//
//	make bench
func BenchmarkScale(b *testing.B) {
	if last == nil {
		f := run(b)
		f.print()
		last = f
	}
	last.report(b)
	// After the figures, so that they show what the stranded objects met.
	if n := len(last.stranded); n > 0 {
		b.Errorf("%d of %d objects stranded: not Ready %s after the first create; for example %s", n, last.resources(), minutes(last.readyTime), last.stranded[0])
	}
}

func run(b *testing.B) *figures {
	b.Helper()
	if env.BuildErr != nil {
		b.Fatal(env.BuildErr)
	}
	s := settingsFromEnv(b)
	fl, err := readFlags(env.Binary, s.maxReconcileRate)
	if err != nil {
		b.Fatal(err)
	}
	// Every account has budgets of its own: the bound is one account's
	// share of the load.
	f := &figures{s: s, flags: fl, awsLoads: awsLoads(perAccount(s.counts, s.accounts), budget.Quotas{Share: budget.DefaultShare})}
	resources := f.resources()
	ctx := context.Background()
	kube := env.ControlPlane.Client

	em, accounts, srv := servedAWS(s)
	defer srv.Close()
	dir, kubeconfig := kubeconfigIn(b)
	runs := 0
	var p *process
	start := func() {
		b.Helper()
		runs++
		var err error
		if p, err = startProvider(kubeconfig, dir, runs, fl.args()); err != nil {
			b.Fatal(err)
		}
	}
	defer func() {
		if p != nil {
			p.Kill()
		}
	}()
	// idle lets the provider idle for BENCH_IDLE, checks that it serves its
	// metrics and returns its RSS.
	idle := func() float64 {
		b.Helper()
		deadline := time.Now().Add(s.idle)
		for time.Now().Before(deadline) {
			if err := p.Alive(); err != nil {
				b.Fatal(err)
			}
			time.Sleep(min(time.Second, time.Until(deadline)))
		}
		if _, err := p.waitForMetrics(time.Minute); err != nil {
			b.Fatal(err)
		}
		rss, err := p.RSSMiB()
		if err != nil {
			b.Fatal(err)
		}
		return rss
	}
	stop := func() {
		b.Helper()
		if err := p.Stop(); err != nil {
			b.Error(err)
		}
		p = nil
	}

	// 1. The empty cluster: only the provider's CRDs.
	start()
	f.idleEmpty = idle()
	stop()

	// What the resources need: their namespace, Secrets and provider config.
	const ns = "scale"
	if err := prepare(ctx, kube, ns, accounts, srv.URL); err != nil {
		b.Fatal(err)
	}

	// 2. The crowded cluster; this run of the provider stays for the rest.
	if s.crowd {
		t0 := time.Now()
		if err := crowd.CRDs(ctx, kube, s.crds, s.crdKiB, 20*time.Minute); err != nil {
			b.Fatal(err)
		}
		if err := crowd.Secrets(ctx, kube, s.secrets, s.secretKiB); err != nil {
			b.Fatal(err)
		}
		f.crowdTime = time.Since(t0)
		start()
		f.idleCrowded = idle()
	} else {
		start()
		_ = idle()
	}

	// 3. The load: every object created as fast as the API server takes
	// them, the provider's RSS sampled until all are Ready and Synced.
	base, err := p.scrape()
	if err != nil {
		b.Fatal(err)
	}
	baseReconciles, err := managedReconciles(base)
	if err != nil {
		b.Fatal(err)
	}
	baseRan := metricSum(base, "provider_aws_services_reconciles_total{")
	if f.heapIdle, err = gauge(base, "go_memstats_heap_inuse_bytes"); err != nil {
		b.Fatal(err)
	}
	if f.liveIdle, err = p.liveHeap(""); err != nil {
		b.Fatal(err)
	}
	objects := make([]func() error, 0, resources)
	for _, kind := range kinds {
		for i := range s.counts[kind] {
			mg := accounts[i%len(accounts)].object(kind, ns, i)
			objects = append(objects, func() error { return kube.Create(ctx, mg) })
		}
	}
	if rate := fl.reconcileRate(); rate > 0 {
		needed, _ := reconcilesNeeded(s.counts)
		f.bound = time.Duration(float64(needed) / rate * float64(time.Second))
	}
	wc, err := client.NewWithWatch(env.ControlPlane.Config, client.Options{Scheme: env.ControlPlane.Scheme})
	if err != nil {
		b.Fatal(err)
	}
	writes, err := countWrites(ctx, wc, ns)
	if err != nil {
		b.Fatal(err)
	}
	defer writes.close()
	smp := proc.SampleRSS(p.Process, 250*time.Millisecond)
	defer smp.Finish() // stops it on failures; the figures read it below
	em.ResetCalls()
	if srv.proxy != nil {
		srv.proxy.resetCounts()
	}
	cpuAtFirstCreate, err := cpuNow(p)
	if err != nil {
		b.Fatal(err)
	}
	firstCreate := time.Now()
	// Throttled answers after the first minute: counted from a snapshot
	// taken then, and across the reset of the counts at the steady state.
	var throttledMu sync.Mutex
	throttledAtMinute := -1
	minute := time.AfterFunc(time.Minute, func() {
		throttledMu.Lock()
		defer throttledMu.Unlock()
		throttledAtMinute = throttled(em.Outcomes())
	})
	defer minute.Stop()
	if d := os.Getenv("BENCH_PROFILES"); d != "" {
		// A CPU profile of 30 s, a minute into the load.
		cpuProfile := time.AfterFunc(time.Minute, func() {
			_ = p.profile(filepath.Join(d, fmt.Sprintf("cpu-under-load-%d.pb.gz", resources)), "profile?seconds=30")
		})
		defer cpuProfile.Stop()
	}
	if err := crowd.Parallel(len(objects), 8, func(i int) error { return objects[i]() }); err != nil {
		b.Fatal(err)
	}
	f.createTime = time.Since(firstCreate)
	deadline := firstCreate.Add(timeLimit(max(f.bound, f.awsBound().time()), resources))
	// atReady takes the figures of the load at all Ready (or, with
	// BENCH_RESET, at the deadline with objects stranded).
	atReady := func() {
		b.Helper()
		f.readyTime = time.Since(firstCreate)
		f.callsUntilReady = em.Calls()
		f.writesUntilReady, f.writeWatchesLost = writes.snapshot(), writes.lostWatches()
		now, err := cpuNow(p)
		if err != nil {
			b.Fatal(err)
		}
		f.cpuUntilReady = now.minus(cpuAtFirstCreate)
	}
	for {
		var (
			n        int
			example  string
			notReady []strandedObject
			err      error
		)
		if s.reset > 0 {
			// A look whose answer the proxy lost sets Synced False until
			// the next look, at any time, for any object: the load is
			// done when every object is Ready.
			n, notReady, err = unready(ctx, kube, ns)
			if len(notReady) > 0 {
				example = notReady[0].String()
			}
		} else {
			n, example, err = settled(ctx, kube, ns)
		}
		if err != nil {
			b.Fatal(err)
		}
		if n == resources {
			atReady()
			break
		}
		if err := p.Alive(); err != nil {
			b.Fatal(err)
		}
		if time.Now().After(deadline) {
			if s.reset == 0 {
				b.Fatalf("%d of %d resources Ready and Synced after %s; for example %s", n, resources, time.Since(firstCreate).Round(time.Second), example)
			}
			// Lost answers are what the run measures: the objects they
			// stranded are figures, and fail the benchmark once the
			// figures are printed (BenchmarkScale).
			f.stranded = notReady
			atReady()
			break
		}
		// Each look lists every object: at most one every second per
		// 2000 of them, so that the harness's own lists do not take the
		// API server the provider needs.
		time.Sleep(max(time.Second, time.Duration(resources/2000)*time.Second))
	}

	// 4. Reconciles until Ready, from the provider's metrics.
	text, err := p.scrape()
	if err != nil {
		b.Fatal(err)
	}
	if f.peakSampled, err = smp.Finish(); err != nil {
		b.Fatal(err)
	}
	if f.peakHWM, err = p.StatusMiB("VmHWM"); err != nil {
		b.Fatal(err)
	}
	if p.cgroup != nil {
		if f.cgroupPeak, err = p.cgroup.PeakMiB(); err != nil {
			b.Fatal(err)
		}
		if f.oomKills, err = p.cgroup.OOMKills(); err != nil {
			b.Fatal(err)
		}
		f.memoryLimit, _ = memoryLimit()
	}
	reconciles, err := managedReconciles(text)
	if err != nil {
		b.Fatal(err)
	}
	f.reconcilesUntilReady = reconciles - baseReconciles
	f.ranUntilReady = metricSum(text, "provider_aws_services_reconciles_total{") - baseRan
	f.kubeRequests = byMethod(text, "rest_client_requests_total{")
	for method, n := range byMethod(base, "rest_client_requests_total{") {
		f.kubeRequests[method] -= n
	}
	f.deferredUntilReady = metricSum(text, "provider_aws_services_deferred_changes_total{") + metricSum(text, "provider_aws_services_deferred_polls_total{")
	if f.heapReady, err = gauge(text, "go_memstats_heap_inuse_bytes"); err != nil {
		b.Fatal(err)
	}
	// BENCH_PROFILES keeps the heap profile at all Ready in that folder.
	heapFile := ""
	if d := os.Getenv("BENCH_PROFILES"); d != "" {
		heapFile = filepath.Join(d, fmt.Sprintf("heap-at-ready-%d.pb.gz", resources))
	}
	if f.liveReady, err = p.liveHeap(heapFile); err != nil {
		b.Fatal(err)
	}
	f.metricLines = providerMetricLines(text)

	// 5. The steady state: BENCH_STEADY_POLLS poll intervals, and some.
	throttledMu.Lock()
	untilReady := throttled(em.Outcomes())
	f.throttledUntilReady = untilReady
	if throttledAtMinute >= 0 {
		f.throttledAfterMinute = untilReady - throttledAtMinute
	}
	throttledMu.Unlock()
	steadyStart := text
	secretGetsBefore, secretErr := env.ControlPlane.Requests(ctx, "GET", "secrets")
	em.ResetCalls()
	steadyBase := metricSum(text, "provider_aws_services_reconciles_total{")
	cpuBefore, err := p.CPUSeconds()
	if err != nil {
		b.Fatal(err)
	}
	f.steadyWindow = time.Duration(s.steadyPolls)*fl.poll + 10*time.Second
	steadyEnd := time.Now().Add(f.steadyWindow)
	for time.Now().Before(steadyEnd) {
		if err := p.Alive(); err != nil {
			b.Fatal(err)
		}
		time.Sleep(min(time.Second, time.Until(steadyEnd)))
	}
	calls := em.Calls()
	cpuAfter, err := p.CPUSeconds()
	if err != nil {
		b.Fatal(err)
	}
	f.steadyCPU = cpuAfter - cpuBefore
	f.steadySecretGets = -1
	if after, err := env.ControlPlane.Requests(ctx, "GET", "secrets"); err == nil && secretErr == nil {
		f.steadySecretGets = after - secretGetsBefore
	}
	f.throttledSteady = throttled(em.Outcomes())
	f.throttledAfterMinute += f.throttledSteady
	if after, err := p.scrape(); err == nil {
		f.steadyRan = metricSum(after, "provider_aws_services_reconciles_total{") - steadyBase
		f.achievedPoll, f.steadyLooks = achievedPoll(steadyStart, after)
		f.deferredSteady = metricSum(after, "provider_aws_services_deferred_polls_total{") - metricSum(steadyStart, "provider_aws_services_deferred_polls_total{")
	}
	f.steadyWriteOps = map[string]int{}
	f.steadyCallsByOp = calls
	for op, n := range calls {
		f.steadyCalls += n
		if !isRead(op) {
			f.steadyWrites += n
			f.steadyWriteOps[op] = n
		}
	}
	if srv.proxy != nil {
		// From the first create to the end of the steady window: a create
		// sent again after all Ready counts too.
		r := &resetFigures{creates: map[string]int{}, createdTwice: createdTwiceByKind(em)}
		r.forwarded, r.reset = srv.proxy.counts()
		for _, k := range kinds {
			r.creates[k] = f.callsUntilReady[createOps[k]] + calls[createOps[k]]
		}
		f.resets = r
	}

	// 6. CPU time of the provider's run, then stop it.
	if f.cpu, err = p.CPUSeconds(); err != nil {
		b.Fatal(err)
	}
	stop()
	return f
}

// binding names the larger of the AWS and CPU bounds.
func (f *figures) binding() string {
	if f.cpuBound() > f.awsBound().time() {
		return "the CPU's"
	}
	return "AWS's"
}

// kubeRequestsText is the provider's API-server requests per resource, in
// all and per method.
func (f *figures) kubeRequestsText() string {
	resources := float64(f.resources())
	methods := make([]string, 0, len(f.kubeRequests))
	total := 0.0
	for m, n := range f.kubeRequests {
		methods = append(methods, m)
		total += n
	}
	slices.Sort(methods)
	parts := make([]string, 0, len(methods))
	for _, m := range methods {
		parts = append(parts, fmt.Sprintf("%s %.2f", m, f.kubeRequests[m]/resources))
	}
	return fmt.Sprintf("%.2f (%s)", total/resources, strings.Join(parts, ", "))
}

// timeLimit is how long a load may take to be all Ready: three times its
// bound and five minutes, and where two cores bind first, 50 ms of the
// machine's time for each resource (the API server's writes, 35-40 ms of
// CPU a resource measured at 10,000).
func timeLimit(bound time.Duration, resources int) time.Duration {
	return 3*bound + 5*time.Minute + time.Duration(resources)*50*time.Millisecond
}

// isRead says whether an operation, named "service:Operation", only reads.
func isRead(op string) bool {
	_, name, _ := strings.Cut(op, ":")
	return !budget.Operation{Name: name}.Write()
}

func (f *figures) resources() int {
	n := 0
	for _, k := range kinds {
		n += f.s.counts[k]
	}
	return n
}

// reconcilesNeeded is how many reconciles the resources need at least: three
// for a kind AWS creates asynchronously (create, see it creating, see it
// ready), two for the others (create, see it ready).
func reconcilesNeeded(counts map[string]int) (int, string) {
	n, terms := 0, []string{}
	for _, k := range kinds {
		r := 3
		if k == "Subscription" || k == "EndpointConfig" || k == "APIKeyCredentialProvider" {
			r = 2
		}
		n += counts[k] * r
		terms = append(terms, fmt.Sprintf("%d×%d", counts[k], r))
	}
	return n, strings.Join(terms, " + ")
}

func (f *figures) callsUntilReadyTotal() int {
	n := 0
	for _, v := range f.callsUntilReady {
		n += v
	}
	return n
}

func (f *figures) steadyPerResourcePerPoll() float64 {
	if f.s.steadyPolls == 0 {
		return 0
	}
	return float64(f.steadyCalls) / float64(f.resources()) / float64(f.s.steadyPolls)
}

// report reports the figures as the benchmark's metrics.
func (f *figures) report(b *testing.B) {
	resources := float64(f.resources())
	b.ReportMetric(f.idleEmpty, "idle-empty-MiB")
	if f.s.crowd {
		b.ReportMetric(f.idleCrowded, "idle-crowded-MiB")
		b.ReportMetric(f.idleCrowded/f.idleEmpty, "crowded/empty")
	}
	b.ReportMetric(max(f.peakSampled, f.peakHWM), "peak-MiB")
	b.ReportMetric(f.heapPerResourceKiB(), "heap-KiB/resource")
	b.ReportMetric((f.liveReady-f.liveIdle)/1024/resources, "live-heap-KiB/resource")
	b.ReportMetric(f.readyTime.Seconds(), "ready-s")
	b.ReportMetric(f.awsBound().time().Seconds(), "aws-bound-s")
	b.ReportMetric(f.readyTime.Seconds()/f.awsBound().time().Seconds(), "ready/aws-bound")
	b.ReportMetric(f.cpuBound().Seconds(), "cpu-bound-s")
	b.ReportMetric(f.readyTime.Seconds()/max(f.awsBound().time(), f.cpuBound()).Seconds(), "ready/larger-bound")
	if f.bound > 0 {
		b.ReportMetric(f.bound.Seconds(), "bound-s")
		b.ReportMetric(f.readyTime.Seconds()/f.bound.Seconds(), "ready/bound")
	}
	b.ReportMetric(float64(f.callsUntilReadyTotal())/resources, "aws-calls/resource")
	b.ReportMetric(f.reconcilesUntilReady/resources, "reconciles/resource")
	b.ReportMetric(f.ranUntilReady/resources, "reconciles-run/resource")
	b.ReportMetric(f.steadyPerResourcePerPoll(), "steady-calls/resource/poll")
	b.ReportMetric(float64(f.steadyWrites), "steady-writes")
	if f.steadyRan > 0 {
		b.ReportMetric(f.steadyCPUPer1000Looks(), "steady-cpu-s/1000-looks")
	}
	total := 0
	for _, n := range f.writesUntilReady {
		total += n
	}
	b.ReportMetric(float64(total)/resources, "object-writes/resource")
	b.ReportMetric(f.cpu, "cpu-s")
	if r := f.resets; r != nil {
		creates := 0
		for _, n := range r.creates {
			creates += n
		}
		b.ReportMetric(float64(creates)/resources, "creates/resource")
		b.ReportMetric(float64(len(f.stranded)), "stranded")
	}
}

// awsBound is the AWS bound: the operation whose budget takes longest to
// serve the load's calls.
func (f *figures) awsBound() opLoad {
	if len(f.awsLoads) == 0 {
		return opLoad{}
	}
	return f.awsLoads[0]
}

// heapPerResourceKiB is the heap in use at all Ready beyond the idle
// provider's, per resource; it holds whatever garbage was not yet collected.
func (f *figures) heapPerResourceKiB() float64 {
	return (f.heapReady - f.heapIdle) / 1024 / float64(f.resources())
}

// steadyCPUPer1000Looks is the CPU time the provider spent in the steady
// window per 1000 reconciles that ran there (provider_aws_services_reconciles_total).
func (f *figures) steadyCPUPer1000Looks() float64 {
	return f.steadyCPU / f.steadyRan * 1000
}

// service names the kind whose resources an AWS service's calls are for.
var service = map[string]string{
	"firehose": "DeliveryStream", "sns": "Subscription", "events": "Endpoint",
	"sagemaker": "EndpointConfig", "bedrock-agentcore": "APIKeyCredentialProvider",
}

// minutes writes a duration as "4 min 10 s", or "12.3 s" under a minute.
func minutes(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%.1f s", d.Seconds())
	}
	d = d.Round(time.Second)
	return fmt.Sprintf("%d min %d s", int(d.Minutes()), int(d.Seconds())%60)
}

// perSecond writes a budget's rate: "4/s".
func perSecond(r float64) string { return fmt.Sprintf("%.3g/s", r) }

// flagsText names the provider's flags the figures depend on and where
// their values come from.
func (f *figures) flagsText() string {
	rate := "not set: provider default"
	if f.flags.rateSet {
		rate = "BENCH_MAX_RECONCILE_RATE"
	}
	return fmt.Sprintf("--poll=%s (provider default) --max-reconcile-rate=%s (%s)", f.flags.poll, f.flags.rate, rate)
}

// print prints the figures as markdown tables.
func (f *figures) print() {
	s := f.s
	resources := float64(f.resources())
	var w strings.Builder
	fmt.Fprintf(&w, "\n| figure | result |\n|---|---|\n")
	fmt.Fprintf(&w, "| resources | %d (%s) |\n", f.resources(), countsText(s.counts))
	fmt.Fprintf(&w, "| AWS accounts (a ClusterProviderConfig each; budgets and quotas per account) | %d (at most %s each) |\n", s.accounts, countsText(perAccount(s.counts, s.accounts)))
	if s.quotas {
		fmt.Fprintf(&w, "| AWS quotas | enforced by the emulator: AWS's published per-operation rates |\n")
	} else {
		fmt.Fprintf(&w, "| AWS quotas | not enforced (BENCH_QUOTAS=0) |\n")
	}
	fmt.Fprintf(&w, "| provider flags | %s |\n", f.flagsText())
	fmt.Fprintf(&w, "| AWS latency per call | %s + up to %s |\n", s.latency, s.jitter)
	if s.crowd {
		fmt.Fprintf(&w, "| crowd | %d CRDs of ~%d KiB schema, %d Secrets of %d KiB in %d namespaces (created in %s) |\n",
			s.crds, s.crdKiB, s.secrets, s.secretKiB, crowd.Namespaces, f.crowdTime.Round(time.Second))
	} else {
		fmt.Fprintf(&w, "| crowd | none (BENCH_CROWD=0) |\n")
	}
	fmt.Fprintf(&w, "| idle RSS, empty cluster (after %s) | %.1f MiB |\n", s.idle, f.idleEmpty)
	if s.crowd {
		fmt.Fprintf(&w, "| idle RSS, crowded cluster (after %s) | %.1f MiB (%.2f× empty) |\n", s.idle, f.idleCrowded, f.idleCrowded/f.idleEmpty)
	} else {
		fmt.Fprintf(&w, "| idle RSS, crowded cluster | not measured (BENCH_CROWD=0) |\n")
	}
	fmt.Fprintf(&w, "| peak RSS under load (sampled every 250ms / VmHWM) | %.1f / %.1f MiB |\n", f.peakSampled, f.peakHWM)
	if f.memoryLimit > 0 {
		fmt.Fprintf(&w, "| memory cgroup (BENCH_MEMORY_LIMIT): limit / peak charged / OOM kills | %d MiB / %.1f MiB / %d |\n", f.memoryLimit>>20, f.cgroupPeak, f.oomKills)
	}
	fmt.Fprintf(&w, "| heap per managed resource (go_memstats_heap_inuse_bytes at all Ready − idle, %.1f − %.1f MiB) | %.1f KiB |\n",
		f.heapReady/(1<<20), f.heapIdle/(1<<20), f.heapPerResourceKiB())
	fmt.Fprintf(&w, "| live heap per managed resource (go_memstats_heap_alloc_bytes after a GC, at all Ready − idle, %.1f − %.1f MiB) | %.1f KiB |\n",
		f.liveReady/(1<<20), f.liveIdle/(1<<20), (f.liveReady-f.liveIdle)/1024/resources)
	switch {
	case len(f.stranded) > 0:
		fmt.Fprintf(&w, "| time to all Ready (creates took) | never: %d of %d stranded at the deadline, %s (%s); the figures \"until Ready\" are to the deadline |\n",
			len(f.stranded), f.resources(), minutes(f.readyTime), minutes(f.createTime))
	case s.reset > 0:
		fmt.Fprintf(&w, "| time to all Ready, Synced aside: a lost answer sets it False until the next look (creates took) | %s (%s) |\n", minutes(f.readyTime), minutes(f.createTime))
	default:
		fmt.Fprintf(&w, "| time to all Ready and Synced (creates took) | %s (%s) |\n", minutes(f.readyTime), minutes(f.createTime))
	}
	bound := f.awsBound()
	fmt.Fprintf(&w, "| AWS bound: the longest any budget takes for the load's calls | %s (%s: %d calls at %s) |\n", minutes(bound.time()), bound.op, bound.calls, perSecond(bound.rate))
	fmt.Fprintf(&w, "| time to Ready / AWS bound | %.2f |\n", f.readyTime.Seconds()/bound.time().Seconds())
	cpu := f.cpuUntilReady
	fmt.Fprintf(&w, "| CPU bound: the machine's busy CPU seconds from the first create to all Ready ÷ %d cores | %s (%.0f CPU s) |\n", runtime.NumCPU(), minutes(f.cpuBound()), cpu.machine)
	fmt.Fprintf(&w, "| time to Ready / the larger bound (%s) | %.2f |\n", f.binding(), f.readyTime.Seconds()/max(bound.time(), f.cpuBound()).Seconds())
	fmt.Fprintf(&w, "| CPU ms per resource until Ready: machine / provider / kube-apiserver / etcd | %.1f / %.1f / %.1f / %.1f |\n",
		1000*cpu.machine/resources, 1000*cpu.provider/resources, 1000*cpu.apiserver/resources, 1000*cpu.etcd/resources)
	fmt.Fprintf(&w, "| the provider's API-server requests per resource until Ready (client-go's rest_client_requests_total) | %s |\n", f.kubeRequestsText())
	if f.bound > 0 {
		_, terms := reconcilesNeeded(s.counts)
		fmt.Fprintf(&w, "| rate bound: (%s) reconciles / %s per s | %s |\n", terms, f.flags.rate, minutes(f.bound))
		fmt.Fprintf(&w, "| time to Ready / rate bound | %.2f |\n", f.readyTime.Seconds()/f.bound.Seconds())
	} else {
		fmt.Fprintf(&w, "| rate bound | none: --max-reconcile-rate=%s sets no rate |\n", f.flags.rate)
	}
	fmt.Fprintf(&w, "| AWS calls per resource until Ready | %.2f (%d) |\n", float64(f.callsUntilReadyTotal())/resources, f.callsUntilReadyTotal())
	fmt.Fprintf(&w, "| reconciles per resource until Ready: run (provider_aws_services_reconciles_total) / queued (controller-runtime's count, deferrals included) | %.2f (%.0f) / %.2f (%.0f) |\n",
		f.ranUntilReady/resources, f.ranUntilReady, f.reconcilesUntilReady/resources, f.reconcilesUntilReady)
	fmt.Fprintf(&w, "| reconciles put off by the gate until Ready, for a budget or AWS's create (provider_aws_services_deferred_changes_total + _deferred_polls_total; none of them run) | %.2f (%.0f) |\n",
		f.deferredUntilReady/resources, f.deferredUntilReady)
	fmt.Fprintf(&w, "| steady AWS calls per resource per poll | %.2f (%d in %s) |\n", f.steadyPerResourcePerPoll(), f.steadyCalls, f.steadyWindow)
	if f.steadyRan > 0 {
		fmt.Fprintf(&w, "| steady AWS calls per look at one resource (a reconcile) | %.2f (%.0f reconciles; %.1f s between two looks at a resource) |\n",
			float64(f.steadyCalls)/f.steadyRan, f.steadyRan, f.steadyWindow.Seconds()*resources/f.steadyRan)
		fmt.Fprintf(&w, "| steady CPU seconds per 1000 looks (CPU in the steady window / reconciles run there, provider_aws_services_reconciles_total) | %.2f (%.1f s / %.0f) |\n",
			f.steadyCPUPer1000Looks(), f.steadyCPU, f.steadyRan)
	}
	fmt.Fprintf(&w, "| steady writes (want 0) | %d%s |\n", f.steadyWrites, opsText(f.steadyWriteOps))
	for _, kind := range kinds {
		fmt.Fprintf(&w, "| writes to a %s from create to Ready (watch events) | %.2f |\n", kind, float64(f.writesUntilReady[kind])/float64(s.counts[kind]))
	}
	if f.writeWatchesLost > 0 {
		fmt.Fprintf(&w, "| watches of writes that could not resume (the writes meanwhile are not counted) | %d |\n", f.writeWatchesLost)
	}
	fmt.Fprintf(&w, "| throttled answers: until Ready / after the first minute (want 0) / in the steady window | %d / %d / %d |\n", f.throttledUntilReady, f.throttledAfterMinute, f.throttledSteady)
	fmt.Fprintf(&w, "| looks deferred for their budgets in the steady window | %.0f |\n", f.deferredSteady)
	fmt.Fprintf(&w, "| Secret GETs the API server served in the steady window (its apiserver_request_total; want 0) | %d |\n", f.steadySecretGets)
	fmt.Fprintf(&w, "| CPU seconds of the provider's run (crowded idle, load, steady) | %.1f |\n", f.cpu)

	f.printAWSBound(&w)
	f.printPolls(&w)
	f.printCallsUntilReady(&w)
	f.printResets(&w)
	if len(f.metricLines) > 0 {
		n := min(40, len(f.metricLines))
		fmt.Fprintf(&w, "\nprovider and managed resource metrics at Ready (%d of %d lines):\n", n, len(f.metricLines))
		for _, l := range f.metricLines[:n] {
			fmt.Fprintf(&w, "  %s\n", l)
		}
	} else {
		fmt.Fprintf(&w, "\nno provider_aws_services_ or crossplane_managed_resource_ metrics at Ready\n")
	}
	fmt.Println(w.String())
}

// printAWSBound prints what the load asks of each operation's budget until
// all is Ready.
func (f *figures) printAWSBound(w *strings.Builder) {
	fmt.Fprintf(w, "\n| AWS bound: operation | budget (%.0f %% of the quota) | calls per new resource | calls for the load | time at the budget |\n|---|---|---|---|---|\n",
		budget.DefaultShare*100)
	for _, l := range f.awsLoads {
		kind := ""
		for _, k := range kinds {
			if n := minCalls[k][l.op]; n > 0 {
				kind = fmt.Sprintf("%d per %s", n, k)
			}
		}
		fmt.Fprintf(w, "| %s | %s (%s) | %s | %d | %s |\n", l.op, perSecond(l.rate), l.source, kind, l.calls, minutes(l.time()))
	}
}

// printPolls prints, per kind, the poll its budgets allow beside the poll
// achieved in the steady window.
func (f *figures) printPolls(w *strings.Builder) {
	q := budget.Quotas{Share: budget.DefaultShare}
	expected := expectedPoll(perAccount(f.s.counts, f.s.accounts), f.flags.poll, q)
	fmt.Fprintf(w, "\n| steady poll of a kind | resources | AWS calls per look (declared; measured) | budgets | expected | achieved | deviation |\n|---|---|---|---|---|---|---|\n")
	for _, k := range kinds {
		names, rates := make([]string, 0, len(pollCalls[k])), make([]string, 0, len(pollCalls[k]))
		for _, op := range pollCalls[k] {
			names = append(names, op.Name)
			rates = append(rates, perSecond(q.Rate(op)))
		}
		measured, achieved, deviation := "-", "-", "-"
		if looks := f.steadyLooks[k]; looks > 0 {
			calls := 0
			for op, n := range f.steadyCallsByOp {
				if svc, _, _ := strings.Cut(op, ":"); service[svc] == k {
					calls += n
				}
			}
			measured = fmt.Sprintf("%.2f", float64(calls)/looks)
		}
		if v, ok := f.achievedPoll[k]; ok {
			achieved = fmt.Sprintf("%.1f s", v)
			deviation = fmt.Sprintf("%+.1f %%", (v/expected[k].Seconds()-1)*100)
		}
		fmt.Fprintf(w, "| %s | %d | %d: %s; %s | %s | %.1f s | %s | %s |\n", k, f.s.counts[k], len(pollCalls[k]), strings.Join(names, " + "), measured,
			strings.Join(rates, " + "), expected[k].Seconds(), achieved, deviation)
	}
}

// printCallsUntilReady prints the AWS calls until all was Ready, per
// operation, beside the least each resource needs.
func (f *figures) printCallsUntilReady(w *strings.Builder) {
	ops := make([]string, 0, len(f.callsUntilReady))
	for op := range f.callsUntilReady {
		ops = append(ops, op)
	}
	slices.Sort(ops)
	fmt.Fprintf(w, "\n| AWS operation until Ready | calls | per resource of its kind | least needed per resource |\n|---|---|---|---|\n")
	for _, op := range ops {
		svc, name, _ := strings.Cut(op, ":")
		per, least := "-", "-"
		if kind, ok := service[svc]; ok {
			per = fmt.Sprintf("%.2f", float64(f.callsUntilReady[op])/float64(f.s.counts[kind]))
			least = strconv.Itoa(minCalls[kind][budget.Operation{Service: serviceIDs[svc], Name: name}])
		}
		fmt.Fprintf(w, "| %s | %d | %s | %s |\n", op, f.callsUntilReady[op], per, least)
	}
}

func opsText(ops map[string]int) string {
	if len(ops) == 0 {
		return ""
	}
	names := make([]string, 0, len(ops))
	for op := range ops {
		names = append(names, op)
	}
	slices.Sort(names)
	parts := make([]string, 0, len(names))
	for _, op := range names {
		parts = append(parts, fmt.Sprintf("%s %d", op, ops[op]))
	}
	return ": " + strings.Join(parts, ", ")
}

// metricSum sums the values of the lines of a metrics scrape that start with
// prefix (a metric name and its opening brace).
func metricSum(text, prefix string) float64 {
	var sum float64
	for _, line := range strings.Split(text, "\n") {
		if !strings.HasPrefix(line, prefix) {
			continue
		}
		fs := strings.Fields(line[strings.LastIndexByte(line, '}')+1:])
		if len(fs) == 0 {
			continue
		}
		if v, err := strconv.ParseFloat(fs[0], 64); err == nil {
			sum += v
		}
	}
	return sum
}

// throttled sums the throttled answers of every operation.
func throttled(outcomes map[string]map[string]int) int {
	n := 0
	for _, m := range outcomes {
		n += m[emulator.OutcomeThrottled]
	}
	return n
}

// countsText lists the resources per kind.
func countsText(counts map[string]int) string {
	parts := make([]string, 0, len(kinds))
	for _, k := range kinds {
		parts = append(parts, fmt.Sprintf("%d %s", counts[k], k))
	}
	return strings.Join(parts, ", ")
}

// achievedPoll is the mean time between two looks at a resource, per kind,
// between two scrapes: provider_aws_services_poll_interval_seconds' sum
// over its count; looks are those counts.
func achievedPoll(before, after string) (poll, looks map[string]float64) {
	poll, looks = map[string]float64{}, map[string]float64{}
	for _, k := range kinds {
		label := fmt.Sprintf("{kind=%q}", k)
		sum := metricSum(after, "provider_aws_services_poll_interval_seconds_sum"+label) - metricSum(before, "provider_aws_services_poll_interval_seconds_sum"+label)
		count := metricSum(after, "provider_aws_services_poll_interval_seconds_count"+label) - metricSum(before, "provider_aws_services_poll_interval_seconds_count"+label)
		if count > 0 {
			poll[k], looks[k] = sum/count, count
		}
	}
	return poll, looks
}
