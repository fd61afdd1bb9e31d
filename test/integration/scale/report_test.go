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
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cloudkinds/provider-aws-services/internal/aws/quota"

	"github.com/cloudkinds/provider-aws-services/internal/tenancy/budget"
	"github.com/cloudkinds/provider-aws-services/test/crowd"
)

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
			least = strconv.Itoa(minCalls[kind][quota.Operation{Service: serviceIDs[svc], Name: name}])
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

// countsText lists the resources per kind.
func countsText(counts map[string]int) string {
	parts := make([]string, 0, len(kinds))
	for _, k := range kinds {
		parts = append(parts, fmt.Sprintf("%d %s", counts[k], k))
	}
	return strings.Join(parts, ", ")
}
