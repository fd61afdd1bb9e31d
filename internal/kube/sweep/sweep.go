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

// Package sweep runs the provider's periodic clean-ups of records whose
// owner went without cleaning up after itself: an ownership claim whose
// holder is gone, a config usage whose managed resource is gone.
package sweep

import (
	"context"
	"sync"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	"github.com/prometheus/client_golang/prometheus"
	ctrlmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"
)

// Swept counts the records each sweep released, by what and kind.
var Swept = prometheus.NewCounterVec(prometheus.CounterOpts{
	Name: "provider_aws_services_swept_total",
	Help: "Records a sweep released because their owner went without releasing them: ownership claims whose holder is gone, config usages whose managed resource is gone. By what and kind.",
}, []string{"what", "kind"})

func init() {
	ctrlmetrics.Registry.MustRegister(Swept)
}

// DefaultEvery is how often each sweep runs.
const DefaultEvery = 5 * time.Minute

// A Set is the provider's sweeps, run one after the other every Every, on
// the leader only: the order matters (a usage's sweep reads the claims its
// resource held, before their sweep releases them).
type Set struct {
	Every time.Duration
	Log   logging.Logger

	mu    sync.Mutex
	steps []step
}

type step struct {
	what string
	once func(context.Context) error
}

// Add adds a sweep of what, after those added before.
func (s *Set) Add(what string, once func(context.Context) error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.steps = append(s.steps, step{what: what, once: once})
}

// Once runs every sweep once; one that fails is logged, and the others run.
func (s *Set) Once(ctx context.Context) {
	s.mu.Lock()
	steps := append([]step(nil), s.steps...)
	s.mu.Unlock()
	for _, st := range steps {
		if err := st.once(ctx); err != nil && ctx.Err() == nil {
			s.Log.Info("Cannot sweep "+st.what, "error", err)
		}
	}
}

// Start runs the sweeps until ctx is done.
func (s *Set) Start(ctx context.Context) error {
	t := time.NewTicker(s.Every)
	defer t.Stop()
	for {
		s.Once(ctx)
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// NeedLeaderElection says only the leader sweeps.
func (s *Set) NeedLeaderElection() bool { return true }
