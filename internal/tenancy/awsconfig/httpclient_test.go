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

package awsconfig

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/google/go-cmp/cmp"
)

// endless writes chunk to w until the client goes away.
func endless(w http.ResponseWriter, r *http.Request, chunk []byte) {
	for r.Context().Err() == nil {
		if _, err := w.Write(chunk); err != nil {
			return
		}
	}
}

// TestBoundedBodies: whatever an endpoint answers, the client reads at most
// the limit of the answer's kind and then fails with an error that says so;
// an answer within the limit is read whole.
func TestBoundedBodies(t *testing.T) {
	junk := bytes.Repeat([]byte("x"), 32<<10)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	for range 64 { // 64 MiB of zeros in about 64 KiB
		_, _ = zw.Write(make([]byte, 1<<20))
	}
	_ = zw.Close()

	cases := map[string]struct {
		handler http.HandlerFunc
		want    string // the error, or the length read
	}{
		"EndlessErrorBody": {
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(http.StatusBadRequest)
				endless(w, r, junk)
			},
			want: "the response body exceeded 65536 bytes, the most the provider reads of an answer of status 400; the rest was not read",
		},
		"EndlessSuccessBody": {
			handler: func(w http.ResponseWriter, r *http.Request) {
				_, _ = w.Write([]byte(`{"Account":"`))
				endless(w, r, junk)
			},
			want: "the response body exceeded 1048576 bytes, the most the provider reads of an answer; the rest was not read",
		},
		"HugeContentLength": {
			handler: func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Length", "1099511627776")
				w.WriteHeader(http.StatusOK)
				_, _ = w.Write(junk)
			},
			want: "the response body declares 1099511627776 bytes, more than the 1048576 bytes the provider reads of an answer; nothing of it was read",
		},
		"ErrorContentLengthOverItsLimit": {
			handler: func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Length", "70000")
				w.WriteHeader(http.StatusInternalServerError)
				_, _ = w.Write(bytes.Repeat([]byte("x"), 70000))
			},
			want: "the response body declares 70000 bytes, more than the 65536 bytes the provider reads of an answer of status 500; nothing of it was read",
		},
		"GzipBomb": {
			handler: func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Encoding", "gzip")
				w.Header().Set("Content-Length", fmt.Sprint(gz.Len()))
				_, _ = w.Write(gz.Bytes())
			},
			want: "the response body exceeded 1048576 bytes, the most the provider reads of an answer; the rest was not read",
		},
		"ExactlyTheLimit": {
			handler: func(w http.ResponseWriter, _ *http.Request) {
				w.WriteHeader(http.StatusBadRequest)
				_, _ = w.Write(bytes.Repeat([]byte("x"), 64<<10))
			},
			want: "read 65536 bytes",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			srv := httptest.NewServer(tc.handler)
			defer srv.Close()
			c := defaultHTTPLimits.client(defaultHTTPLimits.buildable())
			req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, srv.URL, http.NoBody)
			resp, err := c.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			n, err := io.Copy(io.Discard, resp.Body)
			got := fmt.Sprintf("read %d bytes", n)
			if err != nil {
				got = err.Error()
				var tooLarge *BodyTooLargeError
				if !errors.As(err, &tooLarge) {
					t.Errorf("the error is not a *BodyTooLargeError: %T", err)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("reading the body: -want, +got:\n%s", diff)
			}
		})
	}
}

