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

package chaos

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	agentcorev1alpha1 "github.com/cloudkinds/provider-aws-services/apis/agentcorecontrol/v1alpha1"
	streamingv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/test/emulator"
)

// checkMetrics scrapes the running provider's /metrics, as Prometheus
// would, and checks that the metrics an operator relies on are recorded.
func checkMetrics(t *testing.T, addr string) {
	t.Helper()
	want := []string{
		`provider_aws_services_aws_calls_total{operation="DescribeDeliveryStream",outcome="success",service="Firehose"}`,
		`provider_aws_services_aws_calls_total{operation="GetSubscriptionAttributes",outcome="success",service="SNS"}`,
		`provider_aws_services_poll_interval_seconds_count{kind="Endpoint"}`,
		`crossplane_managed_resource_exists{gvk="streaming.services.k8s.aws/v1alpha1, Kind=DeliveryStream"}`,
		`crossplane_managed_resource_ready{gvk="agentcorecontrol.services.k8s.aws/v1alpha1, Kind=APIKeyCredentialProvider"}`,
		`crossplane_managed_resource_synced{gvk="notification.services.k8s.aws/v1alpha1, Kind=Subscription"}`,
	}
	var text string
	var missing []string
	// The poll interval needs two looks at a resource: up to two polls.
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get("http://" + addr + "/metrics")
		if err == nil {
			b, _ := io.ReadAll(resp.Body)
			_ = resp.Body.Close()
			text = string(b)
		}
		missing = missing[:0]
		for _, w := range want {
			if !strings.Contains(text, w) {
				missing = append(missing, w)
			}
		}
		if len(missing) == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Second)
	}
	for _, m := range missing {
		t.Errorf("/metrics has no %s", m)
	}
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "provider_aws_services_aws_calls_total") && strings.Contains(line, "Firehose") {
			fmt.Println("sample of /metrics:", line)
		}
	}
}

// secretsIn counts the secret values found in the provider's logs, the
// namespaces' events and the objects themselves.
func secretsIn(t *testing.T, kube client.Client, namespaces, logs []string, secrets map[string]string) int {
	t.Helper()
	var texts []string
	for _, l := range logs {
		b, err := os.ReadFile(l)
		if err != nil {
			t.Error(err)
		}
		texts = append(texts, string(b))
	}
	for _, ns := range namespaces {
		events := &corev1.EventList{}
		if err := kube.List(context.Background(), events, client.InNamespace(ns)); err != nil {
			t.Error(err)
		}
		for _, e := range events.Items {
			texts = append(texts, e.Message)
		}
		for _, l := range []client.ObjectList{&streamingv1alpha1.DeliveryStreamList{}, &agentcorev1alpha1.APIKeyCredentialProviderList{}} {
			if err := kube.List(context.Background(), l, client.InNamespace(ns)); err != nil {
				t.Error(err)
			}
			texts = append(texts, fmt.Sprintf("%+v", l))
		}
	}
	n := 0
	for _, text := range texts {
		for _, v := range secrets {
			n += strings.Count(text, v)
		}
	}
	return n
}

// warnedOnce checks that each run of the provider logged the API server's
// warning about crossplane-runtime's finalizer name at most once, however
// many objects it wrote the finalizer of.
func warnedOnce(t *testing.T, logs []string) {
	t.Helper()
	const warning, finalizer = "prefer a domain-qualified finalizer name", "finalizer.managedresource.crossplane.io"
	for _, l := range logs {
		b, err := os.ReadFile(l)
		if err != nil {
			t.Error(err)
			continue
		}
		n := 0
		for line := range strings.Lines(string(b)) {
			if strings.Contains(line, warning) && strings.Contains(line, finalizer) {
				n++
			}
		}
		if n > 1 {
			t.Errorf("%s: the API server's warning that %s should have a path logged %d times, want at most once", l, finalizer, n)
		}
	}
}

func report(t *testing.T, st storm, kr killRecord, afterCreate, runs int, stormTime, convergeTime time.Duration, resources, stuck, leaked, updates, lost, duplicated, pairsOK, pairs, secrets int,
	calls map[string]int, outcomes map[string]map[string]int) {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "\n| figure | result |\n|---|---|\n")
	fmt.Fprintf(&b, "| resources (per kind) | %d (%d), and %d colliding pairs |\n", resources, st.perKind, pairs)
	fmt.Fprintf(&b, "| faults | %.0f%% throttled, %.0f%% HTTP 500 |\n", st.throttleRate*100, st.errorRat*100)
	fmt.Fprintf(&b, "| SIGKILLs (aimed at a create; landed within %s of a create, unrecorded) | %d (%d; %d), %d provider starts |\n", afterCreateWindow, kr.kills, kr.aimed, afterCreate, runs)
	fmt.Fprintf(&b, "| SIGKILLs right after an ownership claim (before any further create) | %d (%d) |\n", kr.atClaim, kr.beforeCreate)
	fmt.Fprintf(&b, "| storm / converge after healing | %s / %s |\n", stormTime.Round(time.Second), convergeTime.Round(time.Second))
	fmt.Fprintf(&b, "| resources stuck for good | %d of %d |\n", stuck, resources+pairs)
	fmt.Fprintf(&b, "| deleted resources left on AWS | %d |\n", leaked)
	fmt.Fprintf(&b, "| updates never applied | %d of %d |\n", lost, updates)
	fmt.Fprintf(&b, "| duplicates (AWS resources created again while their object stood) | %d |\n", duplicated)
	fmt.Fprintf(&b, "| colliding pairs: A owns, B refused, B's deletion leaves A's resource | %d of %d |\n", pairsOK, pairs)
	fmt.Fprintf(&b, "| secret values in logs, events, objects | %d |\n", secrets)
	sum := map[string]int{}
	for _, o := range outcomes {
		for k, v := range o {
			sum[k] += v
		}
	}
	all := 0
	for _, v := range calls {
		all += v
	}
	fmt.Fprintf(&b, "| AWS calls | %d: %d ok, %d throttled, %d HTTP 500, %d refused by AWS |\n", all, sum[emulator.OutcomeOK], sum[emulator.OutcomeThrottled], sum[emulator.OutcomeError], sum[emulator.OutcomeRefused])
	ops := make([]string, 0, len(calls))
	for op := range calls {
		ops = append(ops, op)
	}
	slices.Sort(ops)
	fmt.Fprintf(&b, "\nAWS calls per operation (ok/throttled/500/refused):\n")
	for _, op := range ops {
		o := outcomes[op]
		fmt.Fprintf(&b, "  %-52s %5d  (%d/%d/%d/%d)\n", op, calls[op], o[emulator.OutcomeOK], o[emulator.OutcomeThrottled], o[emulator.OutcomeError], o[emulator.OutcomeRefused])
	}
	fmt.Println(b.String())
}
