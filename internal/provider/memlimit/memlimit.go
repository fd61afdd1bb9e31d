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

// Package memlimit fits the Go runtime's memory to the container's limit.
// Go does not read a cgroup's memory limit by itself: a provider given 256
// MiB would let its heap grow, garbage included, until the kernel killed it.
// With a soft limit under the container's, the garbage collector runs more
// often as the limit nears instead.
package memlimit

import (
	"bufio"
	"bytes"
	"io/fs"
	"strconv"
	"strings"
)

// unlimited is the least value a cgroup v1 reports for "no limit": the
// largest page-aligned int64.
const unlimited = 1 << 62

// OfCgroup returns the memory limit, in bytes, of the cgroup the process
// runs in, read from fsys, the root file system (cgroup v2's memory.max or
// v1's memory.limit_in_bytes); false when there is none.
func OfCgroup(fsys fs.FS) (int64, bool) {
	procs, err := fs.ReadFile(fsys, "proc/self/cgroup")
	if err != nil {
		return 0, false
	}
	// The cgroup's own directory first; under a cgroup namespace, or where
	// only the container's cgroup is mounted, the root of the mount is it.
	var candidates []string
	for _, line := range strings.Split(string(procs), "\n") {
		// hierarchy-ID:controllers:path
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		path := strings.Trim(parts[2], "/")
		switch {
		case parts[0] == "0" && parts[1] == "":
			candidates = append(candidates, join("sys/fs/cgroup", path, "memory.max"), "sys/fs/cgroup/memory.max")
		case hasController(parts[1], "memory"):
			candidates = append(candidates, join("sys/fs/cgroup/memory", path, "memory.limit_in_bytes"), "sys/fs/cgroup/memory/memory.limit_in_bytes")
		}
	}
	for _, c := range candidates {
		b, err := fs.ReadFile(fsys, c)
		if err != nil {
			continue
		}
		return parseLimit(b)
	}
	return 0, false
}

func hasController(list, c string) bool {
	for _, l := range strings.Split(list, ",") {
		if l == c {
			return true
		}
	}
	return false
}

func join(dir, path, file string) string {
	if path == "" {
		return dir + "/" + file
	}
	return dir + "/" + path + "/" + file
}

// parseLimit reads a cgroup limit file: a number of bytes, or "max".
func parseLimit(b []byte) (int64, bool) {
	n, err := strconv.ParseInt(string(bytes.TrimSpace(b)), 10, 64)
	if err != nil || n <= 0 || n >= unlimited {
		return 0, false
	}
	return n, true
}

// FileResident returns the bytes of the process's memory that are pages of
// files (its binary's code and data, mostly), from /proc/self/status in
// fsys; false when it cannot tell.
func FileResident(fsys fs.FS) (int64, bool) {
	b, err := fs.ReadFile(fsys, "proc/self/status")
	if err != nil {
		return 0, false
	}
	s := bufio.NewScanner(bytes.NewReader(b))
	for s.Scan() {
		// RssFile:	   47416 kB
		if v, ok := strings.CutPrefix(s.Text(), "RssFile:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10, err == nil
		}
	}
	return 0, false
}

// Soft returns the Go runtime's soft memory limit for a container limited to
// limit bytes whose binary had fileResident bytes of its pages in memory at
// start. Those pages count in the container's memory but not in Go's, and
// grow as more of the code runs (46 to 57 MiB, from start to 5000 resources),
// so Go is given 90 % of what a quarter more than them leaves: the
// collections, not the kernel, then hold the process within its limit. It is
// never under a quarter of limit, so that a limit too small for the binary
// still leaves Go a heap.
func Soft(limit, fileResident int64) int64 {
	return max((limit-fileResident/4*5)/10*9, limit/4)
}
