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
	"fmt"
	"net/http"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	corev1 "k8s.io/api/core/v1"

	"github.com/cloudkinds/provider-aws-services/internal/aws/awserrors"
	"github.com/cloudkinds/provider-aws-services/test/emulator"
)

// modeledWindow is how long each case's error is answered: 10 s, or
// MODELED_WINDOW's (a Go duration), to measure a longer one.
var modeledWindow = func() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("MODELED_WINDOW")); err == nil && d >= 4*time.Second {
		return d
	}
	return 10 * time.Second
}()

// modeledAtOnce is how many cases run at once.
const modeledAtOnce = 80

// A modeledCase is one modeled error, answered by one operation, for a
// window, in one phase of one object's life.
type modeledCase struct {
	kind, phase string
	answer      emulator.Answer
}

func (c modeledCase) String() string {
	return fmt.Sprintf("%s/%s/%s/%s", c.kind, c.phase, c.answer.Operation, c.answer.Code)
}

// modeledOutcome is what a case measured.
type modeledOutcome struct {
	calls    int
	recovery time.Duration
}

// TestEveryModeledErrorAnswered: for each kind, phase of its life (create,
// update, delete) and operation the provider calls in it (as a clean run
// calls them), each error AWS's model lists for that operation, and the
// errors every service can answer, is answered for a window, then stops.
// During it the object's calls stay at no more than one a second, and fall;
// a refusal the user must act on is in its condition with AWS's code; after
// it the object ends as it would have without the error (Ready with the
// change, or gone), AWS made its resource once, and nothing is left on AWS.
func TestEveryModeledErrorAnswered(t *testing.T) {
	s := provider(t)
	kinds := modeledKinds()
	var seq atomic.Int64
	id := func() string { return fmt.Sprintf("mx%05dz", seq.Add(1)) }

	// The operations a clean run calls in each phase, per kind.
	type phases map[string][]string
	called := map[string]phases{}
	var mu sync.Mutex
	t.Run("clean", func(t *testing.T) {
		var wg sync.WaitGroup
		defer wg.Wait()
		for kind, k := range kinds {
			wg.Go(func() {
				t.Run(kind, func(t *testing.T) {
					p := phases{}
					name := id()
					mg := k.object(t, s, namespace(t), name)
					calls := func() map[string]int { return s.aws.CallsMatching(name) }
					before := calls()
					create(t, mg)
					eventually(t, 45*time.Second, "Ready", func() error { return isReady(t, mg) })
					p[phaseCreate], before = operationsOf(since(calls(), before)), calls()
					change(t, mg, k.change)
					eventually(t, 45*time.Second, "Ready after the change", func() error { return upToDate(t, mg) })
					p[phaseUpdate], before = operationsOf(since(calls(), before)), calls()
					remove(t, mg)
					p[phaseDelete] = operationsOf(since(calls(), before))
					mu.Lock()
					called[kind] = p
					mu.Unlock()
				})
			})
		}
	})

	var cases []modeledCase
	for kind, p := range called {
		k := kinds[kind]
		for _, phase := range []string{phaseCreate, phaseUpdate, phaseDelete} {
			for _, op := range p[phase] {
				_, name, _ := strings.Cut(op, ":")
				answers := commonErrors(k.service)
				for _, e := range awserrors.Modeled[k.sdk+":"+name] {
					if !slices.ContainsFunc(answers, func(a emulator.Answer) bool { return a.Code == e.Code }) {
						answers = append(answers, emulator.Answer{Code: e.Code, Status: e.Status, Message: "modeled: " + e.Code})
					}
				}
				for _, a := range answers {
					a.Operation = op
					c := modeledCase{kind: kind, phase: phase, answer: a}
					if only := os.Getenv("MODELED_ONLY"); only == "" || strings.Contains(c.String(), only) {
						cases = append(cases, c)
					}
				}
			}
		}
	}
	t.Logf("operations called per kind and phase: %v", called)
	t.Logf("%d cases", len(cases))

	// The cases run at once, up to modeledAtOnce of them (subtests run
	// from goroutines of their own, not t.Parallel, which -parallel would
	// hold to the machine's cores).
	outcomes := map[string]modeledOutcome{}
	t.Run("answered", func(t *testing.T) {
		slots := make(chan struct{}, modeledAtOnce)
		var wg sync.WaitGroup
		for _, c := range cases {
			slots <- struct{}{}
			wg.Go(func() {
				defer func() { <-slots }()
				t.Run(c.String(), func(t *testing.T) {
					o := runModeledCase(t, s, kinds[c.kind], c, id())
					mu.Lock()
					outcomes[c.String()] = o
					mu.Unlock()
				})
			})
		}
		wg.Wait()
	})

	var slowest, busiest string
	for name, o := range outcomes {
		if slowest == "" || o.recovery > outcomes[slowest].recovery {
			slowest = name
		}
		if busiest == "" || o.calls > outcomes[busiest].calls {
			busiest = name
		}
	}
	if slowest != "" {
		t.Logf("%d cases; slowest recovery %s (%s); most calls of one object in a window of %s: %d (%s)", len(outcomes),
			outcomes[slowest].recovery.Round(100*time.Millisecond), slowest, modeledWindow, outcomes[busiest].calls, busiest)
	}
}

