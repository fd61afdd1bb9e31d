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

package ownership

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// TestClaimNames: a claim on AWS's own endpoint keeps the name it had before
// endpoints told identities apart (the claims of an upgraded provider stay
// held), and the same name, account and region at another endpoint is
// another claim.
func TestClaimNames(t *testing.T) {
	aws := Identity{Account: "111122223333", Region: "us-east-1", Kind: schema.GroupKind{Group: "streaming.services.k8s.aws", Kind: "DeliveryStream"}, Fields: "orders"}
	tenant, other := aws, aws
	tenant.Endpoint, other.Endpoint = "https://tenant.example", "https://other.example"

	got := map[string]string{"aws": claimName(aws), "tenant": claimName(tenant), "other": claimName(other)}
	want := map[string]string{
		// sha256 of "111122223333\x00us-east-1\x00DeliveryStream.streaming.services.k8s.aws\x00orders", as claims were named before.
		"aws":    "aws-owner-e418678763efc1d3bb10c2f1c55baa3b6e30b417",
		"tenant": got["tenant"], "other": got["other"],
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("claim names: -want, +got:\n%s", diff)
	}
	if got["tenant"] == got["aws"] || got["tenant"] == got["other"] {
		t.Errorf("endpoints share a claim: %v", got)
	}
}
