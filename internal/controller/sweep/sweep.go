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

// A Periodic runs Once at start and every Every after, on the leader only.
type Periodic struct {
	// What is swept, for the log.
	What  string
	Every time.Duration
	Once  func(context.Context) error
	Log   logging.Logger
}

// Start runs the sweep until ctx is done.
func (p *Periodic) Start(ctx context.Context) error {
	t := time.NewTicker(p.Every)
	defer t.Stop()
	for {
		if err := p.Once(ctx); err != nil && ctx.Err() == nil {
			p.Log.Info("Cannot sweep "+p.What, "error", err)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// NeedLeaderElection says only the leader sweeps.
func (p *Periodic) NeedLeaderElection() bool { return true }
