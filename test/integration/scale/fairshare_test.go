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
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/budget"
	"github.com/cloudkinds/provider-aws-services/test/emulator"
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
