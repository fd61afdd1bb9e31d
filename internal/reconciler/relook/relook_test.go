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

package relook

import (
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/types"
	clocktesting "k8s.io/utils/clock/testing"
)

// scope is the account the tests' creates are in.
const scope = "111122223333"

func TestLooked(t *testing.T) {
	type look struct {
		after time.Duration
		found Finding
	}
	cases := map[string]struct {
		reason string
		start  time.Duration
		looks  []look
		want   time.Duration
	}{
		"StillCreatingGrowsPastTheLook": {
			reason: "A first look 2 s after the create that finds it still creating: AWS takes more than 2 s; the time grows by half past that.",
			start:  time.Second,
			looks:  []look{{2 * time.Second, StillCreating}},
			want:   3 * time.Second,
		},
		"CreatedOnTimeShrinks": {
			reason: "A first look on time that finds it created: the time shrinks by 3 %.",
			start:  10 * time.Second,
			looks:  []look{{10 * time.Second, Created}},
			want:   9700 * time.Millisecond,
		},
		"CreatedLateTellsNothing": {
			reason: "A first look held back by its budget to 60 s tells nothing of a 10 s time.",
			start:  10 * time.Second,
			looks:  []look{{time.Minute, Created}},
			want:   10 * time.Second,
		},
		"OtherTellsNothing": {
			reason: "A failure or a subscription waiting on a person tells nothing.",
			start:  10 * time.Second,
			looks:  []look{{2 * time.Second, Other}},
			want:   10 * time.Second,
		},
		"NeverBelowShortest": {
			reason: "Resources found created at once bring the time down to Shortest, no lower.",
			start:  Shortest,
			looks:  []look{{0, Created}, {0, Created}},
			want:   Shortest,
		},
		"NeverAboveLongest": {
			reason: "A resource still creating after an hour does not make every first look wait an hour.",
			start:  Longest,
			looks:  []look{{time.Hour, StillCreating}},
			want:   Longest,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := clocktesting.NewFakeClock(time.Unix(0, 0))
			s := New(c)
			s.expected[scope] = learned{expected: tc.start, at: c.Now()}
			for i, l := range tc.looks {
				uid := types.UID(string(rune('a' + i)))
				s.Created(uid, scope)
				c.Step(l.after)
				s.Looked(uid, l.found)
			}
			if diff := cmp.Diff(tc.want, s.Expected(scope)); diff != "" {
				t.Errorf("%s\n-want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestFirstLook: the first look after a create is due the learned time
// after it; once it is made, later looks are not held back.
func TestFirstLook(t *testing.T) {
	c := clocktesting.NewFakeClock(time.Unix(100, 0))
	s := New(c)
	s.expected[scope] = learned{expected: 4 * time.Second, at: c.Now()}
	if _, ok := s.FirstLook("x"); ok {
		t.Fatal("an object never created here has a first look due")
	}
	s.Created("x", scope)
	at, ok := s.FirstLook("x")
	if !ok || !at.Equal(time.Unix(104, 0)) {
		t.Errorf("FirstLook after a create: %v, %v; want %v, true", at, ok, time.Unix(104, 0))
	}
	c.Step(4 * time.Second)
	s.Looked("x", Created)
	if _, ok := s.FirstLook("x"); ok {
		t.Error("after the first look, a later look is still held back")
	}
}

// TestConverges: creates that take 2 s each end with most first looks
// finding the resource created.
func TestConverges(t *testing.T) {
	c := clocktesting.NewFakeClock(time.Unix(0, 0))
	s := New(c)
	const creates, takes = 200, 2 * time.Second
	stillCreating := 0
	for i := range creates {
		uid := types.UID(rune(i))
		createdAt := c.Now()
		s.Created(uid, scope)
		at, _ := s.FirstLook(uid)
		c.SetTime(at)
		found := Created
		if at.Sub(createdAt) < takes {
			found = StillCreating
			stillCreating++
		}
		s.Looked(uid, found)
	}
	if stillCreating > creates/10 {
		t.Errorf("%d of %d first looks found the resource still creating; want at most 10 %%", stillCreating, creates)
	}
	if e := s.Expected(scope); e < takes || e > 2*takes {
		t.Errorf("learned %v for creates of %v; want between %v and %v", e, takes, takes, 2*takes)
	}
}

// TestScopesLearnApart: creates at one endpoint that take long (a tenant's
// slow or lying endpoint) do not delay the first looks of another scope.
func TestScopesLearnApart(t *testing.T) {
	c := clocktesting.NewFakeClock(time.Unix(0, 0))
	s := New(c)
	const tenant = scope + " at https://tenant.example"
	for i := range 20 {
		uid := types.UID(rune('a' + i))
		s.Created(uid, tenant)
		c.Step(s.Expected(tenant))
		s.Looked(uid, StillCreating)
	}
	if diff := cmp.Diff(Longest, s.Expected(tenant)); diff != "" {
		t.Errorf("the slow scope: -want, +got:\n%s", diff)
	}
	if diff := cmp.Diff(Shortest, s.Expected(scope)); diff != "" {
		t.Errorf("another scope learned from the slow one: -want, +got:\n%s", diff)
	}
	s.Created("z", scope)
	at, ok := s.FirstLook("z")
	if !ok || !at.Equal(c.Now().Add(Shortest)) {
		t.Errorf("FirstLook in the other scope: %v, %v; want %v", at, ok, c.Now().Add(Shortest))
	}
}

// TestForgetsScopesThatStopped: what a scope taught goes an hour after the
// last thing learned of it, so that scopes a tenant makes and drops cost
// nothing once they stop; a scope still learning keeps its time.
func TestForgetsScopesThatStopped(t *testing.T) {
	c := clocktesting.NewFakeClock(time.Unix(0, 0))
	s := New(c)
	learn := func(scope string, i int) {
		uid := types.UID(scope + string(rune('a'+i)))
		s.Created(uid, scope)
		c.Step(time.Minute)
		s.Looked(uid, StillCreating)
	}
	for i := range 100 {
		learn(string(rune('A'+i%26))+"-tenant", i)
	}
	for i := range 70 {
		learn("busy", i)
	}
	if diff := cmp.Diff([]string{"busy"}, slices.Collect(maps.Keys(s.expected))); diff != "" {
		t.Errorf("scopes kept after the others stopped learning for over an hour: -want, +got:\n%s", diff)
	}
}
