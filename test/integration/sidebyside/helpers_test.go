//go:build integration

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

package sidebyside

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestConditions(t *testing.T) {
	cases := map[string]struct {
		obj  map[string]any
		want map[string]condition
	}{
		"NoStatus": {obj: map[string]any{}, want: map[string]condition{}},
		"ReadyAndSynced": {
			obj: map[string]any{"status": map[string]any{"conditions": []any{
				map[string]any{"type": "Ready", "status": "False", "reason": "Creating"},
				map[string]any{"type": "Synced", "status": "True", "reason": "ReconcileSuccess", "message": ""},
				"not a condition",
			}}},
			want: map[string]condition{
				"Ready":  {status: "False", reason: "Creating"},
				"Synced": {status: "True", reason: "ReconcileSuccess"},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := conditions(tc.obj)
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(condition{})); diff != "" {
				t.Errorf("conditions(...): -want, +got:\n%s", diff)
			}
		})
	}
}
