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

package integration

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	dto "github.com/prometheus/client_model/go"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	apisv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/aws/quota"
	"github.com/cloudkinds/provider-aws-services/internal/metrics"
)

// TestOneTeamsFloodNeverStallsAnother: team "noisy" applies 60
// DeliveryStreams at once, whose creates the budget of CreateDeliveryStream
// paces at 2 a second (here, in a region of their own: 30 s for the flood).
// Three seconds later team "quiet", sharing the account, applies one: its
// create takes a turn within a slot or two of the flood's, and it is Ready
// within a few seconds while noisy's flood is still being created, not
// after it. The flood still takes no longer than its budget allows, and
// the creates of both keep to the budget.
func TestOneTeamsFloodNeverStallsAnother(t *testing.T) {
	s := provider(t)
	ctx := context.Background()
	suffix := fmt.Sprint(time.Now().UnixNano() % 100000)
	noisy, quiet := "noisy-"+suffix, "quiet-"+suffix
	ensureNamespace(t, noisy)
	ensureNamespace(t, quiet)
	const (
		region = "eu-west-3"
		flood  = 60
		rate   = 2.0 // creates a second
	)
	createOp := quota.Operation{Service: "Firehose", Name: "CreateDeliveryStream"}

	streams := make([]*v1alpha1.DeliveryStream, 0, flood)
	for i := range flood {
		mg := newStream(t, noisy, fmt.Sprintf("flood-%s-%02d", suffix, i))
		mg.Spec.ForProvider.Region = aws.String(region)
		streams = append(streams, mg)
	}
	lone := newStream(t, quiet, "lone-"+suffix)
	lone.Spec.ForProvider.Region = aws.String(region)
	session, err := s.sessions.Session(ctx, streams[0], aws.String(region))
	if err != nil {
		t.Fatal(err)
	}
	s.budgets.SetRate(session.Scope(), region, createOp, rate)
	deferred := testutil.ToFloat64(metrics.NamespaceDeferred.WithLabelValues(noisy, "change"))
	t.Cleanup(func() {
		for _, ns := range []string{noisy, quiet} {
			if err := cp.Client.DeleteAllOf(ctx, &v1alpha1.DeliveryStream{}, client.InNamespace(ns)); err != nil {
				t.Errorf("cannot delete the streams of %s: %v", ns, err)
			}
			eventually(t, 60*time.Second, "the streams of "+ns+" gone", func() error {
				l := &v1alpha1.DeliveryStreamList{}
				if err := cp.Client.List(ctx, l, client.InNamespace(ns)); err != nil {
					return err
				}
				if len(l.Items) > 0 {
					return fmt.Errorf("%d left", len(l.Items))
				}
				return nil
			})
		}
	})

	start := time.Now()
	for _, mg := range streams {
		if err := cp.Client.Create(ctx, mg); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("noisy's %d streams applied in %v", flood, time.Since(start).Round(time.Millisecond))
	time.Sleep(time.Until(start.Add(3 * time.Second)))
	applied := time.Now()
	if err := cp.Client.Create(ctx, lone); err != nil {
		t.Fatal(err)
	}
	eventually(t, 10*time.Second, "quiet's stream Ready", func() error { return isReady(t, lone) })
	ready := time.Since(applied)
	created := creationsIn(s, region, "flood-"+suffix)
	t.Logf("quiet's stream Ready %v after it was applied, %v into noisy's flood, with %d of noisy's %d streams created",
		ready.Round(time.Millisecond), time.Since(start).Round(time.Millisecond), len(created), flood)
	if ready > 5*time.Second {
		t.Errorf("quiet's stream was Ready %v after it was applied during noisy's flood, want within 5 s", ready.Round(time.Millisecond))
	}
	if len(created) > flood*3/4 {
		t.Errorf("quiet's stream was Ready once %d of noisy's %d streams were created: it waited for the flood", len(created), flood)
	}
	if lone := creationsIn(s, region, "lone-"+suffix); len(lone) != 1 || lone[0].Sub(applied) > 2*time.Second {
		t.Errorf("quiet's create: %v after it was applied, want one within 2 s (a slot or two at %v a second)", durationsSince(applied, lone), rate)
	}

	for _, mg := range streams {
		eventually(t, 60*time.Second, "noisy's "+mg.Name+" Ready", func() error { return isReady(t, mg) })
	}
	created = creationsIn(s, region, "flood-"+suffix)
	if len(created) != flood {
		t.Fatalf("noisy's streams: %d created, want %d", len(created), flood)
	}
	took := created[len(created)-1].Sub(start)
	bound := time.Duration(float64(flood+1) / rate * float64(time.Second))
	t.Logf("noisy's %d creates took %v (the budget allows them and quiet's in %v)", flood, took.Round(time.Millisecond), bound)
	if took > bound*115/100 {
		t.Errorf("noisy's flood took %v to create, over 1.15 × what the budget allows (%v)", took.Round(time.Millisecond), bound)
	}
	all := slices.Concat(created, creationsIn(s, region, "lone-"+suffix))
	slices.SortFunc(all, time.Time.Compare)
	if most, allowed := mostWithin(all, 5*time.Second), int(5*rate+rate); most > allowed {
		t.Errorf("%d creates within 5 s, want at most %d: %v a second and a second's burst", most, allowed, rate)
	}
	if n := testutil.ToFloat64(metrics.NamespaceDeferred.WithLabelValues(noisy, "change")) - deferred; n < flood/2 {
		t.Errorf("provider_aws_services_namespace_deferred_total{namespace=%q,class=change} rose by %v, want at least %d", noisy, n, flood/2)
	}
	if waited := turnWaitSum(t, quiet); waited > 2 {
		t.Errorf("provider_aws_services_namespace_turn_wait_seconds{namespace=%q} sums %.1f s, want at most 2", quiet, waited)
	}
}

// creationsIn returns the times the emulator created the streams of region
// whose names begin with prefix, in order.
func creationsIn(s *stack, region, prefix string) []time.Time {
	var out []time.Time
	for _, c := range s.aws.Creations() {
		if c.Kind == "DeliveryStream" && c.Region == region && strings.HasPrefix(c.Name, prefix) {
			out = append(out, c.Time)
		}
	}
	return out
}

func durationsSince(t0 time.Time, ts []time.Time) []time.Duration {
	out := make([]time.Duration, 0, len(ts))
	for _, t := range ts {
		out = append(out, t.Sub(t0).Round(time.Millisecond))
	}
	return out
}

// mostWithin is the most of the sorted times within any span of d.
func mostWithin(ts []time.Time, d time.Duration) int {
	most := 0
	for i, j := 0, 0; j < len(ts); j++ {
		for ts[j].Sub(ts[i]) >= d {
			i++
		}
		most = max(most, j-i+1)
	}
	return most
}

// turnWaitSum is the sum of the waits of the changes of namespace ns for
// their turn.
func turnWaitSum(t *testing.T, ns string) float64 {
	t.Helper()
	m := &dto.Metric{}
	if err := metrics.NamespaceTurnWait.WithLabelValues(ns, "change").(prometheus.Histogram).Write(m); err != nil {
		t.Fatal(err)
	}
	return m.GetHistogram().GetSampleSum()
}

// TestNamespaceSharesThroughTheGate: a ClusterProviderConfig's
// namespaceShares reach the budgets through the real gate. Alone, a
// namespace capped at 50 % of CreateDeliveryStream's budget (4 creates a
// second here) creates its 8 streams at 2 a second; beside it, at the same
// time, a namespace of weight 3 creates 3 for every one of a namespace of
// weight 1.
func TestNamespaceSharesThroughTheGate(t *testing.T) {
	s := provider(t)
	ctx := context.Background()
	suffix := fmt.Sprint(time.Now().UnixNano() % 100000)
	const (
		region = "eu-north-1"
		rate   = 4.0
		n      = 8
	)
	capped, heavy, light := "capped-"+suffix, "heavy-"+suffix, "light-"+suffix
	pc := &apisv1alpha1.ClusterProviderConfig{ObjectMeta: metav1.ObjectMeta{Name: "shares-" + suffix}, Spec: apisv1alpha1.ClusterProviderConfigSpec{
		ProviderConfigSpec: apisv1alpha1.ProviderConfigSpec{
			Credentials: apisv1alpha1.ProviderCredentials{Source: apisv1alpha1.CredentialsSourceNone},
			Region:      aws.String(region),
			Endpoint:    &apisv1alpha1.EndpointOverride{URL: s.url},
		},
		NamespaceShares: []apisv1alpha1.NamespaceShare{{Namespace: capped, MaxPercent: aws.Int32(50)}, {Namespace: heavy, Weight: aws.Int32(3)}},
	}}
	create(t, pc)
	ref := &xpv2.ProviderConfigReference{Kind: apisv1alpha1.ClusterProviderConfigKind, Name: pc.Name}
	createOp := quota.Operation{Service: "Firehose", Name: "CreateDeliveryStream"}
	streamsOf := func(ns string) []*v1alpha1.DeliveryStream {
		ensureNamespace(t, ns)
		out := make([]*v1alpha1.DeliveryStream, 0, n)
		for i := range n {
			mg := newStream(t, ns, fmt.Sprintf("%s-%02d", ns, i))
			mg.Spec.ProviderConfigReference = ref
			mg.Spec.ForProvider.Region = aws.String(region)
			out = append(out, mg)
		}
		return out
	}
	apply := func(streams ...[]*v1alpha1.DeliveryStream) {
		for i := range n {
			for _, ss := range streams {
				if err := cp.Client.Create(ctx, ss[i]); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	ready := func(streams []*v1alpha1.DeliveryStream) {
		for _, mg := range streams {
			eventually(t, 90*time.Second, mg.Name+" Ready", func() error { return isReady(t, mg) })
		}
	}

	cappedStreams := streamsOf(capped)
	session, err := s.sessions.Session(ctx, cappedStreams[0], aws.String(region))
	if err != nil {
		t.Fatal(err)
	}
	s.budgets.SetRate(session.Scope(), region, createOp, rate)
	apply(cappedStreams)
	ready(cappedStreams)
	created := creationsIn(s, region, capped)
	span := created[len(created)-1].Sub(created[0])
	t.Logf("capped at 50 %%, alone: %d creates in %v", len(created), span.Round(time.Millisecond))
	if want := time.Duration(float64(n-1) / (rate / 2) * float64(time.Second)); span < want*9/10 {
		t.Errorf("a namespace capped at 50 %% created %d streams in %v alone, want at least %v (2 a second)", n, span.Round(time.Millisecond), want)
	}

	heavyStreams, lightStreams := streamsOf(heavy), streamsOf(light)
	apply(lightStreams, heavyStreams)
	ready(heavyStreams)
	ready(lightStreams)
	all := append(creationsIn(s, region, heavy), creationsIn(s, region, light)...)
	slices.SortFunc(all, time.Time.Compare)
	// Of the first 8 creates of the two, while both wait, weight 3 to 1
	// takes 6; equal turns would take 4.
	firstHeavy := 0
	for _, at := range creationsIn(s, region, heavy) {
		if !at.After(all[7]) {
			firstHeavy++
		}
	}
	t.Logf("weight 3 beside weight 1: %d of the first 8 creates", firstHeavy)
	if firstHeavy < 5 {
		t.Errorf("the namespace of weight 3 had %d of the first 8 creates, want about 6 (3 for every 1)", firstHeavy)
	}
}
