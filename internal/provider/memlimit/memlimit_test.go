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

package memlimit

import (
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

func TestOfCgroup(t *testing.T) {
	type want struct {
		limit int64
		ok    bool
	}
	file := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	cases := map[string]struct {
		fs   fstest.MapFS
		want want
	}{
		"V2UnderANamespace": {
			fs:   fstest.MapFS{"proc/self/cgroup": file("0::/\n"), "sys/fs/cgroup/memory.max": file("268435456\n")},
			want: want{limit: 256 << 20, ok: true},
		},
		"V2OwnDirectory": {
			fs: fstest.MapFS{
				"proc/self/cgroup":                          file("0::/kubepods/pod1/c1\n"),
				"sys/fs/cgroup/kubepods/pod1/c1/memory.max": file("157286400\n"),
				"sys/fs/cgroup/memory.max":                  file("max\n"),
			},
			want: want{limit: 150 << 20, ok: true},
		},
		"V2Unlimited": {
			fs:   fstest.MapFS{"proc/self/cgroup": file("0::/\n"), "sys/fs/cgroup/memory.max": file("max\n")},
			want: want{},
		},
		"V1OwnDirectory": {
			fs: fstest.MapFS{
				"proc/self/cgroup": file("5:cpu,cpuacct:/c1\n4:memory:/c1\n1:name=systemd:/c1\n"),
				"sys/fs/cgroup/memory/c1/memory.limit_in_bytes": file("157286400\n"),
			},
			want: want{limit: 150 << 20, ok: true},
		},
		"V1MountedAtTheContainersCgroup": {
			fs: fstest.MapFS{
				"proc/self/cgroup":                           file("4:memory:/kubepods/pod1/c1\n"),
				"sys/fs/cgroup/memory/memory.limit_in_bytes": file("157286400\n"),
			},
			want: want{limit: 150 << 20, ok: true},
		},
		"V1Unlimited": {
			fs: fstest.MapFS{
				"proc/self/cgroup":                           file("4:memory:/\n"),
				"sys/fs/cgroup/memory/memory.limit_in_bytes": file("9223372036854771712\n"),
			},
			want: want{},
		},
		"NoCgroups": {
			fs:   fstest.MapFS{},
			want: want{},
		},
		"Garbage": {
			fs:   fstest.MapFS{"proc/self/cgroup": file("0::/\n"), "sys/fs/cgroup/memory.max": file("lots\n")},
			want: want{},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			limit, ok := OfCgroup(tc.fs)
			if diff := cmp.Diff(tc.want, want{limit: limit, ok: ok}, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("OfCgroup(...): -want, +got:\n%s", diff)
			}
		})
	}
}

func TestFileResident(t *testing.T) {
	status := "Name:\tprovider\nVmRSS:\t   66012 kB\nRssAnon:\t   18596 kB\nRssFile:\t   47416 kB\nRssShmem:\t       0 kB\n"
	got, ok := FileResident(fstest.MapFS{"proc/self/status": &fstest.MapFile{Data: []byte(status)}})
	if !ok || got != 47416<<10 {
		t.Errorf("FileResident(...): want %d, true; got %d, %t", 47416<<10, got, ok)
	}
	if _, ok := FileResident(fstest.MapFS{}); ok {
		t.Error("FileResident(...) of no /proc: want false")
	}
}

func TestSoft(t *testing.T) {
	cases := map[string]struct {
		limit, file, want int64
	}{
		"TheRestLessAQuarterMoreThanTheBinaryLessATenth": {limit: 150 << 20, file: 40 << 20, want: 90 << 20},
		"ALimitTheBinaryFills":                           {limit: 64 << 20, file: 60 << 20, want: 16 << 20},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Soft(tc.limit, tc.file)); diff != "" {
				t.Errorf("Soft(%d, %d): -want, +got:\n%s", tc.limit, tc.file, diff)
			}
		})
	}
}
