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

package emulator_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	"github.com/google/go-cmp/cmp"

	"github.com/cloudkinds/provider-aws-services/test/emulator"
)

// TestDroppedAnswers: a fault that drops the answer runs the operation
// first: the change is made (here, a create creates) and its caller gets an
// HTTP 500 or a reset connection instead of the answer, once per count; the
// calls after it are answered as usual, so that a retry of the create is
// told that what it names exists.
func TestDroppedAnswers(t *testing.T) {
	const op = "events:CreateEndpoint"
	reset := "connection reset"
	cases := map[string]struct {
		fault emulator.Fault
		// want is the outcome of each create, as the client sees it:
		// an outcome, or a part of a transport error.
		want []string
	}{
		"AnswerReplacedByAServerError": {
			fault: emulator.Fault{DropAnswer: 1},
			want:  []string{emulator.OutcomeError, emulator.OutcomeRefused},
		},
		"ConnectionReset": {
			fault: emulator.Fault{DropConnection: 1},
			want:  []string{reset, emulator.OutcomeRefused},
		},
		"ServerErrorsFirstThenTheDroppedAnswers": {
			fault: emulator.Fault{ServerError: 1, DropAnswer: 1, DropConnection: 1},
			want:  []string{emulator.OutcomeError, emulator.OutcomeError, reset, emulator.OutcomeRefused},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e, _, cfg := serve(t, emulator.Options{})
			e.InjectFault(op, tc.fault)
			var created []string
			e.SetCreationHook(func(c emulator.Creation) { created = append(created, c.Name) })
			c := eventbridge.NewFromConfig(cfg)
			in := endpointInput("orders")
			in.RoleArn = aws.String("arn:aws:iam::000000000000:role/replication")
			var got []string
			for range tc.want {
				_, err := c.CreateEndpoint(ctx, in)
				o := outcomeOf(err)
				if strings.Contains(o, reset) {
					o = reset
				}
				got = append(got, o)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("creates as the client saw them: -want, +got:\n%s", diff)
			}
			// The create whose answer was dropped made the endpoint; the
			// one after it was told it exists.
			if diff := cmp.Diff([]string{"orders"}, created); diff != "" {
				t.Errorf("endpoints created: -want, +got:\n%s", diff)
			}
			if d := must(c.DescribeEndpoint(ctx, &eventbridge.DescribeEndpointInput{Name: aws.String("orders")}))(t); aws.ToString(d.Name) != "orders" {
				t.Errorf("described %q", aws.ToString(d.Name))
			}
			// A call whose answer was dropped counts as what the operation
			// did: the first made the endpoint, each later one was
			// refused as existing (the dropped connection's too).
			ran := len(tc.want) - tc.fault.ServerError
			want := map[string]int{emulator.OutcomeOK: 1, emulator.OutcomeThrottled: 0, emulator.OutcomeError: tc.fault.ServerError, emulator.OutcomeRefused: ran - 1}
			if diff := cmp.Diff(want, e.Outcomes()[op]); diff != "" {
				t.Errorf("outcomes of %s: -want, +got:\n%s", op, diff)
			}
			// Its counts ran out: the fault is gone.
			if f := e.Faults(); len(f) != 0 {
				t.Errorf("faults left: %v", f)
			}
		})
	}
}

func TestCallHook(t *testing.T) {
	e, cfg, _ := start(t, "AKIDEMO")
	c := firehose.NewFromConfig(cfg)
	var (
		mu    sync.Mutex
		fired []string
		seen  emulator.Inventory
	)

	// The caller dies right after its create left: AWS made the stream, the
	// answer is lost.
	lost, cancel := context.WithCancel(ctx)
	returned := make(chan struct{})
	e.SetCallHook(func(service, operation string) {
		inv := e.Inventory() // the hook runs outside the server's lock, after the change
		mu.Lock()
		fired = append(fired, service+":"+operation)
		seen = inv
		mu.Unlock()
		cancel()
		select {
		case <-returned:
		case <-time.After(5 * time.Second):
		}
	})
	_, err := c.CreateDeliveryStream(lost, &firehose.CreateDeliveryStreamInput{DeliveryStreamName: aws.String("s1"), HttpEndpointDestinationConfiguration: httpDestination()})
	close(returned)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("the caller got its answer: %v", err)
	}
	mu.Lock()
	if !cmp.Equal(seen.DeliveryStreams, []string{"s1"}) {
		t.Errorf("the hook saw %v", seen.DeliveryStreams)
	}
	mu.Unlock()

	var calls []string
	e.SetCallHook(func(service, operation string) {
		mu.Lock()
		defer mu.Unlock()
		calls = append(calls, service+":"+operation)
	})
	e.InjectFault("firehose:CreateDeliveryStream", emulator.Fault{Throttle: 1})
	_, err = c.CreateDeliveryStream(ctx, &firehose.CreateDeliveryStreamInput{DeliveryStreamName: aws.String("s2"), HttpEndpointDestinationConfiguration: httpDestination()})
	wantCode(t, err, "LimitExceededException", "Rate exceeded")
	_, err = c.CreateDeliveryStream(ctx, &firehose.CreateDeliveryStreamInput{DeliveryStreamName: aws.String("s1"), HttpEndpointDestinationConfiguration: httpDestination()})
	wantCode(t, err, "ResourceInUseException", "")
	createStream(t, c, "s2")
	describeStream(t, c, "s2")
	e.SetCallHook(nil)
	createStream(t, c, "s3")

	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff([]string{"firehose:CreateDeliveryStream"}, fired); diff != "" {
		t.Errorf("first hook: -want, +got:\n%s", diff)
	}
	if diff := cmp.Diff([]string{"firehose:CreateDeliveryStream", "firehose:DescribeDeliveryStream"}, calls); diff != "" {
		t.Errorf("second hook: -want, +got:\n%s", diff)
	}
}
