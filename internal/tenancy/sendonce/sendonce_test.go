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

package sendonce

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
	"github.com/aws/smithy-go/middleware"
	"github.com/google/go-cmp/cmp"
)

// answers are how a fake AWS answers every call.
var answers = map[string]http.HandlerFunc{
	"ServerError": func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/x-amz-json-1.1")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write([]byte(`{"__type":"InternalFailure","message":"failed"}`))
	},
	"Throttled": func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/x-amz-json-1.1")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = w.Write([]byte(`{"__type":"ThrottlingException","message":"Rate exceeded"}`))
	},
	"ConnectionReset": func(w http.ResponseWriter, _ *http.Request) {
		conn, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			panic(http.ErrAbortHandler)
		}
		_ = conn.(*net.TCPConn).SetLinger(0) //nolint:forcetypeassert // httptest serves TCP
		_ = conn.Close()
	},
}

func TestMiddleware(t *testing.T) {
	create := func(ctx context.Context, c *eventbridge.Client) error {
		_, err := c.CreateEndpoint(ctx, createInput)
		return err
	}
	describe := func(ctx context.Context, c *eventbridge.Client) error {
		_, err := c.DescribeEndpoint(ctx, &eventbridge.DescribeEndpointInput{Name: aws.String("orders")})
		return err
	}
	cases := map[string]struct {
		reason   string
		answer   string
		call     func(context.Context, *eventbridge.Client) error
		creating bool
		// attempts is how often the call is sent, of at most three.
		attempts int32
	}{
		"CreateAfterAServerErrorIsNotSentAgain": {
			reason: "AWS may have made the resource before it failed: the create is not sent again.",
			answer: "ServerError", call: create, creating: true, attempts: 1,
		},
		"CreateWhoseConnectionBrokeIsNotSentAgain": {
			reason: "The answer never came: the create is not sent again.",
			answer: "ConnectionReset", call: create, creating: true, attempts: 1,
		},
		"ThrottledCreateIsSentAgain": {
			reason: "AWS refused it and did nothing: the create is sent again.",
			answer: "Throttled", call: create, creating: true, attempts: 3,
		},
		"ReadInACreateIsSentAgain": {
			reason: "A read makes nothing: it is sent again as ever.",
			answer: "ServerError", call: describe, creating: true, attempts: 3,
		},
		"CallOutsideACreateIsSentAgain": {
			reason: "Outside a managed resource's create, the SDK retries as ever.",
			answer: "ServerError", call: create, attempts: 3,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var attempts atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				attempts.Add(1)
				answers[tc.answer](w, r)
			}))
			t.Cleanup(srv.Close)
			c := eventbridge.NewFromConfig(config(srv.URL))
			ctx := context.Background()
			if tc.creating {
				ctx = Creating(ctx)
			}
			if err := tc.call(ctx, c); err == nil {
				t.Fatal("the call succeeded against a server that fails every call")
			}
			if diff := cmp.Diff(tc.attempts, attempts.Load()); diff != "" {
				t.Errorf("%s\nattempts: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestACreateThatNeverLeftIsSentAgain: no connection could be made, so AWS
// did nothing: the retryer sends the create again.
func TestACreateThatNeverLeftIsSentAgain(t *testing.T) {
	l, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + l.Addr().String()
	_ = l.Close()
	var attempts atomic.Int32
	cfg := config(url)
	cfg.APIOptions = append(cfg.APIOptions, func(s *middleware.Stack) error {
		return s.Finalize.Add(middleware.FinalizeMiddlewareFunc("CountAttempts",
			func(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
				attempts.Add(1)
				return next.HandleFinalize(ctx, in)
			}), middleware.After)
	})
	_, err = eventbridge.NewFromConfig(cfg).CreateEndpoint(Creating(context.Background()), createInput)
	if err == nil || !NeverSent(err) {
		t.Fatalf("want a connection refused, got %v", err)
	}
	if got := attempts.Load(); got != 3 {
		t.Errorf("attempts: %d, want 3", got)
	}
}

// createInput is a create the SDK accepts to send.
var createInput = &eventbridge.CreateEndpointInput{
	Name:          aws.String("orders"),
	RoutingConfig: &types.RoutingConfig{FailoverConfig: &types.FailoverConfig{Primary: &types.Primary{HealthCheck: aws.String("h")}, Secondary: &types.Secondary{Route: aws.String("us-west-2")}}},
	EventBuses:    []types.EndpointEventBus{{EventBusArn: aws.String("a")}, {EventBusArn: aws.String("b")}},
}

// config reaches url with the provider's retryer (awsconfig), three
// attempts per call and no wait between them.
func config(url string) aws.Config {
	return aws.Config{
		Region:       "us-east-1",
		Credentials:  credentials.NewStaticCredentialsProvider("AKID", "secret", ""),
		BaseEndpoint: aws.String(url),
		Retryer: func() aws.Retryer {
			return retry.NewAdaptiveMode(func(o *retry.AdaptiveModeOptions) {
				o.StandardOptions = append(o.StandardOptions, func(o *retry.StandardOptions) {
					o.MaxAttempts = 3
					o.Backoff = retry.BackoffDelayerFunc(func(int, error) (time.Duration, error) { return 0, nil })
				})
			})
		},
		APIOptions: []func(*middleware.Stack) error{Middleware},
	}
}
