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

// Package diff decides drift the same way for every kind. It compares what a
// spec asks for with what AWS answered, both in the spec's own shape, and
// returns the spec paths that differ (spec.forProvider.a.b[0].c), which the
// managed reconciler's Diff and the Synced message show.
//
// Only members the spec sets count: a member the spec leaves out is AWS's to
// choose, and AWS's defaults never show as drift. A member AWS leaves out
// equals the zero value, since AWS omits false, 0 and "" from its answers.
// Numbers compare as numbers (1 and 1.0 are equal). Lists are ordered unless
// a Rule says they are keyed. References and selectors are not compared: the
// value they resolved to is. Rules add what a kind knows of its service:
// JSON documents held in strings, values AWS folds to one case, list members
// AWS adds with default values.
package diff

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// A Rule tells Paths how to compare the members at one path. Paths name
// members by their JSON names from the root given to Paths, with [] for the
// members of a list: "processors[].parameters".
type Rule struct {
	path string

	key          string                      // a keyed list: members match by this member
	defaultExtra func(map[string]any) bool   // a keyed list: AWS's own members that are no drift
	equal        func(want, got string) bool // a string: equality other than byte for byte
}

// Keyed makes the list at path unordered: its members match by the value of
// their member key. A member AWS holds and the spec does not is drift.
func Keyed(path, key string) Rule { return Rule{path: path, key: key} }

// DefaultMembers returns the keyed rule with members AWS adds of its own:
// a member the spec does not name and isDefault accepts is no drift.
func (r Rule) DefaultMembers(isDefault func(member map[string]any) bool) Rule {
	r.defaultExtra = isDefault
	return r
}

// JSON makes the string at path a JSON document: documents that differ only in
// formatting, key order, number format or members that are null or zero are
// equal. A string that does not parse compares byte for byte.
func JSON(path string) Rule { return Rule{path: path, equal: JSONEqual} }

// Fold makes the string at path compare without regard to case, for values
// AWS folds (the service and region parts of ARNs, for example).
func Fold(path string) Rule { return Rule{path: path, equal: strings.EqualFold} }

// Paths returns the sorted paths, under root, of the members want sets that
// got holds with another value. want and got are values of the same API type
// (or anything that marshals to JSON).
func Paths(root string, want, got any, rules ...Rule) []string {
	c := &comparer{rules: map[string]Rule{}}
	for _, r := range rules {
		c.rules[r.path] = r
	}
	c.compare(root, "", tree(want), tree(got))
	slices.Sort(c.diffs)
	return slices.Compact(c.diffs)
}

// Under reports whether a path returned by Paths lies at or below prefix.
func Under(path, prefix string) bool {
	return path == prefix || strings.HasPrefix(path, prefix+".") || strings.HasPrefix(path, prefix+"[")
}

// Any reports whether any of paths lies at or below prefix.
func Any(paths []string, prefix string) bool {
	return slices.ContainsFunc(paths, func(p string) bool { return Under(p, prefix) })
}

type comparer struct {
	rules map[string]Rule
	diffs []string
}

func (c *comparer) add(path string) { c.diffs = append(c.diffs, path) }

// compare records path when want is set and got differs; pattern is the path
// from the root with list indices left out, as rules name it.
func (c *comparer) compare(path, pattern string, want, got any) {
	rule := c.rules[pattern]
	switch w := want.(type) {
	case nil:
		return
	case map[string]any:
		g, _ := got.(map[string]any)
		for k, v := range w {
			if isReference(k) {
				continue
			}
			c.compare(join(path, k), join(pattern, k), v, g[k])
		}
	case []any:
		g, _ := got.([]any)
		if rule.key != "" {
			c.keyed(path, pattern, rule, w, g)
			return
		}
		if len(w) != len(g) {
			c.add(path)
			return
		}
		for i := range w {
			c.compare(fmt.Sprintf("%s[%d]", path, i), pattern+"[]", w[i], g[i])
		}
	case string:
		gs, _ := got.(string)
		if rule.equal != nil && rule.equal(w, gs) || w == gs {
			return
		}
		c.add(path)
	default:
		if !scalarEqual(w, got) {
			c.add(path)
		}
	}
}

// keyed compares two lists whose members match by a key.
func (c *comparer) keyed(path, pattern string, rule Rule, want, got []any) {
	byKey := map[any]map[string]any{}
	for _, m := range got {
		if gm, ok := m.(map[string]any); ok {
			byKey[gm[rule.key]] = gm
		}
	}
	named := map[any]bool{}
	for i, m := range want {
		wm, _ := m.(map[string]any)
		k := wm[rule.key]
		named[k] = true
		gm, ok := byKey[k]
		if !ok {
			c.add(fmt.Sprintf("%s[%d]", path, i))
			continue
		}
		c.compare(fmt.Sprintf("%s[%d]", path, i), pattern+"[]", wm, gm)
	}
	for k, gm := range byKey {
		if !named[k] && (rule.defaultExtra == nil || !rule.defaultExtra(gm)) {
			c.add(path)
			return
		}
	}
}

// isReference reports whether a member is a Crossplane reference or selector
// (roleRef, keySelector, ...): they say how the spec finds a value, and the
// value they resolve to is compared in its own member.
func isReference(member string) bool {
	return strings.HasSuffix(member, "Ref") || strings.HasSuffix(member, "Refs") || strings.HasSuffix(member, "Selector")
}

// scalarEqual compares numbers and booleans; an absent value is the zero one.
func scalarEqual(want, got any) bool {
	if got == nil {
		return isZero(want)
	}
	return want == got
}

func isZero(v any) bool {
	switch t := v.(type) {
	case nil:
		return true
	case bool:
		return !t
	case float64:
		return t == 0
	case string:
		return t == ""
	case map[string]any:
		return len(t) == 0
	case []any:
		return len(t) == 0
	}
	return false
}

// tree turns a value into its JSON tree: maps, lists, strings, float64 and
// bool. Members the value leaves out (omitempty) are absent.
func tree(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		// The API types and the SDK's always marshal; a value that does not
		// is compared as nothing rather than as a difference.
		return nil
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return nil
	}
	return out
}

func join(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

// JSONEqual reports whether two JSON documents are equal: formatting, key
// order and number format aside, and with members that are null or zero
// taken as absent, as AWS drops or adds them when it stores a policy.
// Documents that do not parse compare byte for byte.
func JSONEqual(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return a == b
	}
	return reflect.DeepEqual(withoutZero(x), withoutZero(y))
}

// withoutZero drops the members of JSON objects that are null or zero.
func withoutZero(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			if x = withoutZero(x); !isZero(x) {
				out[k] = x
			}
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = withoutZero(x)
		}
		return out
	}
	return v
}
