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

package integration

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	eventbusv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/eventbus/v1alpha1"
	apisv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
)

// TestABrokenConfigOrARefusedCreateHoldsNoName: team B asks first for names
// through a ProviderConfig that can never work (its Secret lacks the key it
// names) and, through the shared config, with an Endpoint AWS refuses for
// good (ValidationException). None of them holds a name: team A's objects of
// the same names become Ready, hold the claims, and nothing team A's
// namespace reads names team B.
func TestABrokenConfigOrARefusedCreateHoldsNoName(t *testing.T) {
	s := provider(t)
	teamA, teamB := namespace(t), namespace(t)
	create(t, secretWith(teamB, "aws", "not-the-key", "[default]\naws_access_key_id = AKIDB\naws_secret_access_key = s\n"))
	create(t, namespacedConfig(teamB, "broken", s.url))
	broken := &xpv2.ProviderConfigReference{Kind: apisv1alpha1.ProviderConfigKind, Name: "broken"}

	endpointName, streamName, refusedName := short("orders"), short("orders-stream"), short("team-a-churn")
	squatEndpoint := newEndpoint(teamB, endpointName)
	squatEndpoint.Spec.ProviderConfigReference = broken
	squatStream := newStream(t, teamB, streamName)
	squatStream.Spec.ProviderConfigReference = broken
	// Through the admin's config, a create AWS refuses for good: its
	// variant names a model that does not exist.
	squatRefused := newEndpointConfig(teamB, refusedName, "no-such-model")
	for _, mg := range []resource.Managed{squatEndpoint, squatStream, squatRefused} {
		create(t, mg)
	}
	eventually(t, 30*time.Second, "AWS refused team B's create", func() error {
		c, err := conditionOf(t, squatRefused, xpv2.TypeSynced)
		if err != nil {
			return err
		}
		if !strings.Contains(c.Message, "ValidationException") {
			return fmt.Errorf("Synced: %s", c.Message)
		}
		return nil
	})
	// Team B asked first, by a second at least.
	time.Sleep(1100 * time.Millisecond)

	model(t, s, refusedName)
	entitled := []resource.Managed{newEndpoint(teamA, endpointName), newStream(t, teamA, streamName), newEndpointConfig(teamA, refusedName, refusedName)}
	asked := time.Now()
	for _, mg := range entitled {
		create(t, mg)
	}
	for _, mg := range entitled {
		eventually(t, 60*time.Second, "team A's "+mg.GetName()+" Ready", func() error { return isReady(t, mg) })
	}
	t.Logf("team A's objects Ready %s after they were made, the names team B asked for first theirs", time.Since(asked).Round(100*time.Millisecond))
	for _, mg := range entitled {
		if h := claimHolder(t, mg); h != string(mg.GetUID()) {
			t.Errorf("the claim of %s is held by %q, not by team A's object", mg.GetName(), h)
		}
		tellsNothingOf(t, mg, teamB)
	}
	if n := s.aws.CallsFor(refusedName)["sagemaker:CreateEndpointConfig"]; n < 2 {
		t.Errorf("CreateEndpointConfig %q: %d calls, want team B's refused one and team A's", refusedName, n)
	}
	// Team B's objects, holding nothing, are refused without a word of
	// team A.
	refused(t, squatRefused, "belongs to an object of another namespace")
	tellsNothingOf(t, squatRefused, teamA)
	for _, mg := range append(entitled, squatEndpoint, squatStream, squatRefused) {
		remove(t, mg)
	}
}

// TestConfigsThatGoCostNothing: 50 namespaced ProviderConfigs, each used by
// an Endpoint that becomes Ready, then deleted with it: once the cache is
// pruned, the provider's live heap is back within 1 MiB of where it began.
func TestConfigsThatGoCostNothing(t *testing.T) {
	s := provider(t)
	ns := namespace(t)
	ctx := context.Background()
	create(t, secretWith(ns, "aws", "credentials", "[default]\naws_access_key_id = AKIDTEAM\naws_secret_access_key = s\n"))
	round := func(n int, prefix string) {
		t.Helper()
		objects := make([]*eventbusv1alpha1.Endpoint, n)
		configs := make([]*apisv1alpha1.ProviderConfig, n)
		for i := range n {
			configs[i] = namespacedConfig(ns, fmt.Sprintf("%s-%d", prefix, i), s.url)
			create(t, configs[i])
			objects[i] = newEndpoint(ns, short(fmt.Sprintf("%s-%d", prefix, i)))
			objects[i].Spec.ProviderConfigReference = &xpv2.ProviderConfigReference{Kind: apisv1alpha1.ProviderConfigKind, Name: configs[i].Name}
			create(t, objects[i])
		}
		for _, mg := range objects {
			eventually(t, 90*time.Second, mg.Name+" Ready", func() error { return isReady(t, mg) })
		}
		var wg sync.WaitGroup
		for _, mg := range objects {
			wg.Go(func() { remove(t, mg) })
		}
		wg.Wait()
		for _, pc := range configs {
			if err := cp.Client.Delete(ctx, pc); err != nil {
				t.Fatal(err)
			}
		}
		for _, pc := range configs {
			eventually(t, 30*time.Second, pc.Name+" gone", func() error { return isGone(pc) })
		}
	}
	// A first round makes what every config's use allocates once.
	round(5, "warm")
	s.changeLogs.forget(ns)
	before := liveHeap()
	round(50, "used")
	s.changeLogs.forget(ns)
	eventually(t, 30*time.Second, "the live heap back where it began", func() error {
		// What the cache saw go, it drops at its next prune (every
		// minute); the test prunes now.
		s.sessions.Prune(ctx)
		if after := liveHeap(); after > before+1<<20 {
			return fmt.Errorf("live heap %d KiB after, %d KiB before: %+d KiB", after>>10, before>>10, (int64(after)-int64(before))>>10)
		}
		return nil
	})
	t.Logf("live heap before %d KiB, after %d KiB", before>>10, liveHeap()>>10)
}

// liveHeap is the bytes the heap holds after a collection.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