// runModeledCase runs one case on a new object named id.
func runModeledCase(t *testing.T, s *stack, k modeledKind, c modeledCase, id string) modeledOutcome {
	t.Logf("object %s", id)
	mg := k.object(t, s, namespace(t), id)
	calls := func() int { return total(s.aws.CallsMatching(id)) }
	if c.phase != phaseCreate {
		create(t, mg)
		eventually(t, 45*time.Second, "Ready", func() error { return isReady(t, mg) })
	}
	a := c.answer
	a.Resource, a.Until = id, time.Now().Add(modeledWindow)
	s.aws.InjectAnswer(a)
	before, beforeCalls := calls(), s.aws.CallsMatching(id)
	switch c.phase {
	case phaseCreate:
		create(t, mg)
	case phaseUpdate:
		change(t, mg, k.change)
	case phaseDelete:
		if err := cp.Client.Delete(t.Context(), mg); err != nil {
			t.Fatal(err)
		}
	}
	// While the answer is in force: when the object's calls came, sampled,
	// and whether its Synced condition told AWS's code (the reconcile that
	// met the answer writes its status right after it).
	told := false
	var at []time.Time // when each call was seen
	seen, lastTold := before, time.Time{}
	// met counts the calls of the operation that met the answer: those
	// seen well before it ended. A call that met it in the window's last
	// moments may be followed, in the same reconcile, by a look that the
	// answer no longer meets (a create whose outcome is unknown is looked
	// for at once), and that reconcile rightly ends without the error.
	met := 0
	watch := func(until time.Time) {
		for time.Now().Before(until) {
			for n := calls(); seen < n; seen++ {
				at = append(at, time.Now())
			}
			if time.Until(a.Until) > 2*time.Second {
				met = since(s.aws.CallsMatching(id), beforeCalls)[a.Operation]
			}
			if !told && time.Since(lastTold) > 500*time.Millisecond {
				told, lastTold = strings.Contains(syncedText(t, mg), a.Code), time.Now()
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	watch(a.Until)
	o := modeledOutcome{calls: len(at)}
	t.Logf("%d calls in the window: %v", o.calls, since(s.aws.CallsMatching(id), beforeCalls))
	// At most one call a second, and, for an object that made more than
	// one every other second, from its first call on no more in the second
	// half of what is left of the window than in the first (give or take
	// the one reconcile a half's edge may split): a backoff, not a loop.
	// Fewer calls are no loop, and on a busy machine one slow reconcile's
	// calls may straddle the halves.
	limit := int(modeledWindow / time.Second)
	if o.calls > limit {
		t.Errorf("%d calls in %s: want at most %d", o.calls, modeledWindow, limit)
	}
	if len(at) > limit/2 && a.Until.Sub(at[0]) >= modeledWindow/2 {
		mid := at[0].Add(a.Until.Sub(at[0]) / 2)
		first := 0
		for _, c := range at {
			if c.Before(mid) {
				first++
			}
		}
		if second := len(at) - first; second > first+1 {
			t.Errorf("%d calls from the first in %s: %d, then %d: want them falling", len(at), a.Until.Sub(at[0]).Round(100*time.Millisecond), first, second)
		}
	}
	// A refusal the user must act on is told with AWS's code, once the
	// operation was answered with it.
	if awserrors.React(answerTo(a)) == awserrors.Refuse && met > 0 {
		// The reconcile that met it may still be under way, on a busy
		// machine: its status is written before the next one, after the
		// backoff, can clear it.
		for end := time.Now().Add(15 * time.Second); !told && time.Now().Before(end); time.Sleep(500 * time.Millisecond) {
			told = strings.Contains(syncedText(t, mg), a.Code)
		}
		if !told {
			t.Errorf("AWS refused with %s, and the object's Synced condition never said so: %q", a.Code, syncedText(t, mg))
		}
	}

	// The clean outcome, once the error stopped.
	end := time.Now()
	switch c.phase {
	case phaseDelete:
		eventually(t, 60*time.Second, "deletion after the error stopped", func() error { return isGone(mg) })
	default:
		eventually(t, 60*time.Second, "Ready after the error stopped", func() error { return upToDate(t, mg) })
	}
	o.recovery = time.Since(end)
	if c.phase != phaseDelete {
		if n := k.count(s.aws.Inventory(), mg); n != 1 {
			t.Errorf("AWS has %d resources of the object, want 1", n)
		}
		if err := cp.Client.Delete(t.Context(), mg); err != nil {
			t.Fatal(err)
		}
		eventually(t, 60*time.Second, "deletion", func() error { return isGone(mg) })
	}
	deleteAnsweredGone := c.phase == phaseDelete && awserrors.React(answerTo(a)) == awserrors.Gone && strings.Contains(a.Operation, "Delete") || strings.Contains(a.Operation, "Unsubscribe")
	if n := k.count(s.aws.Inventory(), mg); n != 0 && !deleteAnsweredGone {
		// A delete AWS answered "not found" for a resource that
		// exists is an answer AWS does not give: it is believed.
		t.Errorf("AWS still has %d resources of the deleted object", n)
	}
	for identity, n := range s.aws.CreationCounts() {
		if strings.Contains(identity, id) && n > 1 {
			t.Errorf("AWS made %s %d times", identity, n)
		}
	}
	return o
}

// answerTo is the SDK's error of an answer, as awserrors reads it.
func answerTo(a emulator.Answer) error {
	service := map[string]string{"firehose": "Firehose", "sns": "SNS", "events": "EventBridge", "sagemaker": "SageMaker", "bedrock-agentcore": "Bedrock AgentCore Control"}
	svc, op, _ := strings.Cut(a.Operation, ":")
	return &smithy.OperationError{ServiceID: service[svc], OperationName: op, Err: &smithyhttp.ResponseError{
		Response: &smithyhttp.Response{Response: &http.Response{StatusCode: a.Status}},
		Err:      &smithy.GenericAPIError{Code: a.Code, Message: a.Message},
	}}
}

// upToDate says whether mg is Ready and Synced at its latest generation.
func upToDate(t *testing.T, mg resource.Managed) error {
	t.Helper()
	if err := isReady(t, mg); err != nil {
		return err
	}
	if c := mg.GetCondition(xpv2.TypeSynced); c.Status != corev1.ConditionTrue || c.ObservedGeneration != mg.GetGeneration() {
		return fmt.Errorf("synced at generation %d, the object is at %d", c.ObservedGeneration, mg.GetGeneration())
	}
	return nil
}

// operationsOf lists the operations of calls, sorted.
func operationsOf(calls map[string]int) []string {
	out := make([]string, 0, len(calls))
	for op, n := range calls {
		if n > 0 {
			out = append(out, op)
		}
	}
	sort.Strings(out)
	return out
}

// since is calls less before.
func since(calls, before map[string]int) map[string]int {
	out := map[string]int{}
	for k, v := range calls {
		if d := v - before[k]; d != 0 {
			out[k] = d
		}
	}
	return out
}

func total(calls map[string]int) int {
	n := 0
	for _, v := range calls {
		n += v
	}
	return n
}
