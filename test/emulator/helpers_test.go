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
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/smithy-go"

	"github.com/cloudkinds/provider-aws-services/test/emulator"
)

// clock is a settable clock, so that asynchronous states move on when a test
// says so.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

const delay = time.Minute

// start serves an emulator whose asynchronous states take one minute of the
// returned clock, and returns an SDK configuration that reaches it.
func start(t *testing.T, accessKey string) (*emulator.Server, aws.Config, *clock) {
	t.Helper()
	c := &clock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	e := emulator.New(emulator.Options{CreateDelay: delay, UpdateDelay: delay, DeleteDelay: delay, Now: c.Now})
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return e, configFor(srv.URL, accessKey), c
}

func configFor(url, accessKey string) aws.Config {
	return aws.Config{
		Region:       "us-east-1",
		Credentials:  credentials.NewStaticCredentialsProvider(accessKey, "secret", ""),
		BaseEndpoint: aws.String(url),
		// One attempt, so that injected faults reach the test.
		RetryMaxAttempts: 1,
	}
}

// wantCode fails unless err is an AWS API error with the code and a message
// that contains msg.
func wantCode(t *testing.T, err error, code, msg string) {
	t.Helper()
	var ae smithy.APIError
	if !errors.As(err, &ae) {
		t.Fatalf("want %s error, got %v", code, err)
	}
	if ae.ErrorCode() != code {
		t.Fatalf("want error code %s, got %s: %s", code, ae.ErrorCode(), ae.ErrorMessage())
	}
	if !strings.Contains(ae.ErrorMessage(), msg) {
		t.Fatalf("want a message containing %q, got %q", msg, ae.ErrorMessage())
	}
}

// must returns v once the test checked that err is nil:
// must(client.Op(ctx, in))(t).
func must[T any](v T, err error) func(*testing.T) T {
	return func(t *testing.T) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

var ctx = context.Background()
