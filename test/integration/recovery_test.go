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
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	agentcorev1alpha1 "github.com/cloudkinds/provider-aws-services/apis/agentcorecontrol/v1alpha1"
	eventbusv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/eventbus/v1alpha1"
	mlplatformv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/mlplatform/v1alpha1"
	notificationv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/notification/v1alpha1"
	streamingv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	ac "github.com/cloudkinds/provider-aws-services/internal/aws/agentcore"
	"github.com/cloudkinds/provider-aws-services/internal/aws/diff"
	eb "github.com/cloudkinds/provider-aws-services/internal/aws/eventbridge"
	fh "github.com/cloudkinds/provider-aws-services/internal/aws/firehose"
	sm "github.com/cloudkinds/provider-aws-services/internal/aws/sagemaker"
	snsclient "github.com/cloudkinds/provider-aws-services/internal/aws/sns"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/awsconfig"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/ownership"
	"github.com/cloudkinds/provider-aws-services/test/emulator"
)

// setupConfig is the configuration of SDK clients that reach the emulator
// directly, as the provider's lost create would have.
func setupConfig(s *stack) aws.Config {
	return aws.Config{Region: "us-east-1", BaseEndpoint: aws.String(s.url), Credentials: credentials.NewStaticCredentialsProvider("AKIDSETUP", "s", "")}
}

// An interruptedCreate is one kind's object whose provider was killed after
// its create call reached AWS and before the result was recorded: the object
// carries crossplane.io/external-create-pending and nothing after it.
type interruptedCreate struct {
	object func(t *testing.T, s *stack, ns string) resource.Managed
	// create makes the AWS resource with the provider's own request.
	create func(t *testing.T, s *stack, mg resource.Managed)
	// creates counts the create calls of the kind.
	creates string
	// count counts the AWS resources that the object's name or endpoint
	// names.
	count func(inv emulator.Inventory, mg resource.Managed) int
}

func named(names []string, name string) int {
	n := 0
	for _, x := range names {
		if x == name {
			n++
		}
	}
	return n
}

func subscribed(inv emulator.Inventory, mg resource.Managed) int {
	n := 0
	for _, s := range inv.Subscriptions {
		if s.Endpoint == aws.ToString(mg.(*notificationv1alpha1.Subscription).Spec.ForProvider.Endpoint) {
			n++
		}
	}
	return n
}

