//go:build integration

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

package scale

import (
	"context"
	"sync"

	"k8s.io/apimachinery/pkg/watch"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/test/workload"
)

// writeCounter counts, per kind, the writes to the objects of a namespace as
// a watch sees them: each is an event Crossplane's composite circuit breaker
// pays for when the object is composed.
type writeCounter struct {
	mu     sync.Mutex
	writes map[string]int
	stop   []func()
}

func countWrites(ctx context.Context, wc client.WithWatch, ns string) (*writeCounter, error) {
	c := &writeCounter{writes: map[string]int{}}
	for _, kind := range kinds {
		w, err := wc.Watch(ctx, workload.List(kind), client.InNamespace(ns))
		if err != nil {
			c.close()
			return nil, err
		}
		c.stop = append(c.stop, w.Stop)
		go func() {
			for ev := range w.ResultChan() {
				if ev.Type == watch.Modified {
					c.mu.Lock()
					c.writes[kind]++
					c.mu.Unlock()
				}
			}
		}()
	}
	return c, nil
}

// snapshot returns the writes per kind so far.
func (c *writeCounter) snapshot() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]int, len(c.writes))
	for k, v := range c.writes {
		out[k] = v
	}
	return out
}

func (c *writeCounter) close() {
	for _, s := range c.stop {
		s()
	}
}
