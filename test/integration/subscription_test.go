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
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/apis/notification/v1alpha1"
	snsclient "github.com/cloudkinds/provider-aws-services/internal/aws/sns"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/conditions"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/reference"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/ownership"
)

// snsClient reaches the emulator directly, for test setup.
func snsClient(s *stack) *sns.Client {
	return sns.NewFromConfig(aws.Config{Region: "us-east-1", BaseEndpoint: aws.String(s.url), Credentials: credentials.NewStaticCredentialsProvider("AKIDSETUP", "s", "")})
}

func topic(t *testing.T, s *stack, name string) string {
	t.Helper()
	out, err := snsClient(s).CreateTopic(context.Background(), &sns.CreateTopicInput{Name: aws.String(name)})
	if err != nil {
		t.Fatal(err)
	}
	return aws.ToString(out.TopicArn)
}

// target creates a Ready stand-in of a referenced kind with an ARN.
func target(t *testing.T, kind reference.Target, ns, name, arn string, labels map[string]string) {
	t.Helper()
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(kind.GroupVersionKind)
	u.SetNamespace(ns)
	u.SetName(name)
	u.SetLabels(labels)
	create(t, u)
	markReady(t, u, arn)
}

// markReady makes a reference target Ready with the ARN, as its own
// provider would.
func markReady(t *testing.T, u *unstructured.Unstructured, arn string) {
	t.Helper()
	u.Object["status"] = map[string]any{
		"atProvider": map[string]any{"arn": arn},
		"conditions": []any{map[string]any{"type": "Ready", "status": "True", "reason": "Available", "lastTransitionTime": time.Now().UTC().Format(time.RFC3339)}},
	}
	if err := cp.Client.Status().Update(context.Background(), u); err != nil {
		t.Fatal(err)
	}
}

