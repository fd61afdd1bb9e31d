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
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	streamingv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/ackannotations"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/managedoptions"
	"github.com/cloudkinds/provider-aws-services/test/crowd"
	"github.com/cloudkinds/provider-aws-services/test/workload"
)

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
