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
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/watch"
	"sigs.k8s.io/controller-runtime/pkg/client"

	agentcorev1alpha1 "github.com/cloudkinds/provider-aws-services/apis/agentcorecontrol/v1alpha1"
	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	eventbusv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/eventbus/v1alpha1"
	mlplatformv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/mlplatform/v1alpha1"
	notificationv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/notification/v1alpha1"
	streamingv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/reference"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/ownership"
)

// A write is one change of an object the API server sent to its watchers,
// as Crossplane's composite circuit breaker sees it.
type write struct {
	at       time.Time
	ready    bool // Ready and Synced True, for the generation it shows
	observed bool // Synced speaks of the object's current generation
}

// writeWatch counts the writes to the objects of one kind in one namespace,
// by watching them as Crossplane watches composed resources.
type writeWatch struct {
	mu     sync.Mutex
	writes map[string][]write
	stop   func()
}

func watchWrites(t *testing.T, list client.ObjectList, ns string) *writeWatch {
	t.Helper()
	wc, err := client.NewWithWatch(cp.Config, client.Options{Scheme: cp.Scheme})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	w, err := wc.Watch(ctx, list, client.InNamespace(ns))
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	ww := &writeWatch{writes: map[string][]write{}, stop: func() { cancel(); w.Stop() }}
	go func() {
		for ev := range w.ResultChan() {
			if ev.Type != watch.Modified {
				continue
			}
			mg, ok := ev.Object.(resource.Managed)
			if !ok {
				continue
			}
			ready, synced := mg.GetCondition(xpv2.TypeReady), mg.GetCondition(xpv2.TypeSynced)
			ww.mu.Lock()
			ww.writes[mg.GetName()] = append(ww.writes[mg.GetName()], write{
				at:       time.Now(),
				ready:    ready.Status == corev1.ConditionTrue && synced.Status == corev1.ConditionTrue && synced.ObservedGeneration == mg.GetGeneration(),
				observed: synced.ObservedGeneration == mg.GetGeneration(),
			})
			ww.mu.Unlock()
		}
	}()
	t.Cleanup(ww.stop)
	return ww
}

// count returns the writes to an object so far.
func (w *writeWatch) count(name string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.writes[name])
}

// untilReady returns how many writes the object saw up to and including the
// first that shows it Ready and Synced, counting from the from-th write; ok
// is false when none does yet.
func (w *writeWatch) untilReady(name string, from int) (int, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	ws := w.writes[name]
	for i := from; i < len(ws); i++ {
		if ws[i].ready {
			return i + 1 - from, true
		}
	}
	return len(ws) - from, false
}

// A budgetKind is one kind's object for the write budget, and a change of
// its spec that AWS takes in place.
type budgetKind struct {
	name   string
	list   client.ObjectList
	object func(t *testing.T, s *stack, ns string) resource.Managed
	change func(mg resource.Managed)
}

func budgetKinds() []budgetKind {
	return []budgetKind{
		{name: "DeliveryStream", list: &streamingv1alpha1.DeliveryStreamList{},
			object: func(t *testing.T, _ *stack, ns string) resource.Managed { return newStream(t, ns, short("writes")) },
			change: func(mg resource.Managed) {
				mg.(*streamingv1alpha1.DeliveryStream).Spec.ForProvider.HTTPEndpointDestinationConfiguration.EndpointConfiguration.URL = aws.String("https://changed.example.com/ingest")
			}},
		{name: "Subscription", list: &notificationv1alpha1.SubscriptionList{},
			object: func(t *testing.T, s *stack, ns string) resource.Managed {
				return newSubscription(ns, short("writes"), topic(t, s, short("writes")))
			},
			change: func(mg resource.Managed) {
				mg.(*notificationv1alpha1.Subscription).Spec.ForProvider.FilterPolicy = aws.String(`{"type": ["changed"]}`)
			}},
		{name: "Endpoint", list: &eventbusv1alpha1.EndpointList{},
			object: func(_ *testing.T, _ *stack, ns string) resource.Managed { return newEndpoint(ns, short("writes")) },
			change: func(mg resource.Managed) {
				mg.(*eventbusv1alpha1.Endpoint).Spec.ForProvider.Description = aws.String("changed")
			}},
		{name: "EndpointConfig", list: &mlplatformv1alpha1.EndpointConfigList{},
			object: func(t *testing.T, s *stack, ns string) resource.Managed {
				m := short("writes-model")
				model(t, s, m)
				return newEndpointConfig(ns, short("writes"), m)
			},
			change: func(mg resource.Managed) {
				mg.(*mlplatformv1alpha1.EndpointConfig).Spec.ForProvider.Tags = []common.Tag{{Key: aws.String("team"), Value: aws.String("changed")}}
			}},
		{name: "APIKeyCredentialProvider", list: &agentcorev1alpha1.APIKeyCredentialProviderList{},
			object: func(t *testing.T, _ *stack, ns string) resource.Managed {
				ensureSecret(t, secretWith(ns, "search-key", "apiKey", firstKey))
				return newAPIKeyProvider(ns, short("writes"))
			},
			change: func(mg resource.Managed) {
				mg.(*agentcorev1alpha1.APIKeyCredentialProvider).Spec.ForProvider.Tags = map[string]string{"team": "changed"}
			}},
	}
}

