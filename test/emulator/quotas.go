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

package emulator

import (
	"strings"
	"time"

	"github.com/cloudkinds/provider-aws-services/internal/aws/quota"
)

// PublishedQuotas are AWS's published per-account, per-region rate quotas
// of the five services' operations, in calls per second, keyed as the
// emulator names operations, "service:Operation" ("sns:Subscribe"), with
// "service:*" for every other operation of a service: quota.Table's rows
// that AWS publishes, which it enforces (the ones the provider assumes it
// does not).
var PublishedQuotas = quota.EmulatorKeys()

// A bucket is a token bucket of one operation in one region: AWS refills a
// quota continuously, up to a burst of one second's worth.
type bucket struct {
	rate   float64
	tokens float64
	at     time.Time
}

func (b *bucket) take(now time.Time) bool {
	b.tokens = min(b.rate, b.tokens+now.Sub(b.at).Seconds()*b.rate)
	b.at = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// SetQuotas makes the emulator enforce per-operation rate quotas (calls per
// second, keyed as PublishedQuotas), per region, answering a call over its
// quota with the service's own throttling error. nil or an empty map
// enforces none, the default.
func (s *Server) SetQuotas(quotas map[string]float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.quotas = map[string]float64{}
	for k, v := range quotas {
		s.quotas[k] = v
	}
	s.buckets = map[string]*bucket{}
}

// Quotas returns the quotas in force.
func (s *Server) Quotas() map[string]float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]float64, len(s.quotas))
	for k, v := range s.quotas {
		out[k] = v
	}
	return out
}

// overQuota reports whether a call of operation name ("service:Operation")
// in region exceeds its quota; it takes a token when it does not. The
// caller holds the lock.
func (s *Server) overQuota(region, name string) bool {
	rate, ok := s.quotas[name]
	key := name
	if !ok {
		service, _, _ := strings.Cut(name, ":")
		if rate, ok = s.quotas[service+":*"]; !ok {
			return false
		}
	}
	key = region + "|" + key
	b := s.buckets[key]
	now := s.opts.Now()
	if b == nil {
		b = &bucket{rate: rate, tokens: rate, at: now}
		s.buckets[key] = b
	}
	return !b.take(now)
}
