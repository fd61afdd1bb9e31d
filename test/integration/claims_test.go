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
	"testing"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	coordinationv1 "k8s.io/api/coordination/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	agentcorev1alpha1 "github.com/cloudkinds/provider-aws-services/apis/agentcorecontrol/v1alpha1"
	eventbusv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/eventbus/v1alpha1"
	mlplatformv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/mlplatform/v1alpha1"
	notificationv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/notification/v1alpha1"
	streamingv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	subscriptionctl "github.com/cloudkinds/provider-aws-services/internal/controller/notification/subscription"
	"github.com/cloudkinds/provider-aws-services/internal/ownership"
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
	id := ownership.Identity{Account: stackAccount, Region: stackRegion}
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
	return ownership.NewClaims(claimsNamespace, gk, newObject, cp.Client, cp.Client, cp.Client)
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

// claimHolder is the UID that holds mg's identity; "" when none does.
func claimHolder(t *testing.T, mg resource.Managed) string {
	t.Helper()
	cl, err := claims(mg).Get(context.Background(), identityOf(mg), "")
	if err != nil {
		t.Fatal(err)
	}
	if cl == nil {
		return ""
	}
	return string(cl.Holder)
}

// claimCount counts the provider's ownership claims.
func claimCount(t *testing.T) int {
	t.Helper()
	l := &coordinationv1.LeaseList{}
	if err := cp.Client.List(context.Background(), l, client.InNamespace(claimsNamespace), client.MatchingLabels{ownership.LabelClaim: "true"}); err != nil {
		t.Fatal(err)
	}
	return len(l.Items)
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
