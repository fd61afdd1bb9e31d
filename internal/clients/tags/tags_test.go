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
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/google/go-cmp/cmp"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
)

func TestFromList(t *testing.T) {
	got := FromList([]common.Tag{{Key: aws.String("a"), Value: aws.String("1")}, {Key: aws.String("b")}, {Value: aws.String("keyless")}})
	if diff := cmp.Diff(map[string]string{"a": "1", "b": ""}, got); diff != "" {
		t.Errorf("-want, +got:\n%s", diff)
	}
}

func TestDiff(t *testing.T) {
	type want struct {
		set    map[string]string
		remove []string
	}
	cases := map[string]struct {
		desired, observed map[string]string
		want              want
	}{
		"Same":    {desired: map[string]string{"a": "1"}, observed: map[string]string{"a": "1"}, want: want{set: map[string]string{}}},
		"Add":     {desired: map[string]string{"a": "1", "b": "2"}, observed: map[string]string{"a": "1"}, want: want{set: map[string]string{"b": "2"}}},
		"Change":  {desired: map[string]string{"a": "2"}, observed: map[string]string{"a": "1"}, want: want{set: map[string]string{"a": "2"}}},
		"Remove":  {desired: map[string]string{}, observed: map[string]string{"b": "1", "a": "1"}, want: want{set: map[string]string{}, remove: []string{"a", "b"}}},
		"NilBoth": {want: want{set: map[string]string{}}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			set, remove := Diff(tc.desired, tc.observed)
			if diff := cmp.Diff(tc.want, want{set: set, remove: remove}, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("-want, +got:\n%s", diff)
			}
			if Equal(tc.desired, tc.observed) != (len(set) == 0 && len(remove) == 0) {
				t.Error("Equal disagrees with Diff")
			}
		})
	}
}

func TestApply(t *testing.T) {
	var calls []string
	remove := func(keys []string) error { calls = append(calls, "remove "+strings.Join(keys, ",")); return nil }
	set := func(m map[string]string) error {
		calls = append(calls, "set "+strings.Join(slices.Sorted(maps.Keys(m)), ","))
		return nil
	}
	if err := Apply(map[string]string{"a": "1", "c": "3"}, map[string]string{"a": "0", "b": "2"}, remove, set); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"remove b", "set a,c"}, calls); diff != "" {
		t.Errorf("-want, +got:\n%s", diff)
	}
	calls = nil
	if err := Apply(map[string]string{"a": "1"}, map[string]string{"a": "1"}, remove, set); err != nil || calls != nil {
		t.Errorf("equal tags made calls %v (%v)", calls, err)
	}
	boom := errors.New("denied")
	if err := Apply(map[string]string{}, map[string]string{"a": "1"}, func([]string) error { return boom }, set); !errors.Is(err, boom) {
		t.Errorf("the remove error was lost: %v", err)
	}
}
