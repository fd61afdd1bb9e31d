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

// Package scale measures the provider at scale: its binary runs, with its
// own defaults, against a real kube-apiserver and etcd and the in-repo AWS
// emulator (with per-call latency), first on an empty cluster, then on a
// cluster crowded with unrelated CRDs and Secrets, then under a load of
// resources of all five kinds, and then at steady state. It reports memory
// (RSS, heap per resource), time to Ready against the AWS bound (the time
// AWS's quotas allow for the load) and the bound the global reconcile rate
// sets, AWS calls and reconciles per resource, steady-state calls, writes
// and polls against what the budgets allow, and CPU time.
//
//	make bench                                                # 5001 resources, not crowded
//	make bench BENCH_PER_KIND=50 BENCH_COUNTS= BENCH_CROWD=1  # 50 per kind, crowded
//
// BenchmarkScale does its work once, whatever b.N is.
package scale

import (
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	extv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/cloudkinds/provider-aws-services/test/proc"
	"github.com/cloudkinds/provider-aws-services/test/workload"
)

// env is the control plane and the provider's binary the tests share.
var env workload.Env

func TestMain(m *testing.M) { workload.Main(m, &env, extv1.AddToScheme) }

// flags are the provider's flags the figures depend on: the provider runs
// with its own defaults, read from its --help, but for --max-reconcile-rate
// when BENCH_MAX_RECONCILE_RATE sets it.
type flags struct {
	poll time.Duration
	// rate is --max-reconcile-rate as given ("10"); rateSet says it was
	// BENCH_MAX_RECONCILE_RATE's, not the provider's default.
	rate    string
	rateSet bool
}

// reconcileRate is --max-reconcile-rate in reconciles per second, or 0 when
// it sets no number to compute a bound from (no default, or one at or
// below 0).
func (f flags) reconcileRate() float64 {
	r, err := strconv.ParseFloat(f.rate, 64)
	if err != nil || r <= 0 || math.IsInf(r, 0) {
		return 0
	}
	return r
}

// args are the flags the benchmark passes to the provider.
func (f flags) args() []string {
	if !f.rateSet {
		return nil
	}
	return []string{"--max-reconcile-rate=" + f.rate}
}

// readFlags reads the provider's defaults from its --help, and takes
// --max-reconcile-rate from rate when that is not empty.
func readFlags(binary, rate string) (flags, error) {
	// kingpin writes its help to stderr.
	out, err := exec.Command(binary, "--help").CombinedOutput()
	if err != nil {
		return flags{}, fmt.Errorf("%s --help: %w\n%s", binary, err, out)
	}
	defaults := flagDefaults(string(out))
	f := flags{rate: defaults["max-reconcile-rate"]}
	if f.poll, err = time.ParseDuration(defaults["poll"]); err != nil {
		return flags{}, fmt.Errorf("%s --help: no default of --poll: %w", binary, err)
	}
	if rate != "" {
		f.rate, f.rateSet = rate, true
	}
	return f, nil
}

// flagDefaults reads the default of each flag from kingpin's help, whose
// lines start "  -s, --sync=1h" or "      --poll=1m"; a flag without a
// default shows a placeholder ("--name=NAME") or nothing.
func flagDefaults(help string) map[string]string {
	out := map[string]string{}
	for _, line := range strings.Split(help, "\n") {
		fs := strings.Fields(line)
		if len(fs) > 1 && strings.HasPrefix(fs[0], "-") && strings.HasSuffix(fs[0], ",") {
			fs = fs[1:] // the short form
		}
		if len(fs) == 0 {
			continue
		}
		name, value, ok := strings.Cut(strings.TrimPrefix(fs[0], "--"), "=")
		if ok && strings.HasPrefix(fs[0], "--") {
			out[name] = value
		}
	}
	return out
}

// A process is one run of the provider's binary.
type process struct {
	*proc.Process
	metricsAddr, pprofAddr string
	// cgroup limits its memory as a container's limit would, when
	// BENCH_MEMORY_LIMIT is set; nil otherwise.
	cgroup *proc.Cgroup
}

// memoryLimit is BENCH_MEMORY_LIMIT, in bytes: the provider then runs in a
// memory cgroup of that limit, as in a container; 0 when unset.
func memoryLimit() (int64, error) {
	v := os.Getenv("BENCH_MEMORY_LIMIT")
	if v == "" {
		return 0, nil
	}
	mib, err := strconv.Atoi(v)
	if err != nil || mib <= 0 {
		return 0, fmt.Errorf("BENCH_MEMORY_LIMIT=%q: want MiB, a whole number above 0", v)
	}
	return int64(mib) << 20, nil
}

