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
	"strings"
	"time"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	streamingv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/ackannotations"
	"github.com/cloudkinds/provider-aws-services/test/crowd"
	"github.com/cloudkinds/provider-aws-services/test/workload"
)

// create applies a stream and returns how long until it was Ready and
// Synced.
func (r *fairRun) create(mg *streamingv1alpha1.DeliveryStream) (time.Duration, error) {
	t0 := time.Now()
	if err := r.kube.Create(r.ctx, mg); err != nil {
		return 0, err
	}
	return r.until(t0, r.quietPatience, mg.Name+" Ready", func() (bool, error) {
		err := r.kube.Get(r.ctx, client.ObjectKeyFromObject(mg), mg)
		return err == nil && readyAndSynced(mg), err
	})
}

// change sets a stream's tag "version" and returns how long until AWS took
// the tag, by the emulator's record of its writes.
func (r *fairRun) change(ns, name, version string) (time.Duration, error) {
	t0 := time.Now()
	if err := r.kube.Patch(r.ctx, stub(ns, name), tagPatch(version)); err != nil {
		return 0, err
	}
	var at time.Time
	_, err := r.until(t0, r.quietPatience, name+"'s tag at AWS", func() (bool, error) {
		n, last := r.lastTagged(map[string]bool{name: true}, t0)
		at = last
		return n == 1, nil
	})
	return at.Sub(t0), err
}

// delete deletes a stream and returns how long until it was gone from
// Kubernetes.
func (r *fairRun) delete(ns, name string) (time.Duration, error) {
	t0 := time.Now()
	if err := r.kube.Delete(r.ctx, stub(ns, name)); err != nil {
		return 0, err
	}
	return r.until(t0, r.quietPatience, name+" gone", func() (bool, error) {
		err := r.kube.Get(r.ctx, types.NamespacedName{Namespace: ns, Name: name}, &streamingv1alpha1.DeliveryStream{})
		if kerrors.IsNotFound(err) {
			return true, nil
		}
		return false, err
	})
}

// errLate is the error of what took longer than its patience.
var errLate = errors.New("too late")

