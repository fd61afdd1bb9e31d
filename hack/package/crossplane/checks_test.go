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
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// probe asks the provider's health server for url, as a kubelet would.
func probe(url string) error {
	resp, err := http.Get(url) //nolint:noctx,gosec // a probe of the test's own provider
	if err != nil {
		return err
	}
	defer resp.Body.Close() //nolint:errcheck // read only
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s: %s", url, resp.Status, strings.TrimSpace(string(b)))
	}
	return nil
}

// watchReady probes url every 100 ms until stop, which returns how many
// probes it made and what each failed one said.
func watchReady(url string) (stop func() (probes int, failed []string)) {
	var probes int
	var failed []string
	done, ended := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(ended)
		for {
			if err := probe(url); err != nil {
				failed = append(failed, err.Error())
			}
			probes++
			select {
			case <-done:
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	}()
	return func() (int, []string) { close(done); <-ended; return probes, failed }
}

// emulatorEndpoint is a global endpoint as EventBridge describes it.
type emulatorEndpoint struct {
	ARN         string `json:"Arn"`
	EndpointID  string `json:"EndpointId"`
	EndpointURL string `json:"EndpointUrl"`
}

// describeEndpoint asks the emulator's EventBridge for a global endpoint,
// with its JSON protocol; the emulator takes the region from the credential
// scope and does not check the signature.
func describeEndpoint(emulator, name string) (emulatorEndpoint, error) {
	var e emulatorEndpoint
	body, _ := json.Marshal(map[string]string{"Name": name})
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, emulator+"/", strings.NewReader(string(body)))
	if err != nil {
		return e, err
	}
	req.Header.Set("Content-Type", "application/x-amz-json-1.1")
	req.Header.Set("X-Amz-Target", "AWSEvents.DescribeEndpoint")
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=AKIDHARNESS/20260101/us-east-1/events/aws4_request, SignedHeaders=host, Signature=0")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return e, err
	}
	defer resp.Body.Close() //nolint:errcheck // read only
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return e, err
	}
	if resp.StatusCode != http.StatusOK {
		return e, fmt.Errorf("DescribeEndpoint %s: %s", name, b)
	}
	return e, json.Unmarshal(b, &e)
}

// applyExample applies an example's XRD (named xrd), waits until it is
// established, applies its Composition and then its composite, and returns
// when the composite was applied.
func applyExample(t *testing.T, tl Tools, kubeconfig, dir, xrd string) time.Time {
	t.Helper()
	apply := func(file string) {
		t.Helper()
		if _, err := Kubectl(tl.Kubectl, kubeconfig, "", "apply", "-f", filepath.Join(dir, file)); err != nil {
			t.Fatal(err)
		}
	}
	apply("definition.yaml")
	eventually(t, time.Minute, "XRD established", func() error {
		_, err := Kubectl(tl.Kubectl, kubeconfig, "", "wait", "--for=condition=Established", "--timeout=1s", "xrd/"+xrd)
		return err
	})
	apply("composition.yaml")
	applied := time.Now()
	apply("xr.yaml")
	return applied
}

// packageHealthy reports a package Installed and Healthy, or Crossplane's
// own words why not.
func packageHealthy(tl Tools, kubeconfig, pkg string) error {
	out, err := Kubectl(tl.Kubectl, kubeconfig, "", "get", pkg, "-o", "json")
	if err != nil {
		return err
	}
	var p struct {
		Status struct {
			Conditions []struct{ Type, Status, Reason, Message string } `json:"conditions"`
		} `json:"status"`
	}
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		return err
	}
	ok := map[string]bool{}
	var why []string
	for _, c := range p.Status.Conditions {
		ok[c.Type] = c.Status == "True"
		if c.Status != "True" {
			why = append(why, fmt.Sprintf("%s=%s %s: %s", c.Type, c.Status, c.Reason, c.Message))
		}
	}
	if !ok["Installed"] || !ok["Healthy"] {
		return fmt.Errorf("%s: %s", pkg, strings.Join(why, "; "))
	}
	return nil
}

// traceReady runs `crossplane beta trace` and requires every row of the
// tree (at least rows of them) Synced and Ready.
func traceReady(t *testing.T, tl Tools, kubeconfig, ns, obj string, rows int) string {
	t.Helper()
	var out []byte
	eventually(t, time.Minute, "trace all Ready", func() error {
		cmd := exec.Command(tl.Crank, "beta", "trace", "-n", ns, obj) //nolint:gosec // the harness's crank
		cmd.Env = append(os.Environ(), "KUBECONFIG="+kubeconfig)
		var err error
		out, err = cmd.CombinedOutput()
		if err != nil {
			return fmt.Errorf("%w: %s", err, out)
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if len(lines) < rows+1 {
			return fmt.Errorf("%d rows:\n%s", len(lines)-1, out)
		}
		for _, l := range lines[1:] {
			f := strings.Fields(l)
			if !strings.Contains(l, "True") || strings.Contains(strings.Join(f, " "), "False") {
				return fmt.Errorf("not all Ready:\n%s", out)
			}
		}
		return nil
	})
	return string(out)
}

// awsTag checks a tag of an AgentCore resource in the emulator, through its
// ListTagsForResource API.
func awsTag(emulator, arn, key, want string) error {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, emulator+"/tags/"+strings.ReplaceAll(arn, "/", "%2F"), nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=AKIDTEST/20260101/us-east-1/bedrock-agentcore/aws4_request, SignedHeaders=host, Signature=0")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close() //nolint:errcheck // read only
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	var out struct {
		Tags map[string]string `json:"tags"`
	}
	if err := json.Unmarshal(b, &out); err != nil {
		return fmt.Errorf("%w: %s", err, b)
	}
	if out.Tags[key] != want {
		return fmt.Errorf("tag %s is %q, want %q (%s)", key, out.Tags[key], want, b)
	}
	return nil
}

// inventory is the emulator's list of resources, by kind.
func inventory(emulator string) (map[string][]json.RawMessage, error) {
	resp, err := http.Get(emulator + "/_emulator/resources") //nolint:noctx // a test's short read
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close() //nolint:errcheck // read only
	out := map[string][]json.RawMessage{}
	return out, json.NewDecoder(resp.Body).Decode(&out)
}

// moduleDir is where a module of this one's build list lies.
func moduleDir(t *testing.T, module string) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", module).Output() //nolint:gosec // go list of a fixed module
	if err != nil {
		t.Fatalf("go list -m %s: %v", module, err)
	}
	return strings.TrimSpace(string(out))
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}
