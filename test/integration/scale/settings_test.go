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
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// settings are the size of the benchmark, from BENCH_* variables.
type settings struct {
	perKind            int            // BENCH_PER_KIND: resources of each of the five kinds
	counts             map[string]int // BENCH_COUNTS: resources of some kinds, as "DeliveryStream=2000,Subscription=1000"
	quotas             bool           // BENCH_QUOTAS: 1 (default) makes the emulator enforce AWS's published quotas
	crowd              bool           // BENCH_CROWD: 1 crowds the cluster, 0 does not
	crds, crdKiB       int            // BENCH_CRDS, BENCH_CRD_KIB: unrelated CRDs and their schema size
	secrets, secretKiB int            // BENCH_SECRETS, BENCH_SECRET_KIB: Helm release Secrets and their size
	latency, jitter    time.Duration  // BENCH_LATENCY: "30ms+40ms" is 30ms per AWS call plus up to 40ms more
	idle               time.Duration  // BENCH_IDLE: how long the provider idles before its RSS is read
	steadyPolls        int            // BENCH_STEADY_POLLS: poll intervals the steady state is watched for
	maxReconcileRate   string         // BENCH_MAX_RECONCILE_RATE: --max-reconcile-rate; empty leaves the provider's default
	accounts           int            // BENCH_ACCOUNTS: AWS accounts the resources are spread over, each its own ClusterProviderConfig and quotas
	reset              float64        // BENCH_RESET: the share of connections a proxy before the emulator resets after it answered; 0: no proxy
}

func settingsFromEnv(b *testing.B) settings {
	b.Helper()
	s := settings{perKind: 200, crowd: true, crds: 300, crdKiB: 200, secrets: 2000, secretKiB: 32,
		latency: 30 * time.Millisecond, jitter: 40 * time.Millisecond, idle: 30 * time.Second, steadyPolls: 2, accounts: 1}
	num := func(name string, dst *int) {
		if v := os.Getenv(name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				b.Fatalf("%s=%q: want a whole number", name, v)
			}
			*dst = n
		}
	}
	num("BENCH_PER_KIND", &s.perKind)
	num("BENCH_CRDS", &s.crds)
	num("BENCH_CRD_KIB", &s.crdKiB)
	num("BENCH_SECRETS", &s.secrets)
	num("BENCH_SECRET_KIB", &s.secretKiB)
	num("BENCH_STEADY_POLLS", &s.steadyPolls)
	num("BENCH_ACCOUNTS", &s.accounts)
	if s.accounts < 1 {
		b.Fatal("BENCH_ACCOUNTS must be at least 1")
	}
	if v := os.Getenv("BENCH_KINDS"); v != "" {
		// A subset of the kinds, as "Subscription,DeliveryStream".
		kinds = strings.Split(v, ",")
	}
	if s.perKind < 1 {
		b.Fatal("BENCH_PER_KIND must be at least 1")
	}
	s.counts = map[string]int{}
	for _, k := range kinds {
		s.counts[k] = s.perKind
	}
	if v := os.Getenv("BENCH_COUNTS"); v != "" {
		for _, kv := range strings.Split(v, ",") {
			k, n, _ := strings.Cut(kv, "=")
			c, err := strconv.Atoi(n)
			if _, known := s.counts[k]; !known || err != nil || c < 1 {
				b.Fatalf("BENCH_COUNTS=%q: want Kind=N,... of the kinds %v", v, kinds)
			}
			s.counts[k] = c
		}
	}
	// On by default; 0 turns them off.
	for name, dst := range map[string]*bool{"BENCH_QUOTAS": &s.quotas, "BENCH_CROWD": &s.crowd} {
		switch v := os.Getenv(name); v {
		case "", "1", "true":
			*dst = true
		case "0", "false":
			*dst = false
		default:
			b.Fatalf("%s=%q: want 1 or 0", name, v)
		}
	}
	if v := os.Getenv("BENCH_LATENCY"); v != "" {
		lat, jit, _ := strings.Cut(v, "+")
		var err error
		if s.latency, err = time.ParseDuration(lat); err != nil {
			b.Fatalf("BENCH_LATENCY=%q: want a latency and an optional jitter, as \"30ms+40ms\": %v", v, err)
		}
		s.jitter = 0
		if jit != "" {
			if s.jitter, err = time.ParseDuration(jit); err != nil {
				b.Fatalf("BENCH_LATENCY=%q: want a latency and an optional jitter, as \"30ms+40ms\": %v", v, err)
			}
		}
	}
	if v := os.Getenv("BENCH_MAX_RECONCILE_RATE"); v != "" {
		if r, err := strconv.ParseFloat(v, 64); err != nil || math.IsNaN(r) || math.IsInf(r, 0) {
			b.Fatalf("BENCH_MAX_RECONCILE_RATE=%q: want a number", v)
		}
		s.maxReconcileRate = v
	}
	if v := os.Getenv("BENCH_IDLE"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			b.Fatalf("BENCH_IDLE=%q: %v", v, err)
		}
		s.idle = d
	}
	if v := os.Getenv("BENCH_RESET"); v != "" {
		r, err := strconv.ParseFloat(v, 64)
		if err != nil || !(r >= 0 && r < 1) {
			b.Fatalf("BENCH_RESET=%q: want the share of connections to reset after AWS answered, a fraction at least 0 and below 1, as 0.01", v)
		}
		s.reset = r
	}
	return s
}
