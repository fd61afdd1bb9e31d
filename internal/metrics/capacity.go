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

package metrics

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
)

// all are the Observations of every kind.
var all = struct {
	sync.Mutex
	kinds []*Observations
}{}

func register(o *Observations) {
	all.Lock()
	defer all.Unlock()
	all.kinds = append(all.kinds, o)
}

// resources counts the resources observed since a time, and forgets those
// not observed since.
func resources(since time.Time) int {
	all.Lock()
	defer all.Unlock()
	n := 0
	for _, o := range all.kinds {
		o.mu.Lock()
		for uid, t := range o.last {
			if t.Before(since) {
				delete(o.last, uid)
				continue
			}
			n++
		}
		o.mu.Unlock()
	}
	return n
}

// A CapacityWarner says in the log, once each time it happens, that there
// are more resources than --max-reconcile-rate can look at every --poll, and
// which flag to raise. Without it the poll interval stretches silently.
type CapacityWarner struct {
	Poll  time.Duration
	Rate  int
	Log   logging.Logger
	Every time.Duration

	warned bool
}

// NeedLeaderElection is false: every replica warns of its own load.
func (w *CapacityWarner) NeedLeaderElection() bool { return false }

// Start checks every Every until ctx ends.
func (w *CapacityWarner) Start(ctx context.Context) error {
	t := time.NewTicker(w.Every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
			// A resource not looked at for ten polls is gone.
			w.Check(resources(time.Now().Add(-10 * w.Poll)))
		}
	}
}

// Check warns when n resources cannot be polled every Poll at Rate, and
// returns the warning, or "".
func (w *CapacityWarner) Check(n int) string {
	need := float64(n) / w.Poll.Seconds()
	if need <= float64(w.Rate) {
		w.warned = false
		return ""
	}
	if w.warned {
		return ""
	}
	w.warned = true
	achieved := time.Duration(float64(n) / float64(w.Rate) * float64(time.Second)).Round(time.Second)
	msg := fmt.Sprintf("%d managed resources polled every %s need %.1f reconciles per second, more than --max-reconcile-rate=%d allows: "+
		"each is checked about every %s instead (see provider_aws_services_poll_interval_seconds). Raise --max-reconcile-rate to %d or more, or --poll to %s or more",
		n, w.Poll, need, w.Rate, achieved, int(math.Ceil(need)), achieved)
	w.Log.Info(msg)
	return msg
}
