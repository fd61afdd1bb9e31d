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

package budget

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/cloudkinds/provider-aws-services/internal/aws/quota"
)

// DefaultShare is the share of each quota the provider takes for itself,
// leaving the rest to the account's other clients: pipelines, the console,
// other controllers.
const DefaultShare = 0.8

// Quotas are the rate quotas the provider keeps within.
type Quotas struct {
	// Of are quotas per operation, keyed "Service:Operation" or
	// "Service:*" as --aws-quota takes them; they win over quota.Table.
	Of map[string]float64
	// Share is the fraction of each quota the provider uses, in (0, 1].
	Share float64
}

// Quota returns the quota of an operation, in calls per second, and where
// it comes from: "override" (Of), "published" or "assumed" (quota.Table's
// row), or "unknown" (a service quota.Table does not know).
func (q Quotas) Quota(op quota.Operation) (float64, string) {
	for _, key := range []string{op.String(), op.Service + ":" + quota.Every} {
		if v, ok := q.Of[key]; ok {
			return v, "override"
		}
	}
	row, known := quota.Of(op)
	switch {
	case !known:
		return row.PerSecond, "unknown"
	case row.Assumed:
		return row.PerSecond, "assumed"
	}
	return row.PerSecond, "published"
}

// Rate is the provider's own rate of an operation: its share of the quota.
func (q Quotas) Rate(op quota.Operation) float64 {
	v, _ := q.Quota(op)
	share := q.Share
	if share <= 0 || share > 1 {
		share = DefaultShare
	}
	return v * share
}

// ParseOverrides reads quota overrides as the --aws-quota flag takes them:
// "Service:Operation=calls per second", or "Service:*=…" for every
// operation of a service without its own.
func ParseOverrides(values []string) (map[string]float64, error) {
	out := make(map[string]float64, len(values))
	for _, v := range values {
		key, rate, ok := strings.Cut(v, "=")
		service, op, okOp := strings.Cut(key, ":")
		if !ok || !okOp || service == "" || op == "" {
			return nil, fmt.Errorf("--aws-quota %q: want Service:Operation=calls per second, such as Firehose:DescribeDeliveryStream=5", v)
		}
		r, err := strconv.ParseFloat(rate, 64)
		if err != nil || !ValidRate(r) {
			return nil, fmt.Errorf("--aws-quota %q: the calls per second must be a finite number above 0", v)
		}
		out[key] = r
	}
	return out, nil
}

// ValidRate reports whether r can be a rate: a finite number above 0 (not
// NaN, which every comparison lets through, nor an infinity).
func ValidRate(r float64) bool {
	return r > 0 && !math.IsInf(r, 0)
}

// ObserveCalls returns the operations an Observe of a resource of service calls: reads,
// and listTags too when listed.
func ObserveCalls(service, read, listTags string, listed bool) []quota.Operation {
	ops := []quota.Operation{{Service: service, Name: read}}
	if listed {
		ops = append(ops, quota.Operation{Service: service, Name: listTags})
	}
	return ops
}
