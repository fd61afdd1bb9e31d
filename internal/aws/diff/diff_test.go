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

package diff

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

type params struct {
	Name     *string     `json:"name,omitempty"`
	Count    *int64      `json:"count,omitempty"`
	Weight   *float64    `json:"weight,omitempty"`
	Enabled  *bool       `json:"enabled,omitempty"`
	Policy   *string     `json:"policy,omitempty"`
	ARN      *string     `json:"arn,omitempty"`
	Nested   *params     `json:"nested,omitempty"`
	Ordered  []string    `json:"ordered,omitempty"`
	Settings []parameter `json:"settings,omitempty"`
	RoleRef  *parameter  `json:"roleRef,omitempty"`
}

type parameter struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

func str(s string) *string   { return &s }
func num(n int64) *int64     { return &n }
func flt(f float64) *float64 { return &f }
func boolean(b bool) *bool   { return &b }

func TestPaths(t *testing.T) {
	defaultSetting := func(m map[string]any) bool { return m["name"] == "Retries" && m["value"] == "3" }
	rules := []Rule{
		JSON("policy"), Fold("arn"),
		Keyed("settings", "name").DefaultMembers(defaultSetting),
	}
	cases := map[string]struct {
		reason    string
		want, got params
		paths     []string
	}{
		"Equal": {
			reason: "Equal members are no drift.",
			want:   params{Name: str("a"), Count: num(2)},
			got:    params{Name: str("a"), Count: num(2)},
		},
		"UnsetIsAWSs": {
			reason: "Members the spec leaves out are AWS's to choose.",
			want:   params{Name: str("a")},
			got:    params{Name: str("a"), Count: num(7), Nested: &params{Name: str("x")}},
		},
		"Changed": {
			reason: "A member the spec sets and AWS holds otherwise is drift, named by its spec path.",
			want:   params{Name: str("a"), Nested: &params{Count: num(1)}},
			got:    params{Name: str("b"), Nested: &params{Count: num(2)}},
			paths:  []string{"spec.forProvider.name", "spec.forProvider.nested.count"},
		},
		"AbsentIsZero": {
			reason: "AWS omits false, 0 and empty strings: they equal absent members.",
			want:   params{Enabled: boolean(false), Count: num(0), Name: str("")},
			got:    params{},
		},
		"AbsentIsNotSet": {
			reason: "A member the spec sets to a non-zero value that AWS lacks is drift.",
			want:   params{Enabled: boolean(true)},
			got:    params{},
			paths:  []string{"spec.forProvider.enabled"},
		},
		"References": {
			reason: "References are how the spec finds a value; AWS never holds them.",
			want:   params{Name: str("a"), RoleRef: &parameter{Name: "role"}},
			got:    params{Name: str("a")},
		},
		"NumberFormat": {
			reason: "Numbers compare as numbers.",
			want:   params{Weight: flt(1)},
			got:    params{Weight: flt(1.0)},
		},
		"JSONPolicy": {
			reason: "JSON documents equal but for formatting, key order, number format and null members are no drift.",
			want:   params{Policy: str(`{"b":[1],"a":{"x":true}}`)},
			got:    params{Policy: str(`{ "a": {"x": true, "y": null}, "b": [1.0], "guaranteed": false }`)},
		},
		"JSONPolicyChanged": {
			reason: "A member AWS holds that the document lacks is drift.",
			want:   params{Policy: str(`{"a":1}`)},
			got:    params{Policy: str(`{"a":1,"b":2}`)},
			paths:  []string{"spec.forProvider.policy"},
		},
		"FoldedARN": {
			reason: "Values AWS folds to one case compare without case.",
			want:   params{ARN: str("arn:aws:kms:EU-WEST-1:1:key/k")},
			got:    params{ARN: str("arn:aws:kms:eu-west-1:1:key/k")},
		},
		"OrderedList": {
			reason: "Lists are ordered by default.",
			want:   params{Ordered: []string{"a", "b"}},
			got:    params{Ordered: []string{"b", "a"}},
			paths:  []string{"spec.forProvider.ordered[0]", "spec.forProvider.ordered[1]"},
		},
		"ListLength": {
			reason: "A list of another length differs as a whole.",
			want:   params{Ordered: []string{"a"}},
			got:    params{Ordered: []string{"a", "b"}},
			paths:  []string{"spec.forProvider.ordered"},
		},
		"KeyedReordered": {
			reason: "Keyed lists ignore order, and AWS's default members are no drift.",
			want:   params{Settings: []parameter{{"Arn", "x"}, {"Size", "1"}}},
			got:    params{Settings: []parameter{{"Size", "1"}, {"Retries", "3"}, {"Arn", "x"}}},
		},
		"KeyedChanged": {
			reason: "A keyed member with another value is drift at its index in the spec.",
			want:   params{Settings: []parameter{{"Arn", "x"}, {"Size", "1"}}},
			got:    params{Settings: []parameter{{"Size", "2"}, {"Arn", "x"}}},
			paths:  []string{"spec.forProvider.settings[1].value"},
		},
		"KeyedMissing": {
			reason: "A keyed member AWS lacks is drift.",
			want:   params{Settings: []parameter{{"Arn", "x"}}},
			got:    params{},
			paths:  []string{"spec.forProvider.settings[0]"},
		},
		"KeyedExtra": {
			reason: "A member AWS holds that the spec does not name, and that is not AWS's default, is drift.",
			want:   params{Settings: []parameter{{"Arn", "x"}}},
			got:    params{Settings: []parameter{{"Arn", "x"}, {"Retries", "5"}}},
			paths:  []string{"spec.forProvider.settings"},
		},
		"KeyedDefaultSetExplicitly": {
			reason: "A default the spec names itself is compared like any other member.",
			want:   params{Settings: []parameter{{"Retries", "3"}}},
			got:    params{Settings: []parameter{{"Retries", "3"}}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := Paths("spec.forProvider", tc.want, tc.got, rules...)
			if diff := cmp.Diff(tc.paths, got); diff != "" {
				t.Errorf("%s\nPaths(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestUnder(t *testing.T) {
	paths := []string{"spec.forProvider.destination.url", "spec.forProvider.tagsx"}
	cases := map[string]struct {
		prefix string
		want   bool
	}{
		"Member":  {prefix: "spec.forProvider.destination", want: true},
		"Exact":   {prefix: "spec.forProvider.destination.url", want: true},
		"Sibling": {prefix: "spec.forProvider.tags", want: false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := Any(paths, tc.prefix); got != tc.want {
				t.Errorf("Any(%v, %q) = %v, want %v", paths, tc.prefix, got, tc.want)
			}
		})
	}
}