// TestBoundedBodiesThroughTheSDK: the SDK reads an endless error body only
// up to its limit and reports the limit, not what the endpoint sent.
func TestBoundedBodiesThroughTheSDK(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/xml")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte("<ErrorResponse><Error><Code>Hostile</Code><Message>"))
		endless(w, r, bytes.Repeat([]byte("secret-of-another-namespace "), 1024))
	}))
	defer srv.Close()
	g := tenantDialGuard{allowed: loopbackOnly}
	cfg := aws.Config{Region: "us-east-1", HTTPClient: g.httpClient(defaultHTTPLimits), BaseEndpoint: aws.String(srv.URL), Credentials: aws.AnonymousCredentials{}}
	_, err := sts.NewFromConfig(cfg).GetCallerIdentity(context.Background(), &sts.GetCallerIdentityInput{})
	if err == nil || !strings.Contains(err.Error(), "the response body exceeded 65536 bytes") {
		t.Fatalf("want the body refused past its limit, got %v", err)
	}
	if strings.Contains(err.Error(), "secret-of-another-namespace") {
		t.Errorf("the error quotes the endpoint: %.300s", err)
	}
}

var loopbackOnly = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}

// TestTimeBoundedExchanges: an endpoint that holds its headers, trickles its
// body, floods headers, never finishes a TLS handshake or redirects to
// another host holds the client no longer than its limits.
func TestTimeBoundedExchanges(t *testing.T) {
	l := defaultHTTPLimits
	l.tlsHandshake, l.responseHeader, l.exchange = 300*time.Millisecond, 300*time.Millisecond, time.Second

	silent, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", "127.0.0.1:0") // accepts, says nothing
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	go func() {
		var held []net.Conn
		defer func() {
			for _, c := range held {
				_ = c.Close()
			}
		}()
		for {
			c, err := silent.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
	var elsewhere atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { elsewhere.Add(1) }))
	defer other.Close()

	cases := map[string]struct {
		handler http.HandlerFunc
		url     string
		want    string
		within  time.Duration
	}{
		"NoHeaders": {
			handler: func(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() },
			want:    "timeout awaiting response headers", within: 2 * time.Second,
		},
		"TrickledBody": {
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(http.StatusBadRequest)
				for r.Context().Err() == nil {
					_, _ = w.Write([]byte("x"))
					w.(http.Flusher).Flush()
					time.Sleep(50 * time.Millisecond)
				}
			},
			// The whole exchange's timeout: its error says so in
			// words that depend on where the reading was.
			want: "timeout", within: 3 * time.Second,
		},
		"HeaderFlood": {
			handler: func(w http.ResponseWriter, _ *http.Request) {
				for i := range 2000 {
					w.Header().Set(fmt.Sprintf("X-Flood-%d", i), strings.Repeat("x", 100))
				}
				w.WriteHeader(http.StatusOK)
			},
			want: "server response headers exceeded 65536 bytes", within: 2 * time.Second,
		},
		"TLSHandshakeNeverDone": {
			url:  "https://" + silent.Addr().String(),
			want: "TLS handshake timeout", within: 2 * time.Second,
		},
		"RedirectToAnotherHost": {
			handler: func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, other.URL, http.StatusTemporaryRedirect)
			},
			want: "refused a redirect from", within: 2 * time.Second,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			url := tc.url
			if tc.handler != nil {
				srv := httptest.NewServer(tc.handler)
				defer srv.Close()
				url = srv.URL
			}
			for client, c := range map[string]aws.HTTPClient{"Shared": l.client(l.buildable()), "Tenant": tenantDialGuard{allowed: loopbackOnly}.httpClient(l)} {
				start := time.Now()
				req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, url, http.NoBody)
				resp, err := c.Do(req)
				if err == nil {
					_, err = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
				var ne net.Error
				timedOut := tc.want == "timeout" && (errors.As(err, &ne) && ne.Timeout() || errors.Is(err, context.DeadlineExceeded))
				if err == nil || !timedOut && !strings.Contains(err.Error(), tc.want) {
					t.Errorf("%s: want an error with %q, got %v", client, tc.want, err)
				}
				if took := time.Since(start); took > tc.within {
					t.Errorf("%s: the exchange took %s, want at most %s", client, took, tc.within)
				}
			}
		})
	}
	if n := elsewhere.Load(); n != 0 {
		t.Errorf("a redirect reached another host %d times", n)
	}
}
