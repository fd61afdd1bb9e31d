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

package kinds

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestExamples: each managed kind of the package has its example, and the
// configs have none to take to Ready.
func TestExamples(t *testing.T) {
	got, err := Examples("../../..")
	if err != nil {
		t.Fatal(err)
	}
	crds, err := CRDs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	managed := 0
	for _, c := range crds {
		if c.Managed() {
			managed++
		}
	}
	if len(got) != managed {
		t.Errorf("%d examples for %d managed kinds: %v", len(got), managed, got)
	}
	if diff := cmp.Diff("deliverystreams.streaming.services.k8s.aws/clickstream", got["streaming/deliverystream.yaml"]); diff != "" {
		t.Errorf("the stream's example: -want, +got:\n%s", diff)
	}
}
