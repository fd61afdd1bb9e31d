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
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"

	eventbusv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/eventbus/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/ackannotations"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/ownership"
)

// TestDeletionPolicyRetain is ACK's deletion policy on every kind: retain,
// on the object or on its namespace (ACK's <group>/deletion-policy, or
// services.k8s.aws/deletion-policy), keeps the AWS resource when the object
// is deleted. The object goes, its finalizer removed and its claim
// released, and nothing is written to AWS. A new object then adopts what was
// kept, and its deletion deletes it: without a policy, and with delete on
// the object in a namespace that says retain.
func TestDeletionPolicyRetain(t *testing.T) {
	s := provider(t)
	ctx := context.Background()
	for _, k := range ownedKinds(t, s) {
		t.Run(k.name, func(t *testing.T) {
			t.Parallel()
			for _, where := range []string{"Object", "NamespaceOfTheGroup", "Namespace"} {
				t.Run(where, func(t *testing.T) {
					ns := namespace(t)
					name := short("retained")
					mg := k.object(t, ns, name)
					group := groupOf(t, mg)
					keptBy := map[string]string{
						"Object":              "annotation services.k8s.aws/deletion-policy is retain",
						"NamespaceOfTheGroup": "annotation " + group + "/deletion-policy of namespace \"" + ns + "\" is retain",
						"Namespace":           "annotation services.k8s.aws/deletion-policy of namespace \"" + ns + "\" is retain",
					}[where]
					switch where {
					case "Object":
						meta.AddAnnotations(mg, map[string]string{ackannotations.AnnotationDeletionPolicy: ackannotations.DeletionPolicyRetain})
					case "NamespaceOfTheGroup":
						annotateNamespace(t, ns, ackannotations.NamespaceAnnotation(group), ackannotations.DeletionPolicyRetain)
					case "Namespace":
						annotateNamespace(t, ns, ackannotations.AnnotationDeletionPolicy, ackannotations.DeletionPolicyRetain)
					}
					create(t, mg)
					eventually(t, 30*time.Second, "Ready", func() error { return isReady(t, mg) })
					state, err := k.state(ctx, mg)
					if err != nil {
						t.Fatal(err)
					}
					if h := claimHolder(t, mg); h != string(mg.GetUID()) {
						t.Fatalf("the claim is held by %q, not by the object", h)
					}
					uid := mg.GetUID()
					counted := k.counted(mg)
					before := providerWritesNow(s, counted)
					remove(t, mg)

					if w := subtract(providerWritesNow(s, counted), before); len(w) != 0 {
						t.Errorf("writes to AWS while deleting an object whose policy is retain: %v", w)
					}
					if now, err := k.state(ctx, mg); err != nil || now != state {
						t.Errorf("the retained resource changed or went (%v):\nbefore %s\nnow    %s", err, state, now)
					}
					if h := claimHolder(t, mg); h != "" {
						t.Errorf("the claim is still held, by %q", h)
					}
					eventually(t, 10*time.Second, "an event saying the resource is kept", func() error {
						return oneEvent(t, ns, uid, ackannotations.ReasonRetained, keptBy)
					})

					// A new object adopts what was kept; deleting it deletes it.
					adopter := k.object(t, ns, name)
					adopter.SetAnnotations(map[string]string{ownership.AnnotationAdoptionPolicy: ownership.AdoptionPolicyAdopt})
					if where != "Object" {
						// The object's own policy wins over its namespace's.
						meta.AddAnnotations(adopter, map[string]string{ackannotations.AnnotationDeletionPolicy: ackannotations.DeletionPolicyDelete})
					}
					create(t, adopter)
					eventually(t, 30*time.Second, "the adopter Ready", func() error { return isReady(t, adopter) })
					remove(t, adopter)
					eventually(t, 30*time.Second, "the adopted resource deleted with its adopter", func() error {
						if _, err := k.state(ctx, adopter); err == nil {
							return fmt.Errorf("still there")
						}
						return nil
					})
				})
			}
		})
	}
}

