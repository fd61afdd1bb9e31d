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
	"net/http"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/test/workload"
)

// writeCounter counts, per kind, the writes to the objects of a namespace as
// a watch sees them: each is an event Crossplane's composite circuit breaker
// pays for when the object is composed. A watch the API server ends (it does
// under load) is opened again from the last version seen, so that no write
// is missed; one whose version is too old to resume from is counted in lost.
type writeCounter struct {
	mu     sync.Mutex
	writes map[string]int
	lost   int // watches that could not resume: their writes meanwhile are not counted
	cancel context.CancelFunc
}

func countWrites(ctx context.Context, wc client.WithWatch, ns string) (*writeCounter, error) {
	ctx, cancel := context.WithCancel(ctx)
	c := &writeCounter{writes: map[string]int{}, cancel: cancel}
	for _, kind := range kinds {
		w, err := wc.Watch(ctx, workload.List(kind), client.InNamespace(ns))
		if err != nil {
			c.close()
			return nil, err
		}
		go c.count(ctx, wc, ns, kind, w)
	}
	return c, nil
}

// count counts kind's writes from w, and from the watches that follow it.
func (c *writeCounter) count(ctx context.Context, wc client.WithWatch, ns, kind string, w watch.Interface) {
	version := ""
	for {
		for ev := range w.ResultChan() {
			if ev.Type == watch.Error {
				if status, ok := ev.Object.(*metav1.Status); ok && status.Code == http.StatusGone {
					c.mu.Lock()
					c.lost++
					c.mu.Unlock()
					version = ""
				}
				continue
			}
			if o, ok := ev.Object.(client.Object); ok {
				version = o.GetResourceVersion()
			}
			if ev.Type == watch.Modified {
				c.mu.Lock()
				c.writes[kind]++
				c.mu.Unlock()
			}
		}
		w.Stop()
		if ctx.Err() != nil {
			return
		}
		var err error
		for {
			// Without a version the watch starts again with every object
			// as added: none of them counts as a write.
			w, err = wc.Watch(ctx, workload.List(kind), client.InNamespace(ns), &client.ListOptions{Raw: &metav1.ListOptions{ResourceVersion: version}})
			if err == nil || ctx.Err() != nil {
				break
			}
			time.Sleep(time.Second)
		}
		if err != nil {
			return
		}
	}
}

// lostWatches is how many watches could not resume.
func (c *writeCounter) lostWatches() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lost
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
	c.cancel()
}
