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

package emulator_test

import (
	"net/http/httptest"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/google/go-cmp/cmp"

	"github.com/cloudkinds/provider-aws-services/test/emulator"
)

// TestAccounts: one endpoint serves each account to its own key: its
// identity, its resources, its quotas and its calls.
func TestAccounts(t *testing.T) {
	a := emulator.NewAccounts(2, emulator.Options{})
	a.SetQuotas(map[string]float64{"firehose:*": 1})
	srv := httptest.NewServer(a)
	defer srv.Close()

	got := map[string]string{}
	for i, key := range a.Keys {
		cfg := configFor(srv.URL, key)
		id, err := sts.NewFromConfig(cfg).GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{})
		if err != nil {
			t.Fatal(err)
		}
		got[key] = aws.ToString(id.Account)
		if i == 0 {
			if _, err := firehose.NewFromConfig(cfg).ListDeliveryStreams(ctx, &firehose.ListDeliveryStreamsInput{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if diff := cmp.Diff(map[string]string{"AKIDACCOUNT01": "100000000001", "AKIDACCOUNT02": "100000000002"}, got); diff != "" {
		t.Errorf("the account each key acts in: -want, +got:\n%s", diff)
	}
	if n := a.Account(0).Calls()["firehose:ListDeliveryStreams"]; n != 1 {
		t.Errorf("the first account counted %d ListDeliveryStreams, want 1", n)
	}
	if n := a.Account(1).Calls()["firehose:ListDeliveryStreams"]; n != 0 {
		t.Errorf("the second account counted %d ListDeliveryStreams, want 0: another account's call", n)
	}
	if n := a.Calls()["firehose:ListDeliveryStreams"]; n != 1 {
		t.Errorf("the accounts together counted %d ListDeliveryStreams, want 1", n)
	}
}
