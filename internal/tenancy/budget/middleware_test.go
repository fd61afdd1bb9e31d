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
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	"github.com/aws/smithy-go/middleware"
	clocktesting "k8s.io/utils/clock/testing"
)

// TestMiddleware: a real SDK client's calls take tokens of the bucket of
// their account, region and operation.
func TestMiddleware(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/x-amz-json-1.1")
		_, _ = w.Write([]byte(`{"DeliveryStreamDescription":{"DeliveryStreamName":"orders"}}`))
	}))
	defer srv.Close()
	c := clocktesting.NewFakeClock(time.Unix(0, 0))
	b := New(Quotas{Of: map[string]float64{"Firehose:*": 2}, Share: 1}, WithClock(c))
	client := firehose.NewFromConfig(aws.Config{
		Region:       "eu-west-1",
		BaseEndpoint: aws.String(srv.URL),
		Credentials:  aws.AnonymousCredentials{},
		APIOptions:   []func(*middleware.Stack) error{b.Middleware("111122223333")},
	})
	ctx := Urgent(context.Background())
	for range 2 {
		if _, err := client.DescribeDeliveryStream(ctx, &firehose.DescribeDeliveryStreamInput{DeliveryStreamName: aws.String("orders")}); err != nil {
			t.Fatal(err)
		}
	}
	// Other regions and accounts have buckets of their own: their first
	// calls go at once, on a clock that never moves.
	for _, o := range []struct{ account, region string }{{"111122223333", "us-east-1"}, {"444455556666", "eu-west-1"}} {
		if err := b.Wait(ctx, o.account, o.region, describe); err != nil {
			t.Fatal(err)
		}
	}
	// The bucket is empty: a third call waits for a token.
	done := make(chan error, 1)
	go func() {
		_, err := client.DescribeDeliveryStream(ctx, &firehose.DescribeDeliveryStreamInput{DeliveryStreamName: aws.String("orders")})
		done <- err
	}()
	waitForWaiters(t, c)
	select {
	case <-done:
		t.Fatal("a third call went with the bucket empty")
	default:
	}
	c.Step(500 * time.Millisecond)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
