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

package tags

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPlan(t *testing.T) {
	var calls []string
	svc := func(observed map[string]string) Service {
		return Service{
			List: func(context.Context) (map[string]string, error) { calls = append(calls, "list"); return observed, nil },
			Remove: func(_ context.Context, keys []string) error {
				calls = append(calls, "remove "+strings.Join(keys, ","))
				return nil
			},
			Set: func(_ context.Context, m map[string]string) error {
				calls = append(calls, "set "+strings.Join(slices.Sorted(maps.Keys(m)), ","))
				return nil
			},
		}
	}
	ctx := context.Background()

	p, err := Observe(ctx, object(""), Want{}, svc(map[string]string{"x": "1"}))
	if err != nil || !p.UpToDate() || calls != nil {
		t.Fatalf("no tags in the spec and none managed: want no call and up to date, got calls %v, up to date %v (%v)", calls, p.UpToDate(), err)
	}

	p, err = Observe(ctx, created(1), Want{Spec: map[string]string{"a": "1"}}, svc(map[string]string{}))
	if err != nil || !p.UpToDate() || calls != nil {
		t.Fatalf("tags the create sent, not seen Ready since: want no call and up to date, got calls %v, up to date %v (%v)", calls, p.UpToDate(), err)
	}

	p, err = Observe(ctx, object(`["a","b"]`), Want{Spec: map[string]string{"a": "1", "c": "3"}}, svc(map[string]string{"a": "0", "b": "2", "x": "1"}))
	if err != nil {
		t.Fatal(err)
	}
	if p.UpToDate() {
		t.Error("differing tags reported up to date")
	}
	if err := p.Apply(ctx, svc(nil)); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"list", "remove b", "set a,c"}, calls); diff != "" {
		t.Errorf("-want, +got:\n%s", diff)
	}

	boom := errors.New("denied")
	failing := svc(nil)
	failing.Remove = func(context.Context, []string) error { return boom }
	p, _ = Observe(ctx, object(`["a"]`), Want{}, svc(map[string]string{"a": "1"}))
	if err := p.Apply(ctx, failing); !errors.Is(err, boom) {
		t.Errorf("the remove error was lost: %v", err)
	}
}

func TestPlanTooMany(t *testing.T) {
	var calls []string
	observed := WithOwner(keys("s", 40), keys("crossplane-", 6))
	observed["billing"] = "x" // someone else's
	svc := Service{
		List:   func(context.Context) (map[string]string, error) { return observed, nil },
		Remove: func(context.Context, []string) error { calls = append(calls, "remove"); return nil },
		Set:    func(context.Context, map[string]string) error { calls = append(calls, "set"); return nil },
	}
	w := Want{Spec: keys("s", 40), Defaults: map[string]string{"cost": "1", "env": "p", "team": "t", "zone": "z"}}
	p, err := Observe(context.Background(), object(""), w, svc)
	if err != nil {
		t.Fatal(err)
	}
	if p.UpToDate() {
		t.Fatal("defaults not on AWS reported up to date")
	}
	err = p.Apply(context.Background(), svc)
	for _, s := range []string{"would make 51", "40 of spec.forProvider.tags", "4 default tags of the provider config (spec.defaultTags): cost, env, team, zone",
		"the provider's 6 owner tags", "1 other tags on AWS, which the provider leaves alone: billing", "remove 1"} {
		if err == nil || !strings.Contains(err.Error(), s) {
			t.Errorf("Apply(): error %v does not say %q", err, s)
		}
	}
	if calls != nil {
		t.Errorf("Apply() made calls AWS would refuse: %v", calls)
	}

	// Three defaults fit: the plan applies.
	delete(w.Defaults, "zone")
	p, _ = Observe(context.Background(), object(""), w, svc)
	if err := p.Apply(context.Background(), svc); err != nil || !slices.Equal(calls, []string{"set"}) {
		t.Errorf("Apply() of 50 tags: calls %v, error %v; want one set", calls, err)
	}
}

func TestPlanShown(t *testing.T) {
	cases := map[string]struct {
		reason string
		plan   Plan
		want   map[string]string
	}{
		"NotListed": {reason: "Tags that were not listed are not shown as none.", plan: Plan{}},
		"OwnerTagsLeftOut": {
			reason: "The provider's owner tags are no spec's tags.",
			plan:   Plan{observed: map[string]string{"team": "a", "crossplane-name": "x"}},
			want:   map[string]string{"team": "a"},
		},
		"ListedNone": {reason: "A resource listed without tags shows none.", plan: Plan{observed: map[string]string{}}, want: map[string]string{}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, tc.plan.Shown()); diff != "" {
				t.Errorf("%s\nShown(): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
