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

// Package sidebyside measures this provider beside the classic
// crossplane-contrib/provider-aws on the same load: 50 Firehose
// DeliveryStreams and 50 SNS Subscriptions, on a cluster crowded with 300
// unrelated CRDs of about 200 KiB of schema and 2000 Secrets of 32 KiB. Each
// provider runs alone, as a new user would run it (its default flags), on a
// control plane of its own against a fresh AWS emulator that answers every
// call after 30 ms plus up to 40 ms and enforces AWS's published quotas. It
// reports the time from the first create until all 100 objects are Ready and
// Synced, the provider's peak RSS, and the AWS calls each made until then.
//
//	make bench.classic CLASSIC_PROVIDER=... CLASSIC_CRDS=...
//
// The classic provider is not built here: CLASSIC_PROVIDER names its binary,
// built by hand from its own repository, and CLASSIC_CRDS its package's CRD
// folder; the benchmark skips without them.
package sidebyside

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	extv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/test/controlplane"
	"github.com/cloudkinds/provider-aws-services/test/crowd"
	"github.com/cloudkinds/provider-aws-services/test/emulator"
	"github.com/cloudkinds/provider-aws-services/test/workload"
)

// The crowd and the emulator: those of make bench with BENCH_CROWD=1.
const (
	crowdCRDs      = 300
	crowdCRDKiB    = 200
	crowdSecrets   = 2000
	crowdSecretKiB = 32
	latency        = 30 * time.Millisecond
	jitter         = 40 * time.Millisecond
	// idle is how long a provider runs on the crowded cluster before the
	// load is created: long enough to have started and filled its caches.
	idle = 30 * time.Second
	// readyWithin is how long a provider has to make the load Ready.
	readyWithin = 20 * time.Minute
)

// figures are what the benchmark measures of one provider.
type figures struct {
	c                    contender
	crowdTime            time.Duration
	idleRSS              float64 // MiB, after idle
	peakSampled, peakHWM float64 // MiB, from start until Ready
	createTime           time.Duration
	readyTime            time.Duration // 0 when not all were Ready within readyWithin
	ready                int
	notReady             string // one object that was not Ready, with its conditions
	calls                map[string]int
	outcomes             map[string]map[string]int // per operation
	throttled            int
	cpu                  float64 // seconds, from the first create until Ready
}

// results hold the figures of the one run, reported again if the benchmark
// is called with a larger b.N.
var results []*figures

// BenchmarkSideBySide runs this provider and then the classic provider on
// the same load. It does its work once, whatever b.N is: run it with
// -benchtime 1x.
func BenchmarkSideBySide(b *testing.B) {
	if results == nil {
		binary, crdDir, err := classicFromEnv()
		if err != nil {
			b.Skip(err)
		}
		dir := b.TempDir()
		own, err := workload.BuildProvider(dir)
		if err != nil {
			b.Fatal(err)
		}
		port, err := freePort()
		if err != nil {
			b.Fatal(err)
		}
		for _, c := range []contender{ours(own, "127.0.0.1:"+strconv.Itoa(port)), classic(binary, crdDir)} {
			f, err := run(b, c, dir)
			if err != nil {
				b.Fatalf("%s: %v", c.name, err)
			}
			results = append(results, f)
		}
		fmt.Println(table(results, commit(), binary))
	}
	for _, f := range results {
		b.ReportMetric(f.readyTime.Seconds(), f.c.short+"-ready-s")
		b.ReportMetric(max(f.peakSampled, f.peakHWM), f.c.short+"-peak-MiB")
		b.ReportMetric(float64(total(f.calls))/float64(2*perKind), f.c.short+"-aws-calls/resource")
	}
}

