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
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	agentcorev1alpha1 "github.com/cloudkinds/provider-aws-services/apis/agentcorecontrol/v1alpha1"
	eventbusv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/eventbus/v1alpha1"
	mlplatformv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/mlplatform/v1alpha1"
	notificationv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/notification/v1alpha1"
	streamingv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	subscriptionctl "github.com/cloudkinds/provider-aws-services/internal/kinds/notification/subscription"
	awscontroller "github.com/cloudkinds/provider-aws-services/internal/provider"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/ownership"
)

// The stack's provider keeps its ownership claims in "default", and its
// emulator's account and region are these.
const (
	claimsNamespace = "default"
	stackAccount    = "000000000000"
	stackRegion     = "us-east-1"
)

// identityOf is the AWS identity mg asks for, as its claim names it.
func identityOf(mg resource.Managed) ownership.Identity {
	// Every object of the suite calls the stack's emulator, whose endpoint
	// is part of the identity.
	id := ownership.Identity{Endpoint: theStack.url, Account: stackAccount, Region: stackRegion}
	switch o := mg.(type) {
	case *streamingv1alpha1.DeliveryStream:
		id.Kind, id.Fields = streamingv1alpha1.DeliveryStreamGroupVersionKind.GroupKind(), o.Spec.ForProvider.DeliveryStreamName
	case *eventbusv1alpha1.Endpoint:
		id.Kind, id.Fields = eventbusv1alpha1.EndpointGroupVersionKind.GroupKind(), o.Spec.ForProvider.Name
	case *mlplatformv1alpha1.EndpointConfig:
		id.Kind, id.Fields = mlplatformv1alpha1.EndpointConfigGroupVersionKind.GroupKind(), o.Spec.ForProvider.EndpointConfigName
	case *agentcorev1alpha1.APIKeyCredentialProvider:
		id.Kind, id.Fields = agentcorev1alpha1.APIKeyCredentialProviderGroupVersionKind.GroupKind(), o.Spec.ForProvider.Name
	case *notificationv1alpha1.Subscription:
		id.Kind, id.Fields = notificationv1alpha1.SubscriptionGroupVersionKind.GroupKind(), subscriptionctl.Identity(o)
	}
	return id
}

// claims are the claims of mg's kind, read and written as the provider
// does, straight from the API server.
func claims(mg resource.Managed) *ownership.Claims {
	gk := identityOf(mg).Kind
	newObject := func() client.Object { return mg.DeepCopyObject().(client.Object) } //nolint:forcetypeassert // a managed resource
	return ownership.NewClaims(claimsNamespace, gk.WithVersion("v1alpha1"), newObject, cp.Client, cp.Client, cp.Client)
}

// claimAsTheProvider claims mg's identity for a create, as the provider does
// before its create call.
func claimAsTheProvider(t *testing.T, mg resource.Managed) {
	t.Helper()
	id := identityOf(mg)
	cl, err := claims(mg).Take(context.Background(), id, ownership.OwnerFor(id.Kind, mg), mg.GetUID(), ownership.ToCreate)
	if err != nil {
		t.Fatal(err)
	}
	if cl.Holder != mg.GetUID() {
		t.Fatalf("the claim of %s is held by %s", id, cl.Owner)
	}
}

// claimOf is the claim of mg's identity, read from the API server; the zero
// claim when there is none.
func claimOf(t *testing.T, mg resource.Managed) ownership.Claim {
	t.Helper()
	cl, err := claims(mg).Get(context.Background(), identityOf(mg), "")
	if err != nil {
		t.Fatal(err)
	}
	if cl == nil {
		return ownership.Claim{}
	}
	return *cl
}

// claimHolder is the UID that holds mg's identity; "" when none does.
func claimHolder(t *testing.T, mg resource.Managed) string {
	t.Helper()
	return string(claimOf(t, mg).Holder)
}

// claimPurpose is what mg's identity is claimed for; "" when it is not.
func claimPurpose(t *testing.T, mg resource.Managed) ownership.Purpose {
	t.Helper()
	return claimOf(t, mg).Purpose
}

// claimLease is the Lease of mg's claim, read from the API server.
func claimLease(t *testing.T, mg resource.Managed) *coordinationv1.Lease {
	t.Helper()
	l := &coordinationv1.LeaseList{}
	if err := cp.Client.List(context.Background(), l, client.InNamespace(claimsNamespace), client.MatchingLabels{ownership.LabelHolder: string(mg.GetUID())}); err != nil {
		t.Fatal(err)
	}
	if len(l.Items) != 1 {
		t.Fatalf("%d claims held by %s, want 1", len(l.Items), mg.GetName())
	}
	return &l.Items[0]
}

