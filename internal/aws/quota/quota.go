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

// Package quota is the one table of AWS's rate quotas of the operations the
// provider calls, and of the services they belong to. The budgets
// (internal/tenancy/budget) keep the provider's calls within it, the
// emulator enforces its published rows, and make generate writes it into
// docs/quotas.md.
package quota

import (
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

// A Service is an AWS service the provider calls, by each of its names.
type Service struct {
	// ID is the SDK's service ID (the ServiceID constant of its
	// api_client.go, smithy.OperationError.ServiceID): "EventBridge".
	ID string
	// SigningName is the name its requests are signed for (SigV4), which
	// the emulator tells services apart by: "events".
	SigningName string
	// Botocore is its folder under botocore/data, whose model
	// hack/awsmodels reads: "events".
	Botocore string
}

// Services are the services of the provider's kinds, and STS, whose
// credential providers the sessions use.
var Services = []Service{
	{ID: "Firehose", SigningName: "firehose", Botocore: "firehose"},
	{ID: "SNS", SigningName: "sns", Botocore: "sns"},
	{ID: "SageMaker", SigningName: "sagemaker", Botocore: "sagemaker"},
	{ID: "EventBridge", SigningName: "events", Botocore: "events"},
	{ID: "Bedrock AgentCore Control", SigningName: "bedrock-agentcore", Botocore: "bedrock-agentcore-control"},
	{ID: "STS", SigningName: "sts", Botocore: "sts"},
}

// ServiceOf returns the service of SDK service ID id.
func ServiceOf(id string) (Service, bool) {
	for _, s := range Services {
		if s.ID == id {
			return s, true
		}
	}
	return Service{}, false
}

// SigningName is the name the requests of the service of SDK service ID id
// are signed for; for a service not in Services, its ID lowercased without
// spaces, which is the rule for most services.
func SigningName(id string) string {
	if s, ok := ServiceOf(id); ok {
		return s.SigningName
	}
	return strings.ToLower(strings.ReplaceAll(id, " ", ""))
}

// Every is the operation name of a quota that holds for every operation of
// its service without a quota of its own.
const Every = "*"

// A Quota is the rate quota of one operation, or of every other operation
// of its service (Name Every), in calls per second per account and region.
type Quota struct {
	Operation
	PerSecond float64
	// Assumed is true where AWS publishes no figure: the provider assumes
	// one to pace itself, and the emulator enforces none.
	Assumed bool
	// Source is where AWS publishes the figure, or why it is assumed.
	Source string
}

// Table is every quota the provider knows. An operation of a service not
// in it is taken at Default.
var Table = []Quota{
	{Operation{"Firehose", Every}, 5, false, "Amazon Data Firehose developer guide, Quotas: every control API, not adjustable; the API reference says the same of ListTagsForDeliveryStream, TagDeliveryStream and UntagDeliveryStream"},
	{Operation{"EventBridge", "CreateEndpoint"}, 5, false, "Amazon EventBridge user guide, quotas"},
	{Operation{"EventBridge", "UpdateEndpoint"}, 5, false, "Amazon EventBridge user guide, quotas"},
	{Operation{"EventBridge", "DeleteEndpoint"}, 5, false, "Amazon EventBridge user guide, quotas"},
	{Operation{"EventBridge", Every}, 50, false, "Amazon EventBridge user guide, quotas"},
	{Operation{"SNS", "Subscribe"}, 100, false, "Amazon SNS API reference: throttled at 100 transactions per second"},
	{Operation{"SNS", "Unsubscribe"}, 100, false, "Amazon SNS API reference: throttled at 100 transactions per second"},
	{Operation{"SNS", "ListSubscriptionsByTopic"}, 30, false, "Amazon SNS API reference: throttled at 30 transactions per second"},
	{Operation{"SNS", Every}, 30, true, "none published: the lowest SNS publishes for an action the provider calls"},
	{Operation{"SageMaker", Every}, Default, true, "none published: low enough that AWS's own, higher, unpublished limits are not reached"},
	{Operation{"Bedrock AgentCore Control", Every}, Default, true, "none published: low enough that AWS's own, higher, unpublished limits are not reached"},
}

// Default is the quota taken for an operation of a service the table
// does not know.
const Default = 10

// Of returns the quota of op: its own row, else its service's Every row.
func Of(op Operation) (Quota, bool) {
	for _, name := range []string{op.Name, Every} {
		for _, q := range Table {
			if q.Service == op.Service && q.Name == name {
				return q, true
			}
		}
	}
	return Quota{Operation: op, PerSecond: Default, Assumed: true}, false
}

// EmulatorKeys are the published quotas keyed as the emulator names
// operations, "signingname:Operation" ("sns:Subscribe", "events:*"): what
// AWS enforces, and so the emulator.
func EmulatorKeys() map[string]float64 {
	out := map[string]float64{}
	for _, q := range Table {
		if !q.Assumed {
			out[SigningName(q.Service)+":"+q.Name] = q.PerSecond
		}
	}
	return out
}
