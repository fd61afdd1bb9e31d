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
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/test/workload"
)

// A replica is one provider process of two or more that elect a leader. Each
// signs its AWS calls with a key of its own (the ClusterProviderConfig takes
// credentials from the environment), so that the emulator tells which
// replica called AWS.
type replica struct {
	*process
	key, health string
}

func newReplica(t *testing.T, kubeconfig, dir, name, key string) *replica {
	t.Helper()
	health := freeAddress(t)
	return &replica{key: key, health: health, process: &process{
		t: t, kubeconfig: kubeconfig, logDir: dir, metrics: freeAddress(t), name: name, health: health,
		args:    []string{"--leader-election", "--namespace=" + leHome},
		environ: []string{"AWS_ACCESS_KEY_ID=" + key, "AWS_SECRET_ACCESS_KEY=secret-" + key, "AWS_EC2_METADATA_DISABLED=true"},
	}}
}

// probe answers a GET of the replica's health endpoint path: its status and
// body, or 0 when nothing answers.
func (r *replica) probe(path string) (int, string) {
	resp, err := http.Get("http://" + r.health + path)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, strings.TrimSpace(string(b))
}

// log returns what the replica's last run has logged so far.
func (r *replica) log(t *testing.T) string {
	t.Helper()
	r.mu.Lock()
	path := r.logs[len(r.logs)-1]
	r.mu.Unlock()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// rss is the replica's resident memory, from /proc.
func (r *replica) rss() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cmd == nil {
		return "gone"
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", r.cmd.Process.Pid))
	if err != nil {
		return err.Error()
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmRSS:") {
			return strings.Join(strings.Fields(strings.TrimPrefix(l, "VmRSS:")), " ")
		}
	}
	return "unknown"
}

// waitReady starts the replica and waits until its /readyz answers 200.
// It returns the replica's log at that moment and the reasons
// /readyz/controllers gave while it was not ready.
func (r *replica) waitReady(t *testing.T) (log string, reasons []string) {
	t.Helper()
	r.start()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		code, _ := r.probe("/readyz")
		if code == http.StatusOK {
			return r.log(t), reasons
		}
		if code, body := r.probe("/readyz/controllers"); code == http.StatusInternalServerError && !slices.Contains(reasons, body) {
			reasons = append(reasons, body)
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s: /readyz not ready after a minute; it said %q; log:\n%s", r.name, reasons, tail([]byte(r.log(t)), 4096))
	return "", nil
}

// controllersLogging returns the controllers named in the log's lines that
// contain what.
func controllersLogging(log, what string) []string {
	re := regexp.MustCompile(`"controller": "([^"]+)"`)
	var out []string
	for _, l := range strings.Split(log, "\n") {
		if !strings.Contains(l, what) {
			continue
		}
		if m := re.FindStringSubmatch(l); len(m) > 1 && !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	slices.Sort(out)
	return out
}

// controllerCount is the number of controllers a replica runs: one per kind,
// two for the provider configs and one for the usages being deleted.
var controllerCount = len(kinds) + 3

// logsIfFailed prints the end of every log of the replicas when the test
// failed.
func logsIfFailed(t *testing.T, replicas ...*replica) {
	t.Helper()
	if !t.Failed() {
		return
	}
	for _, r := range replicas {
		for _, l := range r.logs {
			if out, err := os.ReadFile(l); err == nil {
				t.Logf("--- %s (last 6 KiB) ---\n%s", filepath.Base(l), tail(out, 6144))
			}
		}
	}
}

func tail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}

// holder reads who holds the leader's Lease.
func holder(ctx context.Context, kube client.Client) string {
	l := &coordinationv1.Lease{}
	if err := kube.Get(ctx, types.NamespacedName{Namespace: leHome, Name: leaseName}, l); err != nil {
		return ""
	}
	return aws.ToString(l.Spec.HolderIdentity)
}

// watchHolder reports the first time the leader's Lease has a holder other
// than was, polling every 50 ms until ctx ends.
func watchHolder(ctx context.Context, kube client.Client, was string) <-chan time.Time {
	out := make(chan time.Time, 1)
	go func() {
		for ctx.Err() == nil {
			if h := holder(ctx, kube); h != "" && h != was {
				out <- time.Now()
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	}()
	return out
}

// unready watches the objects of the namespace and records every moment one
// of them is not Ready, until stop is called.
type unready struct {
	mu   sync.Mutex
	seen []string
	stop context.CancelFunc
}

func watchUnready(t *testing.T) *unready {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	u := &unready{stop: cancel}
	wc, err := client.NewWithWatch(env.ControlPlane.Config, client.Options{Scheme: env.ControlPlane.Scheme})
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range kinds {
		w, err := wc.Watch(ctx, workload.List(kind), client.InNamespace(leNamespace))
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			defer w.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case ev, ok := <-w.ResultChan():
					if !ok {
						return
					}
					mg, isMR := ev.Object.(resource.Managed)
					if !isMR || ev.Type == watch.Deleted {
						continue
					}
					if c := mg.GetCondition(xpv2.TypeReady); c.Status != corev1.ConditionTrue {
						u.mu.Lock()
						u.seen = append(u.seen, fmt.Sprintf("%s at %s: Ready=%s %s %q", objectName(mg), time.Now().Format("15:04:05.000"), c.Status, c.Reason, c.Message))
						u.mu.Unlock()
					}
				}
			}
		}()
	}
	return u
}

func (u *unready) report() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return slices.Clone(u.seen)
}
