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

// Package proc runs a provider's binary as the benchmarks measure it: a
// process of its own, its log in a file, its RSS and CPU time read from
// /proc, its peak RSS sampled while it runs.
package proc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// A Process is one run of a binary.
type Process struct {
	cmd  *exec.Cmd
	done chan struct{}
	// Log is the file its output goes to.
	Log string
}

// Start runs binary with args, with env added to this process's
// environment, its output to the file log.
func Start(binary string, args, env []string, log string) (*Process, error) {
	f, err := os.Create(log)
	if err != nil {
		return nil, err
	}
	p := &Process{cmd: exec.Command(binary, args...), done: make(chan struct{}), Log: log}
	p.cmd.Env = append(os.Environ(), env...)
	p.cmd.Stdout, p.cmd.Stderr = f, f
	if err := p.cmd.Start(); err != nil {
		_ = f.Close()
		return nil, err
	}
	go func() { _ = p.cmd.Wait(); _ = f.Close(); close(p.done) }()
	return p, nil
}

// Pid is the process's ID.
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Done is closed when the process is gone.
func (p *Process) Done() <-chan struct{} { return p.done }

// Exited says whether the process is gone.
func (p *Process) Exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// Alive returns an error, with the end of the log, if the process is gone.
func (p *Process) Alive() error {
	if !p.Exited() {
		return nil
	}
	return fmt.Errorf("the provider exited (%v); the end of its log:\n%s", p.cmd.ProcessState, p.Tail(40))
}

// Stop ends the process with SIGTERM, as Kubernetes does, and kills it if it
// is not gone after 30s.
func (p *Process) Stop() error {
	if p.Exited() {
		return nil
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
		return nil
	case <-time.After(30 * time.Second):
		p.Kill()
		return errors.New("the provider did not stop within 30s of SIGTERM; killed it")
	}
}

// Kill ends the process with SIGKILL and waits for it.
func (p *Process) Kill() {
	if p.Exited() {
		return
	}
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
}

// Tail returns the last n lines of the log.
func (p *Process) Tail(n int) string {
	b, err := os.ReadFile(p.Log)
	if err != nil {
		return err.Error()
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// StatusMiB reads a field of /proc/<pid>/status given in kB (VmRSS, VmHWM)
// in MiB.
func (p *Process) StatusMiB(field string) (float64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", p.Pid()))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		rest, ok := strings.CutPrefix(s.Text(), field+":")
		if !ok {
			continue
		}
		fs := strings.Fields(rest)
		if len(fs) != 2 || fs[1] != "kB" {
			return 0, fmt.Errorf("/proc/%d/status: unexpected %s line %q", p.Pid(), field, s.Text())
		}
		kb, err := strconv.ParseFloat(fs[0], 64)
		if err != nil {
			return 0, err
		}
		return kb / 1024, nil
	}
	if err := s.Err(); err != nil {
		return 0, err
	}
	return 0, fmt.Errorf("/proc/%d/status has no %s", p.Pid(), field)
}

// RSSMiB is the process's resident set now, in MiB.
func (p *Process) RSSMiB() (float64, error) { return p.StatusMiB("VmRSS") }

// clkTck is USER_HZ, the unit of the times in /proc/<pid>/stat: 100 on
// Linux.
const clkTck = 100

// CPUSeconds reads the user and system CPU time of the process.
func (p *Process) CPUSeconds() (float64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.Pid()))
	if err != nil {
		return 0, err
	}
	return StatCPUSeconds(b)
}

// StatCPUSeconds reads utime and stime, fields 14 and 15, of a
// /proc/<pid>/stat. The command name, field 2, is in parentheses and may
// hold spaces; fields 3 onwards follow the last ')'.
func StatCPUSeconds(stat []byte) (float64, error) {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, errors.New("/proc/<pid>/stat: no command name")
	}
	fs := strings.Fields(string(stat[i+1:]))
	if len(fs) < 13 {
		return 0, fmt.Errorf("/proc/<pid>/stat: %d fields after the command name, want at least 13", len(fs))
	}
	utime, err := strconv.ParseUint(fs[11], 10, 64)
	if err != nil {
		return 0, err
	}
	stime, err := strconv.ParseUint(fs[12], 10, 64)
	if err != nil {
		return 0, err
	}
	return float64(utime+stime) / clkTck, nil
}

// A Sampler reads a process's RSS periodically and keeps the largest.
type Sampler struct {
	once sync.Once
	stop chan struct{}
	done chan struct{}
	mu   sync.Mutex
	max  float64
	err  error
}

// SampleRSS reads p's RSS every so often until Finish.
func SampleRSS(p *Process, every time.Duration) *Sampler {
	s := &Sampler{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			rss, err := p.RSSMiB()
			if err != nil {
				// Gone: what was read so far is the peak; Alive says why.
				if !p.Exited() {
					s.err = err
				}
				return
			}
			s.mu.Lock()
			s.max = max(s.max, rss)
			s.mu.Unlock()
			select {
			case <-s.stop:
				return
			case <-t.C:
			}
		}
	}()
	return s
}

// Peak is the largest RSS read so far, in MiB; the sampler goes on.
func (s *Sampler) Peak() float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.max
}

// Finish stops the sampler and returns the largest RSS it read, in MiB. It
// may be called again.
func (s *Sampler) Finish() (float64, error) {
	s.once.Do(func() { close(s.stop) })
	<-s.done
	return s.max, s.err
}

// MachineBusySeconds is the CPU time all of the machine's cores have spent
// busy since boot, from /proc/stat: what the benchmarks compare with the
// cores' time to tell when the CPU, not AWS, sets the pace.
func MachineBusySeconds() (float64, error) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, err
	}
	return StatBusySeconds(b)
}

// StatBusySeconds reads the first line of /proc/stat, "cpu  user nice
// system idle iowait irq softirq steal ...", in clock ticks, and returns the
// seconds of every state but idle and iowait.
func StatBusySeconds(stat []byte) (float64, error) {
	line, _, _ := bytes.Cut(stat, []byte("\n"))
	fs := strings.Fields(string(line))
	if len(fs) < 9 || fs[0] != "cpu" {
		return 0, fmt.Errorf("/proc/stat: first line %q, want cpu and at least 8 counts", line)
	}
	var busy uint64
	for i, f := range fs[1:9] {
		n, err := strconv.ParseUint(f, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc/stat: %w", err)
		}
		if i != 3 && i != 4 { // idle, iowait
			busy += n
		}
	}
	return float64(busy) / clkTck, nil
}

// CPUSecondsOf sums the CPU time of the processes whose command is comm,
// as kube-apiserver or etcd.
func CPUSecondsOf(comm string) (float64, error) {
	dirs, err := os.ReadDir("/proc")
	if err != nil {
		return 0, err
	}
	sum := 0.0
	for _, d := range dirs {
		if _, err := strconv.Atoi(d.Name()); err != nil {
			continue
		}
		name, err := os.ReadFile("/proc/" + d.Name() + "/comm")
		if err != nil || strings.TrimSpace(string(name)) != comm {
			continue // gone, or another command
		}
		stat, err := os.ReadFile("/proc/" + d.Name() + "/stat")
		if err != nil {
			continue
		}
		s, err := StatCPUSeconds(stat)
		if err != nil {
			return 0, err
		}
		sum += s
	}
	return sum, nil
}