// until checks done every 100ms until it is, and returns the time since t0:
// an error when it takes longer than patience, or outlives the provider.
func (r *fairRun) until(t0 time.Time, patience time.Duration, what string, done func() (bool, error)) (time.Duration, error) {
	for {
		ok, err := done()
		if err != nil {
			return 0, fmt.Errorf("%s: %w", what, err)
		}
		if ok {
			return time.Since(t0), nil
		}
		if err := r.p.Alive(); err != nil {
			return 0, err
		}
		if time.Since(t0) > patience {
			return 0, fmt.Errorf("%s: %w: not after %s", what, errLate, patience)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// stalled is what a flood's wait for noisy's work says when it ended in
// err: work not done within the run's patience is a stalled flood, which
// the run reports and goes on from.
func (r *fairRun) stalled(err error, took time.Duration, done, want int) (time.Duration, string, error) {
	if !errors.Is(err, errLate) {
		return took, "", err
	}
	r.logf("stalled: %d of %d done after %s", done, want, r.patience)
	return r.patience, fmt.Sprintf("stalled: %d of %d done after %s", done, want, minutes(r.patience)), nil
}

// readyTimes lists the streams of the namespaces of want every second, and
// returns, for each, how long after start its count of streams Ready and
// Synced first reached want, and the last count.
func (r *fairRun) readyTimes(start time.Time, want map[string]int) (map[string]time.Duration, map[string]int, error) {
	out, counts := map[string]time.Duration{}, map[string]int{}
	_, err := r.until(start, r.patience, "the floods Ready", func() (bool, error) {
		for ns, n := range want {
			if _, done := out[ns]; done {
				continue
			}
			l := &streamingv1alpha1.DeliveryStreamList{}
			if err := r.kube.List(r.ctx, l, client.InNamespace(ns)); err != nil {
				return false, err
			}
			ready := 0
			for i := range l.Items {
				if readyAndSynced(&l.Items[i]) {
					ready++
				}
			}
			if counts[ns] = ready; ready >= n {
				out[ns] = time.Since(start)
			}
		}
		if len(out) < len(want) {
			time.Sleep(900 * time.Millisecond)
		}
		return len(out) == len(want), nil
	})
	return out, counts, err
}

// tagged waits until AWS took a tag of every stream of names after start,
// and returns when it took the last, and of how many streams it took one.
func (r *fairRun) tagged(names map[string]bool, start time.Time) (time.Time, int, error) {
	var (
		last time.Time
		n    int
	)
	_, err := r.until(start, r.patience, "the changes at AWS", func() (bool, error) {
		if n, last = r.lastTagged(names, start); n < len(names) {
			time.Sleep(900 * time.Millisecond)
		}
		return n == len(names), nil
	})
	return last, n, err
}

// lastTagged returns of how many streams of names AWS took a tag
// (TagDeliveryStream) since since, and when it took the last.
func (r *fairRun) lastTagged(names map[string]bool, since time.Time) (int, time.Time) {
	seen := map[string]bool{}
	var last time.Time
	for _, w := range r.em.Writes() {
		if w.Operation == "TagDeliveryStream" && names[w.Resource] && w.Time.After(since) {
			seen[w.Resource] = true
			last = w.Time
		}
	}
	return len(seen), last
}

// diagnose says what a stream's object and the emulator show of it.
func (r *fairRun) diagnose(ns, name string) string {
	mg := stub(ns, name)
	if err := r.kube.Get(r.ctx, client.ObjectKeyFromObject(mg), mg); err != nil {
		return err.Error()
	}
	var w strings.Builder
	fmt.Fprintf(&w, "  %s/%s: generation %d, deleted %v, annotations %v\n", ns, name, mg.Generation, mg.DeletionTimestamp, mg.Annotations)
	for _, c := range mg.Status.Conditions {
		fmt.Fprintf(&w, "  %s=%s %s (generation %d, at %s): %s\n", c.Type, c.Status, c.Reason, c.ObservedGeneration, c.LastTransitionTime.Format(time.TimeOnly), c.Message)
	}
	fmt.Fprintf(&w, "  AWS: %s, calls %v; all calls %v", r.em.StreamStatus("us-east-1", name), r.em.CallsFor(name), r.em.Calls())
	if text, err := r.p.scrape(); err == nil {
		for _, l := range providerMetricLines(text) {
			if !strings.Contains(l, "_bucket{") && (strings.Contains(l, "namespace") || strings.Contains(l, "deferred") || strings.Contains(l, "budget_calls_total")) {
				fmt.Fprintf(&w, "\n  %s", l)
			}
		}
	}
	return w.String()
}

// callsFor is how many AWS calls named the first n of noisy's streams.
func (r *fairRun) callsFor(n int) int {
	sum := 0
	for i := range n {
		for _, c := range r.em.CallsFor(noisyName(i)) {
			sum += c
		}
	}
	return sum
}

// letGo deletes the streams of a namespace with the deletion policy retain:
// they leave Kubernetes without an AWS call, so that cleaning up takes
// nothing from the budgets (the streams stay in the emulator, which nobody
// looks at again).
func (r *fairRun) letGo(ns string) error {
	l := &streamingv1alpha1.DeliveryStreamList{}
	if err := r.kube.List(r.ctx, l, client.InNamespace(ns)); err != nil {
		return err
	}
	retain := client.RawPatch(types.MergePatchType, fmt.Appendf(nil, `{"metadata":{"annotations":{%q:%q}}}`,
		ackannotations.AnnotationDeletionPolicy, ackannotations.DeletionPolicyRetain))
	err := crowd.Parallel(len(l.Items), 8, func(i int) error {
		mg := &l.Items[i]
		if err := r.kube.Patch(r.ctx, mg, retain); err != nil {
			return client.IgnoreNotFound(err)
		}
		return client.IgnoreNotFound(r.kube.Delete(r.ctx, mg))
	})
	if err != nil {
		return err
	}
	_, err = r.until(time.Now(), r.patience, "the streams of "+ns+" let go", func() (bool, error) {
		if err := r.kube.List(r.ctx, l, client.InNamespace(ns)); err != nil {
			return false, err
		}
		return len(l.Items) == 0, nil
	})
	return err
}

func (r *fairRun) must(err error) {
	r.b.Helper()
	if err != nil {
		r.b.Fatal(err)
	}
}

// logf prints progress as it happens: b.Log prints only at the end.
func (r *fairRun) logf(format string, args ...any) {
	fmt.Printf("%6.0fs  %s\n", time.Since(r.start).Seconds(), fmt.Sprintf(format, args...))
}

// fairStream is a stream of the benchmark's ClusterProviderConfig, its tag
// "version" at v0.
func fairStream(ns, name string, annotations map[string]string) *streamingv1alpha1.DeliveryStream {
	mg := workload.Set{}.Object("DeliveryStream", ns, name, "v0").(*streamingv1alpha1.DeliveryStream) //nolint:forcetypeassert // Object's DeliveryStream
	mg.Spec.ProviderConfigReference.Name = fairConfig
	mg.SetAnnotations(annotations)
	return mg
}

// stub names a stream, for a patch or a delete.
func stub(ns, name string) *streamingv1alpha1.DeliveryStream {
	return &streamingv1alpha1.DeliveryStream{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
}

// tagPatch sets a stream's tag "version", the field workload.Set.Object
// changes between versions: the provider sends it with TagDeliveryStream.
func tagPatch(version string) client.Patch {
	return client.RawPatch(types.MergePatchType, fmt.Appendf(nil, `{"spec":{"forProvider":{"tags":[{"key":"version","value":%q}]}}}`, version))
}

func noisyName(i int) string { return noisyNS + "-" + strconv.Itoa(i) }

func teamNames() []string {
	out := make([]string, teams)
	for i := range out {
		out[i] = "team-" + strconv.Itoa(i)
	}
	return out
}

func readyAndSynced(mg *streamingv1alpha1.DeliveryStream) bool {
	return mg.GetCondition(xpv2.TypeReady).Status == corev1.ConditionTrue && mg.GetCondition(xpv2.TypeSynced).Status == corev1.ConditionTrue
}
