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
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	eventbusv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/eventbus/v1alpha1"
)

// TestReconcileRequestedAt asks for a reconcile with crossplane-runtime's
// crossplane.io/reconcile-requested-at annotation: the provider records the
// token it handled in status.lastHandledReconcileAt, with an event, and the
// reconcile compares the resource with AWS (a description changed outside
// is restored). A token handled once is not handled again.
func TestReconcileRequestedAt(t *testing.T) {
	s := provider(t)
	mg := newEndpoint(namespace(t), "reconcile-requested")
	create(t, mg)
	eventually(t, 30*time.Second, "Ready", func() error { return isReady(t, mg) })

	if _, err := eventbridge.NewFromConfig(outsiderConfig(s)).UpdateEndpoint(t.Context(), &eventbridge.UpdateEndpointInput{
		Name: aws.String(mg.Spec.ForProvider.Name), Description: aws.String("changed outside"),
	}); err != nil {
		t.Fatal(err)
	}
	change(t, mg, func(mg *eventbusv1alpha1.Endpoint) {
		meta.AddAnnotations(mg, map[string]string{meta.AnnotationKeyReconcileRequestedAt: "2026-11-27T15:00:00Z"})
	})
	eventually(t, 20*time.Second, "the token handled", func() error {
		if err := cp.Client.Get(t.Context(), client.ObjectKeyFromObject(mg), mg); err != nil {
			return err
		}
		if got := mg.Status.LastHandledReconcileAt; got != "2026-11-27T15:00:00Z" {
			return fmt.Errorf("status.lastHandledReconcileAt is %q", got)
		}
		return nil
	})
	eventually(t, 20*time.Second, "the description restored", func() error {
		out, err := eventbridge.NewFromConfig(outsiderConfig(s)).DescribeEndpoint(t.Context(), &eventbridge.DescribeEndpointInput{Name: aws.String(mg.Spec.ForProvider.Name)})
		if err != nil {
			return err
		}
		if got := aws.ToString(out.Description); got != aws.ToString(mg.Spec.ForProvider.Description) {
			return fmt.Errorf("description %q", got)
		}
		return nil
	})
	eventually(t, 10*time.Second, "the event", func() error {
		events := &corev1.EventList{}
		if err := cp.Client.List(t.Context(), events, client.InNamespace(mg.Namespace)); err != nil {
			return err
		}
		for _, e := range events.Items {
			if e.InvolvedObject.Name == mg.Name && e.Reason == "ReconcileRequestHandled" {
				return nil
			}
		}
		return errors.New("no ReconcileRequestHandled event")
	})
}