// Budgets of writes to a managed resource (each is a watch event that
// Crossplane's composite circuit breaker pays for).
const (
	// createBudget is the writes from the first reconcile to Ready: the
	// create-pending record (with the finalizer and the external name),
	// the create-succeeded record (with what the create recorded), the
	// status crossplane-runtime writes after every create (Creating), and
	// the status that says Ready. The first three are crossplane-runtime's
	// own and unconditional; a budget of 3 would need a reconciler of our
	// own.
	createBudget = 4
	// changeBudget is the writes from a spec change to Synced again.
	changeBudget = 2
)

// TestWritesPerCreate watches each kind's objects as Crossplane watches
// composed resources, and counts the writes to an object from its creation
// to Ready, in steady state, and from a spec change to Synced again.
func TestWritesPerCreate(t *testing.T) {
	s := provider(t)
	for _, k := range budgetKinds() {
		t.Run(k.name, func(t *testing.T) {
			// The kinds share nothing: their calls and writes are counted
			// per resource or per operation of their own service.
			t.Parallel()
			ns := namespace(t)
			ww := watchWrites(t, k.list, ns)
			mg := k.object(t, s, ns)
			create(t, mg)
			eventually(t, 60*time.Second, "Ready", func() error {
				if _, ok := ww.untilReady(mg.GetName(), 0); !ok {
					return fmt.Errorf("not Ready yet after %d writes", ww.count(mg.GetName()))
				}
				return nil
			})
			toReady, _ := ww.untilReady(mg.GetName(), 0)
			claim := claimLease(t, mg)
			time.Sleep(3*testPoll + testPoll/2)
			afterReady := ww.count(mg.GetName()) - toReady
			steadyFrom := ww.count(mg.GetName())
			time.Sleep(3*testPoll + testPoll/2)
			steady := ww.count(mg.GetName()) - steadyFrom
			// The create's one more write is its claim, never written again.
			if now := claimLease(t, mg); now.ResourceVersion != claim.ResourceVersion || now.Labels[ownership.LabelHolder] != string(mg.GetUID()) {
				t.Errorf("the claim was written again after Ready, or is not the object's: %v, then %v", claim.ObjectMeta, now.ObjectMeta)
			}

			changeFrom := ww.count(mg.GetName())
			change(t, mg, k.change)
			eventually(t, 60*time.Second, "Synced after the change", func() error {
				if _, ok := ww.untilReady(mg.GetName(), changeFrom); !ok {
					return fmt.Errorf("not Synced yet")
				}
				return nil
			})
			// The user's own write is one of them.
			toSynced, _ := ww.untilReady(mg.GetName(), changeFrom)
			time.Sleep(2*testPoll + testPoll/2)
			toSynced += ww.count(mg.GetName()) - changeFrom - toSynced
			toSynced-- // the user's change

			t.Logf("writes to a %s: create→Ready %d (+%d within 3 polls after), steady %d over 3 polls, change→Synced %d", k.name, toReady, afterReady, steady, toSynced)
			if toReady+afterReady > createBudget {
				t.Errorf("%d writes from create to Ready (and %d right after), want at most %d", toReady, afterReady, createBudget)
			}
			if steady != 0 {
				t.Errorf("%d writes in steady state over 3 polls, want 0", steady)
			}
			if toSynced > changeBudget {
				t.Errorf("%d writes from a spec change to Synced, want at most %d", toSynced, changeBudget)
			}
			remove(t, mg)
		})
	}
	t.Run("ReadyAtCreate", func(t *testing.T) {
		t.Parallel()
		readyAtCreate(t, s)
	})
	t.Run("WaitingForAReference", func(t *testing.T) {
		t.Parallel()
		waitingForAReference(t)
	})
}

