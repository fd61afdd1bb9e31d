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

package chaos

import (
	"cmp"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"
)

// A process is the provider, run as its binary, killed and started again.
type process struct {
	t          *testing.T
	kubeconfig string
	logDir     string
	metrics    string // the address of the metrics endpoint
	// name prefixes its log files ("provider" when empty); health is the
	// address of its health probes (none when empty); args and environ
	// are its further flags and environment.
	name, health  string
	args, environ []string

	mu   sync.Mutex
	cmd  *exec.Cmd
	runs int
	logs []string
}

func (p *process) start() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd != nil {
		return
	}
	p.runs++
	log := filepath.Join(p.logDir, fmt.Sprintf("%s-%02d.log", cmp.Or(p.name, "provider"), p.runs))
	f, err := os.Create(log)
	if err != nil {
		p.t.Error(err)
		return
	}
	args := append([]string{"--debug", "--poll=20s", "--metrics-bind-address=" + p.metrics, "--health-probe-bind-address=" + cmp.Or(p.health, "0"), "--poll-state-metric=1s", "--tenant-endpoint-network=127.0.0.0/8"}, p.args...)
	cmd := exec.Command(env.Binary, args...)
	cmd.Env = append(append(os.Environ(), "KUBECONFIG="+p.kubeconfig), p.environ...)
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		p.t.Error(err)
		return
	}
	p.cmd = cmd
	p.logs = append(p.logs, log)
	go func() { _ = cmd.Wait(); _ = f.Close() }()
}

// kill stops the provider with SIGKILL, as an eviction or the OOM killer
// does, and returns once it is gone.
func (p *process) kill() bool { return p.stop(syscall.SIGKILL) }

// stop sends the provider sig and returns once it is gone.
func (p *process) stop(sig syscall.Signal) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil {
		return false
	}
	_ = p.cmd.Process.Signal(sig)
	for p.cmd.ProcessState == nil {
		// Wait runs in start's goroutine; ProcessState is set when it
		// returns.
		time.Sleep(5 * time.Millisecond)
	}
	p.cmd = nil
	return true
}

// freeAddress returns a loopback address nothing listens on.
func freeAddress(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}
