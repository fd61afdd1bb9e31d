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

package awsconfig

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
)

// A tenant's own endpoint answers as slowly as it likes within the limits of
// every exchange (httpclient.go): a minute an attempt. The budgets pace how
// often calls start, not how many wait on an answer, so without a cap a
// namespace's objects would hold every worker of every kind waiting on its
// endpoint, and the other namespaces' reconciles would wait behind them.
// Each namespace's calls to the endpoints of its own configs are capped in
// flight; a call that finds no slot within tenantSlotWait is not made, and its
// reconcile backs off, giving its worker back.
const (
	tenantCallsInFlight = 4
	tenantSlotWait      = time.Second
	// tenantSlotHold is the longest a call holds its slot, should its
	// answer's body never be closed: beyond the longest exchange.
	tenantSlotHold = 2 * time.Minute
)

const errTenantBusy = "the endpoints of namespace %s's own provider configs already have %d calls waiting on their answers; this call was not made, and is tried again later"

// inFlight counts the calls of each namespace to its own configs'
// endpoints; a namespace with none costs nothing.
type inFlight struct {
	mu    sync.Mutex
	slots map[string]*nsSlots
}

// nsSlots are one namespace's slots, and how many calls hold or wait for
// one.
type nsSlots struct {
	ch    chan struct{}
	users int
}

func newInFlight() *inFlight { return &inFlight{slots: map[string]*nsSlots{}} }

// client is next, its calls counted against namespace's slots.
func (f *inFlight) client(next aws.HTTPClient, namespace string) aws.HTTPClient {
	return capped{next: next, namespace: namespace, f: f}
}

// acquire takes one of namespace's slots, waiting at most tenantSlotWait; it
// returns the function that gives it back.
func (f *inFlight) acquire(ctx context.Context, namespace string) (func(), error) {
	f.mu.Lock()
	s, ok := f.slots[namespace]
	if !ok {
		s = &nsSlots{ch: make(chan struct{}, tenantCallsInFlight)}
		f.slots[namespace] = s
	}
	s.users++
	f.mu.Unlock()
	t := time.NewTimer(tenantSlotWait)
	defer t.Stop()
	select {
	case s.ch <- struct{}{}:
		var once sync.Once
		return func() { once.Do(func() { <-s.ch; f.leave(namespace, s) }) }, nil
	case <-ctx.Done():
		f.leave(namespace, s)
		return nil, ctx.Err()
	case <-t.C:
		f.leave(namespace, s)
		return nil, busyError{namespace: namespace}
	}
}

// busyError is a call not made for want of a slot. The SDK does not try it
// again at once, as it would a connection that failed: the reconcile backs
// off, and gives its worker back.
type busyError struct{ namespace string }

func (e busyError) Error() string {
	return fmt.Sprintf(errTenantBusy, e.namespace, tenantCallsInFlight)
}

// RetryableError tells the SDK's retryer not to retry.
func (busyError) RetryableError() bool { return false }

// leave forgets namespace's slots once no call holds or waits for one.
func (f *inFlight) leave(namespace string, s *nsSlots) {
	f.mu.Lock()
	defer f.mu.Unlock()
	s.users--
	if s.users == 0 {
		delete(f.slots, namespace)
	}
}

// namespaces is how many namespaces have calls in flight, for tests.
func (f *inFlight) namespaces() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.slots)
}

// capped is an HTTP client whose calls hold one of a namespace's slots from
// the request until the answer's body is closed.
type capped struct {
	next      aws.HTTPClient
	namespace string
	f         *inFlight
}

func (c capped) Do(r *http.Request) (*http.Response, error) {
	release, err := c.f.acquire(r.Context(), c.namespace)
	if err != nil {
		return nil, err
	}
	resp, err := c.next.Do(r)
	if err != nil {
		release()
		return nil, err
	}
	resp.Body = &releasing{ReadCloser: resp.Body, release: release, hold: time.AfterFunc(tenantSlotHold, release)}
	return resp, nil
}

// releasing gives its slot back when the body is closed, or once it held it
// for tenantSlotHold.
type releasing struct {
	io.ReadCloser
	release func()
	hold    *time.Timer
}

func (r *releasing) Close() error {
	r.hold.Stop()
	defer r.release()
	return r.ReadCloser.Close()
}
