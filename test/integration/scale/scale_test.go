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
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/internal/tenancy/budget"
	"github.com/cloudkinds/provider-aws-services/test/crowd"
	"github.com/cloudkinds/provider-aws-services/test/proc"
)

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
