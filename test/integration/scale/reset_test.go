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
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	corev1 "k8s.io/api/core/v1"
	kmeta "k8s.io/apimachinery/pkg/api/meta"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/test/emulator"
	"github.com/cloudkinds/provider-aws-services/test/workload"
)

// A resetProxy stands where a NAT gateway or a load balancer stands between
// a pod and AWS: it forwards every call to the emulator over real HTTP, and
// for a share of them it reads the emulator's whole answer and then resets
// the caller's connection instead of passing the answer on. AWS has done
// the work; the provider reads "connection reset by peer" and cannot tell
// whether its create happened.
type resetProxy struct {
	*httptest.Server
	target    *url.URL
	transport *http.Transport
	share     float64 // of the calls whose answers are lost, in [0, 1)

	mu        sync.Mutex
	rnd       *rand.Rand
	forwarded map[string]int // per operation, "service:Operation"
	reset     map[string]int // per operation: the answers read and not passed on
}

// newResetProxy serves a proxy to the server at target that resets share
// of the connections after target answered.
func newResetProxy(target string, share float64) *resetProxy {
	u, err := url.Parse(target)
	if err != nil {
		panic(err) // an httptest.Server's URL
	}
	p := &resetProxy{
		target: u,
		share:  share,
		// Its own connections to the emulator, kept alive as a NAT's are,
		// so that the proxy's hop costs no handshake per call; no
		// Proxy (nor HTTP_PROXY), no compression of its own: the bytes
		// pass as the emulator wrote them.
		transport: &http.Transport{
			MaxIdleConnsPerHost: 512,
			IdleConnTimeout:     90 * time.Second,
			DisableCompression:  true,
		},
		// A fixed seed: the same share, drawn the same way, run to run
		// (which call gets which draw still depends on their order).
		rnd:       rand.New(rand.NewPCG(1, 2)),
		forwarded: map[string]int{},
		reset:     map[string]int{},
	}
	p.Server = httptest.NewServer(p)
	return p
}

// Close stops the proxy and its connections to the emulator.
func (p *resetProxy) Close() {
	p.Server.Close()
	p.transport.CloseIdleConnections()
}

// hopByHop are the headers of one connection, not passed on by a proxy
// (RFC 9110, 7.6.1).
var hopByHop = []string{"Connection", "Keep-Alive", "Proxy-Connection", "Proxy-Authenticate", "Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade"}

func dropHopByHop(h http.Header) {
	for _, f := range h.Values("Connection") {
		for _, name := range strings.Split(f, ",") {
			h.Del(strings.TrimSpace(name))
		}
	}
	for _, name := range hopByHop {
		h.Del(name)
	}
}

func (p *resetProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		emulator.ResetConnection(w)
		return
	}
	// The emulator's own controls are the harness's, not the provider's:
	// never lost.
	control := strings.HasPrefix(r.URL.Path, "/_emulator/")
	op := operationOf(r, body)
	lose := false
	if !control {
		p.mu.Lock()
		p.forwarded[op]++
		lose = p.rnd.Float64() < p.share
		p.mu.Unlock()
	}

	out, err := http.NewRequestWithContext(r.Context(), r.Method, p.target.Scheme+"://"+p.target.Host+r.URL.RequestURI(), bytes.NewReader(body))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	out.Header = r.Header.Clone()
	dropHopByHop(out.Header)
	// The Host the caller signed (SigV4 signs it), as a NAT leaves it.
	out.Host = r.Host
	resp, err := p.transport.RoundTrip(out)
	if err != nil {
		// The emulator's connection failed (its own reset, or the caller
		// went away): the caller's fails too, as through a NAT.
		emulator.ResetConnection(w)
		return
	}
	// The whole answer is read before deciding, so that the emulator has
	// done and answered all of the call when its answer is lost.
	answer, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		emulator.ResetConnection(w)
		return
	}
	if lose {
		p.mu.Lock()
		p.reset[op]++
		p.mu.Unlock()
		emulator.ResetConnection(w)
		return
	}
	h := w.Header()
	for k, v := range resp.Header {
		h[k] = v
	}
	dropHopByHop(h)
	w.WriteHeader(resp.StatusCode)
	_, _ = w.Write(answer)
}

// signingScope reads the signing name from SigV4's credential scope, as the
// emulator does: it tells SNS and STS, which share the query protocol, apart.
var signingScope = regexp.MustCompile(`Credential=[^/,\s]+/\d{8}/[^/]+/([^/]+)/aws4_request`)

