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

package crossplane

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// A Process is a local process the harness started, logging to a file.
type Process struct {
	cmd  *exec.Cmd
	Log  string
	done chan struct{}
	err  error
}

// StartProcess starts a binary with args and extra environment, logging to
// dir/name.log.
func StartProcess(dir, name string, env []string, bin string, args ...string) (*Process, error) {
	logFile := filepath.Join(dir, name+".log")
	f, err := os.Create(logFile) //nolint:gosec // the harness's own log file
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, args...) //nolint:gosec // the harness runs the binaries it built
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		_ = f.Close()
		return nil, err
	}
	p := &Process{cmd: cmd, Log: logFile, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		_ = f.Close()
		close(p.done)
	}()
	return p, nil
}

// Exited reports whether the process has ended, and with which error: a
// process the harness needs running that ended is a failure to report with
// its log, not a timeout to wait out.
func (p *Process) Exited() (bool, error) {
	select {
	case <-p.done:
		if p.err == nil {
			return true, fmt.Errorf("%s exited (log: %s)", filepath.Base(p.cmd.Path), p.Log)
		}
		return true, fmt.Errorf("%s exited: %w (log: %s)", filepath.Base(p.cmd.Path), p.err, p.Log)
	default:
		return false, nil
	}
}

// Stop stops the process.
func (p *Process) Stop() {
	if p == nil || p.cmd.Process == nil {
		return
	}
	_ = p.cmd.Process.Signal(os.Interrupt)
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}
