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

package chaos

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	coordinationv1 "k8s.io/api/coordination/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/internal/tenancy/shard"
	"github.com/cloudkinds/provider-aws-services/test/emulator"
)

func mapValues(m map[int][]resource.Managed) [][]resource.Managed {
	out := make([][]resource.Managed, 0, len(m))
	for i := range len(m) {
		out = append(out, m[i])
	}
	return out
}

// settle waits until every object is Ready and Synced for its spec, and
// returns why those that are not are not.
func settle(ctx context.Context, kube client.Client, objects []resource.Managed, timeout time.Duration) []string {
	var stuck []string
	for deadline := time.Now().Add(timeout); ; time.Sleep(200 * time.Millisecond) {
		stuck = stuck[:0]
		for _, mg := range objects {
			if why := notSettled(ctx, kube, mg, false); why != "" {
				stuck = append(stuck, objectName(mg)+": "+why)
			}
		}
		if len(stuck) == 0 || time.Now().After(deadline) {
			return stuck
		}
	}
}

// shardHolders reads who holds each shard's Lease.
func shardHolders(ctx context.Context, t *testing.T, kube client.Client) map[int]string {
	t.Helper()
	l := &coordinationv1.LeaseList{}
	if err := kube.List(ctx, l, client.InNamespace(shHome), client.MatchingLabels{shard.LabelRole: shard.RoleShard}); err != nil {
		t.Fatal(err)
	}
	out := map[int]string{}
	for _, lease := range l.Items {
		var n int
		if _, err := fmt.Sscanf(lease.Name, "provider-aws-services-shard-%d", &n); err == nil {
			out[n] = aws.ToString(lease.Spec.HolderIdentity)
		}
	}
	return out
}

// replicaName is the replica of a holder identity: POD_NAME, then a dash
// and a random part.
func replicaName(holder string) string {
	if i := strings.LastIndexByte(holder, '-'); i > 0 {
		return holder[:i]
	}
	return holder
}

// holderOf is the holder identity of the replica named name among per's.
func holderOf(per map[string]int, name string) string {
	for h := range per {
		if replicaName(h) == name {
			return h
		}
	}
	return ""
}

// awsCallsOf sums a replica's provider_aws_services_aws_calls_total, but
// for STS's (the identity calls that build sessions).
func awsCallsOf(t *testing.T, metricsAddr string) float64 {
	t.Helper()
	return metricSum(t, metricsAddr, "provider_aws_services_aws_calls_total{", `service="STS"`)
}

// cachedByShard is how many managed resources a replica caches, by the
// shard label they carry ("none" for none).
func cachedByShard(t *testing.T, metricsAddr string) map[string]float64 {
	t.Helper()
	out := map[string]float64{}
	for _, line := range strings.Split(scrape(t, metricsAddr), "\n") {
		rest, ok := strings.CutPrefix(line, `provider_aws_services_shard_cached_resources{shard="`)
		if !ok {
			continue
		}
		label, value, _ := strings.Cut(rest, `"} `)
		var v float64
		if _, err := fmt.Sscan(value, &v); err == nil {
			out[label] = v
		}
	}
	return out
}

// metricSum sums the series of a replica's metric whose lines begin with
// prefix, but those that contain skip.
func metricSum(t *testing.T, metricsAddr, prefix, skip string) float64 {
	t.Helper()
	text := scrape(t, metricsAddr)
	sum := 0.0
	for _, line := range strings.Split(text, "\n") {
		if !strings.HasPrefix(line, prefix) || skip != "" && strings.Contains(line, skip) {
			continue
		}
		var v float64
		if _, err := fmt.Sscan(line[strings.LastIndexByte(line, ' ')+1:], &v); err == nil {
			sum += v
		}
	}
	return sum
}

// accountOf is the account an object was made in.
func accountOf(objects map[int][]resource.Managed, mg resource.Managed) int {
	for i, mgs := range objects {
		if slices.Contains(mgs, mg) {
			return i
		}
	}
	return -1
}

func countCreations(creations []emulator.Creation, identity string) int {
	n := 0
	for _, c := range creations {
		if c.Identity() == identity {
			n++
		}
	}
	return n
}

// scrape reads a replica's metrics.
func scrape(t *testing.T, addr string) string {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// onAWS waits, up to within after since, until AWS holds version after of
// every object, each read through its account's clients; it returns how long
// after since the last arrived, and the objects whose change did not.
func onAWS(ctx context.Context, objects []resource.Managed, clients func(resource.Managed) awsClients, since time.Time, within time.Duration) (time.Duration, []resource.Managed) {
	pending := slices.Clone(objects)
	var longest time.Duration
	for len(pending) > 0 && time.Since(since) < within {
		pending = slices.DeleteFunc(pending, func(mg resource.Managed) bool {
			got, err := clients(mg).version(ctx, mg)
			if err != nil || got != after {
				return false
			}
			longest = max(longest, time.Since(since))
			return true
		})
		time.Sleep(100 * time.Millisecond)
	}
	return longest, pending
}
