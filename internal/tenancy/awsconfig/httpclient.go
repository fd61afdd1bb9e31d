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
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
)

// httpLimits bound what one HTTP exchange of a session may cost the
// provider, whoever the endpoint is: an endpoint may be a tenant's server
// (a namespaced ProviderConfig's spec.endpoint.url), which may answer
// slowly, endlessly or hugely, and the SDK reads whole what it is given.
type httpLimits struct {
	// dial bounds a TCP connect; tlsHandshake the TLS handshake on it.
	dial, tlsHandshake time.Duration
	// responseHeader bounds the wait for a response's headers once the
	// request is written.
	responseHeader time.Duration
	// exchange bounds one attempt whole: connection, request, headers and
	// the reading of the body (http.Client.Timeout).
	exchange time.Duration
	// headerBytes bounds a response's headers.
	headerBytes int64
	// successBody bounds the body of an answer with a status below 300,
	// errorBody that of any other.
	successBody, errorBody int64
}

// defaultHTTPLimits are the limits of every session's client.
//
// The provider calls only small control-plane operations: Describe, Get
// and ListTags of SNS, Firehose, SageMaker, EventBridge and Bedrock
// AgentCore Control, their creates, updates and deletes, and STS's
// GetCallerIdentity and AssumeRole*. AWS answers them in well under a
// second and in a few KiB: the largest is a DescribeDeliveryStream or a
// DescribeEndpointConfig with every option set, some tens of KiB; 50 tags
// of 128+256 characters are under 20 KiB. So:
//
//   - a success body may hold 1 MiB, ten times and more the largest
//     answer. Not more: the SDK's decoders hold what they read, twice or
//     more (an XML or JSON token grows its buffer by doubling), and as many
//     answers are read at once as there are workers; four answers of 4 MiB
//     took 39 MiB of RSS (TestHostileTenantEndpoint), four of 1 MiB take
//     about 10;
//   - an error body 64 KiB: AWS's errors are a code and a sentence (under
//     1 KiB), and the SDK reads an error body whole to find them;
//   - headers 64 KiB: AWS sends a dozen short ones;
//   - a connect 10 s and a TLS handshake 10 s (the SDK's own default for
//     the handshake), a few round trips anywhere in the world;
//   - the headers of an answer 20 s after the request: AWS's slowest of
//     these calls (a create that validates roles and keys) answer in a
//     few seconds;
//   - one attempt 1 minute in all, body included, so that an endpoint that
//     trickles its answer a byte at a time holds a connection and a worker
//     for no longer. The SDK's retryer may try again (3 attempts) and the
//     session build has its own bound (2 minutes).
var defaultHTTPLimits = httpLimits{
	dial:           10 * time.Second,
	tlsHandshake:   10 * time.Second,
	responseHeader: 20 * time.Second,
	exchange:       time.Minute,
	headerBytes:    64 << 10,
	successBody:    1 << 20,
	errorBody:      64 << 10,
}

// The idle connections the shared client keeps: in all, and to one host.
const (
	idleConnections        = 256
	idleConnectionsPerHost = 64
)

// buildable is the SDK's default HTTP client with these limits, made to be
// shared by the sessions of many accounts: they call the same service
// endpoints (one per service and region), so it keeps more idle connections
// to each than the SDK's 10, which it sizes for one client.
func (l httpLimits) buildable() *awshttp.BuildableClient {
	return awshttp.NewBuildableClient().
		WithTimeout(l.exchange).
		WithDialerOptions(func(d *net.Dialer) { d.Timeout = l.dial }).
		WithTransportOptions(func(t *http.Transport) {
			t.MaxIdleConns, t.MaxIdleConnsPerHost = idleConnections, idleConnectionsPerHost
			t.TLSHandshakeTimeout = l.tlsHandshake
			t.ResponseHeaderTimeout = l.responseHeader
			t.MaxResponseHeaderBytes = l.headerBytes
		})
}

