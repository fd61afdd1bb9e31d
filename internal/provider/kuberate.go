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

package provider

import (
	"context"
	"sync"

	"golang.org/x/time/rate"
	"k8s.io/client-go/util/flowcontrol"

	"github.com/cloudkinds/provider-aws-services/internal/tenancy/budget"
)

// KubeRateLimiter is the Kubernetes client's rate limiter: KubeRate for
// every account and region the budgets have served, since each has AWS
// quotas of its own and its creates need their writes. Sized for one account
// only, ten accounts' creates would wait on the client, not on AWS.
func KubeRateLimiter(b *budget.Budgets) flowcontrol.RateLimiter {
	qps, burst := KubeRate(b)
	l := &kubeLimiter{budgets: b, qps: float64(qps), burst: burst, places: 1}
	l.limiter = rate.NewLimiter(rate.Limit(l.qps), burst)
	return l
}

type kubeLimiter struct {
	budgets *budget.Budgets
	qps     float64 // per account and region
	burst   int     // per account and region
	limiter *rate.Limiter
	mu      sync.Mutex
	places  int
}

// current grows the limiter with the places served; it never shrinks, as
// the budgets forget no place.
func (k *kubeLimiter) current() *rate.Limiter {
	n := max(1, k.budgets.Places())
	k.mu.Lock()
	defer k.mu.Unlock()
	if n != k.places {
		k.places = n
		k.limiter.SetLimit(rate.Limit(k.qps * float64(n)))
		k.limiter.SetBurst(k.burst * n)
	}
	return k.limiter
}

func (k *kubeLimiter) TryAccept() bool { return k.current().Allow() }

func (k *kubeLimiter) Accept() { _ = k.current().Wait(context.Background()) }

func (k *kubeLimiter) Wait(ctx context.Context) error { return k.current().Wait(ctx) }

func (k *kubeLimiter) QPS() float32 { return float32(k.current().Limit()) }

func (k *kubeLimiter) Stop() {}
