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

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/internal/tenancy/ownership"
)

func ensureSecret(t *testing.T, s *corev1.Secret) {
	t.Helper()
	if err := cp.Client.Create(context.Background(), s); err != nil && !strings.Contains(err.Error(), "already exists") {
		t.Fatal(err)
	}
}

// refused waits until mg says it does not manage its resource, in words
// that contain every one of says, and checks that it is not Ready.
func refused(t *testing.T, mg resource.Managed, says ...string) {
	t.Helper()
	eventually(t, 30*time.Second, mg.GetNamespace()+"/"+mg.GetName()+" refused", func() error {
		synced, err := conditionOf(t, mg, xpv2.TypeSynced)
		if err != nil {
			return err
		}
		if synced.Status != corev1.ConditionFalse || !strings.Contains(synced.Message, "this object does not manage it") {
			return fmt.Errorf("Synced=%s: %s", synced.Status, synced.Message)
		}
		for _, s := range says {
			if !strings.Contains(synced.Message, s) {
				return fmt.Errorf("the message does not say %q: %s", s, synced.Message)
			}
		}
		return nil
	})
	if r := mg.GetCondition(xpv2.TypeReady); r.Status == corev1.ConditionTrue {
		t.Errorf("a refused object is Ready: %+v", r)
	}
	if strings.Contains(mg.GetCondition(xpv2.TypeSynced).Message, "delete") {
		t.Errorf("the refusal advises deleting something: %s", mg.GetCondition(xpv2.TypeSynced).Message)
	}
	eventually(t, 10*time.Second, "a Warning event of the refusal", func() error {
		events := &corev1.EventList{}
		if err := cp.Client.List(context.Background(), events, client.InNamespace(mg.GetNamespace())); err != nil {
			return err
		}
		for _, e := range events.Items {
			if e.InvolvedObject.Name == mg.GetName() && e.Type == corev1.EventTypeWarning && strings.Contains(e.Message, "this object does not manage it") {
				return nil
			}
		}
		return fmt.Errorf("none among %d events", len(events.Items))
	})
}

// tellsNothingOf checks that nothing mg's namespace reads of the refusal,
// its conditions and its Events, names the namespace other.
func tellsNothingOf(t *testing.T, mg resource.Managed, other string) {
	t.Helper()
	if err := cp.Client.Get(context.Background(), client.ObjectKeyFromObject(mg), mg); err != nil {
		t.Fatal(err)
	}
	for _, c := range []xpv2.ConditionType{xpv2.TypeSynced, xpv2.TypeReady} {
		if m := mg.GetCondition(c).Message; strings.Contains(m, other) {
			t.Errorf("%s of %s/%s names namespace %s: %s", c, mg.GetNamespace(), mg.GetName(), other, m)
		}
	}
	events := &corev1.EventList{}
	if err := cp.Client.List(context.Background(), events, client.InNamespace(mg.GetNamespace())); err != nil {
		t.Fatal(err)
	}
	for _, e := range events.Items {
		if strings.Contains(e.Message, other) {
			t.Errorf("an Event in %s names namespace %s: %s", mg.GetNamespace(), other, e.Message)
		}
	}
}

