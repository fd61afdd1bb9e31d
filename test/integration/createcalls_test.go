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
	"testing"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/watch"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
)

// callsAtReady watches mg's kind in its namespace and returns a function
// that waits until the API server shows mg Ready and Synced, and returns the
// AWS calls made for awsName by then. They are read as soon as the watch
// shows the status the provider wrote: its next look comes a poll later.
func callsAtReady(t *testing.T, s *stack, list client.ObjectList, mg resource.Managed, awsName string) func(timeout time.Duration) map[string]int {
	t.Helper()
	wc, err := client.NewWithWatch(cp.Config, client.Options{Scheme: cp.Scheme})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	w, err := wc.Watch(ctx, list, client.InNamespace(mg.GetNamespace()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	ready := make(chan map[string]int, 1)
	go func() {
		for ev := range w.ResultChan() {
			got, ok := ev.Object.(resource.Managed)
			if ev.Type != watch.Modified || !ok || got.GetName() != mg.GetName() {
				continue
			}
			r, sy := got.GetCondition(xpv2.TypeReady), got.GetCondition(xpv2.TypeSynced)
			if r.Status == corev1.ConditionTrue && sy.Status == corev1.ConditionTrue && sy.ObservedGeneration == got.GetGeneration() {
				ready <- s.aws.CallsFor(awsName)
				return
			}
		}
	}()
	return func(timeout time.Duration) map[string]int {
		t.Helper()
		select {
		case calls := <-ready:
			return calls
		case <-time.After(timeout):
			t.Fatalf("%s not Ready within %s: %v", mg.GetName(), timeout, isReady(t, mg))
			return nil
		}
	}
}

// TestNoCallACreateDoesNotNeed creates a DeliveryStream with tags, as a new
// user would, and counts the AWS calls from its create to Ready: one create,
// which sets the tags; describes until AWS shows it ACTIVE; no tag read (the
// create has just set them: the first look that finds it ACTIVE does not list
// them again), and no update (nothing differs from what the create sent).
// Once Ready, a poll lists the tags, so that a change made on AWS is still
// found.
func TestNoCallACreateDoesNotNeed(t *testing.T) {
	s := provider(t)
	ns := namespace(t)
	mg := newStream(t, ns, short("createcalls"))
	name := mg.Spec.ForProvider.DeliveryStreamName
	atReady := callsAtReady(t, s, &v1alpha1.DeliveryStreamList{}, mg, name)
	create(t, mg)

	calls := atReady(60 * time.Second)
	t.Logf("AWS calls from create to Ready: %v", calls)
	// How many describes AWS's creation takes is the re-look schedule's
	// business: at least the one that found the stream ACTIVE.
	if calls["firehose:DescribeDeliveryStream"] < 1 {
		t.Errorf("no DescribeDeliveryStream before Ready: %v", calls)
	}
	delete(calls, "firehose:DescribeDeliveryStream")
	want := map[string]int{"firehose:CreateDeliveryStream": 1}
	if diff := cmp.Diff(want, calls); diff != "" {
		t.Errorf("AWS calls from create to Ready besides the describes: -want, +got:\n%s", diff)
	}

	// Once Ready, the tags are read at the next poll as at every poll.
	eventually(t, 10*testPoll, "a tag read after Ready", func() error {
		if n := s.aws.CallsFor(name)["firehose:ListTagsForDeliveryStream"]; n == 0 {
			return fmt.Errorf("no ListTagsForDeliveryStream in %d polls after Ready", 10)
		}
		return nil
	})
	if got := writes(s.aws.CallsFor(name), "firehose"); len(got) != 1 {
		t.Errorf("AWS writes after Ready: %v; want only the create", got)
	}
	remove(t, mg)
}
