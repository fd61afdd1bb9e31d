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
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/cloudkinds/provider-aws-services/internal/tenancy/budget"
	"github.com/cloudkinds/provider-aws-services/test/crowd"
	"github.com/cloudkinds/provider-aws-services/test/proc"
)

// BenchmarkReplicas runs BENCH_REPLICAS replicas of the provider's binary
// with --shards, sharing the work of the load of make bench spread over
// BENCH_ACCOUNTS accounts. Half way to all Ready one replica is SIGKILLed:
// the others take its shards over. It prints, per replica, its peak RSS,
// its CPU seconds and the AWS calls it made, the time to all Ready against
// the AWS bound, how long the killed replica's shards went unheld, the
// throttled answers and the resources AWS created twice (want none).
//
//	make bench.replicas
func BenchmarkReplicas(b *testing.B) {
	if env.BuildErr != nil {
		b.Fatal(env.BuildErr)
	}
	s := settingsFromEnv(b)
	if s.reset > 0 {
		b.Fatal("BENCH_RESET is make bench's: bench.replicas neither counts lost answers nor waits for Ready alone")
	}
	replicas, shards := 3, 12
	if v := os.Getenv("BENCH_REPLICAS"); v != "" {
		if _, err := fmt.Sscan(v, &replicas); err != nil || replicas < 1 {
			b.Fatalf("BENCH_REPLICAS=%q: want a whole number above 0", v)
		}
	}
	ctx := context.Background()
	kube := env.ControlPlane.Client
	em, accounts, srv := servedAWS(s)
	defer srv.Close()
	dir, kubeconfig := kubeconfigIn(b)
	// BENCH_LOGS keeps the replicas' logs (provider-1.log, …) in that folder.
	logs := dir
	if d := os.Getenv("BENCH_LOGS"); d != "" {
		if err := os.MkdirAll(d, 0o750); err != nil {
			b.Fatal(err)
		}
		logs = d
	}
	const ns, home = "replicas", "provider-replicas"
	if err := kube.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: home}}); err != nil && !kerrors.IsAlreadyExists(err) {
		b.Fatal(err)
	}
	if err := prepare(ctx, kube, ns, accounts, srv.URL); err != nil {
		b.Fatal(err)
	}

	ps := make([]*process, replicas)
	samplers := make([]*proc.Sampler, replicas)
	defer func() {
		for _, p := range ps {
			if p != nil {
				p.Kill()
			}
		}
	}()
	for i := range ps {
		var err error
		args := []string{fmt.Sprintf("--shards=%d", shards), "--namespace=" + home}
		os.Setenv("POD_NAME", fmt.Sprintf("replica-%d", i)) //nolint:usetesting // the child process reads it; b.Setenv would forbid the parallel helpers
		if ps[i], err = startProvider(kubeconfig, logs, i+1, args); err != nil {
			b.Fatal(err)
		}
	}
	os.Unsetenv("POD_NAME")
	for _, p := range ps {
		if _, err := p.waitForMetrics(time.Minute); err != nil {
			b.Fatal(err)
		}
	}
	time.Sleep(5 * time.Second) // the shards divided
	for i, p := range ps {
		samplers[i] = proc.SampleRSS(p.Process, 250*time.Millisecond)
	}
	cpu0 := make([]float64, replicas)
	for i, p := range ps {
		cpu0[i], _ = p.CPUSeconds()
	}

	resources := 0
	var objects []func() error
	for _, kind := range kinds {
		for i := range s.counts[kind] {
			mg := accounts[i%len(accounts)].object(kind, ns, i)
			objects = append(objects, func() error { return kube.Create(ctx, mg) })
			resources++
		}
	}
	bound := awsLoads(perAccount(s.counts, s.accounts), budget.Quotas{Share: budget.DefaultShare})[0].time()
	em.ResetCalls()
	start := time.Now()
	if err := crowd.Parallel(len(objects), 8, func(i int) error { return objects[i]() }); err != nil {
		b.Fatal(err)
	}
	created := time.Since(start)

	// Half way to all Ready, the replica of the most AWS calls is killed.
	killed, killedAt, peakKilled, cpuKilled, callsKilled, cachedKilled := -1, time.Time{}, 0.0, 0.0, 0.0, 0.0
	var unheld time.Duration
	peakBefore := make([]float64, len(ps)) // each replica's peak RSS until the kill
	mostCached := make([]float64, len(ps)) // the most managed resources each cached, as sampled
	heapKilled := 0.0
	profiles := os.Getenv("BENCH_PROFILES")
	heapFile := func(i int) string {
		if profiles == "" {
			return ""
		}
		return filepath.Join(profiles, fmt.Sprintf("heap-replica-%d.pb.gz", i))
	}
	deadline := start.Add(timeLimit(bound, resources) + time.Minute)
	var ready time.Duration
	for {
		n, example, err := settled(ctx, kube, ns)
		if err != nil {
			b.Fatal(err)
		}
		if n == resources {
			ready = time.Since(start)
			break
		}
		for i, p := range ps {
			if i != killed {
				mostCached[i] = max(mostCached[i], cachedOf(p))
			}
		}
		if killed < 0 && n >= resources/2 {
			killed = 0
			for i, p := range ps {
				if c := callsOf(p); c > callsOf(ps[killed]) {
					killed = i
				}
			}
			callsKilled, cachedKilled = callsOf(ps[killed]), cachedOf(ps[killed])
			heapKilled, _ = ps[killed].liveHeap(heapFile(killed))
			for i := range ps {
				peakBefore[i] = samplers[i].Peak()
			}
			cpuKilled, _ = ps[killed].CPUSeconds()
			ps[killed].Kill()
			killedAt = time.Now()
			peakKilled, _ = samplers[killed].Finish()
			unheld = untilHeldAgain(ps, killed, shards)
		}
		if time.Now().After(deadline) {
			held := make([]string, len(ps))
			for i, p := range ps {
				held[i] = "killed"
				if i != killed {
					held[i] = fmt.Sprintf("%.0f", gaugeOf(p, "provider_aws_services_shards_held"))
				}
			}
			b.Fatalf("%d of %d resources Ready and Synced after %s; for example %s; shards held by replica: %s",
				n, resources, time.Since(start).Round(time.Second), example, strings.Join(held, ", "))
		}
		time.Sleep(max(time.Second, time.Duration(resources/2000)*time.Second))
	}

	var w strings.Builder
	fmt.Fprintf(&w, "\n| figure | result |\n|---|---|\n")
	fmt.Fprintf(&w, "| resources | %d (%s) over %d accounts |\n", resources, countsText(s.counts), s.accounts)
	fmt.Fprintf(&w, "| replicas, shards | %d, %d |\n", replicas, shards)
	fmt.Fprintf(&w, "| time to all Ready and Synced (creates took) | %s (%s) |\n", minutes(ready), minutes(created))
	fmt.Fprintf(&w, "| AWS bound (one account's share) | %s |\n", minutes(bound))
	fmt.Fprintf(&w, "| throttled answers until Ready | %d |\n", throttled(em.Outcomes()))
	fmt.Fprintf(&w, "| resources AWS created twice | %d |\n", createdTwice(em))
	if killed >= 0 {
		fmt.Fprintf(&w, "| replica killed (SIGKILL) at half Ready | replica-%d, %s after the first create; its shards all held again %s after the kill |\n",
			killed, minutes(killedAt.Sub(start)), unheld.Round(100*time.Millisecond))
	}
	fmt.Fprintf(&w, "\n| replica | peak RSS (until the kill) | CPU seconds, first create to all Ready | AWS calls | shards held at the end | managed resources cached: at the end (the killed: when killed); most sampled | live heap at the end (the killed: when killed) |\n|---|---|---|---|---|---|---|\n")
	for i, p := range ps {
		peak, cpu, calls, held, cached, heap := peakKilled, cpuKilled-cpu0[i], callsKilled, "killed", cachedKilled, heapKilled
		if i != killed {
			peak, _ = samplers[i].Finish()
			c, _ := p.CPUSeconds()
			cpu, calls, cached = c-cpu0[i], callsOf(p), cachedOf(p)
			held = fmt.Sprintf("%.0f", gaugeOf(p, "provider_aws_services_shards_held"))
			heap, _ = p.liveHeap(heapFile(i))
		}
		fmt.Fprintf(&w, "| replica-%d | %.1f MiB (%.1f) | %.1f | %.0f | %s | %.0f; %.0f | %.1f MiB, %.1f KiB/resource |\n",
			i, peak, peakBefore[i], cpu, calls, held, cached, max(cached, mostCached[i]), heap/(1<<20), heap/1024/max(1, cached))
	}
	fmt.Println(w.String())
}

