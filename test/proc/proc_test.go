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

package proc

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestStatCPUSeconds(t *testing.T) {
	cases := map[string]struct {
		stat    string
		want    float64
		wantErr bool
	}{
		"CommandWithSpacesAndParentheses": {
			stat: "4242 (pro (vider) x) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 75 0 0 20 0 12 0 100 0 0",
			want: 3.25,
		},
		"NoCommandName": {stat: "4242 provider S 1", wantErr: true},
		"TooFewFields":  {stat: "4242 (provider) S 1 2 3", wantErr: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := StatCPUSeconds([]byte(tc.stat))
			if (err != nil) != tc.wantErr {
				t.Fatalf("StatCPUSeconds(...): error %v, want error: %t", err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("StatCPUSeconds(...): -want, +got:\n%s", diff)
			}
		})
	}
}

func TestStatBusySeconds(t *testing.T) {
	cases := map[string]struct {
		stat    string
		want    float64
		wantErr bool
	}{
		"IdleAndIOWaitLeftOut": {
			stat: "cpu  1000 100 300 9000 500 20 30 50 0 0\ncpu0 500 50 150 4500 250 10 15 25 0 0\n",
			want: 15,
		},
		"NotTheCPULine": {stat: "intr 1 2 3 4 5 6 7 8 9", wantErr: true},
		"TooFewCounts":  {stat: "cpu  1 2 3", wantErr: true},
		"NotANumber":    {stat: "cpu  1 2 3 x 5 6 7 8", wantErr: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := StatBusySeconds([]byte(tc.stat))
			if (err != nil) != tc.wantErr {
				t.Fatalf("StatBusySeconds(...): error %v, want error: %t", err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("StatBusySeconds(...): -want, +got:\n%s", diff)
			}
		})
	}
}