// operationOf names a call's operation as the emulator's Calls do,
// "service:Operation": the signing name, and the operation from
// X-Amz-Target (awsJson), the form's Action (SNS's and STS's query) or
// AgentCore Control's REST path (POST /identities/<Operation>, /tags/ by
// method).
func operationOf(r *http.Request, body []byte) string {
	svc := "unsigned"
	if m := signingScope.FindStringSubmatch(r.Header.Get("Authorization")); m != nil {
		svc = m[1]
	}
	if t := r.Header.Get("X-Amz-Target"); t != "" {
		_, op, _ := strings.Cut(t, ".")
		return svc + ":" + op
	}
	if strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
		v, _ := url.ParseQuery(string(body))
		if svc == "unsigned" && v.Get("Action") == "AssumeRoleWithWebIdentity" {
			svc = "sts" // the one call AWS takes unsigned
		}
		return svc + ":" + v.Get("Action")
	}
	path := r.URL.EscapedPath()
	switch {
	case strings.HasPrefix(path, "/identities/") && r.Method == http.MethodPost:
		return svc + ":" + strings.TrimPrefix(path, "/identities/")
	case strings.HasPrefix(path, "/tags/") && r.Method == http.MethodGet:
		return svc + ":ListTagsForResource"
	case strings.HasPrefix(path, "/tags/") && r.Method == http.MethodPost:
		return svc + ":TagResource"
	case strings.HasPrefix(path, "/tags/") && r.Method == http.MethodDelete:
		return svc + ":UntagResource"
	}
	return svc + ":" + r.Method + " " + path
}

// counts returns the calls forwarded and the answers reset, per operation,
// since the last resetCounts.
func (p *resetProxy) counts() (forwarded, reset map[string]int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	forwarded, reset = make(map[string]int, len(p.forwarded)), make(map[string]int, len(p.reset))
	for k, v := range p.forwarded {
		forwarded[k] = v
	}
	for k, v := range p.reset {
		reset[k] = v
	}
	return forwarded, reset
}

// resetCounts forgets the counts, as emulator's ResetCalls does its own.
func (p *resetProxy) resetCounts() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.forwarded, p.reset = map[string]int{}, map[string]int{}
}

// An endpoint is where the ProviderConfigs point: the emulator's server, or
// the reset proxy in front of it when BENCH_RESET is set.
type endpoint struct {
	URL      string
	emulator *httptest.Server
	proxy    *resetProxy // nil when BENCH_RESET is 0
}

// Close stops the proxy, if any, and the emulator's server.
func (e *endpoint) Close() {
	if e.proxy != nil {
		e.proxy.Close()
	}
	e.emulator.Close()
}

// createOps are the operations that create each kind's resource in AWS.
var createOps = map[string]string{
	"DeliveryStream":           "firehose:CreateDeliveryStream",
	"Subscription":             "sns:Subscribe",
	"Endpoint":                 "events:CreateEndpoint",
	"EndpointConfig":           "sagemaker:CreateEndpointConfig",
	"APIKeyCredentialProvider": "bedrock-agentcore:CreateApiKeyCredentialProvider",
}

// resetFigures are what the load met behind the reset proxy, from the first
// create to the end of the steady window.
type resetFigures struct {
	forwarded, reset map[string]int // per operation: calls the proxy forwarded, answers it reset
	creates          map[string]int // per kind: calls of its create operation the emulator received
	createdTwice     map[string]int // per kind: resources AWS created more than once
}

// A strandedObject is an object not Ready when the load's time was up.
type strandedObject struct {
	kind, name          string
	ready, synced       xpv2.Condition
	readyMsg, syncedMsg string
}

func (o strandedObject) String() string {
	return fmt.Sprintf("%s/%s: Ready=%s %s %q, Synced=%s %s %q", o.kind, o.name,
		o.ready.Status, o.ready.Reason, o.readyMsg, o.synced.Status, o.synced.Reason, o.syncedMsg)
}

// first200 is s cut to 200 characters, for a message that may quote a long
// AWS error.
func first200(s string) string {
	if r := []rune(s); len(r) > 200 {
		return string(r[:200]) + "…"
	}
	return s
}

