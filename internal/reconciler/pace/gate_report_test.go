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

package pace

import (
	"context"
	"testing"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	"k8s.io/apimachinery/pkg/runtime"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/cloudkinds/provider-aws-services/internal/aws/quota"

	"github.com/cloudkinds/provider-aws-services/internal/tenancy/budget"
)

// recordingLog keeps what was logged.
type recordingLog struct {
	logging.Logger
	said []string
}

func (l *recordingLog) Info(msg string, _ ...any) { l.said = append(l.said, msg) }

// TestGateLogsOncePerChangeOfPace: a kind whose polls are deferred on and
// off says so once, and says it is back only when none was deferred for
// backWithin.
func TestGateLogsOncePerChangeOfPace(t *testing.T) {
	c := clocktesting.NewFakeClock(time.Unix(0, 0))
	b := budget.New(budget.Quotas{}, budget.WithClock(c))
	log := &recordingLog{Logger: logging.NewNopLogger()}
	g := gate(t, c, b, &recorder{})
	g.Log = log
	ops := []quota.Operation{describe}
	for range 10 {
		g.logPacing(true, ops, time.Second)
		c.Step(time.Second)
		g.logPacing(false, ops, 0)
	}
	if len(log.said) != 1 {
		t.Fatalf("polls deferred on and off for 10 s: logged %q, want one line", log.said)
	}
	c.Step(backWithin)
	g.logPacing(false, ops, 0)
	g.logPacing(false, ops, 0)
	if len(log.said) != 2 {
		t.Errorf("no poll deferred for %s: logged %q, want a second line saying so", backWithin, log.said)
	}
}

// events records the Events a gate records.
type events struct{ recorded []event.Event }

func (e *events) Event(_ runtime.Object, ev event.Event)   { e.recorded = append(e.recorded, ev) }
func (e *events) WithAnnotations(...string) event.Recorder { return e }

// TestGateSaysItWaitsLong: a change whose turn is more than LongWait away
// says so in one Normal Event, not again when its turn is promised anew,
// and again in a later wait.
func TestGateSaysItWaitsLong(t *testing.T) {
	c := clocktesting.NewFakeClock(time.Unix(0, 0))
	b := budget.New(budget.Quotas{}, budget.WithClock(c))
	take(b, "ns", 40*time.Second, budget.Change)
	r := &recorder{}
	rec := &events{}
	g := gate(t, c, b, r, stream(2, settled...))
	g.Record = rec
	ctx := context.Background()

	first, _ := g.Reconcile(ctx, req)
	if len(rec.recorded) != 1 {
		t.Fatalf("a change 40 s from its turn: %d Events, want 1", len(rec.recorded))
	}
	if ev := rec.recorded[0]; ev.Type != event.TypeNormal || ev.Reason != ReasonWaitingForTurn {
		t.Errorf("the Event: %s %s, want Normal %s", ev.Type, ev.Reason, ReasonWaitingForTurn)
	}
	// Another namespace's change takes its slot: promised anew, it says
	// nothing more.
	newcomer := budget.Reservation{Scope: "111122223333", Region: "us-east-1", Namespace: "other", Name: "o", Ops: []quota.Operation{describe}, Class: budget.Change}
	c.Step(first.RequeueAfter - 100*time.Millisecond)
	b.Reserve(newcomer, 0)
	c.Step(100 * time.Millisecond)
	b.Reserve(newcomer, 250*time.Millisecond)
	again, _ := g.Reconcile(ctx, req)
	if again.RequeueAfter == 0 || len(rec.recorded) != 1 {
		t.Errorf("promised anew: requeued after %v with %d Events; want a requeue and still 1 Event", again.RequeueAfter, len(rec.recorded))
	}
	c.Step(again.RequeueAfter)
	if _, err := g.Reconcile(ctx, req); err != nil {
		t.Fatal(err)
	}
	// It looked: the wait is over. A new one says so again.
	g.Deferred.Polled(req.NamespacedName)
	take(b, "ns", 40*time.Second, budget.Change)
	if _, err := g.Reconcile(ctx, req); err != nil {
		t.Fatal(err)
	}
	if len(rec.recorded) != 2 {
		t.Errorf("a second long wait: %d Events in all, want 2", len(rec.recorded))
	}
}
