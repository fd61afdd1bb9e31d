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

package reconciler

import (
	"context"
	"fmt"
	"slices"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	ctrlevent "sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/source"

	"github.com/cloudkinds/provider-aws-services/internal/reconciler/managedoptions"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/pace"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/shard"
)

// serves is the gate's question "does this replica do this work?": always,
// without shards.
func (s Shared) serves() func(string) (func(), bool) {
	if s.Shards == nil {
		return nil
	}
	return s.Shards.Enter
}

// shardLabels are the labels of the object of a reconcile this replica
// serves: its account's shard, so that the replicas that do not hold it do
// not cache it (shard.Set.Caching). Nil without shards.
func (s Shared) shardLabels() func(context.Context) map[string]string {
	if s.Shards == nil {
		return nil
	}
	return func(ctx context.Context) map[string]string {
		scope := pace.ServedScope(ctx)
		if scope == "" {
			return nil
		}
		return map[string]string{shard.LabelShard: s.Shards.Label(scope)}
	}
}

// unlabelledFor is how long an object may go unlabelled before a replica
// that does not serve it labels it for the one that does.
const unlabelledFor = 2 * time.Minute

// moveToShard hands mg, whose account's work another replica does, to
// that replica's cache:
//   - Labelled with a shard this replica holds, only this replica caches
//     it: it is labelled with its work's shard (its account changed, or
//     someone changed its label).
//   - Not labelled (or labelled with no shard of this count), it is dropped from this replica's cache
//     (shard.Set.Drop), and the replica that serves it labels it at its
//     first write. One still not labelled after unlabelledFor may not be in
//     that replica's cache: it did not serve it when it came (its account
//     changed since), and dropped it. It is labelled here.
func (p *path[MR]) moveToShard(ctx context.Context, mg MR, scope string) {
	have, labelled := mg.GetLabels()[shard.LabelShard]
	want := p.shared.Shards.Label(scope)
	stranded := labelled && have != want && p.shared.Shards.HoldsLabel(have) ||
		!p.shared.Shards.IsShard(have) && time.Since(mg.GetCreationTimestamp().Time) > unlabelledFor
	if stranded {
		patch := client.RawPatch(types.MergePatchType, fmt.Appendf(nil, `{"metadata":{"labels":{%q:%q}}}`, shard.LabelShard, want))
		err := p.kube.Patch(ctx, mg, patch)
		if client.IgnoreNotFound(err) != nil {
			p.o.Logger.Debug("Cannot label an object with the shard of its work", "shard", want, "error", err)
			return
		}
	}
	p.shared.Shards.Drop(mg, scope)
}

// scopeKnown is the AWS scope of o's work when a session for it was built
// here: the key of its shard (the gate's), without building anything.
func (p *path[MR]) scopeKnown(o runtime.Object) (string, bool) {
	mg, ok := o.(MR)
	if !ok {
		return "", false
	}
	// It runs in the informer's watch: a cache that is not ready does
	// not hold it up for long.
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	d := p.shared.Sessions.Destination(ctx, mg, p.kind.Region(mg))
	if d.Session == nil {
		return "", false
	}
	return d.Session.Scope(), true
}

// shardWatch queues, when this replica takes a shard, the kind's objects
// whose work is in it: while another replica held the shard, this one
// dropped their reconciles. Nil without shards.
func (p *path[MR]) shardWatch() managedoptions.Watch {
	if p.shared.Shards == nil {
		return nil
	}
	p.shared.Shards.KeyedBy(p.kind.Object, p.scopeKnown)
	taken := make(chan ctrlevent.TypedGenericEvent[client.Object], 1024)
	p.shared.Shards.OnAcquire(func(shards []int) {
		go p.queueShards(shards, taken)
	})
	return func(b *builder.Builder) *builder.Builder {
		return b.WatchesRawSource(source.Channel(taken, &handler.EnqueueRequestForObject{}))
	}
}

// queueShards sends each object of the kind whose work may be in shards,
// read from the cache uncopied: by its account's scope when a session was
// built for it here, or by its namespace (the key of a reconcile that calls
// no account), and every object whose account is not known yet (its gate
// finds out).
func (p *path[MR]) queueShards(shards []int, to chan<- ctrlevent.TypedGenericEvent[client.Object]) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	l := p.kind.emptyList()
	if l == nil {
		return
	}
	if err := p.mgr.GetCache().List(ctx, l, client.UnsafeDisableDeepCopy); err != nil {
		p.o.Logger.Info("Cannot queue the objects of shards taken over", "shards", shards, "error", err)
		return
	}
	items, err := meta.ExtractList(l)
	if err != nil {
		return
	}
	for _, it := range items {
		mg, ok := it.(MR)
		if !ok {
			continue
		}
		d := p.shared.Sessions.Destination(ctx, mg, p.kind.Region(mg))
		inShard := d.Calls && d.Session == nil ||
			d.Session != nil && slices.Contains(shards, p.shared.Shards.Of(d.Session.Scope())) ||
			slices.Contains(shards, p.shared.Shards.Of(pace.NamespaceKey(mg.GetNamespace())))
		if !inShard {
			continue
		}
		select {
		case to <- ctrlevent.TypedGenericEvent[client.Object]{Object: mg}:
		case <-ctx.Done():
			return
		}
	}
}

// elsewhere is the gate's Elsewhere: moveToShard, with shards.
func (p *path[MR]) elsewhere() func(context.Context, MR, string) {
	if p.shared.Shards == nil {
		return nil
	}
	return p.moveToShard
}
