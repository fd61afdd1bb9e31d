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

package managedoptions

import (
	"math/rand/v2"
	"time"

	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// Backoff timing of a reconcile that failed.
const (
	// FirstBackoff is how long a reconcile that failed once waits: two
	// seconds, so that a reconcile of several calls (a read, a tag read,
	// an update, a tag write) that keeps failing costs its object no more
	// than a call a second from the start.
	FirstBackoff = 2 * time.Second
	// BackoffJitter spreads each wait by up to this fraction of it, either
	// way, so that objects failing together (an AWS outage) do not retry in
	// lockstep.
	BackoffJitter = 0.2
)

// Backoff is the rate limiter of a kind's controller: an object whose
// reconciles keep failing, whichever call fails, is reconciled again after
// a wait that doubles from FirstBackoff with each failure, up to limit, and
// is jittered. It is the one level at which a failed AWS call is tried again
// (the SDK retries only throttling, awsconfig), so that an error that
// persists costs each object fewer calls as it goes on. A reconcile that
// succeeds forgets the failures (controller-runtime's Forget).
//
// crossplane-runtime's own limiter doubles from a second up to a minute, with
// no jitter; limit is the poll interval, the longest a healthy object waits.
func Backoff(limit time.Duration) workqueue.TypedRateLimiter[reconcile.Request] {
	limit = max(limit, FirstBackoff)
	return jittered{workqueue.NewTypedItemExponentialFailureRateLimiter[reconcile.Request](FirstBackoff, limit), limit}
}

type jittered struct {
	workqueue.TypedRateLimiter[reconcile.Request]
	limit time.Duration
}

func (j jittered) When(r reconcile.Request) time.Duration {
	d := j.TypedRateLimiter.When(r)
	d += time.Duration((rand.Float64()*2 - 1) * BackoffJitter * float64(d)) //nolint:gosec // spreading retries needs no secure randomness
	return min(d, j.limit)
}
