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

package memory

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	clocktesting "k8s.io/utils/clock/testing"
)

func TestStore(t *testing.T) {
	start := time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
	type want struct {
		value string
		ok    bool
		kept  int
	}
	cases := map[string]struct {
		reason string
		do     func(s *Store[string, string], c *clocktesting.FakeClock) (string, bool)
		want   want
	}{
		"TakenOnce": {
			reason: "A value is used up when it is taken.",
			do: func(s *Store[string, string], _ *clocktesting.FakeClock) (string, bool) {
				s.Put("a", "created")
				s.Take("a")
				return s.Take("a")
			},
			want: want{kept: 0},
		},
		"PeekKeeps": {
			reason: "Peeking leaves the value kept.",
			do: func(s *Store[string, string], _ *clocktesting.FakeClock) (string, bool) {
				s.Put("a", "created")
				s.Peek("a")
				return s.Peek("a")
			},
			want: want{value: "created", ok: true, kept: 1},
		},
		"ForgottenAfterItsTime": {
			reason: "A value is forgotten Forget after it was put, even before it is pruned.",
			do: func(s *Store[string, string], c *clocktesting.FakeClock) (string, bool) {
				s.Put("a", "created")
				c.Step(Forget + time.Second)
				return s.Take("a")
			},
			want: want{kept: 0},
		},
		"ForATimeToCome": {
			reason: "A value for a later time is kept until Forget after that time.",
			do: func(s *Store[string, string], c *clocktesting.FakeClock) (string, bool) {
				s.PutFor("a", "slot", c.Now().Add(time.Hour))
				c.Step(time.Hour + Forget - time.Second)
				return s.Peek("a")
			},
			want: want{value: "slot", ok: true, kept: 1},
		},
		"PrunedAtAPut": {
			reason: "A put drops the entries that are forgotten, so that objects that are gone do not pile up.",
			do: func(s *Store[string, string], c *clocktesting.FakeClock) (string, bool) {
				s.Put("gone", "created")
				c.Step(Forget + pruneEvery)
				s.Put("b", "created")
				return s.Peek("b")
			},
			want: want{value: "created", ok: true, kept: 1},
		},
		"Dropped": {
			reason: "A dropped value is gone.",
			do: func(s *Store[string, string], _ *clocktesting.FakeClock) (string, bool) {
				s.Put("a", "created")
				s.Drop("a")
				return s.Peek("a")
			},
			want: want{kept: 0},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := clocktesting.NewFakeClock(start)
			s := NewWithClock[string, string](c)
			v, ok := tc.do(s, c)
			got := want{value: v, ok: ok, kept: s.Len()}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("%s\n-want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
