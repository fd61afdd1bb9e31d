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

package quota

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWrite(t *testing.T) {
	for op, want := range map[Operation]bool{
		{Service: "Firehose", Name: "DescribeDeliveryStream"}: false, {Service: "Firehose", Name: "CreateDeliveryStream"}: true,
		{Service: "SNS", Name: "ListSubscriptionsByTopic"}: false, {Service: "SNS", Name: "GetSubscriptionAttributes"}: false,
		{Service: "SNS", Name: "Subscribe"}: true, {Service: "SageMaker", Name: "AddTags"}: true,
	} {
		if got := op.Write(); got != want {
			t.Errorf("%s.Write(): got %v, want %v", op, got, want)
		}
	}
}

func TestOf(t *testing.T) {
	cases := map[string]struct {
		op        Operation
		want      float64
		assumed   bool
		wantKnown bool
	}{
		"OwnRow":           {op: Operation{"EventBridge", "CreateEndpoint"}, want: 5, wantKnown: true},
		"ServiceRow":       {op: Operation{"EventBridge", "DescribeEndpoint"}, want: 50, wantKnown: true},
		"AssumedRow":       {op: Operation{"SNS", "GetSubscriptionAttributes"}, want: 30, assumed: true, wantKnown: true},
		"UnknownService":   {op: Operation{"SQS", "CreateQueue"}, want: Default, assumed: true},
		"EveryFirehoseOne": {op: Operation{"Firehose", "TagDeliveryStream"}, want: 5, wantKnown: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			q, known := Of(tc.op)
			if diff := cmp.Diff([]any{tc.want, tc.assumed, tc.wantKnown}, []any{q.PerSecond, q.Assumed, known}); diff != "" {
				t.Errorf("Of(%s): -want, +got (quota, assumed, known):\n%s", tc.op, diff)
			}
		})
	}
}

// TestTable: every row is of a known service, with a figure, a source,
// and no operation twice; the emulator enforces exactly the published
// rows, under the names it gives operations.
func TestTable(t *testing.T) {
	seen := map[Operation]bool{}
	for _, q := range Table {
		if _, ok := ServiceOf(q.Service); !ok {
			t.Errorf("%s: the service is not in Services", q.Operation)
		}
		if q.PerSecond <= 0 || q.Source == "" {
			t.Errorf("%s: want a quota above 0 and a source, got %v, %q", q.Operation, q.PerSecond, q.Source)
		}
		if seen[q.Operation] {
			t.Errorf("%s: twice in the table", q.Operation)
		}
		seen[q.Operation] = true
	}
	want := map[string]float64{
		"firehose:*": 5, "events:CreateEndpoint": 5, "events:UpdateEndpoint": 5, "events:DeleteEndpoint": 5, "events:*": 50,
		"sns:Subscribe": 100, "sns:Unsubscribe": 100, "sns:ListSubscriptionsByTopic": 30,
	}
	if diff := cmp.Diff(want, EmulatorKeys()); diff != "" {
		t.Errorf("EmulatorKeys(): -want, +got:\n%s", diff)
	}
}
