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
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWantDesired(t *testing.T) {
	cases := map[string]struct {
		reason string
		want   Want
		wanted map[string]string
	}{
		"Nothing":      {reason: "No defaults and no tags want nothing.", wanted: map[string]string{}},
		"DefaultsOnly": {reason: "The provider config's defaults are desired.", want: Want{Defaults: map[string]string{"cost": "1"}}, wanted: map[string]string{"cost": "1"}},
		"SpecWins": {
			reason: "The object's own tag wins over a default of the same key.",
			want:   Want{Defaults: map[string]string{"cost": "1", "env": "prod"}, Spec: map[string]string{"cost": "2", "team": "a"}},
			wanted: map[string]string{"cost": "2", "env": "prod", "team": "a"},
		},
		"InitShadowsDefault": {
			reason: "A default whose key initProvider sets is the object's own: created with its value, then left alone; initProvider's tags are never desired.",
			want:   Want{Defaults: map[string]string{"cost": "1", "env": "prod"}, Init: map[string]string{"cost": "2", "owner": "x"}},
			wanted: map[string]string{"env": "prod"},
		},
		"SpecOverInit": {
			reason: "A key in forProvider and initProvider is forProvider's, and kept.",
			want:   Want{Defaults: map[string]string{"cost": "1"}, Init: map[string]string{"cost": "2"}, Spec: map[string]string{"cost": "3"}},
			wanted: map[string]string{"cost": "3"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.wanted, tc.want.Desired()); diff != "" {
				t.Errorf("%s\nDesired(): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// keys returns n tags key0..key(n-1) with a prefix.
func keys(prefix string, n int) map[string]string {
	out := map[string]string{}
	for i := range n {
		out[fmt.Sprintf("%s%d", prefix, i)] = "v"
	}
	return out
}

func TestWantAtCreate(t *testing.T) {
	owner := keys("crossplane-", 6)
	type want struct {
		tags map[string]string
		err  []string // what the error says
	}
	cases := map[string]struct {
		reason string
		want   Want
		out    want
	}{
		"Layers": {
			reason: "A create sends defaults, initProvider's and forProvider's tags, later ones winning, and the owner tags.",
			want:   Want{Defaults: map[string]string{"a": "d", "b": "d", "c": "d"}, Init: map[string]string{"b": "i", "c": "i"}, Spec: map[string]string{"c": "s"}},
			out:    want{tags: WithOwner(map[string]string{"a": "d", "b": "i", "c": "s"}, owner)},
		},
		"Exactly50": {
			reason: "44 own tags and 6 owner tags fit.",
			want:   Want{Defaults: keys("d", 4), Spec: keys("s", 40)},
			out:    want{tags: WithOwner(WithOwner(keys("d", 4), keys("s", 40)), owner)},
		},
		"SharedKeysCountOnce": {
			reason: "A default the spec overrides is one tag, not two.",
			want:   Want{Defaults: keys("s", 10), Spec: keys("s", 44)},
			out:    want{tags: WithOwner(keys("s", 44), owner)},
		},
		"TooMany": {
			reason: "Defaults that push the tags over 50 refuse the create, naming the default keys and the counts.",
			want:   Want{Defaults: map[string]string{"cost": "1", "env": "p", "team": "x"}, Init: map[string]string{"i": "1"}, Spec: keys("s", 42)},
			out: want{err: []string{"AWS allows 50 per resource, and the create would send 52", "42 of spec.forProvider.tags",
				"1 of spec.initProvider.tags: i", "3 default tags of the provider config (spec.defaultTags): cost, env, team", "the provider's 6 owner tags", "remove 2"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := tc.want.AtCreate(owner)
			if diff := cmp.Diff(tc.out.tags, got); diff != "" {
				t.Errorf("%s\nAtCreate(): -want, +got:\n%s", tc.reason, diff)
			}
			if (err != nil) != (tc.out.err != nil) {
				t.Fatalf("%s\nAtCreate(): error %v, want one saying %q", tc.reason, err, tc.out.err)
			}
			for _, s := range tc.out.err {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("%s\nAtCreate(): error %q does not say %q", tc.reason, err, s)
				}
			}
		})
	}
}