// TestDeletionPolicyInvalidDeletesNothing: a deletion policy that is neither
// retain nor delete is warned of while the object lives, and its deletion
// waits, saying why and deleting nothing, until the policy is valid: on
// the object, for every kind, and on the namespace.
func TestDeletionPolicyInvalidDeletesNothing(t *testing.T) {
	s := provider(t)
	ctx := context.Background()
	for _, k := range ownedKinds(t, s) {
		t.Run(k.name, func(t *testing.T) {
			t.Parallel()
			ns := namespace(t)
			mg := k.object(t, ns, short("invalid"))
			meta.AddAnnotations(mg, map[string]string{ackannotations.AnnotationDeletionPolicy: "Retain"})
			create(t, mg)
			eventually(t, 30*time.Second, "Ready", func() error { return isReady(t, mg) })
			says := `annotation services.k8s.aws/deletion-policy is "Retain": want "retain" or "delete"`
			eventually(t, 10*time.Second, "a warning of the invalid policy", func() error {
				return oneEvent(t, ns, mg.GetUID(), ackannotations.ReasonInvalidPolicy, says)
			})
			state, err := k.state(ctx, mg)
			if err != nil {
				t.Fatal(err)
			}
			counted := k.counted(mg)
			before := providerWritesNow(s, counted)
			if err := cp.Client.Delete(ctx, mg); err != nil {
				t.Fatal(err)
			}
			eventually(t, 30*time.Second, "the deletion refused, naming the annotation", func() error { return syncedMessage(t, mg, says) })
			time.Sleep(3 * testPoll)
			if err := cp.Client.Get(ctx, client.ObjectKeyFromObject(mg), mg); err != nil {
				t.Fatalf("the object went: %v", err)
			}
			if !meta.FinalizerExists(mg, managed.FinalizerName) {
				t.Errorf("the finalizer was removed: %v", mg.GetFinalizers())
			}
			if w := subtract(providerWritesNow(s, counted), before); len(w) != 0 {
				t.Errorf("writes to AWS while the deletion policy is invalid: %v", w)
			}
			if now, err := k.state(ctx, mg); err != nil || now != state {
				t.Errorf("the resource changed or went (%v):\nbefore %s\nnow    %s", err, state, now)
			}

			// Made valid, the deletion goes on: delete deletes.
			change(t, mg, func(mg resource.Managed) {
				meta.AddAnnotations(mg, map[string]string{ackannotations.AnnotationDeletionPolicy: ackannotations.DeletionPolicyDelete})
			})
			eventually(t, 60*time.Second, "deleted once the policy says delete", func() error { return isGone(mg) })
			eventually(t, 30*time.Second, "the resource deleted", func() error {
				if _, err := k.state(ctx, mg); err == nil {
					return fmt.Errorf("still there")
				}
				return nil
			})
		})
	}
	t.Run("Namespace", func(t *testing.T) {
		ns := namespace(t)
		mg := newEndpoint(ns, short("invalid-ns"))
		annotateNamespace(t, ns, ackannotations.NamespaceAnnotation(eventbusv1alpha1.Group), "keep")
		create(t, mg)
		eventually(t, 30*time.Second, "Ready", func() error { return isReady(t, mg) })
		before := providerWritesNow(s, []string{mg.Spec.ForProvider.Name})
		if err := cp.Client.Delete(ctx, mg); err != nil {
			t.Fatal(err)
		}
		eventually(t, 30*time.Second, "the deletion refused, naming the namespace's annotation", func() error {
			return syncedMessage(t, mg, `annotation eventbus.services.k8s.aws/deletion-policy of namespace "`+ns+`" is "keep"`)
		})
		if w := subtract(providerWritesNow(s, []string{mg.Spec.ForProvider.Name}), before); len(w) != 0 {
			t.Errorf("writes to AWS while the namespace's deletion policy is invalid: %v", w)
		}
		// The namespace made valid, the next retry lets the object go.
		annotateNamespace(t, ns, ackannotations.NamespaceAnnotation(eventbusv1alpha1.Group), ackannotations.DeletionPolicyRetain)
		eventually(t, 90*time.Second, "let go once the namespace says retain", func() error { return isGone(mg) })
		if w := subtract(providerWritesNow(s, []string{mg.Spec.ForProvider.Name}), before); len(w) != 0 {
			t.Errorf("writes to AWS for a retained resource: %v", w)
		}
		cleanUp := newEndpoint(ns, mg.Spec.ForProvider.Name)
		cleanUp.SetAnnotations(map[string]string{ownership.AnnotationAdoptionPolicy: ownership.AdoptionPolicyAdopt, ackannotations.AnnotationDeletionPolicy: ackannotations.DeletionPolicyDelete})
		create(t, cleanUp)
		eventually(t, 30*time.Second, "adopted", func() error { return isReady(t, cleanUp) })
		remove(t, cleanUp)
	})
}