// upgradeNow moves the time since when the provider keeps claims to now, as
// if it had been upgraded now from a release that kept none: objects made
// before are that release's.
func upgradeNow(t *testing.T) {
	t.Helper()
	eventually(t, 10*time.Second, "the claims era moved", func() error {
		l := &coordinationv1.Lease{}
		if err := cp.Client.Get(context.Background(), client.ObjectKey{Namespace: claimsNamespace, Name: ownership.EraLease}, l); err != nil {
			return err
		}
		l.Annotations[ownership.AnnotationClaimsSince] = time.Now().UTC().Format(time.RFC3339Nano)
		return cp.Client.Update(context.Background(), l)
	})
}

// paused creates mg with its reconciles paused, so that a test can set the
// scene around its UID; resume lets the provider at it.
func paused(t *testing.T, mg resource.Managed) {
	t.Helper()
	meta.AddAnnotations(mg, map[string]string{meta.AnnotationKeyReconciliationPaused: "true"})
	create(t, mg)
}

func resume(t *testing.T, mg resource.Managed) {
	t.Helper()
	change(t, mg, func(o resource.Managed) { meta.RemoveAnnotations(o, meta.AnnotationKeyReconciliationPaused) })
}

// BenchmarkMemoryOfClaims measures what the provider's cache holds for its
// ownership claims: CLAIMS (default 5000) claims are recorded as the
// provider records them, a cache made with the provider's options for Leases
// syncs them, and the heap it keeps is reported, in all and per claim.
//
//	go test -tags integration -run '^$' -bench BenchmarkMemoryOfClaims -benchtime 1x ./test/integration/
func BenchmarkMemoryOfClaims(b *testing.B) {
	n := 5000
	if v, err := strconv.Atoi(os.Getenv("CLAIMS")); err == nil && v > 0 {
		n = v
	}
	ctx := context.Background()
	ns := "claims-bench-" + strconv.FormatInt(time.Now().UnixNano()%100000, 10)
	if err := cp.Client.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil {
		b.Fatal(err)
	}
	gk := streamingv1alpha1.DeliveryStreamGroupVersionKind.GroupKind()
	c := ownership.NewClaims(ns, gk.WithVersion("v1alpha1"), func() client.Object { return &streamingv1alpha1.DeliveryStream{} }, cp.Client, cp.Client, cp.Client)
	for i := range n {
		id := ownership.Identity{Account: stackAccount, Region: stackRegion, Kind: gk, Fields: fmt.Sprintf("stream-%05d", i)}
		owner := ownership.Owner{Kind: "deliverystream.streaming.services.k8s.aws", Namespace: "team-" + strconv.Itoa(i%50), Name: fmt.Sprintf("stream-%05d", i), UID: types.UID(fmt.Sprintf("0b7c5d2e-0000-4000-8000-%012d", i))}
		if _, err := c.Take(ctx, id, owner, owner.UID, ownership.ToCreate); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		opts := awscontroller.CacheOptions(time.Hour, ns)
		opts.Scheme = cp.Scheme
		informers, err := cache.New(cp.Config, opts)
		if err != nil {
			b.Fatal(err)
		}
		cctx, cancel := context.WithCancel(ctx)
		go func() { _ = informers.Start(cctx) }()
		l := &coordinationv1.LeaseList{}
		for {
			if err := informers.List(cctx, l, client.InNamespace(ns)); err == nil && len(l.Items) == n {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		l = nil
		runtime.GC()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		heap := float64(after.HeapAlloc) - float64(before.HeapAlloc)
		b.ReportMetric(heap/(1<<20), "MiB-heap")
		b.ReportMetric(heap/float64(n), "B/claim")
		runtime.KeepAlive(informers)
		cancel()
	}
}

// handOver does what an admin does to hand what another namespace retained
// to namespace: it annotates the claim of mg's identity.
func handOver(t *testing.T, mg resource.Managed, namespace string) {
	t.Helper()
	ns, name, _ := strings.Cut(claims(mg).Lease(identityOf(mg)), "/")
	eventually(t, 10*time.Second, "the claim handed over", func() error {
		l := &coordinationv1.Lease{}
		if err := cp.Client.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: name}, l); err != nil {
			return err
		}
		if claimOf(t, mg).Purpose != ownership.Retained {
			return fmt.Errorf("the claim is not retained: %+v", claimOf(t, mg))
		}
		l.Annotations[ownership.AnnotationHandedTo] = namespace
		return cp.Client.Update(context.Background(), l)
	})
}
