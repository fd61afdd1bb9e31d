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

package readiness

import (
	"context"
	"errors"
	"testing"

	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	"github.com/google/go-cmp/cmp"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/manager"
)

// fakeManager records what is added to it.
type fakeManager struct {
	manager.Manager
	added []manager.Runnable
}

func (m *fakeManager) Add(r manager.Runnable) error {
	m.added = append(m.added, r)
	return nil
}

func (m *fakeManager) GetControllerOptions() config.Controller {
	return config.Controller{MaxConcurrentReconciles: 3}
}

// fakeController is a controller whose warmup returns warmupErr.
type fakeController struct{ warmupErr error }

func (fakeController) Start(context.Context) error    { return nil }
func (fakeController) NeedLeaderElection() bool       { return true }
func (c fakeController) Warmup(context.Context) error { return c.warmupErr }

// A step is something that happens to the controllers of kind A or B.
type step func(t *testing.T, c *Controllers, mgr *fakeManager, elect func())

func setUp(name string, err error) step {
	return func(_ *testing.T, c *Controllers, mgr *fakeManager, _ func()) {
		if err == nil {
			_ = c.Manager(mgr, name).Add(fakeController{})
		}
		c.SetUp(name, err)
	}
}

func setUpFailingWarmup(name string) step {
	return func(_ *testing.T, c *Controllers, mgr *fakeManager, _ func()) {
		_ = c.Manager(mgr, name).Add(fakeController{warmupErr: errors.New("timed out waiting for cache to be synced")})
		c.SetUp(name, nil)
	}
}

// warmUp and start do what the manager does to every controller added to
// it: warm it up (on every replica), start it (on the leader).
func warmUp(t *testing.T, _ *Controllers, mgr *fakeManager, _ func()) {
	t.Helper()
	for _, r := range mgr.added {
		_ = r.(controller).Warmup(context.Background()) //nolint:forcetypeassert // every runnable of these tests is one
	}
}