// callsOf is the AWS calls a replica made so far; 0 when it cannot say.
func callsOf(p *process) float64 {
	text, err := p.scrape()
	if err != nil {
		return 0
	}
	return metricSum(text, "provider_aws_services_aws_calls_total{")
}

// cachedOf is how many managed resources a replica caches, as
// crossplane-runtime's state metrics count them from its cache (every
// --poll-state-metric, 5 s); -1 when it cannot say.
func cachedOf(p *process) float64 {
	text, err := p.scrape()
	if err != nil {
		return -1
	}
	return metricSum(text, "crossplane_managed_resource_exists{")
}

func gaugeOf(p *process, name string) float64 {
	text, err := p.scrape()
	if err != nil {
		return -1
	}
	v, _ := gauge(text, name)
	return v
}

// untilHeldAgain waits until the replicas left hold every shard, and says
// how long that took.
func untilHeldAgain(ps []*process, killed, shards int) time.Duration {
	start := time.Now()
	for time.Since(start) < time.Minute {
		held := 0.0
		for i, p := range ps {
			if i != killed {
				held += gaugeOf(p, "provider_aws_services_shards_held")
			}
		}
		if int(held) == shards {
			return time.Since(start)
		}
		time.Sleep(200 * time.Millisecond)
	}
	return time.Since(start)
}

// createdTwice counts the resources AWS created more than once, in any
// account.
func createdTwice(em awsUnderTest) int {
	n := 0
	for _, k := range createdTwiceByKind(em) {
		n += k
	}
	return n
}