// unready counts, with one list per kind, the objects of namespace ns that
// are Ready, and returns those that are not. With the reset proxy on, a
// look whose answer is lost sets Synced False until the next look: Ready
// is what says whether the resource is there and serving.
func unready(ctx context.Context, kube client.Client, ns string) (int, []strandedObject, error) {
	n := 0
	var out []strandedObject
	for _, kind := range kinds {
		l := workload.List(kind)
		if err := kube.List(ctx, l, client.InNamespace(ns)); err != nil {
			return 0, nil, err
		}
		items, err := kmeta.ExtractList(l)
		if err != nil {
			return 0, nil, err
		}
		for _, o := range items {
			mg, ok := o.(resource.Managed)
			if !ok {
				return 0, nil, fmt.Errorf("%T is not a managed resource", o)
			}
			r, s := mg.GetCondition(xpv2.TypeReady), mg.GetCondition(xpv2.TypeSynced)
			if r.Status == corev1.ConditionTrue {
				n++
				continue
			}
			out = append(out, strandedObject{kind: kind, name: mg.GetName(), ready: r, synced: s,
				readyMsg: first200(r.Message), syncedMsg: first200(s.Message)})
		}
	}
	return n, out, nil
}

// createdTwiceByKind counts, per kind, the resources AWS created more than
// once, in any account.
func createdTwiceByKind(em awsUnderTest) map[string]int {
	var servers []*emulator.Server
	switch a := em.(type) {
	case *emulator.Accounts:
		for i := range a.IDs {
			servers = append(servers, a.Account(i))
		}
	case *emulator.Server:
		servers = append(servers, a)
	}
	out := map[string]int{}
	for _, s := range servers {
		seen := map[string]int{}
		kindOf := map[string]string{}
		for _, c := range s.Creations() {
			seen[c.Identity()]++
			kindOf[c.Identity()] = c.Kind
		}
		for id, k := range seen {
			if k > 1 {
				out[kindOf[id]]++
			}
		}
	}
	return out
}

// printResets prints, per kind, what the reset proxy did to the load and
// what became of its objects, and up to ten of the stranded ones.
func (f *figures) printResets(w *strings.Builder) {
	r := f.resets
	if r == nil {
		return
	}
	strandedOf := map[string]int{}
	for _, o := range f.stranded {
		strandedOf[o.kind]++
	}
	fmt.Fprintf(w, "\n| lost answers (BENCH_RESET=%g: the proxy resets that share of connections after the emulator answered), first create to the end of the steady window | resources | creates AWS received | creates per resource | answers reset: all / of creates | resources AWS created twice | objects stranded (not Ready at the deadline; want 0) |\n|---|---|---|---|---|---|---|\n", f.s.reset)
	totalForwarded, totalReset, kindReset := 0, 0, 0
	for _, n := range r.forwarded {
		totalForwarded += n
	}
	for _, n := range r.reset {
		totalReset += n
	}
	for _, k := range kinds {
		all := 0
		for op, n := range r.reset {
			if svc, _, _ := strings.Cut(op, ":"); service[svc] == k {
				all += n
			}
		}
		kindReset += all
		fmt.Fprintf(w, "| %s | %d | %d | %.3f | %d / %d | %d | %d |\n", k, f.s.counts[k], r.creates[k],
			float64(r.creates[k])/float64(f.s.counts[k]), all, r.reset[createOps[k]], r.createdTwice[k], strandedOf[k])
	}
	fmt.Fprintf(w, "| all calls through the proxy | %d | | | %d of %d forwarded (%.2f %%; %d of other services, as STS) | | %d |\n",
		f.resources(), totalReset, totalForwarded, 100*float64(totalReset)/float64(max(1, totalForwarded)), totalReset-kindReset, len(f.stranded))
	if len(f.stranded) > 0 {
		n := min(10, len(f.stranded))
		fmt.Fprintf(w, "\nstranded objects (%d of %d):\n", n, len(f.stranded))
		for _, o := range f.stranded[:n] {
			fmt.Fprintf(w, "  %s\n", o)
		}
	}
	ops := make([]string, 0, len(r.reset))
	for op := range r.reset {
		ops = append(ops, op)
	}
	slices.Sort(ops)
	fmt.Fprintf(w, "\n| operation | calls forwarded | answers reset |\n|---|---|---|\n")
	for _, op := range ops {
		fmt.Fprintf(w, "| %s | %d | %d |\n", op, r.forwarded[op], r.reset[op])
	}
}
