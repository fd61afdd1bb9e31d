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

package connection

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestDetails(t *testing.T) {
	cases := map[string]struct {
		reason string
		values map[string]string
		want   map[string][]byte
	}{
		"Values": {
			reason: "Every value is published under its key.",
			values: map[string]string{"aARN": "arn:a", "aName": "a"},
			want:   map[string][]byte{"aARN": []byte("arn:a"), "aName": []byte("a")},
		},
		"EmptyLeftOut": {
			reason: "A value AWS did not answer is left out, not published empty.",
			values: map[string]string{"aARN": "arn:a", "aURL": ""},
			want:   map[string][]byte{"aARN": []byte("arn:a")},
		},
		"None": {
			reason: "No values, no details.",
			want:   map[string][]byte{},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Details(tc.values)); diff != "" {
				t.Errorf("%s\nDetails(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestUndeclared(t *testing.T) {
	ks := Keys{{Name: "aARN"}, {Name: "aName"}}
	cases := map[string]struct {
		reason  string
		details map[string][]byte
		want    []string
	}{
		"Declared":   {reason: "Declared keys are not reported.", details: map[string][]byte{"aARN": nil, "aName": nil}},
		"Undeclared": {reason: "A key the kind does not declare is reported.", details: map[string][]byte{"aARN": nil, "arn": nil}, want: []string{"arn"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Undeclared(ks, tc.details), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("%s\nUndeclared(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
	if diff := cmp.Diff([]string{"aARN", "aName"}, ks.Names()); diff != "" {
		t.Errorf("Names(): -want, +got:\n%s", diff)
	}
}