// waitingForAReference: an object composed beside the Role it references
// waits for the Role without a write (no status saying it waits, no patch
// of the ARN it resolves), and once the Role is Ready it is written no more
// than any other object from create to Ready, its resolved ARN among the
// create's own writes.
func waitingForAReference(t *testing.T) {
	const roleARN = "arn:aws:iam::000000000000:role/replication"
	ns := namespace(t)
	ww := watchWrites(t, &eventbusv1alpha1.EndpointList{}, ns)
	role := &unstructured.Unstructured{}
	role.SetGroupVersionKind(reference.Role.GroupVersionKind)
	role.SetNamespace(ns)
	role.SetName("replication")
	create(t, role)
	mg := newEndpoint(ns, short("waits"))
	mg.Spec.ForProvider.RoleARN = nil
	mg.Spec.ForProvider.RoleRef = &common.ResourceReference{From: &common.ObjectReference{Name: aws.String("replication")}}
	create(t, mg)

	// The provider tries at once and again with backoff (1 s, 2 s).
	time.Sleep(4 * time.Second)
	if n := ww.count(mg.GetName()); n != 0 {
		t.Errorf("%d writes while the Role was not Ready, want 0", n)
	}
	markReady(t, role, roleARN)
	eventually(t, 60*time.Second, "Ready", func() error {
		if _, ok := ww.untilReady(mg.GetName(), 0); !ok {
			return fmt.Errorf("not Ready yet after %d writes", ww.count(mg.GetName()))
		}
		return nil
	})
	toReady, _ := ww.untilReady(mg.GetName(), 0)
	t.Logf("writes to an Endpoint waiting for its Role: %d until Ready", toReady)
	if toReady > createBudget {
		t.Errorf("%d writes from create to Ready, want at most %d", toReady, createBudget)
	}
	got := &eventbusv1alpha1.Endpoint{}
	if err := cp.Client.Get(context.Background(), client.ObjectKeyFromObject(mg), got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(aws.String(roleARN), got.Spec.ForProvider.RoleARN); diff != "" {
		t.Errorf("spec.forProvider.roleARN as stored: -want, +got:\n%s", diff)
	}
	remove(t, mg)
}

// secretGets is how many GETs of Secrets the API server has served, from
// its own metrics.
func secretGets(t *testing.T) int {
	t.Helper()
	n, err := cp.Requests(context.Background(), "GET", "secrets")
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestNoSecretReadsInSteadyState: the kinds that read a key Secret look at
// its resourceVersion at every reconcile, from the cache; the API server
// serves no GET of a Secret while nothing changes (its own request counts
// say so).
func TestNoSecretReadsInSteadyState(t *testing.T) {
	provider(t)
	ns := namespace(t)
	ensureSecret(t, secretWith(ns, "search-key", "apiKey", firstKey))
	stream, key := newStream(t, ns, short("quiet")), newAPIKeyProvider(ns, short("quiet"))
	create(t, stream)
	create(t, key)
	for _, mg := range []resource.Managed{stream, key} {
		eventually(t, 30*time.Second, "Ready", func() error { return isReady(t, mg) })
	}
	before := secretGets(t)
	time.Sleep(5*testPoll + testPoll/2)
	if n := secretGets(t) - before; n != 0 {
		t.Errorf("the API server served %d GETs of Secrets over 5 polls of resources whose Secrets did not change", n)
	}
	remove(t, stream)
	remove(t, key)
}

// readyAtCreate: the kinds whose create AWS answers with a usable resource
// (SageMaker's endpoint configuration, AgentCore's credential provider) are
// Ready from that answer, and AWS refuses their create when the name exists:
// a new object creates with no look before, and makes no call but the
// create until Ready. A poll interval of 20 s keeps the first
// periodic look out of the count. It runs beside TestWritesPerCreate's
// kinds, sharing nothing with them.
func readyAtCreate(t *testing.T, s *stack) {
	ns := namespace(t)
	name := "ready-" + ns[len(ns)-5:]
	poll := map[string]string{meta.AnnotationKeyPollInterval: "20s"}

	model(t, s, name)
	config := newEndpointConfig(ns, name, name)
	config.SetAnnotations(poll)
	create(t, secretWith(ns, "search-key", "apiKey", firstKey))
	provider := newAPIKeyProvider(ns, name)
	provider.SetAnnotations(poll)
	create(t, config)
	create(t, provider)
	eventually(t, 15*time.Second, "EndpointConfig Ready", func() error { return isReady(t, config) })
	eventually(t, 15*time.Second, "APIKeyCredentialProvider Ready", func() error { return isReady(t, provider) })

	for kind, c := range map[string]struct {
		create, look string
		arn          string
	}{
		"EndpointConfig": {
			create: "sagemaker:CreateEndpointConfig", look: "sagemaker:DescribeEndpointConfig",
			arn: aws.ToString(config.Status.AtProvider.ACKResourceMetadata.ARN),
		},
		"APIKeyCredentialProvider": {
			create: "bedrock-agentcore:CreateApiKeyCredentialProvider", look: "bedrock-agentcore:GetApiKeyCredentialProvider",
			arn: aws.ToString(provider.Status.AtProvider.ACKResourceMetadata.ARN),
		},
	} {
		calls := s.aws.CallsFor(name)
		if calls[c.create] != 1 || calls[c.look] != 0 {
			t.Errorf("%s: %d creates and %d looks until Ready, want 1 and 0 (the create answers for the look): %v", kind, calls[c.create], calls[c.look], calls)
		}
		if !strings.HasSuffix(c.arn, "/"+name) {
			t.Errorf("%s: status.atProvider.ackResourceMetadata.arn %q, want the ARN the create answered", kind, c.arn)
		}
	}
	if provider.Status.AtProvider.APIKeySecretARN == nil {
		t.Errorf("APIKeyCredentialProvider: status.atProvider.apiKeySecretARN is empty, want the secret the create answered")
	}
	remove(t, config)
	remove(t, provider)
}