func start(t *testing.T, _ *Controllers, mgr *fakeManager, _ func()) {
	t.Helper()
	for _, r := range mgr.added {
		if err := r.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
}

func elected(_ *testing.T, _ *Controllers, _ *fakeManager, elect func()) { elect() }

// probe asks the readiness check, as the kubelet does.
func probe(_ *testing.T, c *Controllers, _ *fakeManager, _ func()) { _ = c.Ready(nil) }

// expect expects a kind, as safe start does once its CRD is established.
func expect(name string) step {
	return func(_ *testing.T, c *Controllers, _ *fakeManager, _ func()) { c.Expect(name) }
}

func TestReady(t *testing.T) {
	cases := map[string]struct {
		reason     string
		steps      []step
		wantReady  string // "" when ready
		wantFailed string
	}{
		"NothingSetUp": {
			reason:    "Before any kind's controller is set up (safe start waits for the CRDs), the replica is not ready.",
			wantReady: "the controllers of A and B are not set up yet: a kind's controller is set up once its CRD is established",
		},
		"OneSetUp": {
			reason:    "Every expected kind must be set up; the message names those that are not.",
			steps:     []step{setUp("A", nil), warmUp},
			wantReady: "the controllers of B are not set up yet: a kind's controller is set up once its CRD is established",
		},
		"SetUpNotSynced": {
			reason:    "A controller set up whose watches have not synced is not ready.",
			steps:     []step{setUp("A", nil), setUp("B", nil)},
			wantReady: "the watches of the controllers of A and B have not synced yet",
		},
		"WarmupFailed": {
			reason:    "A controller whose warmup failed has not synced.",
			steps:     []step{setUp("A", nil), setUpFailingWarmup("B"), warmUp},
			wantReady: "the watches of the controllers of B have not synced yet",
		},
		"Standby": {
			reason: "A standby (not leading) whose controllers are set up and warm is ready: it reconciles as soon as it leads.",
			steps:  []step{setUp("A", nil), setUp("B", nil), warmUp},
		},
		"LeadingNotStarted": {
			reason:    "Once this replica leads, it is ready only when its controllers have started.",
			steps:     []step{setUp("A", nil), setUp("B", nil), warmUp, elected},
			wantReady: "this replica leads, and the controllers of A and B have not started yet",
		},
		"LeadingStarted": {
			reason: "A leader whose controllers are warm and started is ready.",
			steps:  []step{setUp("A", nil), setUp("B", nil), warmUp, elected, start},
		},
		"StartedNotSynced": {
			reason:    "A controller started is not ready before its watches have synced.",
			steps:     []step{setUp("A", nil), setUp("B", nil), elected, start},
			wantReady: "the watches of the controllers of A and B have not synced yet",
		},
		"SeveralReasons": {
			reason:     "Every reason the replica is not ready is given, on one line.",
			steps:      []step{setUp("A", errors.New("no informer"))},
			wantReady:  "the controllers of A could not be set up (see /healthz/controllers); the controllers of B are not set up yet: a kind's controller is set up once its CRD is established",
			wantFailed: "controllers not set up: A: no informer",
		},
		"ExpectedBeforeReady": {
			reason:    "A kind whose CRD is established before the replica is first ready is waited for.",
			steps:     []step{setUp("A", nil), setUp("B", nil), probe, expect("C"), warmUp},
			wantReady: "the controllers of C are not set up yet: a kind's controller is set up once its CRD is established",
		},
		"LateKindWarmingUp": {
			reason: "A kind activated after the replica was ready does not make it unready while it is set up and warms up.",
			steps:  []step{setUp("A", nil), setUp("B", nil), warmUp, probe, expect("C"), probe, setUp("C", nil)},
		},
		"LateKindNotStartedWhenLeading": {
			reason:    "A leader waits for the controllers it expected to start, not for a late kind's.",
			steps:     []step{setUp("A", nil), setUp("B", nil), warmUp, probe, setUp("C", nil), elected},
			wantReady: "this replica leads, and the controllers of A and B have not started yet",
		},
		"LateKindSetupFailed": {
			reason:     "A late kind whose setup failed fails the health check, not the readiness check.",
			steps:      []step{setUp("A", nil), setUp("B", nil), warmUp, probe, expect("C"), setUp("C", errors.New("no informer"))},
			wantFailed: "controllers not set up: C: no informer",
		},
		"SetupFailed": {
			reason:     "A kind whose setup failed fails both checks, the health check naming the error.",
			steps:      []step{setUp("A", errors.New("no informer")), setUp("B", nil), warmUp, elected, start},
			wantReady:  "the controllers of A could not be set up (see /healthz/controllers)",
			wantFailed: "controllers not set up: A: no informer",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			ch := make(chan struct{})
			c := New(ch, logging.NewNopLogger())
			c.Expect("A")
			c.Expect("B")
			mgr := &fakeManager{}
			for _, s := range tc.steps {
				s(t, c, mgr, func() { close(ch) })
			}
			if diff := cmp.Diff(tc.wantReady, errString(c.Ready(nil))); diff != "" {
				t.Errorf("%s\nReady: -want, +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.wantFailed, errString(c.Failed(nil))); diff != "" {
				t.Errorf("%s\nFailed: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// The manager a kind's controllers are set up with warms every controller
// up, and follows only controllers.
func TestManager(t *testing.T) {
	c := New(make(chan struct{}), logging.NewNopLogger())
	mgr := &fakeManager{}
	m := c.Manager(mgr, "A")
	got := m.GetControllerOptions()
	if got.MaxConcurrentReconciles != 3 || !ptr.Deref(got.EnableWarmup, false) {
		t.Errorf("GetControllerOptions: %d concurrent reconciles, warmup %v; want the manager's 3, and warmup", got.MaxConcurrentReconciles, got.EnableWarmup)
	}
	other := manager.RunnableFunc(func(context.Context) error { return nil })
	_ = m.Add(other)
	_ = m.Add(fakeController{})
	if len(mgr.added) != 2 {
		t.Fatalf("%d runnables added, want 2", len(mgr.added))
	}
	if _, ok := mgr.added[0].(*tracked); ok {
		t.Error("a runnable that is not a controller was wrapped")
	}
	if _, ok := mgr.added[1].(*tracked); !ok {
		t.Errorf("a controller was added as %T, not followed", mgr.added[1])
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
