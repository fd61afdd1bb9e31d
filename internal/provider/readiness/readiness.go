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

// Package readiness says whether this replica's controllers are up: the
// provider's /readyz check.
//
// A replica is ready once the controllers of the provider configs and of
// every kind it expects are set up and their watches have synced, and, when
// the replica leads (or runs without leader election), once every one of
// them has started. Without safe start it expects every kind. With safe start
// it expects the kinds whose CRDs are established when it starts (package
// safestart looks before the manager starts): a safe-start package's kinds
// are active only where a ManagedResourceActivationPolicy activates them, and
// a replica that waited for all of them would never be ready where some are
// not.
//
// A kind expected after the replica was first ready, one activated later,
// is set up, warms up and starts on its own, while the replica stays ready:
// the replica serves the kinds it served, and a readiness that dropped at
// each activation would stall the Deployment, and so the package, for
// nothing. If its setup fails, /healthz says so (Failed), as for any kind:
// the pod restarts, and sets the kind up at start.
//
// A standby, which with leader election never starts its controllers until
// it leads, is ready when its controllers are set up and warm: their watches
// synced and their queues filled, so that it reconciles the moment it takes
// the lease over. A standby reported not ready would stall every rolling
// update of a Deployment of two replicas (the new pod must be ready before an
// old one goes, and the old leader keeps the lease) and keep the Deployment,
// and so the Crossplane package, from being Available.
package readiness

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/manager"
)

// Controllers follows the controllers of each kind from their setup to their
// start.
type Controllers struct {
	elected <-chan struct{}
	log     logging.Logger

	mu    sync.Mutex
	kinds []*kind
	said  string // what the last check said, logged when it changes
	// wasReady is whether the replica was ever ready: a kind expected
	// later joins it without making it unready.
	wasReady bool
}

// A kind is the controllers of one kind (or of the provider configs).
type kind struct {
	name string
	// late is a kind expected after the replica was first ready: only a
	// failed setup of it counts, and only for health.
	late        bool
	setUp       bool
	err         error
	controllers []*tracked
}

// New returns Controllers of a manager whose Elected channel is elected.
func New(elected <-chan struct{}, log logging.Logger) *Controllers {
	return &Controllers{elected: elected, log: log}
}

// Expect names a kind whose controllers are to be set up: the replica is not
// ready until they are, unless it was ready before (see the package's
// documentation).
func (c *Controllers) Expect(name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.kind(name)
}

// SetUp records that the setup of a kind's controllers ended, with err.
func (c *Controllers) SetUp(name string, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := c.kind(name)
	k.setUp, k.err = true, err
}

// Manager returns mgr for the setup of a kind's controllers: the
// controllers it builds are followed, and warm up (start their watches)
// whether or not this replica leads.
func (c *Controllers) Manager(mgr ctrl.Manager, name string) ctrl.Manager {
	return &trackingManager{Manager: mgr, c: c, kind: name}
}

// Failed is a health check that fails while any kind's controllers could not
// be set up: they never reconcile until the provider restarts.
func (c *Controllers) Failed(*http.Request) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var failed []string
	for _, k := range c.kinds {
		if k.err != nil {
			failed = append(failed, fmt.Sprintf("%s: %v", k.name, k.err))
		}
	}
	if len(failed) == 0 {
		return nil
	}
	return fmt.Errorf("controllers not set up: %s", strings.Join(failed, "; "))
}

// Ready is the readiness check: it fails, saying why, until this replica's
// controllers are up (see the package's documentation). What it says is
// logged when it changes, since /readyz itself withholds it (/readyz/controllers
// shows it).
func (c *Controllers) Ready(*http.Request) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	err := c.ready()
	said := "ready"
	if err != nil {
		said = err.Error()
	}
	if said != c.said {
		c.said = said
		if err != nil {
			c.log.Info("Not ready", "reason", said)
		} else {
			c.log.Info("Ready", "leading", c.leading())
		}
	}
	return err
}