func newSubscription(ns, name, topicARN string) *v1alpha1.Subscription {
	mg := &v1alpha1.Subscription{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	mg.Spec.ProviderConfigReference = emulatorConfig()
	mg.Spec.ForProvider = v1alpha1.SubscriptionParameters{
		Protocol:           "queue",
		Endpoint:           aws.String("arn:aws:sqs:us-east-1:000000000000:" + name),
		TopicARN:           aws.String(topicARN),
		RawMessageDelivery: aws.String("true"),
		FilterPolicy:       aws.String(`{"type": ["order_placed"]}`),
	}
	return mg
}

func TestSubscriptionLifecycle(t *testing.T) {
	s := provider(t)
	ns := namespace(t)
	topicARN := topic(t, s, "orders-"+ns[len(ns)-5:])
	// The topic comes through a reference to a Ready Topic of the upjet
	// provider family.
	target(t, reference.Topic, ns, "orders", topicARN, nil)
	mg := newSubscription(ns, "orders-queue", "")
	mg.Spec.ForProvider.TopicARN = nil
	mg.Spec.ForProvider.TopicRef = &common.ResourceReference{From: &common.ObjectReference{Name: aws.String("orders")}}
	create(t, mg)

	eventually(t, 30*time.Second, "Ready", func() error { return isReady(t, mg) })
	arn := meta.GetExternalName(mg)
	if !strings.HasPrefix(arn, topicARN+":") || aws.ToString(mg.Spec.ForProvider.TopicARN) != topicARN {
		t.Fatalf("external name %q, topicARN %q", arn, aws.ToString(mg.Spec.ForProvider.TopicARN))
	}
	at := mg.Status.AtProvider
	if aws.ToString(at.PendingConfirmation) != "false" || aws.ToString(at.Owner) != "000000000000" || at.ACKResourceMetadata == nil ||
		aws.ToString(at.ACKResourceMetadata.ARN) != arn || aws.ToString(at.ACKResourceMetadata.Partition) != "aws" {
		t.Errorf("status: %+v %+v", at, at.ACKResourceMetadata)
	}
	if c := s.aws.CallsFor(topicARN); c["sns:Subscribe"] != 1 {
		t.Errorf("Subscribe calls: %v", c)
	}

	// Steady state: one read per poll, no writes, and the reformatted JSON
	// filter policy is not an update.
	change(t, mg, func(mg *v1alpha1.Subscription) {
		mg.Spec.ForProvider.FilterPolicy = aws.String(`{ "type" : [ "order_placed" ] }`)
	})
	steady := settle(s, arn, 3)
	if len(writes(steady, "sns")) != 0 || steady["sns:GetSubscriptionAttributes"] == 0 {
		t.Errorf("steady state over 3 polls: %v", steady)
	}
	t.Logf("AWS calls over 3 steady-state polls: %v", steady)

	// Two attributes change: one call each.
	change(t, mg, func(mg *v1alpha1.Subscription) {
		mg.Spec.ForProvider.FilterPolicy = aws.String(`{"type": ["order_shipped"]}`)
		mg.Spec.ForProvider.RawMessageDelivery = aws.String("false")
	})
	eventually(t, 20*time.Second, "attributes in SNS", func() error {
		if n := s.aws.CallsFor(arn)["sns:SetSubscriptionAttributes"]; n != 2 {
			return fmt.Errorf("%d SetSubscriptionAttributes calls", n)
		}
		return nil
	})
	if n := settle(s, arn, 2)["sns:SetSubscriptionAttributes"]; n != 0 {
		t.Errorf("%d more updates after the change", n)
	}

	remove(t, mg)
	if n := s.aws.CallsFor(arn)["sns:Unsubscribe"]; n != 1 {
		t.Errorf("Unsubscribe calls: %d", n)
	}
	t.Logf("AWS calls over the whole life: %v", s.aws.CallsFor(arn))
}

func TestSubscriptionPendingConfirmation(t *testing.T) {
	s := provider(t)
	ns := namespace(t)
	topicARN := topic(t, s, "alerts-"+ns[len(ns)-5:])
	mg := newSubscription(ns, "hook", topicARN)
	mg.Spec.ForProvider.Protocol = "https"
	// SNS delivers with basic authentication from the endpoint's userinfo.
	password := "hook-password-" + ns
	mg.Spec.ForProvider.Endpoint = aws.String("https://hook:" + password + "@hooks.example.com/" + ns)
	mg.Spec.ForProvider.RawMessageDelivery = nil
	mg.Spec.WriteConnectionSecretToReference = &xpv2.LocalSecretReference{Name: "hook-subscription"}
	create(t, mg)

	eventually(t, 20*time.Second, "PendingConfirmation", func() error {
		c, err := conditionOf(t, mg, xpv2.TypeReady)
		if err != nil {
			return err
		}
		if c.Reason != conditions.ReasonPendingConfirmation || c.Status != corev1.ConditionFalse {
			return fmt.Errorf("Ready: %s %s", c.Status, c.Reason)
		}
		return nil
	})
	arn := meta.GetExternalName(mg)
	if aws.ToString(mg.Status.AtProvider.PendingConfirmation) != "true" {
		t.Errorf("pendingConfirmation %v", aws.ToString(mg.Status.AtProvider.PendingConfirmation))
	}
	held := func() map[string]string {
		for _, sub := range s.aws.Inventory().Subscriptions {
			if sub.ARN == arn {
				return map[string]string{"subscriptionARN": sub.ARN, "topicARN": sub.TopicARN}
			}
		}
		t.Fatalf("SNS holds no subscription %s", arn)
		return nil
	}
	// The subscription's and its topic's ARNs, as SNS holds them, pending
	// or confirmed; not the endpoint, nor its password.
	requireConnectionDetails(t, ns, "hook-subscription", snsclient.ConnectionKeys, held(), password, "hooks.example.com")
	if !s.aws.ConfirmSubscription(arn) {
		t.Fatal("cannot confirm")
	}
	eventually(t, 30*time.Second, "Ready once confirmed", func() error { return isReady(t, mg) })
	if mg.Status.AtProvider.EffectiveDeliveryPolicy == nil {
		t.Error("no effective delivery policy")
	}
	requireConnectionDetails(t, ns, "hook-subscription", snsclient.ConnectionKeys, held(), password, "hooks.example.com")
	remove(t, mg)
}

// TestSubscriptionPendingIsReleasedOnDelete deletes a subscription SNS will
// not delete while it is pending: the resource goes, with one read and no
// error loop, saying that SNS keeps the subscription until it expires.
func TestSubscriptionPendingIsReleasedOnDelete(t *testing.T) {
	s := provider(t)
	ns := namespace(t)
	topicARN := topic(t, s, "pending-"+ns[len(ns)-5:])
	mg := newSubscription(ns, "mail", topicARN)
	mg.Spec.ForProvider.Protocol = "email"
	mg.Spec.ForProvider.Endpoint = aws.String("ops@example.com")
	mg.Spec.ForProvider.RawMessageDelivery = nil
	create(t, mg)
	eventually(t, 20*time.Second, "subscribed", func() error {
		if err := cp.Client.Get(context.Background(), client.ObjectKeyFromObject(mg), mg); err != nil {
			return err
		}
		if aws.ToString(mg.Status.AtProvider.PendingConfirmation) != "true" {
			return fmt.Errorf("not pending yet")
		}
		return nil
	})
	arn := meta.GetExternalName(mg)
	remove(t, mg)
	if n := s.aws.CallsFor(arn)["sns:Unsubscribe"]; n != 0 {
		t.Errorf("%d Unsubscribe calls for a pending subscription", n)
	}
	eventually(t, 30*time.Second, "what the deletion left told", func() error {
		return warned(ns, mg.GetName(), "SNS keeps subscription "+arn+", pending confirmation")
	})
	if n := settle(s, arn, 2)["sns:GetSubscriptionAttributes"]; n != 0 {
		t.Errorf("%d reads after the resource went", n)
	}
}

func TestSubscriptionAdoptionAndObserveOnly(t *testing.T) {
	s := provider(t)
	ns := namespace(t)
	topicARN := topic(t, s, "adopt-"+ns[len(ns)-5:])
	out, err := snsClient(s).Subscribe(context.Background(), &sns.SubscribeInput{TopicArn: aws.String(topicARN), Protocol: aws.String("sqs"),
		Endpoint: aws.String("arn:aws:sqs:us-east-1:000000000000:adopted"), ReturnSubscriptionArn: true})
	if err != nil {
		t.Fatal(err)
	}
	arn := aws.ToString(out.SubscriptionArn)

	observer := newSubscription(ns, "adopted", topicARN)
	observer.Name = "observer"
	observer.Spec.ManagementPolicies = xpv2.ManagementPolicies{xpv2.ManagementActionObserve}
	meta.SetExternalName(observer, arn)
	create(t, observer)
	eventually(t, 20*time.Second, "observed", func() error {
		if err := cp.Client.Get(context.Background(), client.ObjectKeyFromObject(observer), observer); err != nil {
			return err
		}
		if observer.Status.AtProvider.Owner == nil {
			return fmt.Errorf("no status yet")
		}
		return nil
	})
	if w := writes(s.aws.CallsFor(arn), "sns"); len(w) != 0 {
		t.Errorf("observe-only wrote: %v", w)
	}
	remove(t, observer)

	adopter := newSubscription(ns, "adopted", topicARN)
	meta.SetExternalName(adopter, arn)
	adopter.SetAnnotations(map[string]string{meta.AnnotationKeyExternalName: arn, ownership.AnnotationAdoptionPolicy: ownership.AdoptionPolicyAdopt})
	create(t, adopter)
	eventually(t, 20*time.Second, "adopted and Ready", func() error { return isReady(t, adopter) })
	if c := s.aws.CallsFor(topicARN); c["sns:Subscribe"] != 1 {
		t.Errorf("adoption subscribed again: %v", c)
	}
	if n := s.aws.CallsFor(arn)["sns:SetSubscriptionAttributes"]; n != 2 {
		t.Errorf("the adopted subscription's two differing attributes: %d updates", n)
	}

	// An annotation that names a subscription of another endpoint is an
	// error, not an update.
	wrong := newSubscription(ns, "elsewhere", topicARN)
	meta.SetExternalName(wrong, arn)
	create(t, wrong)
	eventually(t, 20*time.Second, "a clear mismatch", func() error {
		c, err := conditionOf(t, wrong, xpv2.TypeSynced)
		if err != nil {
			return err
		}
		if !strings.Contains(c.Message, "not what the spec says") {
			return fmt.Errorf("Synced: %q", c.Message)
		}
		return nil
	})
}
