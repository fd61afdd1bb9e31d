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

package reconciler

import (
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestThePathIsToldOnceAndWhole: the description of the path (Add's
// comment) numbers every step the code wires, and the code marks every
// step the description numbers.
func TestThePathIsToldOnceAndWhole(t *testing.T) {
	for _, err := range pathTold(read(t, "path.go") + read(t, "shards.go")) {
		t.Error(err)
	}
}

// TestAStepWiredUntoldFails: the check fails on a step wired without its
// number, and on a number told without its step.
func TestAStepWiredUntoldFails(t *testing.T) {
	src := read(t, "path.go")
	cases := map[string]string{
		"AnOptionWithoutItsNumber": strings.Replace(src, "managed.WithFinalizer(p.finalizer),", "managed.WithFinalizer(p.finalizer),\n\t\t\tmanaged.WithPollInterval(time.Minute),", 1),
		"ANumberWithoutItsStep":    strings.Replace(src, "//     h. the next poll", "//     i. a step with no code.\n//     h. the next poll", 1),
		"AStepMarkedButUntold":     strings.Replace(src, "p.gate( // 2", "p.gate( // 2z", 1),
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			if errs := pathTold(src + read(t, "shards.go")); len(errs) == 0 {
				t.Error("the check passed")
			}
		})
	}
}

var (
	// A step wired: an option or wrapper of the reconciler, a watch, a
	// sweep, the state metrics.
	wired = regexp.MustCompile(`managed\.With|managed\.NewReconciler\(|managedoptions\.(For|Register|Watch\w*)\(|\.Sweeps\.Add\(|shardWatch\(\)|ackannotations\.Retaining\(|p\.(watch|gate|rateLimited|managedReconciler)\(|stateMetrics\(\)|Serves:|&observeStep\[`)
	// A step's number, at the end of a line of code: "// 4b", "// 4d, 4f".
	marked = regexp.MustCompile(`\S.*// (\d[a-z]?(?:, \d[a-z]?)*)$`)
	// A step's number in the description: " 4. ", "     b. ", "(1c".
	numbered = regexp.MustCompile(`^//\s+(\d)\. `)
	lettered = regexp.MustCompile(`^//\s+([a-z])\. `)
	inline   = regexp.MustCompile(`\((\d[a-z])[,)]`)
)

// pathTold returns what is wrong with how src tells the path: a step wired
// without a number, a number told without its step or marked without
// being told.
func pathTold(src string) []error {
	var errs []error
	told, marks := map[string]bool{}, map[string]bool{}
	doc, number := false, ""
	for i, line := range strings.Split(src, "\n") {
		if strings.HasPrefix(line, "// Add adds the controller") {
			doc = true
		}
		if doc && !strings.HasPrefix(line, "//") {
			doc = false
		}
		if doc {
			if m := numbered.FindStringSubmatch(line); m != nil {
				number = m[1]
				told[number] = true
			}
			if m := lettered.FindStringSubmatch(line); m != nil && number != "" {
				told[number+m[1]] = true
			}
			for _, m := range inline.FindAllStringSubmatch(line, -1) {
				told[m[1]] = true
			}
			continue
		}
		code := strings.TrimSpace(line)
		if strings.HasPrefix(code, "//") {
			continue
		}
		m := marked.FindStringSubmatch(line)
		if m == nil {
			if wired.MatchString(code) && !strings.HasPrefix(code, "func ") {
				errs = append(errs, fmt.Errorf("line %d wires a step without its number in the path's description: %s", i+1, code))
			}
			continue
		}
		for _, n := range strings.Split(m[1], ", ") {
			marks[n] = true
		}
	}
	for n := range marks {
		if !told[n] {
			errs = append(errs, fmt.Errorf("step %s is marked in the code and not told in Add's comment", n))
		}
	}
	// A step told is marked, or is the part of one that is (4 is in 4a).
	for _, n := range slices.Sorted(maps.Keys(told)) {
		if !marks[n] && (len(n) != 1 || !hasMarkUnder(marks, n)) {
			errs = append(errs, fmt.Errorf("step %s is told in Add's comment and marked nowhere in the code", n))
		}
	}
	return errs
}

func hasMarkUnder(marks map[string]bool, n string) bool {
	for m := range marks {
		if strings.HasPrefix(m, n) {
			return true
		}
	}
	return false
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
