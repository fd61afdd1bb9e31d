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

package chaos

import (
	"context"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/internal/tenancy/ownership"
	"github.com/cloudkinds/provider-aws-services/test/emulator"
)

// A killRecord is what the kills of a storm did.
type killRecord struct {
	kills, aimed int
	// atClaim counts the kills aimed right after the provider recorded an
	// ownership claim; beforeCreate those of them that landed before any
	// further create reached AWS: between a claim and its create.
	atClaim, beforeCreate int
	looks                 []killLook
}

// killStorm kills the provider st.kills times over the storm, at random
// moments, and starts it again after each. Every other kill is aimed: it
// waits up to 5 s for a create to reach AWS and kills the provider in the
// emulator's creation hook, after the create happened and before its answer
// left; until one aimed kill landed, every kill is aimed, so that a storm
// whose first aimed kill found no create (the provider still starting, or
// every create throttled) tries again. look is called right after each kill,
// while the provider is dead. The creation hook stays set until the storm
// heals.
//
// Every third kill is aimed at an ownership claim instead: it waits up to 5 s
// for the provider to record a claim (claims delivers them) and kills it at
// once, before the create the claim was taken for, if it is quick enough.
func killStorm(st storm, rng *rand.Rand, stormStart time.Time, p *process, em *emulator.Server, claims <-chan struct{}, look func(time.Time) killLook) killRecord {
	var (
		hookMu sync.Mutex
		armed  chan time.Time
	)
	em.SetCreationHook(func(emulator.Creation) {
		hookMu.Lock()
		a := armed
		armed = nil
		hookMu.Unlock()
		if a != nil && p.kill() {
			a <- time.Now()
		}
	})
	var r killRecord
	for i := range st.kills {
		// Kill i falls around (i+½)/kills of the storm.
		at := time.Duration(float64(st.length) * (float64(i) + 0.25 + 0.5*rng.Float64()) / float64(st.kills))
		time.Sleep(time.Until(stormStart.Add(at)))
		var killed time.Time
		switch {
		case i%3 == 1 && r.aimed > 0:
			killed = killAtClaim(p, em, claims, &r)
		case i%2 == 0 || r.aimed == 0:
			a := make(chan time.Time, 1)
			hookMu.Lock()
			armed = a
			hookMu.Unlock()
			select {
			case killed = <-a:
				r.aimed++
			case <-time.After(5 * time.Second):
				hookMu.Lock()
				taken := armed == nil
				armed = nil
				hookMu.Unlock()
				if taken {
					// The hook took the arm as the time ran out.
					select {
					case killed = <-a:
						r.aimed++
					case <-time.After(time.Second):
					}
				}
				if killed.IsZero() && p.kill() {
					killed = time.Now()
				}
			}
		case p.kill():
			killed = time.Now()
		}
		if !killed.IsZero() {
			r.kills++
			r.looks = append(r.looks, look(killed))
		}
		time.Sleep(time.Duration(200+rng.IntN(800)) * time.Millisecond)
		p.start()
	}
	return r
}

// killAtClaim kills the provider as soon as it records an ownership claim,
// within 5 s, else at once.
func killAtClaim(p *process, em *emulator.Server, claims <-chan struct{}, r *killRecord) time.Time {
	for {
		select {
		case <-claims: // claims recorded before this kill was aimed
			continue
		default:
		}
		break
	}
	select {
	case <-claims:
		created := len(em.Creations())
		if !p.kill() {
			return time.Time{}
		}
		r.atClaim++
		if len(em.Creations()) == created {
			r.beforeCreate++
		}
		return time.Now()
	case <-time.After(5 * time.Second):
		if p.kill() {
			return time.Now()
		}
		return time.Time{}
	}
}

// watchClaims delivers an event each time the provider records an ownership
// claim (a Lease of the claims namespace), until ctx ends.
func watchClaims(ctx context.Context, t *testing.T, cfg *rest.Config, namespace string) <-chan struct{} {
	t.Helper()
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	w, err := cs.CoordinationV1().Leases(namespace).Watch(ctx, metav1.ListOptions{LabelSelector: ownership.LabelClaim + "=true"})
	if err != nil {
		t.Fatal(err)
	}
	out := make(chan struct{}, 1)
	go func() {
		defer w.Stop()
		for ev := range w.ResultChan() {
			if ev.Type != watch.Added {
				continue
			}
			select {
			case out <- struct{}{}:
			default:
			}
		}
	}()
	return out
}

// lookAtKill reads, right after a kill and while the provider is dead, the
// objects of the creates AWS accepted in the afterCreateWindow before it,
// and whether each recorded its create's result: for crossplane-runtime's
// managed reconciler, the external-create-succeeded annotation it writes
// after every create that succeeded (seconds, hence the truncation); for a
// subscription also the ARN as external name.
func lookAtKill(ctx context.Context, t *testing.T, kube client.Client, em *emulator.Server, byCreator map[string]resource.Managed, at time.Time) killLook {
	look := killLook{at: at}
	for _, c := range em.Creations() {
		if c.Time.After(at) || at.Sub(c.Time) > afterCreateWindow || c.AccessKey == checkKey {
			continue
		}
		mg, ok := byCreator[c.Identity()+" "+c.AccessKey]
		if !ok {
			t.Errorf("AWS accepted a create the storm asked no object for: %+v", c)
			continue
		}
		o := mg.DeepCopyObject().(resource.Managed) //nolint:forcetypeassert // a copy of its own type
		err := kube.Get(ctx, client.ObjectKeyFromObject(mg), o)
		if err != nil && !kerrors.IsNotFound(err) {
			t.Logf("cannot read %s after a kill: %v", objectName(mg), err)
			continue
		}
		// An object gone is one that cannot have recorded it.
		succeeded := meta.GetExternalCreateSucceeded(o)
		recorded := err == nil && (!succeeded.IsZero() && !succeeded.Before(c.Time.Truncate(time.Second)) ||
			c.Kind == "Subscription" && meta.GetExternalName(o) == c.ARN)
		look.creates = append(look.creates, createAtKill{creation: c, object: objectName(mg), recorded: recorded})
	}
	return look
}