// TestOneAWSResourceOneOwner is the ownership table of every kind: team B
// asking for what team A's object manages is refused, costs team A nothing
// (no value changes on AWS, no write is sent, deleting B deletes nothing of
// A's), cannot adopt it while A exists, and can once A is gone with its
// resource orphaned; a resource made outside the cluster is refused until
// its adoption is asked for.
func TestOneAWSResourceOneOwner(t *testing.T) {
	s := provider(t)
	ctx := context.Background()
	for _, k := range ownedKinds(t, s) {
		t.Run(k.name, func(t *testing.T) {
			// The kinds share nothing: their calls and writes are counted
			// per resource or per operation of their own service.
			t.Parallel()
			teamA, teamB := namespace(t), namespace(t)
			name := short("owned")

			a := k.object(t, teamA, name)
			create(t, a)
			eventually(t, 30*time.Second, "team A Ready", func() error { return isReady(t, a) })
			state, err := k.state(ctx, a)
			if err != nil {
				t.Fatal(err)
			}
			creates := s.aws.CallCount(k.creates)
			if k.tags != nil {
				tags, err := k.tags(ctx, a)
				if err != nil {
					t.Fatal(err)
				}
				if owner, ok := ownership.OwnerOf(tags); !ok || owner.Namespace != teamA || owner.Name != name {
					t.Errorf("team A's resource is not tagged as A's: %v", tags)
				}
			}

			// Team B asks for the same AWS identity, with other values.
			b := k.object(t, teamB, name)
			k.vary(b)
			before := providerWritesNow(s, k.counted(a))
			create(t, b)
			refused(t, b, "belongs to an object of another namespace")
			tellsNothingOf(t, b, teamA)
			if w := subtract(providerWrites(s, k.counted(a), 5), before); len(w) != 0 {
				t.Errorf("writes to team A's resource while team B asks for it: %v", w)
			}
			if now, err := k.state(ctx, a); err != nil || now != state {
				t.Errorf("team A's resource changed on AWS (%v):\nbefore %s\nnow    %s", err, state, now)
			}

			// Even asking to adopt it, B cannot take it while A manages it.
			change(t, b, func(mg resource.Managed) {
				meta.AddAnnotations(mg, map[string]string{ownership.AnnotationAdoptionPolicy: ownership.AdoptionPolicyAdopt})
			})
			refused(t, b, "cannot adopt it while")

			// Deleting B deletes only B.
			remove(t, b)
			time.Sleep(2 * testPoll)
			if now, err := k.state(ctx, a); err != nil || now != state {
				t.Errorf("team A's resource changed on AWS after team B's object was deleted (%v):\nbefore %s\nnow    %s", err, state, now)
			}
			if n := s.aws.CallCount(k.creates) - creates; n != 0 {
				t.Errorf("%d creates after team B came and went: team A's resource was made again", n)
			}
			if err := isReady(t, a); err != nil {
				t.Errorf("team A: %v", err)
			}
			if w := subtract(providerWritesNow(s, k.counted(a)), before); len(w) != 0 {
				t.Errorf("writes to team A's resource while team B came and went: %v", w)
			}

			// A leaves its resource behind (Crossplane v2's orphaning:
			// management policies without Delete); it stays team A's
			// namespace's, and B may adopt it once an admin hands it over.
			change(t, a, func(mg resource.Managed) {
				mg.SetManagementPolicies(xpv2.ManagementPolicies{xpv2.ManagementActionObserve, xpv2.ManagementActionCreate, xpv2.ManagementActionUpdate, xpv2.ManagementActionLateInitialize})
			})
			remove(t, a)
			if _, err := k.state(ctx, a); err != nil {
				t.Fatalf("the orphaned resource is gone: %v", err)
			}
			adopter := k.object(t, teamB, name)
			adopter.SetAnnotations(map[string]string{ownership.AnnotationAdoptionPolicy: ownership.AdoptionPolicyAdopt})
			create(t, adopter)
			refused(t, adopter, "was kept on AWS for its namespace by an object of another namespace", ownership.AnnotationHandedTo)
			tellsNothingOf(t, adopter, teamA)
			handOver(t, adopter, teamB)
			eventually(t, 30*time.Second, "team B's adoption Ready", func() error { return isReady(t, adopter) })
			if n := s.aws.CallCount(k.creates) - creates; n != 0 {
				t.Errorf("adoption made %d creates", n)
			}
			if k.tags != nil {
				eventually(t, 10*time.Second, "owner tags now team B's", func() error {
					tags, err := k.tags(ctx, adopter)
					if err != nil {
						return err
					}
					if owner, ok := ownership.OwnerOf(tags); !ok || owner.Namespace != teamB || owner.Name != name {
						return fmt.Errorf("owner tags %v", tags)
					}
					return nil
				})
			}
			remove(t, adopter)
			eventually(t, 30*time.Second, "the adopted resource deleted with its adopter", func() error {
				if _, err := k.state(ctx, adopter); err == nil {
					return fmt.Errorf("still there")
				}
				return nil
			})

			// A resource made outside the cluster: refused, until adopted.
			outsiderName := short("outside")
			stranger := k.object(t, teamA, outsiderName)
			if err := k.outside(ctx, stranger); err != nil {
				t.Fatal(err)
			}
			outside, err := k.state(ctx, stranger)
			if err != nil {
				t.Fatal(err)
			}
			create(t, stranger)
			refused(t, stranger, "made outside this cluster", ownership.AnnotationAdoptionPolicy)
			time.Sleep(2 * testPoll)
			if now, err := k.state(ctx, stranger); err != nil || now != outside {
				t.Errorf("the outsider's resource changed on AWS without adoption (%v):\nbefore %s\nnow    %s", err, outside, now)
			}
			change(t, stranger, func(mg resource.Managed) {
				meta.AddAnnotations(mg, map[string]string{ownership.AnnotationAdoptionPolicy: ownership.AdoptionPolicyAdopt})
			})
			eventually(t, 30*time.Second, "adopted once asked", func() error { return isReady(t, stranger) })
			remove(t, stranger)
		})
	}
}
