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
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/firehose"

	"github.com/cloudkinds/provider-aws-services/internal/aws/quota"

	"github.com/cloudkinds/provider-aws-services/internal/tenancy/budget"
)

// changeCalls are the AWS calls a change of a Ready stream's tag needs at
// least: the look that finds it (DescribeDeliveryStream, and the tags
// listed to compare them) and the write. Each operation has its own budget,
// so the calls of many changes overlap, and the AWS bound is the longest
// any of the three budgets takes.
var changeCalls = []quota.Operation{
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
