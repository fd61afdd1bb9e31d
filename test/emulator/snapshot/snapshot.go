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

// Package snapshot replays the request snapshots the AWS SDK's service
// modules ship (the exact requests their clients send, with placeholder
// values) against an endpoint such as the emulator, to tell whether it
// understands an operation without building its input by hand.
package snapshot

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// ErrNone says that the SDK release ships no snapshot of an operation.
var ErrNone = errors.New("the SDK ships no request snapshot of the operation")

// Module is the SDK module of a service, from its service ID as the SDK
// names it ("Firehose", "Bedrock AgentCore Control").
func Module(serviceID string) string {
	return "github.com/aws/aws-sdk-go-v2/service/" + strings.ToLower(strings.ReplaceAll(serviceID, " ", ""))
}

// Read returns the request snapshot of operation op of module mod, from the
// module cache.
func Read(mod, op string) ([]byte, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", mod).Output()
	if err != nil {
		return nil, fmt.Errorf("go list %s: %w", mod, err)
	}
	b, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "request_snapshot", op+".request.snap"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, ErrNone
	}
	return b, err
}

// Replay sends a snapshot ("METHOD PATH", a blank line, headers, a blank
// line, the body) to base, signed for region us-east-1 and the signing name
// service (one that does not matter when empty), and returns the answer's
// status and body.
func Replay(base, service string, snap []byte) (int, string, error) {
	r := bufio.NewReader(bytes.NewReader(snap))
	first, _ := r.ReadString('\n')
	method, path, _ := strings.Cut(strings.TrimSpace(first), " ")
	_, _ = r.ReadString('\n')
	headers := http.Header{}
	for {
		line, err := r.ReadString('\n')
		line = strings.TrimSpace(line)
		if line == "" || err != nil {
			break
		}
		k, v, _ := strings.Cut(line, ": ")
		headers.Set(k, v)
	}
	body, _ := io.ReadAll(r)
	req, err := http.NewRequest(method, base+path, bytes.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	req.Header = headers
	if service == "" {
		service = "unused"
	}
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=AKIDEMO/20260101/us-east-1/"+service+"/aws4_request, SignedHeaders=host, Signature=0")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(out), err
}

// Understood reports whether an answer shows that the operation was
// recognised and its input read: the service's own verdict on the
// placeholders, never an unknown operation or a serialization error.
func Understood(body string) bool {
	return !strings.Contains(body, "UnknownOperation") && !strings.Contains(body, "InvalidAction") && !strings.Contains(body, "SerializationException")
}
