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

// Package lateinit fills the members of a spec that AWS chose, the one way
// every kind does it: a member the spec leaves out takes AWS's value, a
// member the spec sets is never changed.
package lateinit

// A Filler remembers whether it filled anything.
type Filler struct{ changed bool }

// Changed reports whether any Fill changed the spec.
func (f *Filler) Changed() bool { return f.changed }

// Fill sets *dst to observed when the spec leaves it out and AWS has a value.
func Fill[T any](f *Filler, dst **T, observed *T) {
	if *dst == nil && observed != nil {
		*dst = observed
		f.changed = true
	}
}
