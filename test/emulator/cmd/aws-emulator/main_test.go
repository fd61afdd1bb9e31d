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

package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRatesFlag(t *testing.T) {
	cases := map[string]struct {
		args []string
		want rates
		bad  bool
	}{
		"a bare rate is every call's": {args: []string{"0.1"}, want: rates{"*": 0.1}},
		"scoped rates":                {args: []string{"sns=0.5", "firehose:CreateDeliveryStream=1", "*=0"}, want: rates{"sns": 0.5, "firehose:CreateDeliveryStream": 1, "*": 0}},
		"the last one wins":           {args: []string{"sns=0.5", "sns=0.25"}, want: rates{"sns": 0.25}},
		"above one":                   {args: []string{"1.5"}, bad: true},
		"negative":                    {args: []string{"sns=-0.1"}, bad: true},
		"not a number":                {args: []string{"sns=often"}, bad: true},
		"no scope":                    {args: []string{"=0.1"}, bad: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			r := rates{}
			var err error
			for _, a := range tc.args {
				if err = r.Set(a); err != nil {
					break
				}
			}
			if tc.bad {
				if err == nil {
					t.Errorf("no error; got %v", r)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, r); diff != "" {
				t.Errorf("-want, +got:\n%s", diff)
			}
		})
	}
}
