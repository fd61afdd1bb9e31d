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
package integration

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
)

// BenchmarkDeliveryStreamTimeToReady measures how long a DeliveryStream takes
// from creation to Ready against the emulator (no AWS delays, so it is the
// provider's own time), how many AWS calls that takes, and the heap the
// provider's process holds with the resources in place.
//
//	make bench
func BenchmarkDeliveryStreamTimeToReady(b *testing.B) {
	t := &testing.T{}
	s := provider(t)
	ns := fmt.Sprintf("bench-%d", time.Now().UnixNano()%100000)
	ensureNamespace(t, ns)
	if err := cp.Client.Create(context.Background(), secretWith(ns, "endpoint-key", "accessKey", accessKey)); err != nil {
		b.Fatal(err)
	}
	var calls int
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		name := fmt.Sprintf("bench-%s-%d", ns[len(ns)-5:], i)
		mg := newStream(t, ns, name)
		mg.Spec.ForProvider.Tags = nil
		if err := cp.Client.Create(context.Background(), mg); err != nil {
			b.Fatal(err)
		}
		for {
			if err := cp.Client.Get(context.Background(), client.ObjectKeyFromObject(mg), mg); err != nil {
				b.Fatal(err)
			}
			if c := mg.GetCondition("Ready"); c.Status == "True" {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		for _, n := range s.aws.CallsFor(name) {
			calls += n
		}
	}
	b.StopTimer()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	b.ReportMetric(float64(calls)/float64(b.N), "aws-calls/op")
	b.ReportMetric(float64(m.HeapInuse)/(1<<20), "heap-MiB")
	list := &v1alpha1.DeliveryStreamList{}
	_ = cp.Client.List(context.Background(), list)
	for i := range list.Items {
		if list.Items[i].Namespace == ns {
			_ = cp.Client.Delete(context.Background(), &list.Items[i])
		}
	}
}