func interruptedCreates() map[string]interruptedCreate {
	ctx := context.Background()
	must := func(t *testing.T, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	return map[string]interruptedCreate{
		"DeliveryStream": {
			object: func(t *testing.T, _ *stack, ns string) resource.Managed { return newStream(t, ns, "interrupted") },
			create: func(t *testing.T, s *stack, mg resource.Managed) {
				p := &mg.(*streamingv1alpha1.DeliveryStream).Spec.ForProvider
				_, err := firehose.NewFromConfig(setupConfig(s)).CreateDeliveryStream(ctx, fh.CreateInput(p, aws.String(accessKey), createTags(mg, ownership.OwnerTags(streamingv1alpha1.DeliveryStreamGroupVersionKind.GroupKind(), mg))))
				must(t, err)
			},
			creates: "firehose:CreateDeliveryStream",
			count: func(inv emulator.Inventory, mg resource.Managed) int {
				return named(inv.DeliveryStreams, meta.GetExternalName(mg))
			},
		},
		"Subscription": {
			object: func(t *testing.T, s *stack, ns string) resource.Managed {
				return newSubscription(ns, "interrupted", topic(t, s, ns))
			},
			create: func(t *testing.T, s *stack, mg resource.Managed) {
				_, err := snsClient(s).Subscribe(ctx, snsclient.SubscribeInput(&mg.(*notificationv1alpha1.Subscription).Spec.ForProvider))
				must(t, err)
			},
			creates: "sns:Subscribe",
			count:   subscribed,
		},
		"Endpoint": {
			object: func(_ *testing.T, _ *stack, ns string) resource.Managed { return newEndpoint(ns, short("interrupted")) },
			create: func(t *testing.T, s *stack, mg resource.Managed) {
				_, err := eventbridge.NewFromConfig(setupConfig(s)).CreateEndpoint(ctx, eb.CreateInput(&mg.(*eventbusv1alpha1.Endpoint).Spec.ForProvider))
				must(t, err)
			},
			creates: "events:CreateEndpoint",
			count: func(inv emulator.Inventory, mg resource.Managed) int {
				return named(inv.Endpoints, meta.GetExternalName(mg))
			},
		},
		"EndpointConfig": {
			object: func(t *testing.T, s *stack, ns string) resource.Managed {
				m := short("model")
				model(t, s, m)
				return newEndpointConfig(ns, short("interrupted"), m)
			},
			create: func(t *testing.T, s *stack, mg resource.Managed) {
				_, err := sageMakerClient(s).CreateEndpointConfig(ctx, sm.CreateInput(&mg.(*mlplatformv1alpha1.EndpointConfig).Spec.ForProvider, createTags(mg, ownership.OwnerTags(mlplatformv1alpha1.EndpointConfigGroupVersionKind.GroupKind(), mg))))
				must(t, err)
			},
			creates: "sagemaker:CreateEndpointConfig",
			count: func(inv emulator.Inventory, mg resource.Managed) int {
				return named(inv.EndpointConfigs, meta.GetExternalName(mg))
			},
		},
		"APIKeyCredentialProvider": {
			object: func(t *testing.T, _ *stack, ns string) resource.Managed {
				create(t, secretWith(ns, "search-key", "apiKey", firstKey))
				return newAPIKeyProvider(ns, short("interrupted"))
			},
			create: func(t *testing.T, s *stack, mg resource.Managed) {
				p := &mg.(*agentcorev1alpha1.APIKeyCredentialProvider).Spec.ForProvider
				_, err := bedrockagentcorecontrol.NewFromConfig(setupConfig(s)).CreateApiKeyCredentialProvider(ctx, ac.CreateInput(p, []byte(firstKey), createTags(mg, ownership.OwnerTags(agentcorev1alpha1.APIKeyCredentialProviderGroupVersionKind.GroupKind(), mg))))
				must(t, err)
			},
			creates: "bedrock-agentcore:CreateApiKeyCredentialProvider",
			count: func(inv emulator.Inventory, mg resource.Managed) int {
				return named(inv.APIKeyCredentialProviders, meta.GetExternalName(mg))
			},
		},
	}
}

// interrupt marks mg as a provider killed mid-create leaves it.
func interrupt(mg resource.Managed) {
	meta.SetExternalCreatePending(mg, time.Now().Add(-time.Minute))
	if _, ok := mg.(*notificationv1alpha1.Subscription); !ok {
		// The initializer had set the external name before the create.
		meta.SetExternalName(mg, nameOf(mg))
	}
}

func nameOf(mg resource.Managed) string {
	switch o := mg.(type) {
	case *streamingv1alpha1.DeliveryStream:
		return o.Spec.ForProvider.DeliveryStreamName
	case *eventbusv1alpha1.Endpoint:
		return o.Spec.ForProvider.Name
	case *mlplatformv1alpha1.EndpointConfig:
		return o.Spec.ForProvider.EndpointConfigName
	case *agentcorev1alpha1.APIKeyCredentialProvider:
		return o.Spec.ForProvider.Name
	}
	return ""
}

func TestAnInterruptedCreateIsRecoveredByLooking(t *testing.T) {
	s := provider(t)
	for kind, tc := range interruptedCreates() {
		t.Run(kind, func(t *testing.T) {
			// The kinds share nothing: their calls and writes are counted
			// per resource or per operation of their own service.
			t.Parallel()
			// An interrupted create either reached AWS or did not.
			for _, reached := range []bool{true, false} {
				ns := namespace(t)
				mg := tc.object(t, s, ns)
				before := s.aws.CallCount(tc.creates)
				// What a killed provider leaves: the claim it took and
				// the create-pending record, then the create's work if
				// the call reached AWS (with owner tags naming the
				// object's UID).
				interrupt(mg)
				paused(t, mg)
				claimAsTheProvider(t, mg)
				if reached {
					tc.create(t, s, mg)
				}
				resume(t, mg)
				eventually(t, 60*time.Second, kind+" Ready after an interrupted create", func() error { return isReady(t, mg) })

				// One create in all: the lost one, found by looking, or
				// the provider's own when the lost one never reached AWS.
				if got := s.aws.CallCount(tc.creates) - before; got != 1 {
					t.Errorf("reached AWS %v: %d create calls, want 1", reached, got)
				}
				if n := tc.count(s.aws.Inventory(), mg); n != 1 {
					t.Errorf("reached AWS %v: %d AWS resources for the object, want exactly 1", reached, n)
				}
				if m := syncedText(t, mg); strings.Contains(m, "cannot determine creation result") {
					t.Errorf("the object still says %q", m)
				}
				remove(t, mg)
				eventually(t, 30*time.Second, "AWS resource of a deleted "+kind, func() error {
					if n := tc.count(s.aws.Inventory(), mg); n != 0 {
						return fmt.Errorf("%d left", n)
					}
					return nil
				})
			}
		})
	}
}

// A Subscription whose ARN was lost and whose spec changed since: SNS refuses
// to subscribe again with other attributes, and deleting it must still
// unsubscribe.
func TestASubscriptionWhoseARNWasLostAfterItsSpecChanged(t *testing.T) {
	s := provider(t)
	ns := namespace(t)
	mg := newSubscription(ns, "lost-arn", topic(t, s, ns))
	if _, err := snsClient(s).Subscribe(context.Background(), snsclient.SubscribeInput(&mg.Spec.ForProvider)); err != nil {
		t.Fatal(err)
	}
	mg.Spec.ForProvider.FilterPolicy = aws.String(`{"type": ["order_shipped"]}`)
	// What the killed provider left: its claim, taken before the
	// subscribe, and the create-pending record.
	interrupt(mg)
	paused(t, mg)
	claimAsTheProvider(t, mg)
	resume(t, mg)
	eventually(t, 30*time.Second, "Ready", func() error { return isReady(t, mg) })
	inv := s.aws.Inventory()
	if n := subscribed(inv, mg); n != 1 {
		t.Fatalf("%d subscriptions, want 1", n)
	}
	out, err := snsClient(s).GetSubscriptionAttributes(context.Background(), &sns.GetSubscriptionAttributesInput{SubscriptionArn: aws.String(meta.GetExternalName(mg))})
	if err != nil {
		t.Fatal(err)
	}
	if !diff.JSONEqual(out.Attributes["FilterPolicy"], `{"type": ["order_shipped"]}`) {
		t.Errorf("the changed filter policy did not reach SNS: %s", out.Attributes["FilterPolicy"])
	}

	// The same loss again, now on the way out: the object is deleted
	// before its ARN was recorded.
	ns2 := namespace(t)
	lost := newSubscription(ns2, "lost-on-delete", topic(t, s, ns2))
	if _, err := snsClient(s).Subscribe(context.Background(), snsclient.SubscribeInput(&lost.Spec.ForProvider)); err != nil {
		t.Fatal(err)
	}
	interrupt(lost)
	// Paused, the object is deleted before the provider saw it again.
	lost.Finalizers = []string{"finalizer.managedresource.crossplane.io"}
	paused(t, lost)
	claimAsTheProvider(t, lost)
	unsubscribed := s.aws.CallCount("sns:Unsubscribe")
	if err := cp.Client.Delete(context.Background(), lost); err != nil {
		t.Fatal(err)
	}
	change(t, lost, func(mg *notificationv1alpha1.Subscription) {
		delete(mg.Annotations, meta.AnnotationKeyReconciliationPaused)
	})
	eventually(t, 45*time.Second, "deletion", func() error { return isGone(lost) })
	if n := subscribed(s.aws.Inventory(), lost); n != 0 {
		t.Errorf("deleting a Subscription whose ARN was lost left %d subscriptions in SNS", n)
	}
	if n := s.aws.CallCount("sns:Unsubscribe") - unsubscribed; n != 1 {
		t.Errorf("%d Unsubscribe calls, want 1", n)
	}
}

// A create that AWS answers "already exists" while its reads do not show the
// resource yet (eventual consistency) is not a spec error, and is never sent
// twice into a duplicate.
func TestAlreadyExistsWhileAWSDoesNotShowItIsNotASpecError(t *testing.T) {
	s := provider(t)
	ns := namespace(t)
	mg := newEndpoint(ns, short("hidden"))
	if _, err := eventbridge.NewFromConfig(setupConfig(s)).CreateEndpoint(context.Background(), eb.CreateInput(&mg.Spec.ForProvider)); err != nil {
		t.Fatal(err)
	}
	s.aws.SetEventualConsistency("events", 6*time.Second)
	defer s.aws.SetEventualConsistency("events", 0)
	create(t, mg)
	var messages []string
	eventually(t, 60*time.Second, "Ready", func() error {
		if m := syncedText(t, mg); m != "" && !slices.Contains(messages, m) {
			messages = append(messages, m)
		}
		return isReady(t, mg)
	})
	said := strings.Join(messages, "\n")
	if !strings.Contains(said, "already exists but does not show it yet") {
		t.Errorf("the object never said what happened; it said:\n%s", said)
	}
	if strings.Contains(said, "correct") {
		t.Errorf("the object told the user to correct the spec:\n%s", said)
	}
	if n := named(s.aws.Inventory().Endpoints, mg.Spec.ForProvider.Name); n != 1 {
		t.Errorf("%d endpoints, want 1", n)
	}
	remove(t, mg)
}

// Every piece of advice a condition gives is followed here, and must bring
// the resource back without a restart and without waiting for a resync.
func TestAdviceInConditionsWorks(t *testing.T) {
	s := provider(t)

	t.Run("AnExternalNameThatDoesNotMatchIsRemoved", func(t *testing.T) {
		ns := namespace(t)
		mg := newEndpoint(ns, short("advice"))
		meta.SetExternalName(mg, "another-name")
		create(t, mg)
		eventually(t, 30*time.Second, "the mismatch is reported", func() error {
			if m := syncedText(t, mg); !strings.Contains(m, "remove the annotation") {
				return fmt.Errorf("synced message %q", m)
			}
			return nil
		})
		change(t, mg, func(mg *eventbusv1alpha1.Endpoint) { delete(mg.Annotations, meta.AnnotationKeyExternalName) })
		eventually(t, 30*time.Second, "Ready after following the advice", func() error { return isReady(t, mg) })
		remove(t, mg)
	})

	t.Run("APermissionIsGranted", func(t *testing.T) {
		ns := namespace(t)
		mg := newEndpoint(ns, short("denied"))
		s.aws.Deny(awsconfig.NoneAccessKeyID, "events:CreateEndpoint")
		create(t, mg)
		eventually(t, 30*time.Second, "the denial is reported", func() error {
			if m := syncedText(t, mg); !strings.Contains(m, "grant the provider config's identity this permission") {
				return fmt.Errorf("synced message %q", m)
			}
			return nil
		})
		s.aws.Allow(awsconfig.NoneAccessKeyID, "events:CreateEndpoint")
		eventually(t, 60*time.Second, "Ready after the permission was granted", func() error { return isReady(t, mg) })
		remove(t, mg)
	})

	t.Run("WhatAWSRefusesIsCorrectedInAWS", func(t *testing.T) {
		// The body of an EndpointConfig cannot change; what SageMaker
		// refuses here, a missing model, is corrected in AWS.
		ns := namespace(t)
		late := short("late-model")
		mg := newEndpointConfig(ns, short("refused"), late)
		create(t, mg)
		eventually(t, 30*time.Second, "the refusal is reported", func() error {
			if m := syncedText(t, mg); !strings.Contains(m, "correct what it names, in the spec or in AWS") {
				return fmt.Errorf("synced message %q", m)
			}
			return nil
		})
		model(t, s, late)
		eventually(t, 60*time.Second, "Ready after the model was made", func() error { return isReady(t, mg) })
		remove(t, mg)
	})

	t.Run("WhatAWSRefusesIsCorrectedInTheSpec", func(t *testing.T) {
		ns := namespace(t)
		mg := newStream(t, ns, short("refused"))
		mg.Spec.ForProvider.DeliveryStreamEncryptionConfiguration = &streamingv1alpha1.DeliveryStreamEncryptionConfiguration{
			KeyType: aws.String("AWS_OWNED_CMK"), KeyARN: aws.String("arn:aws:kms:us-east-1:000000000000:key/1234")}
		create(t, mg)
		eventually(t, 30*time.Second, "the refusal is reported", func() error {
			if m := syncedText(t, mg); !strings.Contains(m, "correct what it names") {
				return fmt.Errorf("synced message %q", m)
			}
			return nil
		})
		change(t, mg, func(mg *streamingv1alpha1.DeliveryStream) {
			mg.Spec.ForProvider.DeliveryStreamEncryptionConfiguration.KeyARN = nil
		})
		eventually(t, 60*time.Second, "Ready after the spec was corrected", func() error { return isReady(t, mg) })
		remove(t, mg)
	})
}

var names atomic.Int64

// short returns a name unique in the test run and short enough for every
// kind's name pattern.
func short(prefix string) string {
	return fmt.Sprintf("%s-%d-%d", prefix, time.Now().Unix()%100000, names.Add(1))
}

// syncedText reads mg and returns the message of its Synced condition.
func syncedText(t *testing.T, mg resource.Managed) string {
	t.Helper()
	c, err := conditionOf(t, mg, xpv2.TypeSynced)
	if err != nil {
		return err.Error()
	}
	return c.Message
}
