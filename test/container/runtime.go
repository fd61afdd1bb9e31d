//go:build e2e

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

package container

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

// A Process is what runs in the container and how: as a kubelet asks of
// the pod spec `runAsUser`, `readOnlyRootFilesystem: true`,
// `allowPrivilegeEscalation: false`, `capabilities: {drop: [ALL]}` and
// `hostNetwork: true`.
type Process struct {
	Args     []string
	Env      []string
	Cwd      string
	UID, GID uint32
	// Binds are mounted read-only, as a kubelet mounts Secrets and
	// ConfigMaps. Nothing else is writable: the root filesystem is
	// read-only.
	Binds []Bind
	// MemoryLimit is the container's memory limit in bytes, as a pod's
	// resources.limits.memory; 0 sets none.
	MemoryLimit int64
}

// A Bind mounts the host's Source at Destination in the container.
type Bind struct{ Source, Destination string }

// spec is the part of the OCI runtime specification (config.json) the
// test writes; runc's `runc spec` gives the same defaults for the rest.
type spec struct {
	OCIVersion string      `json:"ociVersion"`
	Process    specProcess `json:"process"`
	Root       struct {
		Path     string `json:"path"`
		Readonly bool   `json:"readonly"`
	} `json:"root"`
	Hostname string      `json:"hostname"`
	Mounts   []specMount `json:"mounts"`
	Linux    specLinux   `json:"linux"`
}

type specProcess struct {
	Terminal bool `json:"terminal"`
	User     struct {
		UID uint32 `json:"uid"`
		GID uint32 `json:"gid"`
	} `json:"user"`
	Args []string `json:"args"`
	Env  []string `json:"env"`
	Cwd  string   `json:"cwd"`
	// Capabilities are all empty: the process has none, in no set.
	Capabilities    map[string][]string `json:"capabilities"`
	NoNewPrivileges bool                `json:"noNewPrivileges"`
}

type specMount struct {
	Destination string   `json:"destination"`
	Type        string   `json:"type"`
	Source      string   `json:"source"`
	Options     []string `json:"options,omitempty"`
}

type specLinux struct {
	// Namespaces: no network namespace, so the container shares the
	// host's (hostNetwork), where the API server, the emulator and the
	// test listen on loopback; no user namespace: uid 65532 is the
	// host's uid 65532, as in a pod without user namespaces.
	Namespaces []specNamespace `json:"namespaces"`
	Resources  struct {
		Devices []specDevice `json:"devices"`
		Memory  *specMemory  `json:"memory,omitempty"`
	} `json:"resources"`
	MaskedPaths   []string `json:"maskedPaths"`
	ReadonlyPaths []string `json:"readonlyPaths"`
	// CgroupsPath is left empty, and runc is given no cgroup option: on
	// this machine's mixed layout (cgroup v1 controllers under
	// /sys/fs/cgroup, the v2 hierarchy at /sys/fs/cgroup/unified, no
	// systemd) Debian's runc 1.1.5, as root, with its default cgroupfs
	// driver, makes the container's cgroup /<container ID> in every
	// hierarchy (under its own cgroup where it has one, as memory's
	// /process_api/...) and removes them at delete. Neither
	// --systemd-cgroup, --rootless nor --no-pivot is needed; crun refuses
	// the same layout.
}

type specNamespace struct {
	Type string `json:"type"`
}

type specMemory struct {
	Limit int64 `json:"limit"`
}

type specDevice struct {
	Allow  bool   `json:"allow"`
	Access string `json:"access"`
}