// run measures one provider on a control plane of its own.
func run(b *testing.B, c contender, dir string) (*figures, error) {
	b.Helper()
	ctx := context.Background()
	f := &figures{c: c}
	cp, err := controlplane.Start(c.crds...)
	if err != nil {
		return nil, fmt.Errorf("cannot start the control plane: %w", err)
	}
	defer func() { _ = cp.Stop() }()
	if err := extv1.AddToScheme(cp.Scheme); err != nil {
		return nil, err
	}
	kube := cp.Client

	t0 := time.Now()
	if err := crowd.CRDs(ctx, kube, crowdCRDs, crowdCRDKiB, 20*time.Minute); err != nil {
		return nil, err
	}
	if err := crowd.Secrets(ctx, kube, crowdSecrets, crowdSecretKiB); err != nil {
		return nil, err
	}
	f.crowdTime = time.Since(t0)

	em := emulator.New(emulator.Options{Seed: 1, CreateDelay: 2 * time.Second, UpdateDelay: 2 * time.Second, DeleteDelay: 2 * time.Second})
	em.SetFaults(map[string]emulator.Fault{"*": {Latency: latency, LatencyJitter: jitter}})
	em.SetQuotas(emulator.PublishedQuotas)
	srv := httptest.NewServer(em)
	defer srv.Close()
	topicARN := em.CreateTopic(region, "sidebyside")

	if err := credentials(ctx, kube); err != nil {
		return nil, err
	}
	if err := c.prepare(ctx, kube); err != nil {
		return nil, err
	}
	if err := create(ctx, kube, c.providerConfig(srv.URL)); err != nil {
		return nil, err
	}

	kubeconfig := filepath.Join(dir, "kubeconfig-"+c.short)
	if err := os.WriteFile(kubeconfig, cp.KubeConfig, 0o600); err != nil {
		return nil, err
	}
	p, err := start(c.binary, c.args, kubeconfig, filepath.Join(dir, c.short+".log"))
	if err != nil {
		return nil, err
	}
	defer func() {
		if err := p.stop(); err != nil {
			b.Error(err)
		}
	}()
	for deadline := time.Now().Add(idle); time.Now().Before(deadline); time.Sleep(time.Second) {
		if err := p.Alive(); err != nil {
			return nil, err
		}
	}
	if f.idleRSS, err = p.StatusMiB("VmRSS"); err != nil {
		return nil, err
	}

	// The load, created as fast as the API server takes it.
	objects := c.objects(topicARN)
	kinds, err := listKinds(kube, objects)
	if err != nil {
		return nil, err
	}
	cpu0, err := p.CPUSeconds()
	if err != nil {
		return nil, err
	}
	em.ResetCalls()
	first := time.Now()
	if err := crowd.Parallel(len(objects), 8, func(i int) error { return kube.Create(ctx, objects[i]) }); err != nil {
		return nil, err
	}
	f.createTime = time.Since(first)
	for deadline := first.Add(readyWithin); ; time.Sleep(250 * time.Millisecond) {
		if f.ready, f.notReady, err = settled(ctx, kube, kinds, c.namespace); err != nil {
			return nil, err
		}
		if f.ready == len(objects) {
			f.readyTime = time.Since(first)
			break
		}
		if err := p.Alive(); err != nil {
			return nil, err
		}
		if time.Now().After(deadline) {
			break
		}
	}
	f.calls, f.outcomes = em.Calls(), em.Outcomes()
	f.throttled = throttled(f.outcomes)
	cpu, err := p.CPUSeconds()
	if err != nil {
		return nil, err
	}
	f.cpu = cpu - cpu0
	if f.peakHWM, err = p.StatusMiB("VmHWM"); err != nil {
		return nil, err
	}
	if f.peakSampled, err = p.rss.Finish(); err != nil {
		return nil, err
	}
	return f, nil
}

// listKinds returns the list kinds of the objects' kinds, in the order they
// first appear.
func listKinds(kube client.Client, objects []client.Object) ([]schema.GroupVersionKind, error) {
	var out []schema.GroupVersionKind
	for _, o := range objects {
		gvk, err := kube.GroupVersionKindFor(o)
		if err != nil {
			return nil, err
		}
		gvk.Kind += "List"
		if !slices.Contains(out, gvk) {
			out = append(out, gvk)
		}
	}
	return out, nil
}

// settled counts, with one list per kind, the objects in namespace ns (all
// namespaces when empty) that are Ready and Synced, and describes one that
// is not.
func settled(ctx context.Context, kube client.Client, kinds []schema.GroupVersionKind, ns string) (int, string, error) {
	n, example := 0, ""
	for _, gvk := range kinds {
		l := &unstructured.UnstructuredList{}
		l.SetGroupVersionKind(gvk)
		if err := kube.List(ctx, l, client.InNamespace(ns)); err != nil {
			return 0, "", err
		}
		for _, o := range l.Items {
			conds := conditions(o.Object)
			if conds["Ready"].status == "True" && conds["Synced"].status == "True" {
				n++
				continue
			}
			if example == "" {
				example = fmt.Sprintf("%s %s: Ready=%s, Synced=%s", o.GetKind(), o.GetName(), conds["Ready"], conds["Synced"])
			}
		}
	}
	return n, example, nil
}

// A condition is what settled reads of one of an object's conditions.
type condition struct{ status, reason, message string }

func (c condition) String() string {
	if c.status == "" {
		return "(none)"
	}
	return fmt.Sprintf("%s %s %q", c.status, c.reason, c.message)
}