// TestUnsupportedACKAnnotationWarnedOnce: an ACK annotation the provider
// does not honour gets one Warning event naming it, however often the
// object is reconciled; the ones it honours get none.
func TestUnsupportedACKAnnotationWarnedOnce(t *testing.T) {
	s := provider(t)
	ns := namespace(t)
	mg := newEndpoint(ns, short("ack"))
	mg.SetAnnotations(map[string]string{
		"services.k8s.aws/region":               "eu-west-1",
		"services.k8s.aws/owner-account-id":     "111122223333",
		ackannotations.AnnotationDeletionPolicy: ackannotations.DeletionPolicyDelete,
	})
	create(t, mg)
	eventually(t, 30*time.Second, "Ready", func() error { return isReady(t, mg) })
	describes := func() int { return s.aws.CallsFor(mg.Spec.ForProvider.Name)["events:DescribeEndpoint"] }
	from := describes()
	// Reconciles of every cause: polls, a spec change, a change of the
	// unsupported annotation's value.
	time.Sleep(3 * testPoll)
	change(t, mg, func(mg *eventbusv1alpha1.Endpoint) { mg.Spec.ForProvider.Description = aws.String("changed") })
	eventually(t, 30*time.Second, "Ready after the change", func() error { return isReady(t, mg) })
	change(t, mg, func(mg *eventbusv1alpha1.Endpoint) {
		meta.AddAnnotations(mg, map[string]string{"services.k8s.aws/region": "eu-west-2"})
	})
	time.Sleep(3 * testPoll)
	if n := describes() - from; n < 4 {
		t.Fatalf("only %d reconciles reached AWS: too few to show the warnings are not repeated", n)
	}
	for _, k := range []string{"services.k8s.aws/owner-account-id", "services.k8s.aws/region"} {
		if err := oneEvent(t, ns, mg.UID, ackannotations.ReasonUnsupported, "annotation "+k+" has no effect"); err != nil {
			t.Error(err)
		}
	}
	events := eventsOf(t, ns, mg.UID, ackannotations.ReasonUnsupported)
	if len(events) != 2 {
		t.Errorf("want 2 warnings, one per unsupported annotation, got %d: %v", len(events), events)
	}
	for _, e := range events {
		if strings.Contains(e.Message, "annotation "+ackannotations.AnnotationDeletionPolicy) || strings.Contains(e.Message, "managed-tag-keys") {
			t.Errorf("a warning of an annotation the provider honours: %s", e.Message)
		}
	}
	remove(t, mg)
}

// groupOf is the API group of mg's kind.
func groupOf(t *testing.T, mg resource.Managed) string {
	t.Helper()
	gvk, err := apiutil.GVKForObject(mg, cp.Scheme)
	if err != nil {
		t.Fatal(err)
	}
	return gvk.Group
}

// annotateNamespace sets annotation key of namespace ns to v.
func annotateNamespace(t *testing.T, ns, key, v string) {
	t.Helper()
	n := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}
	change(t, n, func(n *corev1.Namespace) { meta.AddAnnotations(n, map[string]string{key: v}) })
}

// eventsOf are the events of the object uid in namespace ns with reason.
func eventsOf[R ~string](t *testing.T, ns string, uid types.UID, reason R) []corev1.Event {
	t.Helper()
	l := &corev1.EventList{}
	if err := cp.Client.List(context.Background(), l, client.InNamespace(ns)); err != nil {
		t.Fatal(err)
	}
	var out []corev1.Event
	for _, e := range l.Items {
		if e.InvolvedObject.UID == uid && e.Reason == string(reason) {
			out = append(out, e)
		}
	}
	return out
}

// oneEvent says whether exactly one event of the object uid with reason
// contains says, recorded once.
func oneEvent[R ~string](t *testing.T, ns string, uid types.UID, reason R, says string) error {
	t.Helper()
	n := 0
	for _, e := range eventsOf(t, ns, uid, reason) {
		if strings.Contains(e.Message, says) {
			n += max(int(e.Count), 1)
		}
	}
	if n != 1 {
		return fmt.Errorf("%d events %s saying %q, want 1", n, reason, says)
	}
	return nil
}
