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
	"cmp"
	"math"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
	"github.com/aws/aws-sdk-go-v2/service/sns"

	"github.com/cloudkinds/provider-aws-services/internal/aws/quota"

	"github.com/cloudkinds/provider-aws-services/internal/tenancy/budget"
)

// The AWS bound is the time AWS's quotas allow for the load: every
// operation has its own budget per account and region (the provider's share
// of AWS's published quota, budget.Quotas), and the load needs at least so
// many calls of it. The benchmark's objects all live in one account and
// region, so each operation's budget is one token bucket for the whole load.

// minCalls are the AWS calls a new resource of each kind needs at least
// until it is Ready, by operation, keyed by the SDK's service IDs as the
// budgets are. A kind whose create AWS refuses when the name exists creates
// first and reads nothing before; a create carries the tags, so no tag is
// read until Ready.
var minCalls = map[string]map[quota.Operation]int{
	// Firehose creates a stream asynchronously (CREATING, then ACTIVE): one
	// describe after the create, at the earliest when AWS is done.
	"DeliveryStream": {
		{Service: firehose.ServiceID, Name: "CreateDeliveryStream"}:   1,
		{Service: firehose.ServiceID, Name: "DescribeDeliveryStream"}: 1,
	},
	// Subscribe is idempotent: SNS does not refuse it when the subscription
	// exists, so the provider looks first for one it may have made (an
	// interrupted create) or someone else's (ownership) among the topic's
	// subscriptions: at least one page of ListSubscriptionsByTopic (AWS
	// pages 100 subscriptions; the emulator answers in one page, so on a
	// topic shared by more the real count is higher). Subscribe returns the
	// ARN, and one GetSubscriptionAttributes then shows the subscription
	// confirmed (an SQS endpoint needs no confirmation).
	"Subscription": {
		{Service: sns.ServiceID, Name: "ListSubscriptionsByTopic"}:  1,
		{Service: sns.ServiceID, Name: "Subscribe"}:                 1,
		{Service: sns.ServiceID, Name: "GetSubscriptionAttributes"}: 1,
	},
	// EventBridge creates an endpoint asynchronously: one describe after it.
	"Endpoint": {
		{Service: eventbridge.ServiceID, Name: "CreateEndpoint"}:   1,
		{Service: eventbridge.ServiceID, Name: "DescribeEndpoint"}: 1,
	},
	// Ready at create (ReadyAtCreate): the create's answer is all Observe
	// would read.
	"EndpointConfig": {
		{Service: sagemaker.ServiceID, Name: "CreateEndpointConfig"}: 1,
	},
	// Ready at create, like EndpointConfig.
	"APIKeyCredentialProvider": {
		{Service: bedrockagentcorecontrol.ServiceID, Name: "CreateApiKeyCredentialProvider"}: 1,
	},
}

// pollCalls are the AWS calls one periodic look at a settled resource of
// each kind makes, as its controller declares them (ObserveCalls in
// internal/kinds/*/*/controller.go) for the benchmark's objects
// (workload.Set.Object): DeliveryStreams, EndpointConfigs and
// APIKeyCredentialProviders have tags, so their tags are listed too; a
// Subscription has its ARN, so it is not looked up by its topic. The
// provider does not publish these, so they are restated here.
var pollCalls = map[string][]quota.Operation{
	"DeliveryStream": {
		{Service: firehose.ServiceID, Name: "DescribeDeliveryStream"},
		{Service: firehose.ServiceID, Name: "ListTagsForDeliveryStream"},
	},
	"Subscription": {{Service: sns.ServiceID, Name: "GetSubscriptionAttributes"}},
	"Endpoint":     {{Service: eventbridge.ServiceID, Name: "DescribeEndpoint"}},
	"EndpointConfig": {
		{Service: sagemaker.ServiceID, Name: "DescribeEndpointConfig"},
		{Service: sagemaker.ServiceID, Name: "ListTags"},
	},
	"APIKeyCredentialProvider": {
		{Service: bedrockagentcorecontrol.ServiceID, Name: "GetApiKeyCredentialProvider"},
		{Service: bedrockagentcorecontrol.ServiceID, Name: "ListTagsForResource"},
	},
}

// serviceIDs are the SDK's service IDs of the services the emulator names
// by their signing names in its counts ("firehose:CreateDeliveryStream").
var serviceIDs = map[string]string{
	"firehose": firehose.ServiceID, "sns": sns.ServiceID, "events": eventbridge.ServiceID,
	"sagemaker": sagemaker.ServiceID, "bedrock-agentcore": bedrockagentcorecontrol.ServiceID,
}

// An opLoad is what a load asks of one operation's budget.
type opLoad struct {
	op     quota.Operation
	calls  int     // calls the load needs at least
	rate   float64 // the budget, calls per second
	source string  // of the quota: "published" or "unpublished"
}

// time is how long the budget takes to serve the calls.
func (l opLoad) time() time.Duration {
	if l.rate <= 0 {
		return 0
	}
	return time.Duration(float64(l.calls) / l.rate * float64(time.Second))
}

// awsLoads returns what a load of counts resources per kind asks of each
// operation's budget until all are Ready, the longest first: the first is
// the AWS bound and its binding operation.
func awsLoads(counts map[string]int, q budget.Quotas) []opLoad {
	calls := map[quota.Operation]int{}
	for _, k := range kinds {
		for op, n := range minCalls[k] {
			calls[op] += counts[k] * n
		}
	}
	out := make([]opLoad, 0, len(calls))
	for op, n := range calls {
		_, source := q.Quota(op)
		out = append(out, opLoad{op: op, calls: n, rate: q.Rate(op), source: source})
	}
	slices.SortFunc(out, func(a, b opLoad) int {
		if c := cmp.Compare(b.time(), a.time()); c != 0 {
			return c
		}
		return cmp.Compare(a.op.String(), b.op.String())
	})
	return out
}

// expectedPoll is the poll each kind's budgets allow: --poll, stretched
// until the looks at all its resources fit each of its operations' budgets
// (resources × calls of the operation per look ÷ the budget's rate). No two
// kinds call the same operation, so each budget serves one kind's looks;
// --poll-jitter spreads the looks either way and leaves the mean alone.
func expectedPoll(counts map[string]int, poll time.Duration, q budget.Quotas) map[string]time.Duration {
	out := map[string]time.Duration{}
	for _, k := range kinds {
		perLook := map[quota.Operation]int{}
		for _, op := range pollCalls[k] {
			perLook[op]++
		}
		secs := poll.Seconds()
		for op, n := range perLook {
			secs = math.Max(secs, float64(counts[k]*n)/q.Rate(op))
		}
		out[k] = time.Duration(secs * float64(time.Second))
	}
	return out
}