// startProvider runs the provider's binary against the control plane,
// logging to a file in dir.
func startProvider(kubeconfig, dir string, run int, args []string) (*process, error) {
	if env.BuildErr != nil {
		return nil, env.BuildErr
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	metricsAddr := "127.0.0.1:" + strconv.Itoa(port)
	if port, err = freePort(); err != nil {
		return nil, err
	}
	pprofAddr := "127.0.0.1:" + strconv.Itoa(port)
	binary, args := env.Binary, append([]string{
		"--metrics-bind-address=" + metricsAddr,
		"--pprof-bind-address=" + pprofAddr,
		"--health-probe-bind-address=0",
	}, args...)
	limit, err := memoryLimit()
	if err != nil {
		return nil, err
	}
	var cg *proc.Cgroup
	if limit > 0 {
		if cg, err = proc.NewMemoryCgroup(fmt.Sprintf("provider-bench-%d-%d", os.Getpid(), run), limit); err != nil {
			return nil, err
		}
		binary, args = cg.Wrap(binary, args)
	}
	p, err := proc.Start(binary, args, []string{"KUBECONFIG=" + kubeconfig}, filepath.Join(dir, fmt.Sprintf("provider-%d.log", run)))
	if err != nil {
		if cg != nil {
			_ = cg.Remove()
		}
		return nil, err
	}
	if cg != nil {
		go func() { <-p.Done(); _ = cg.Remove() }()
	}
	return &process{Process: p, metricsAddr: metricsAddr, pprofAddr: pprofAddr, cgroup: cg}, nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	port := l.Addr().(*net.TCPAddr).Port //nolint:forcetypeassert // a TCP listener
	return port, l.Close()
}

// profile writes one of the provider's pprof profiles to file.
func (p *process) profile(file, which string) error {
	c := http.Client{Timeout: 2 * time.Minute}
	resp, err := c.Get("http://" + p.pprofAddr + "/debug/pprof/" + which)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s", which, resp.Status)
	}
	return os.WriteFile(file, b, 0o600)
}

// liveHeap is the provider's heap after a garbage collection (pprof's
// heap profile runs one when asked with gc=1): what its objects hold, not
// the garbage GOGC lets wait. It also writes the profile to file, when
// file is not empty, for go tool pprof.
func (p *process) liveHeap(file string) (float64, error) {
	if file == "" {
		file = filepath.Join(os.TempDir(), fmt.Sprintf("provider-heap-%d.pb.gz", p.Pid()))
		defer os.Remove(file)
	}
	if err := p.profile(file, "heap?gc=1"); err != nil {
		return 0, err
	}
	text, err := p.scrape()
	if err != nil {
		return 0, err
	}
	return gauge(text, "go_memstats_heap_alloc_bytes")
}

// scrape reads the provider's Prometheus metrics as text.
func (p *process) scrape() (string, error) {
	c := http.Client{Timeout: 10 * time.Second}
	resp, err := c.Get("http://" + p.metricsAddr + "/metrics")
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", err
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("GET /metrics: %s", resp.Status)
	}
	return string(b), nil
}

// waitForMetrics waits until the metrics endpoint answers.
func (p *process) waitForMetrics(timeout time.Duration) (string, error) {
	deadline := time.Now().Add(timeout)
	for {
		if err := p.Alive(); err != nil {
			return "", err
		}
		text, err := p.scrape()
		if err == nil {
			return text, nil
		}
		if time.Now().After(deadline) {
			return "", fmt.Errorf("the metrics endpoint did not answer within %s: %w", timeout, err)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// managedReconciles sums controller_runtime_reconcile_total over every label
// set whose controller is a managed resource's (named "managed/<kind>").
func managedReconciles(text string) (float64, error) {
	const name = "controller_runtime_reconcile_total{"
	var sum float64
	for _, line := range strings.Split(text, "\n") {
		if !strings.HasPrefix(line, name) {
			continue
		}
		end := strings.LastIndexByte(line, '}')
		if end < 0 {
			return 0, fmt.Errorf("metrics: cannot parse %q", line)
		}
		if !strings.HasPrefix(labelValue(line[len(name):end], "controller"), "managed/") {
			continue
		}
		fs := strings.Fields(line[end+1:])
		if len(fs) == 0 {
			return 0, fmt.Errorf("metrics: no value in %q", line)
		}
		v, err := strconv.ParseFloat(fs[0], 64)
		if err != nil {
			return 0, fmt.Errorf("metrics: %q: %w", line, err)
		}
		sum += v
	}
	return sum, nil
}

// gauge reads a metric without labels, such as go_memstats_heap_inuse_bytes,
// from a metrics scrape.
func gauge(text, name string) (float64, error) {
	for _, line := range strings.Split(text, "\n") {
		rest, ok := strings.CutPrefix(line, name+" ")
		if !ok {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(rest), 64)
		if err != nil {
			return 0, fmt.Errorf("metrics: %q: %w", line, err)
		}
		return v, nil
	}
	return 0, fmt.Errorf("metrics: no %s", name)
}

// labelValue returns the value of label key in a Prometheus label set
// (`a="x",b="y"`); the values the provider's metrics carry have no escaped
// quotes.
func labelValue(labels, key string) string {
	for _, kv := range strings.Split(labels, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if ok && strings.TrimSpace(k) == key {
			return strings.Trim(v, `"`)
		}
	}
	return ""
}

// providerMetricLines returns the lines of the provider's own and the
// managed resources' metrics.
func providerMetricLines(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "provider_aws_services_") || strings.HasPrefix(line, "crossplane_managed_resource_") {
			out = append(out, line)
		}
	}
	return out
}
