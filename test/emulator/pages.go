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

package emulator

import (
	"encoding/base64"
	"slices"
)

// A listing is how one list operation pages, as botocore's model says:
// its page size when the caller sets none, and the largest it accepts.
// Where AWS documents no default, the emulator takes a small one, so
// that a caller that does not page is found out.
type listing struct {
	defaultSize, maxSize int
}

// Page sizes of the list operations.
var (
	// ListApiKeyCredentialProviders: maxResults 1-100; AWS documents no
	// default.
	agentcoreListing = listing{defaultSize: 10, maxSize: 100}
	// ListEndpointConfigs: MaxResults 1-100, default 10.
	sagemakerListing = listing{defaultSize: 10, maxSize: 100}
	// ListSubscriptions: 100 a page, which the caller cannot choose.
	snsListing = listing{defaultSize: 100, maxSize: 100}
	// ListDeliveryStreams: Limit 1-10000, default 10.
	firehoseListing = listing{defaultSize: 10, maxSize: 10000}
	// ListEndpoints: MaxResults 1-100; AWS documents no default.
	eventbridgeListing = listing{defaultSize: 10, maxSize: 100}
)

// size is the page size a call asks for; false when the model's range
// refuses it.
func (l listing) size(asked *int) (int, bool) {
	if asked == nil {
		return l.defaultSize, true
	}
	return *asked, *asked >= 1 && *asked <= l.maxSize
}

// page returns the page of keys (sorted) that starts after the key the
// token names, at most size of them, and the token of the next page ("" on
// the last page); false when the token is none the emulator gave. A token
// names the last key of its page, so that a listing that changes between
// pages skips or repeats nothing that stayed.
func page(keys []string, token *string, size int) (out []string, next string, ok bool) {
	start := 0
	if token != nil {
		after, err := base64.RawURLEncoding.DecodeString(*token)
		if err != nil || len(after) == 0 {
			return nil, "", false
		}
		i, _ := slices.BinarySearch(keys, string(after))
		if i < len(keys) && keys[i] == string(after) {
			i++
		}
		start = i
	}
	end := min(start+size, len(keys))
	out = keys[start:end]
	if end < len(keys) && len(out) > 0 {
		next = base64.RawURLEncoding.EncodeToString([]byte(out[len(out)-1]))
	}
	return out, next, true
}
