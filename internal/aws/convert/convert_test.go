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

package convert

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
)

func TestConversions(t *testing.T) {
	if Int32(nil) != nil || Int64(nil) != nil || String("") != nil {
		t.Error("an absent value became present")
	}
	if got := aws.ToInt32(Int32(aws.Int64(300))); got != 300 {
		t.Errorf("Int32(300) = %d", got)
	}
	if got := aws.ToInt64(Int64(aws.Int32(5))); got != 5 {
		t.Errorf("Int64(5) = %d", got)
	}
	type enum string
	if got := aws.ToString(String(enum("ACTIVE"))); got != "ACTIVE" {
		t.Errorf("String(ACTIVE) = %q", got)
	}
}
