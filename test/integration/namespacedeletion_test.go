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
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	streamingv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	apisv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/usage"
	"github.com/cloudkinds/provider-aws-services/test/controlplane"
)

// TestANamespaceDeletedWhole: a namespace deleted whole, with one object of
// every kind and, through a ProviderConfig, the config and its credentials
// Secret. Kubernetes' namespace controller (kube-controllers, beside the test
// control plane) deletes everything in it at once, the Secret, the usages and
// the config among the objects: every AWS resource is deleted, no claim is
// left, and the Namespace goes, so that nothing in it was left behind.
func TestANamespaceDeletedWhole(t *testing.T) {
	s := provider(t)
	for _, through := range []string{apisv1alpha1.ProviderConfigKind, apisv1alpha1.ClusterProviderConfigKind} {
		t.Run(through, func(t *testing.T) {
			ctx := context.Background()
			ns := namespace(t)
			ref := emulatorConfig()
			if through == apisv1alpha1.ProviderConfigKind {
				create(t, secretWith(ns, "aws", "credentials", "[default]\naws_access_key_id = AKIDSWEPT\naws_secret_access_key = s\n"))
				create(t, &apisv1alpha1.ProviderConfig{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "own"}, Spec: apisv1alpha1.ProviderConfigSpec{
					Credentials: apisv1alpha1.ProviderCredentials{Source: apisv1alpha1.CredentialsSourceSecret,
						SecretRef: &xpv2.SecretKeySelector{SecretReference: xpv2.SecretReference{Name: "aws", Namespace: ns}, Key: "credentials"}},
					Region:   aws.String("us-east-1"),
					Endpoint: &apisv1alpha1.EndpointOverride{URL: s.url},
				}})
				ref = &xpv2.ProviderConfigReference{Kind: apisv1alpha1.ProviderConfigKind, Name: "own"}
			}
			kinds := ownedKinds(t, s)
			objects := make([]resource.Managed, 0, len(kinds))
			for _, k := range kinds {
				mg := k.object(t, ns, short("swept"))
				mg.(resource.ModernManaged).SetProviderConfigReference(ref) //nolint:forcetypeassert // every kind is one
				create(t, mg)
				objects = append(objects, mg)
			}
			for _, mg := range objects {
				eventually(t, 60*time.Second, mg.GetName()+" Ready", func() error { return isReady(t, mg) })
			}
			if through == apisv1alpha1.ProviderConfigKind {
				eventually(t, 20*time.Second, "the credentials Secret kept while in use", func() error {
					sec := &corev1.Secret{}
					if err := cp.Client.Get(ctx, client.ObjectKey{Namespace: ns, Name: "aws"}, sec); err != nil {
						return err
					}
					if !meta.FinalizerExists(sec, "aws.services.k8s.aws/credentials-in-use") {
						return fmt.Errorf("finalizers %v", sec.Finalizers)
					}
					return nil
				})
			}

			// Deleting the Namespace is all a user does; the namespace
			// controller deletes what is in it.
			if err := cp.Client.Delete(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			eventually(t, 3*time.Minute, "the namespace gone", func() error { return controlplane.NamespaceGone(ctx, cp.Client, ns) })
			gone := time.Since(start)
			for i, mg := range objects {
				k := kinds[i]
				eventually(t, 30*time.Second, mg.GetName()+" gone from AWS, its claim released", func() error {
					if _, err := k.state(ctx, mg); err == nil {
						return fmt.Errorf("the %s is still on AWS", k.name)
					}
					if cl := claimOf(t, mg); cl.Holder != "" {
						return fmt.Errorf("its claim is still held, by %s", cl.Holder)
					}
					return nil
				})
			}
			t.Logf("teardown through a %s: the namespace gone after %s, AWS and the claims clean after %s", through,
				gone.Round(100*time.Millisecond), time.Since(start).Round(100*time.Millisecond))
		})
	}
}

// TestAnAbandonedResourceIsReported: a tenant removing an object's finalizer
// makes it go without the provider deleting its AWS resource; the sweep
// reports it (an Event naming it), releases its usage and its claim.
func TestAnAbandonedResourceIsReported(t *testing.T) {
	provider(t)
	ctx := context.Background()
	ns := namespace(t)
	mg := newStream(t, ns, short("abandoned"))
	create(t, mg)
	eventually(t, 30*time.Second, "Ready", func() error { return isReady(t, mg) })
	uid := mg.GetUID()
	change(t, mg, func(mg *streamingv1alpha1.DeliveryStream) { meta.RemoveFinalizer(mg, managed.FinalizerName) })
	if err := cp.Client.Delete(ctx, mg); err != nil {
		t.Fatal(err)
	}
	eventually(t, 30*time.Second, "the abandonment reported, its usage and claim released", func() error {
		events := &corev1.EventList{}
		if err := cp.Client.List(ctx, events, client.InNamespace(ns)); err != nil {
			return err
		}
		reported := false
		for _, e := range events.Items {
			reported = reported || (e.Reason == string(usage.ReasonAbandoned) && e.Type == corev1.EventTypeWarning && strings.Contains(e.Message, "DeliveryStream "+ns+"/"+mg.GetName()+" went without the provider"))
		}
		if !reported {
			return fmt.Errorf("no %s event among %d", usage.ReasonAbandoned, len(events.Items))
		}
		u := &apisv1alpha1.ProviderConfigUsage{}
		if err := cp.Client.Get(ctx, client.ObjectKey{Namespace: ns, Name: string(uid)}, u); !kerrors.IsNotFound(err) {
			return fmt.Errorf("the usage stays: %w", err)
		}
		if cl := claimOf(t, mg); cl.Holder != "" {
			return fmt.Errorf("its claim is still held, by %s", cl.Holder)
		}
		return nil
	})
}
