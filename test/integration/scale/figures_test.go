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
	"time"

	"github.com/cloudkinds/provider-aws-services/internal/aws/quota"
	"github.com/cloudkinds/provider-aws-services/test/emulator"
	"github.com/cloudkinds/provider-aws-services/test/proc"
)

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
	return !quota.Operation{Name: name}.Write()
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