// conditions reads status.conditions of an object, by type.
func conditions(obj map[string]any) map[string]condition {
	out := map[string]condition{}
	list, _, _ := unstructured.NestedSlice(obj, "status", "conditions")
	for _, item := range list {
		m, ok := item.(map[string]any)
		if !ok {
			continue
		}
		str := func(k string) string { s, _ := m[k].(string); return s }
		out[str("type")] = condition{status: str("status"), reason: str("reason"), message: str("message")}
	}
	return out
}

func throttled(outcomes map[string]map[string]int) int {
	n := 0
	for _, m := range outcomes {
		n += m[emulator.OutcomeThrottled]
	}
	return n
}

func total(calls map[string]int) int {
	n := 0
	for _, v := range calls {
		n += v
	}
	return n
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	addr, ok := l.Addr().(*net.TCPAddr)
	if !ok {
		_ = l.Close()
		return 0, errors.New("not a TCP listener")
	}
	return addr.Port, l.Close()
}

// commit names the commit this provider was built from, marked when the
// working tree differs from it.
func commit() string {
	git := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = controlplane.RepoRoot()
		out, err := cmd.Output()
		if err != nil {
			return ""
		}
		return strings.TrimSpace(string(out))
	}
	c := git("rev-parse", "--short=12", "HEAD")
	if c == "" {
		return "unknown commit"
	}
	if git("status", "--porcelain", "--untracked-files=no") != "" {
		c += " with uncommitted changes"
	}
	return c
}

// table prints the figures side by side as markdown.
func table(fs []*figures, commit, classicBinary string) string {
	var w strings.Builder
	row := func(name string, cell func(f *figures) string) {
		fmt.Fprintf(&w, "| %s |", name)
		for _, f := range fs {
			fmt.Fprintf(&w, " %s |", cell(f))
		}
		w.WriteString("\n")
	}
	fmt.Fprintf(&w, "\n%d DeliveryStreams and %d Subscriptions; crowd: %d CRDs of ~%d KiB schema, %d Secrets of %d KiB; "+
		"AWS latency %s + up to %s, AWS's published quotas enforced; each provider alone with its default flags.\n"+
		"provider-aws-services at %s; classic: %s\n\n",
		perKind, perKind, crowdCRDs, crowdCRDKiB, crowdSecrets, crowdSecretKiB, latency, jitter, commit, classicBinary)
	w.WriteString("| figure |")
	for _, f := range fs {
		fmt.Fprintf(&w, " %s |", f.c.name)
	}
	w.WriteString("\n|---|" + strings.Repeat("---|", len(fs)) + "\n")
	row("time to all Ready and Synced", func(f *figures) string {
		if f.readyTime == 0 {
			return fmt.Sprintf("not within %s: %d of %d (%s)", readyWithin, f.ready, 2*perKind, f.notReady)
		}
		return f.readyTime.Round(100 * time.Millisecond).String()
	})
	row("creates took", func(f *figures) string { return f.createTime.Round(100 * time.Millisecond).String() })
	row("peak RSS, start to Ready (sampled every 250ms / VmHWM)", func(f *figures) string {
		return fmt.Sprintf("%.1f / %.1f MiB", f.peakSampled, f.peakHWM)
	})
	row(fmt.Sprintf("RSS on the crowded cluster after %s idle", idle), func(f *figures) string { return fmt.Sprintf("%.1f MiB", f.idleRSS) })
	row("AWS calls until Ready (per resource)", func(f *figures) string {
		return fmt.Sprintf("%d (%.2f)", total(f.calls), float64(total(f.calls))/float64(2*perKind))
	})
	var ops []string
	for _, f := range fs {
		for op := range f.calls {
			if !slices.Contains(ops, op) {
				ops = append(ops, op)
			}
		}
	}
	slices.Sort(ops)
	for _, op := range ops {
		row("&nbsp;&nbsp;"+op+" (per resource of its kind; throttled)", func(f *figures) string {
			return fmt.Sprintf("%d (%.2f; %d)", f.calls[op], float64(f.calls[op])/perKind, f.outcomes[op][emulator.OutcomeThrottled])
		})
	}
	row("throttled answers until Ready", func(f *figures) string { return strconv.Itoa(f.throttled) })
	row("CPU seconds, first create to Ready", func(f *figures) string { return fmt.Sprintf("%.1f", f.cpu) })
	row("crowding the cluster took", func(f *figures) string { return f.crowdTime.Round(time.Second).String() })
	return w.String()
}
