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

package scale

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	corev1 "k8s.io/api/core/v1"

	"github.com/cloudkinds/provider-aws-services/test/emulator"
)

// TestResetProxy checks that the proxy passes every call to the emulator,
// loses a share of the answers with a TCP reset, names each operation as
// the emulator counts it, in each of the three protocols, and never loses
// a control call's answer.
func TestResetProxy(t *testing.T) {
	em := emulator.New(emulator.Options{Seed: 1})
	srv := httptest.NewServer(em)
	defer srv.Close()
	p := newResetProxy(srv.URL, 0.3)
	defer p.Close()

	signed := func(r *http.Request, svc string) *http.Request {
		r.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=AKIDSCALETEST/20260101/us-east-1/"+svc+"/aws4_request, SignedHeaders=host, Signature=0")
		return r
	}
	calls := map[string]func() *http.Request{
		"firehose:ListDeliveryStreams": func() *http.Request {
			r, _ := http.NewRequest(http.MethodPost, p.URL+"/", strings.NewReader("{}"))
			r.Header.Set("X-Amz-Target", "Firehose_20150804.ListDeliveryStreams")
			r.Header.Set("Content-Type", "application/x-amz-json-1.1")
			return signed(r, "firehose")
		},
		"sns:ListSubscriptionsByTopic": func() *http.Request {
			r, _ := http.NewRequest(http.MethodPost, p.URL+"/", strings.NewReader("Action=ListSubscriptionsByTopic&Version=2010-03-31&TopicArn=arn%3Aaws%3Asns%3Aus-east-1%3A000000000000%3Anone"))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
			return signed(r, "sns")
		},
		"bedrock-agentcore:ListApiKeyCredentialProviders": func() *http.Request {
			r, _ := http.NewRequest(http.MethodPost, p.URL+"/identities/ListApiKeyCredentialProviders", strings.NewReader("{}"))
			r.Header.Set("Content-Type", "application/json")
			return signed(r, "bedrock-agentcore")
		},
	}
	// A connection per call, as a caller whose connections are reset
	// mostly has.
	c := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	const n = 100
	for op, req := range calls {
		lost := 0
		for range n {
			resp, err := c.Do(req())
			if err != nil {
				if !errors.Is(err, syscall.ECONNRESET) && !errors.Is(err, io.EOF) {
					t.Fatalf("%s: want an answer or a reset, got %v", op, err)
				}
				lost++
				continue
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
		}
		forwarded, reset := p.counts()
		if got := em.Calls()[op]; got != n || forwarded[op] != n {
			t.Errorf("%s: the emulator got %d calls and the proxy forwarded %d; want %d each (all: %v)", op, got, forwarded[op], n, forwarded)
		}
		if reset[op] != lost || lost == 0 || lost == n {
			t.Errorf("%s: the proxy reset %d answers and the caller lost %d; want the same, some of %d", op, reset[op], lost, n)
		}
	}

	for range 50 {
		resp, err := c.Get(p.URL + "/_emulator/health")
		if err != nil {
			t.Fatalf("a control call's answer was lost: %v", err)
		}
		_ = resp.Body.Close()
	}
	if forwarded, _ := p.counts(); len(forwarded) != len(calls) {
		t.Errorf("the proxy counted control calls: %v", forwarded)
	}
}

// TestPrintResets checks that stranded objects are counted per kind and
// listed with their conditions, their messages cut to 200 characters.
func TestPrintResets(t *testing.T) {
	counts := map[string]int{}
	for _, k := range kinds {
		counts[k] = 10
	}
	long := strings.Repeat("x", 300)
	f := &figures{s: settings{counts: counts, reset: 0.05},
		resets: &resetFigures{
			forwarded: map[string]int{"sns:Subscribe": 12, "sts:GetCallerIdentity": 1}, reset: map[string]int{"sns:Subscribe": 2, "sts:GetCallerIdentity": 1},
			creates: map[string]int{"Subscription": 12}, createdTwice: map[string]int{},
		},
		stranded: []strandedObject{{kind: "Subscription", name: "scale-subscription-3",
			ready:  xpv2.Condition{Status: corev1.ConditionFalse, Reason: "Creating"},
			synced: xpv2.Condition{Status: corev1.ConditionFalse, Reason: "ReconcileError"}, syncedMsg: first200(long)}},
	}
	var w strings.Builder
	f.printResets(&w)
	out := w.String()
	for _, want := range []string{
		"| Subscription | 10 | 12 | 1.200 | 2 / 2 | 0 | 1 |",
		"| all calls through the proxy | 50 | | | 3 of 13 forwarded (23.08 %; 1 of other services, as STS) | | 1 |",
		`Subscription/scale-subscription-3: Ready=False Creating "", Synced=False ReconcileError "` + strings.Repeat("x", 200) + `…"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("printResets: want %q in\n%s", want, out)
		}
	}
}
