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

package lateinit

import "testing"

func TestFill(t *testing.T) {
	one, two := 1, 2
	cases := map[string]struct {
		reason      string
		dst, obs    *int
		want        *int
		wantChanged bool
	}{
		"FillsUnset":   {reason: "A member the spec leaves out takes AWS's value.", obs: &one, want: &one, wantChanged: true},
		"KeepsSet":     {reason: "A member the spec sets is never changed.", dst: &two, obs: &one, want: &two},
		"NothingToAdd": {reason: "AWS without a value changes nothing."},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := &Filler{}
			dst := tc.dst
			Fill(f, &dst, tc.obs)
			if dst != tc.want || f.Changed() != tc.wantChanged {
				t.Errorf("%s\nFill: got %v (changed %v), want %v (changed %v)", tc.reason, dst, f.Changed(), tc.want, tc.wantChanged)
			}
		})
	}
}
