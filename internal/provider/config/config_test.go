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

package config

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/shard"
)

// queue records what was added, and when.
type queue struct {
	workqueue.TypedRateLimitingInterface[reconcile.Request]
	added []string
}

func (q *queue) Add(r reconcile.Request) { q.added = append(q.added, r.String()+" now") }

func (q *queue) AddAfter(r reconcile.Request, d time.Duration) {
	q.added = append(q.added, r.String()+" after "+d.String())
}

// TestCoalesced: a usage's changes enqueue its config after coalesce, never
// at once, so that the queue keeps one reconcile of it for a flood.
func TestCoalesced(t *testing.T) {
	u := &v1alpha1.ProviderConfigUsage{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "u"}}
	u.SetProviderConfigReference(xpv2.ProviderConfigReference{Kind: v1alpha1.ClusterProviderConfigKind, Name: "shared"})
	h := coalesced{EventHandler: &resource.EnqueueRequestForProviderConfig{Kind: v1alpha1.ClusterProviderConfigKind}, after: coalesce}
	q := &queue{}
	ctx := context.Background()
	h.Create(ctx, event.CreateEvent{Object: u}, q)
	h.Delete(ctx, event.DeleteEvent{Object: u}, q)
	want := []string{
		reconcile.Request{NamespacedName: types.NamespacedName{Name: "shared"}}.String() + " after 2s",
		reconcile.Request{NamespacedName: types.NamespacedName{Name: "shared"}}.String() + " after 2s",
	}
	if diff := cmp.Diff(want, q.added); diff != "" {
		t.Errorf("-want, +got:\n%s", diff)
	}
}

// TestSpecOrDeletion: a config is reconciled again for a change of its spec
// or its deletion, never for the status its own reconcile writes.
func TestSpecOrDeletion(t *testing.T) {
	config := func(generation int64, users int64, deleted bool) *v1alpha1.ClusterProviderConfig {
		pc := &v1alpha1.ClusterProviderConfig{ObjectMeta: metav1.ObjectMeta{Name: "team-a", Generation: generation, ResourceVersion: fmt.Sprint(generation*100 + users),
			Finalizers: []string{"in-use.crossplane.io"}}}
		pc.Status.Users = users
		if deleted {
			now := metav1.Now()
			pc.DeletionTimestamp = &now
		}
		return pc
	}
	cases := map[string]struct {
		old, new *v1alpha1.ClusterProviderConfig
		want     bool
	}{
		"UsersCounted":      {old: config(1, 10, false), new: config(1, 12, false), want: false},
		"SpecChanged":       {old: config(1, 10, false), new: config(2, 10, false), want: true},
		"Deleted":           {old: config(1, 10, false), new: config(1, 10, true), want: true},
		"CountedInDeletion": {old: config(1, 10, true), new: config(1, 9, true), want: false},
		"Resynced":          {old: config(1, 10, false), new: config(1, 10, false), want: true},
		"FinalizerRemoved": {old: config(1, 10, false), new: func() *v1alpha1.ClusterProviderConfig {
			pc := config(1, 11, false)
			pc.Finalizers = nil
			return pc
		}(), want: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := specOrDeletion{}.Update(event.UpdateEvent{ObjectOld: tc.old, ObjectNew: tc.new})
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Update(...): -want, +got:\n%s", diff)
			}
		})
	}
}

// ran records that the config's reconcile ran.
type ran struct{ n int }

func (r *ran) Reconcile(context.Context, reconcile.Request) (reconcile.Result, error) {
	r.n++
	return reconcile.Result{}, nil
}

// TestServedBy: with shards, a config is reconciled by the replica that
// holds its shard; another looks again later.
func TestServedBy(t *testing.T) {
	timing := shard.Timing{Duration: 14 * time.Second, RenewDeadline: 10 * time.Second, RetryPeriod: time.Second}
	cases := map[string]struct {
		holds    bool
		wantRuns int
		wantRes  reconcile.Result
	}{
		"ItsShard":             {holds: true, wantRuns: 1, wantRes: reconcile.Result{}},
		"AnotherReplicasShard": {holds: false, wantRuns: 0, wantRes: reconcile.Result{RequeueAfter: notServedFor}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := shard.New(fake.NewClientBuilder().Build(), "provider", "a", 4, timing, logging.NewNopLogger(), clocktesting.NewFakeClock(time.Now()))
			if tc.holds {
				s.Round(context.Background()) // alone, it takes every shard
			}
			r := &ran{}
			res, err := servedBy{Reconciler: r, shards: s, kind: v1alpha1.ClusterProviderConfigKind}.Reconcile(context.Background(), reconcile.Request{NamespacedName: types.NamespacedName{Name: "team-a"}})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.wantRes, res); diff != "" {
				t.Errorf("result: -want, +got:\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantRuns, r.n); diff != "" {
				t.Errorf("runs: -want, +got:\n%s", diff)
			}
		})
	}
}