// WriteSpec writes bundle/config.json: p in bundle/rootfs, read-only, with
// the mounts of runc's default spec, in the host's network namespace.
func WriteSpec(bundle string, p Process) error {
	var s spec
	s.OCIVersion = "1.0.2"
	s.Hostname = "provider"
	s.Root.Path, s.Root.Readonly = "rootfs", true
	s.Process.Args, s.Process.Env, s.Process.Cwd = p.Args, p.Env, p.Cwd
	s.Process.User.UID, s.Process.User.GID = p.UID, p.GID
	s.Process.Capabilities = map[string][]string{"bounding": {}, "effective": {}, "inheritable": {}, "permitted": {}, "ambient": {}}
	s.Process.NoNewPrivileges = true
	s.Linux.Namespaces = []specNamespace{{"pid"}, {"ipc"}, {"uts"}, {"mount"}}
	// No device but those runc always allows (null, zero, full, random, urandom, tty, ptmx).
	s.Linux.Resources.Devices = []specDevice{{Allow: false, Access: "rwm"}}
	if p.MemoryLimit > 0 {
		s.Linux.Resources.Memory = &specMemory{Limit: p.MemoryLimit}
	}
	s.Linux.MaskedPaths = []string{"/proc/acpi", "/proc/asound", "/proc/kcore", "/proc/keys", "/proc/latency_stats",
		"/proc/timer_list", "/proc/timer_stats", "/proc/sched_debug", "/sys/firmware", "/proc/scsi"}
	s.Linux.ReadonlyPaths = []string{"/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys", "/proc/sysrq-trigger"}
	s.Mounts = []specMount{
		{Destination: "/proc", Type: "proc", Source: "proc"},
		{Destination: "/dev", Type: "tmpfs", Source: "tmpfs", Options: []string{"nosuid", "strictatime", "mode=755", "size=65536k"}},
		{Destination: "/dev/pts", Type: "devpts", Source: "devpts", Options: []string{"nosuid", "noexec", "newinstance", "ptmxmode=0666", "mode=0620", "gid=5"}},
		{Destination: "/dev/shm", Type: "tmpfs", Source: "shm", Options: []string{"nosuid", "noexec", "nodev", "mode=1777", "size=65536k"}},
		{Destination: "/dev/mqueue", Type: "mqueue", Source: "mqueue", Options: []string{"nosuid", "noexec", "nodev"}},
		// Without a network namespace of its own the container may not
		// mount a new sysfs: runc binds the host's, read-only.
		{Destination: "/sys", Type: "sysfs", Source: "sysfs", Options: []string{"nosuid", "noexec", "nodev", "ro"}},
		{Destination: "/sys/fs/cgroup", Type: "cgroup", Source: "cgroup", Options: []string{"nosuid", "noexec", "nodev", "relatime", "ro"}},
	}
	for _, b := range p.Binds {
		s.Mounts = append(s.Mounts, specMount{Destination: b.Destination, Type: "bind", Source: b.Source,
			Options: []string{"rbind", "ro", "nosuid", "nodev"}})
	}
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(bundle, "config.json"), b, 0o600)
}

// Runc runs containers with the runc binary Binary, keeping their state in
// Root rather than in /run/runc, where other users' containers are.
type Runc struct{ Binary, Root string }

// A Container is one `runc run` in the foreground.
type Container struct {
	runc *Runc
	id   string
	cmd  *exec.Cmd
	done chan struct{}
	err  error
}

// Run starts the container id of bundle, its output to the file log.
func (r *Runc) Run(id, bundle, log string) (*Container, error) {
	f, err := os.Create(log)
	if err != nil {
		return nil, err
	}
	c := &Container{runc: r, id: id, done: make(chan struct{})}
	c.cmd = exec.Command(r.Binary, "--root", r.Root, "run", "--bundle", bundle, id)
	c.cmd.Stdout, c.cmd.Stderr = f, f
	// Should the test die, runc passes the signal on to the container.
	c.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
	if err := c.cmd.Start(); err != nil {
		_ = f.Close()
		return nil, err
	}
	go func() { c.err = c.cmd.Wait(); _ = f.Close(); close(c.done) }()
	return c, nil
}

// Exited is closed when the container's process has exited.
func (c *Container) Exited() <-chan struct{} { return c.done }

// Err is how the container's process ended, once Exited is closed.
func (c *Container) Err() error { return c.err }

// Pid is the host's process ID of the container's process.
func (c *Container) Pid(ctx context.Context) (int, error) {
	out, err := c.runc.command(ctx, "state", c.id)
	if err != nil {
		return 0, err
	}
	var st struct {
		Pid    int    `json:"pid"`
		Status string `json:"status"`
	}
	if err := json.Unmarshal(out, &st); err != nil {
		return 0, fmt.Errorf("runc state %s: %w: %s", c.id, err, out)
	}
	if st.Status != "running" {
		return 0, fmt.Errorf("container %s is %s, not running", c.id, st.Status)
	}
	return st.Pid, nil
}

// Exec runs args in the running container as its process runs: with the
// user, environment, capabilities and mounts of its config.json.
func (c *Container) Exec(ctx context.Context, args ...string) ([]byte, error) {
	return c.runc.command(ctx, append([]string{"exec", c.id}, args...)...)
}

// Stop asks the container's process to end (SIGTERM, as a kubelet does),
// kills it after grace, and deletes the container.
func (c *Container) Stop(grace time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), grace+30*time.Second)
	defer cancel()
	_, _ = c.runc.command(ctx, "kill", c.id, "TERM")
	select {
	case <-c.done:
	case <-time.After(grace):
		_, _ = c.runc.command(ctx, "kill", c.id, "KILL")
		select {
		case <-c.done:
		case <-ctx.Done():
			return fmt.Errorf("container %s did not end after SIGKILL", c.id)
		}
	}
	_, err := c.runc.command(ctx, "delete", "--force", c.id)
	return err
}

func (r *Runc) command(ctx context.Context, args ...string) ([]byte, error) {
	var out, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, r.Binary, append([]string{"--root", r.Root}, args...)...)
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		return out.Bytes(), fmt.Errorf("runc %v: %w: %s%s", args, err, out.Bytes(), stderr.Bytes())
	}
	return out.Bytes(), nil
}
