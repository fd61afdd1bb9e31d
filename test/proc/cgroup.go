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
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// A Cgroup is a memory cgroup of its own for a process: the memory limit a
// container has.
type Cgroup struct {
	dir string
	v1  bool
}

// The mounts of the memory controller: cgroup v1's, then v2's.
const (
	cgroupV1Memory = "/sys/fs/cgroup/memory"
	cgroupV2       = "/sys/fs/cgroup"
)

// NewMemoryCgroup makes the cgroup name limited to limit bytes.
func NewMemoryCgroup(name string, limit int64) (*Cgroup, error) {
	c := &Cgroup{dir: filepath.Join(cgroupV1Memory, name), v1: true}
	limitFile := "memory.limit_in_bytes"
	if _, err := os.Stat(filepath.Join(cgroupV1Memory, limitFile)); err != nil {
		c = &Cgroup{dir: filepath.Join(cgroupV2, name)}
		limitFile = "memory.max"
	}
	if err := os.Mkdir(c.dir, 0o755); err != nil {
		return nil, fmt.Errorf("a memory cgroup for the provider (root, and a memory controller, are needed): %w", err)
	}
	if err := os.WriteFile(filepath.Join(c.dir, limitFile), []byte(strconv.FormatInt(limit, 10)), 0o600); err != nil {
		_ = c.Remove()
		return nil, fmt.Errorf("limiting the cgroup %s: %w", c.dir, err)
	}
	return c, nil
}

// Wrap returns the command that runs binary with args in the cgroup from
// its first instruction: a shell that joins the cgroup and execs binary
// (same process, so its PID, comm and /proc are binary's).
func (c *Cgroup) Wrap(binary string, args []string) (string, []string) {
	return "/bin/sh", append([]string{"-c", `echo $$ > "$0" && exec "$@"`, filepath.Join(c.dir, "cgroup.procs"), binary}, args...)
}

// PeakMiB is the most memory the cgroup was charged with: its processes'
// anonymous memory and the file pages they brought in first.
func (c *Cgroup) PeakMiB() (float64, error) {
	file := "memory.peak"
	if c.v1 {
		file = "memory.max_usage_in_bytes"
	}
	b, err := os.ReadFile(filepath.Join(c.dir, file))
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	return float64(n) / (1 << 20), err
}

// OOMKills is how many processes the kernel killed for the cgroup's limit.
func (c *Cgroup) OOMKills() (int, error) {
	file := "memory.events"
	if c.v1 {
		file = "memory.oom_control"
	}
	b, err := os.ReadFile(filepath.Join(c.dir, file))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "oom_kill "); ok {
			return strconv.Atoi(strings.TrimSpace(v))
		}
	}
	return 0, errors.New(file + " has no oom_kill count")
}

// Remove removes the cgroup, once its processes are gone.
func (c *Cgroup) Remove() error { return os.Remove(c.dir) }
