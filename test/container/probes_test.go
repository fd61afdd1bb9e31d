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
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
)

// waitFor polls done until it is true, for up to timeout, and fails the
// test, saying what done last said, if it never is or if the container
// exits first.
func waitFor(t *testing.T, c *Container, what string, done func() (bool, string)) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	last := ""
	for time.Now().Before(deadline) {
		var ok bool
		if ok, last = done(); ok {
			return
		}
		select {
		case <-c.Exited():
			t.Fatalf("the container exited (%v) while waiting for %s; last: %s", c.Err(), what, last)
		case <-time.After(500 * time.Millisecond):
		}
	}
	t.Fatalf("no %s after %v; last: %s", what, timeout, last)
}

func get(ctx context.Context, u string) (int, string) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, http.NoBody)
	if err != nil {
		return 0, err.Error()
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// procFields reads /proc/PID/FILE's "Name:\tvalue" lines.
func procFields(t *testing.T, pid int, file string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/%s", pid, file))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for line := range strings.Lines(string(b)) {
		if k, v, ok := strings.Cut(line, ":"); ok {
			out[k] = strings.TrimSpace(v)
		}
	}
	return out
}

// rootMountOptions are the options of the process's root mount, as its
// mount namespace sees it.
func rootMountOptions(t *testing.T, pid int) []string {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/mountinfo", pid))
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(b)) {
		// ID PARENT MAJOR:MINOR ROOT MOUNTPOINT OPTIONS ...
		if f := strings.Fields(line); len(f) > 5 && f[4] == "/" {
			return strings.Split(f[5], ",")
		}
	}
	t.Fatalf("no root mount in /proc/%d/mountinfo", pid)
	return nil
}

func freeAddress(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

func total(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}