// client freezes b (frozen, it is no longer a BuildableClient, which every
// SDK client would copy into a transport of its own), refuses redirects to
// another host, and bounds the bodies it reads.
func (l httpLimits) client(b *awshttp.BuildableClient) aws.HTTPClient {
	c := b.Freeze()
	if hc, ok := c.(*http.Client); ok {
		hc.CheckRedirect = sameHostRedirect(hc.CheckRedirect)
	}
	return boundedBodies{next: c, success: l.successBody, failure: l.errorBody}
}

// sameHostRedirect refuses a redirect to another host, and leaves the
// others to next (the SDK follows only 307 and 308). AWS's control-plane
// services redirect nowhere; an endpoint that sends a request elsewhere
// would have it reach what the endpoint chooses.
func sameHostRedirect(next func(*http.Request, []*http.Request) error) func(*http.Request, []*http.Request) error {
	return func(r *http.Request, via []*http.Request) error {
		if len(via) > 0 && r.URL.Host != via[0].URL.Host {
			return fmt.Errorf("refused a redirect from %s to another host", via[0].URL.Host)
		}
		if next == nil {
			return nil
		}
		return next(r, via)
	}
}

// boundedBodies is an aws.HTTPClient whose responses' bodies fail to read
// past a limit: success for a status below 300, failure for the others.
type boundedBodies struct {
	next             aws.HTTPClient
	success, failure int64
}

// Do sends r with the wrapped client and bounds the body of the response.
// A body longer than its limit fails the read that passes the limit, with
// an error that says so (never a silent truncation, which a decoder could
// take for a whole answer); one whose Content-Length is over it fails the
// first read, with nothing read. Go's transport decompresses a gzip body it
// asked for, and the limit counts the bytes it gives: what the SDK decodes.
func (c boundedBodies) Do(r *http.Request) (*http.Response, error) {
	resp, err := c.next.Do(r)
	if err != nil || resp == nil || resp.Body == nil {
		return resp, err
	}
	limit, what := c.success, "an answer"
	if resp.StatusCode >= http.StatusMultipleChoices {
		limit, what = c.failure, fmt.Sprintf("an answer of status %d", resp.StatusCode)
	}
	b := &boundedBody{body: resp.Body, left: limit, limit: limit, what: what}
	if resp.ContentLength > limit {
		// Refused before a byte is read: the connection is closed, not
		// drained.
		_ = resp.Body.Close()
		b.err = &BodyTooLargeError{Limit: limit, What: what, Declared: resp.ContentLength}
	}
	resp.Body = b
	return resp, nil
}

// A BodyTooLargeError is the error of a read past the limit of a response's
// body.
type BodyTooLargeError struct {
	// Limit is the limit in bytes.
	Limit int64
	// What says which answers the limit is for.
	What string
	// Declared is the body's Content-Length when that was over the
	// limit, 0 when the body passed the limit as it was read.
	Declared int64
}

// RetryableError tells the SDK's retryer not to read the same answer again.
func (*BodyTooLargeError) RetryableError() bool { return false }

func (e *BodyTooLargeError) Error() string {
	if e.Declared > 0 {
		return fmt.Sprintf("the response body declares %d bytes, more than the %d bytes the provider reads of %s; nothing of it was read", e.Declared, e.Limit, e.What)
	}
	return fmt.Sprintf("the response body exceeded %d bytes, the most the provider reads of %s; the rest was not read", e.Limit, e.What)
}

// boundedBody reads body up to limit bytes; the read past them fails.
type boundedBody struct {
	body        io.ReadCloser
	left, limit int64
	what        string
	// err, once set, is the answer of every read.
	err error
}

func (b *boundedBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	// Read one byte more than is left: the body is over the limit only if
	// that byte exists.
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.body.Read(p)
	if int64(n) > b.left {
		b.err = &BodyTooLargeError{Limit: b.limit, What: b.what}
		// Nothing more is read from this connection: it is closed,
		// not drained back into the pool.
		_ = b.body.Close()
		return int(b.left), b.err
	}
	b.left -= int64(n)
	return n, err
}

func (b *boundedBody) Close() error { return b.body.Close() }
