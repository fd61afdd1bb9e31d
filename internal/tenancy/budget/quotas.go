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
)

// An Operation is one AWS API operation, named as the SDK names it: its
// service ID (such as "Firehose", "SNS") and operation ("DescribeDeliveryStream").
type Operation struct {
	Service, Name string
}

func (o Operation) String() string { return o.Service + ":" + o.Name }

// Write reports whether the operation changes something: every operation
// that does not describe, get or list.
func (o Operation) Write() bool {
	for _, read := range []string{"Describe", "Get", "List"} {
		if strings.HasPrefix(o.Name, read) {
			return false
		}
	}
	return true
}

// Published are AWS's published rate quotas of the operations the provider
// calls, in calls per second per account and region, keyed "Service:Operation"
// with "Service:*" for every other operation of a service. Sources, in
// docs/quotas.md: the Amazon Data Firehose developer guide, Quotas (every
// control API 5 per second, not adjustable; the API reference says the same
// of ListTagsForDeliveryStream, TagDeliveryStream and UntagDeliveryStream);
// the Amazon EventBridge user guide, quotas (CreateEndpoint, UpdateEndpoint
// and DeleteEndpoint 5 per second, every other API 50); the Amazon SNS API
// reference (Subscribe and Unsubscribe are throttled at 100 per second,
// ListSubscriptionsByTopic at 30).
var Published = map[string]float64{
	"Firehose:*":                   5,
	"EventBridge:CreateEndpoint":   5,
	"EventBridge:UpdateEndpoint":   5,
	"EventBridge:DeleteEndpoint":   5,
	"EventBridge:*":                50,
	"SNS:Subscribe":                100,
	"SNS:Unsubscribe":              100,
	"SNS:ListSubscriptionsByTopic": 30,
	// SNS publishes no figure for its other actions here; it is taken to
	// be the lowest that SNS publishes for any action this provider calls.
	"SNS:*": 30,
}

// Unpublished is the quota assumed for an operation of a service that
// publishes none (SageMaker, Bedrock AgentCore Control): low enough that
// AWS's own unpublished limits, which are higher for the describe and
// create calls of both services, are not reached.
const Unpublished = 10

// UnpublishedServices are the services, as the SDK names them, known to
// publish no rate quota: their operations are taken at Unpublished.
var UnpublishedServices = map[string]bool{"SageMaker": true, "Bedrock AgentCore Control": true}

// DefaultShare is the share of each quota the provider takes for itself,
// leaving the rest to the account's other clients: pipelines, the console,
// other controllers.
const DefaultShare = 0.8

// Quotas are the rate quotas the provider keeps within.
type Quotas struct {
	// Of are quotas per operation, keyed like Published; they win over
	// Published.
	Of map[string]float64
	// Share is the fraction of each quota the provider uses, in (0, 1].
	Share float64
}

// Quota returns the quota of an operation, in calls per second, and where
// it comes from: "override", "published" or "unpublished".
func (q Quotas) Quota(op Operation) (float64, string) {
	for _, key := range []string{op.String(), op.Service + ":*"} {
		if v, ok := q.Of[key]; ok {
			return v, "override"
		}
	}
	for _, key := range []string{op.String(), op.Service + ":*"} {
		if v, ok := Published[key]; ok {
			return v, "published"
		}
	}
	return Unpublished, "unpublished"
}

// Rate is the provider's own rate of an operation: its share of the quota.
func (q Quotas) Rate(op Operation) float64 {
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
func ObserveCalls(service, read, listTags string, listed bool) []Operation {
	ops := []Operation{{Service: service, Name: read}}
	if listed {
		ops = append(ops, Operation{Service: service, Name: listTags})
	}
	return ops
}
