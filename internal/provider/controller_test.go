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

package provider

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/controller"
	"github.com/crossplane/crossplane-runtime/v2/pkg/gate"
	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	"github.com/go-logr/logr"
	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	"github.com/cloudkinds/provider-aws-services/internal/aws/quota"
	"github.com/cloudkinds/provider-aws-services/internal/provider/readiness"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/budget"
)

// fakeManager is the part of a manager a gated setup uses: its logger.
type fakeManager struct{ manager.Manager }

func (fakeManager) GetLogger() logr.Logger { return logr.Discard() }

func TestAFailedGatedSetupFailsTheHealthCheck(t *testing.T) {
	good := schema.GroupVersionKind{Group: "g", Version: "v1", Kind: "Good"}
	bad := schema.GroupVersionKind{Group: "g", Version: "v1", Kind: "Bad"}
	goodSetUp := make(chan struct{})
	ks := []reconciler.Kind{
		{GroupVersionKind: good, Setup: func(ctrl.Manager, controller.Options, reconciler.Shared) error { close(goodSetUp); return nil }},
		{GroupVersionKind: bad, Setup: func(ctrl.Manager, controller.Options, reconciler.Shared) error {
			return errors.New("no informer for Bad")
		}},
	}
	o := controller.Options{Gate: new(gate.Gate[schema.GroupVersionKind])}
	ready := readiness.New(make(chan struct{}), logging.NewNopLogger())
	ready.Expect(good.Kind)
	ready.Expect(bad.Kind)
	registerGated(fakeManager{}, o, reconciler.Shared{}, ready, ks)
	if err := ready.Failed(nil); err != nil {
		t.Fatalf("before any gate opened, the health check failed: %v", err)
	}
	o.Gate.Set(good, true)
	o.Gate.Set(bad, true)
	// The gate runs each setup in its own goroutine.
	select {
	case <-goodSetUp:
	case <-time.After(5 * time.Second):
		t.Fatal("the good kind was never set up")
	}
	var err error
	for deadline := time.Now().Add(5 * time.Second); err == nil && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		err = ready.Failed(nil)
	}
	if err == nil || !strings.Contains(err.Error(), "Bad: no informer for Bad") || strings.Contains(err.Error(), "Good") {
		t.Errorf("health check after a failed setup: %v", err)
	}
	if err := ready.Ready(nil); err == nil || !strings.Contains(err.Error(), "the controllers of Bad could not be set up") || strings.Contains(err.Error(), "Good") {
		t.Errorf("readiness check after a failed setup: %v", err)
	}
}

// fiveKinds are the creates of the provider's first five kinds.
var fiveKinds = []reconciler.Kind{
	{Create: quota.Operation{Service: "Bedrock AgentCore Control", Name: "CreateApiKeyCredentialProvider"}},
	{Create: quota.Operation{Service: "Firehose", Name: "CreateDeliveryStream"}},
	{Create: quota.Operation{Service: "SNS", Name: "Subscribe"}},
	{Create: quota.Operation{Service: "EventBridge", Name: "CreateEndpoint"}},
	{Create: quota.Operation{Service: "SageMaker", Name: "CreateEndpointConfig"}},
}

// TestKubeRate: the client's rate is the writes of the creates AWS's
// budgets allow every kind at once.
func TestKubeRate(t *testing.T) {
	cases := map[string]struct {
		quotas budget.Quotas
		want   float32
	}{
		// 80 % of AgentCore's 10 (unpublished), Firehose's 5, SNS
		// Subscribe's 100, EventBridge CreateEndpoint's 5 and SageMaker's
		// 10 (unpublished): 104 creates per second, 7 writes each.
		"PublishedQuotas": {quotas: budget.Quotas{}, want: 728},
		// An account whose SNS Subscribe quota is 10: 32 creates per second.
		"LowerSubscribeQuota": {quotas: budget.Quotas{Of: map[string]float64{"SNS:Subscribe": 10}}, want: 224},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			qps, burst := kubeRate(budget.New(tc.quotas), fiveKinds)
			if diff := cmp.Diff([]float32{tc.want, tc.want}, []float32{qps, float32(burst)}); diff != "" {
				t.Errorf("KubeRate: -want, +got (qps, burst):\n%s", diff)
			}
		})
	}
}

// TestKubeRateLimiterGrowsWithTheAccounts: the client's rate is KubeRate for
// each account and region the budgets have served.
func TestKubeRateLimiterGrowsWithTheAccounts(t *testing.T) {
	b := budget.New(budget.Quotas{})
	l := KubeRateLimiter(b)
	per, _ := KubeRate(b)
	got := []float32{l.QPS()}
	op := quota.Operation{Service: "Firehose", Name: "CreateDeliveryStream"}
	for _, scope := range []string{"111122223333", "444455556666", "111122223333 at https://tenant.example"} {
		b.Reserve(budget.Reservation{Scope: scope, Region: "us-east-1", Namespace: "team-a", Name: "s", Ops: []quota.Operation{op}, Class: budget.Change}, 0)
		got = append(got, l.QPS())
	}
	if diff := cmp.Diff([]float32{per, per, 2 * per, 3 * per}, got); diff != "" {
		t.Errorf("QPS as accounts are served: -want, +got:\n%s", diff)
	}
}