func (c *Controllers) ready() error {
	var failed, pending, cold, idle []string
	for _, k := range c.kinds {
		switch {
		case k.late: // it joins a replica that was ready: health alone follows it
		case k.err != nil:
			failed = append(failed, k.name)
		case !k.setUp:
			pending = append(pending, k.name)
		case !k.warm():
			cold = append(cold, k.name)
		case !k.started():
			idle = append(idle, k.name)
		}
	}
	var why []string
	if len(failed) > 0 {
		why = append(why, fmt.Sprintf("the controllers of %s could not be set up (see /healthz/controllers)", list(failed)))
	}
	if len(pending) > 0 {
		why = append(why, fmt.Sprintf("the controllers of %s are not set up yet: a kind's controller is set up once its CRD is established", list(pending)))
	}
	if len(cold) > 0 {
		why = append(why, fmt.Sprintf("the watches of the controllers of %s have not synced yet", list(cold)))
	}
	if c.leading() && len(idle) > 0 {
		why = append(why, fmt.Sprintf("this replica leads, and the controllers of %s have not started yet", list(idle)))
	}
	if len(why) == 0 {
		c.wasReady = true
		return nil
	}
	return errors.New(strings.Join(why, "; "))
}

// leading says whether this replica leads; without leader election it does
// once the manager starts its controllers.
func (c *Controllers) leading() bool {
	select {
	case <-c.elected:
		return true
	default:
		return false
	}
}

// kind returns the kind named name, adding it if it was not expected.
func (c *Controllers) kind(name string) *kind {
	for _, k := range c.kinds {
		if k.name == name {
			return k
		}
	}
	k := &kind{name: name, late: c.wasReady}
	c.kinds = append(c.kinds, k)
	return k
}

func (c *Controllers) add(name string, t *tracked) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := c.kind(name)
	k.controllers = append(k.controllers, t)
}

func (k *kind) warm() bool {
	for _, t := range k.controllers {
		if !t.warm.Load() {
			return false
		}
	}
	return true
}

func (k *kind) started() bool {
	for _, t := range k.controllers {
		if !t.started.Load() {
			return false
		}
	}
	return true
}

func list(names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// A controller is what controller-runtime's controllers are to a manager.
type controller interface {
	manager.Runnable
	manager.LeaderElectionRunnable
	Warmup(ctx context.Context) error
}

// trackingManager is a manager that follows the controllers added to it.
type trackingManager struct {
	ctrl.Manager
	c    *Controllers
	kind string
}

// GetControllerOptions are the manager's, with warmup: a controller starts
// its watches before this replica leads, so that a standby that takes the
// lease over reconciles at once, from synced caches, and a warm controller
// is one whose watches have synced.
func (m *trackingManager) GetControllerOptions() config.Controller {
	o := m.Manager.GetControllerOptions()
	o.EnableWarmup = ptr.To(true)
	return o
}

// Add adds r to the manager, followed when it is a controller.
func (m *trackingManager) Add(r manager.Runnable) error {
	ctl, ok := r.(controller)
	if !ok {
		return m.Manager.Add(r)
	}
	t := &tracked{controller: ctl}
	m.c.add(m.kind, t)
	return m.Manager.Add(t)
}

// tracked is a controller whose warmup and start are recorded.
type tracked struct {
	controller
	warm, started atomic.Bool
}

// Warmup starts the controller's watches and waits for them to sync (at
// once if Start already did).
func (t *tracked) Warmup(ctx context.Context) error {
	if err := t.controller.Warmup(ctx); err != nil {
		return err
	}
	t.warm.Store(true)
	return nil
}

// Start runs the controller: once its watches have synced, its workers
// start at once.
func (t *tracked) Start(ctx context.Context) error {
	t.started.Store(true)
	return t.controller.Start(ctx)
}
