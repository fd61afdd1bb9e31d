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
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	ebtypes "github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/apis/eventbus/v1alpha1"
	eb "github.com/cloudkinds/provider-aws-services/internal/aws/eventbridge"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/reference"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/ownership"
)

func newEndpoint(ns, name string) *v1alpha1.Endpoint {
	mg := &v1alpha1.Endpoint{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	mg.Spec.ProviderConfigReference = emulatorConfig()
	mg.Spec.ForProvider = v1alpha1.EndpointParameters{
		Name:        name,
		Description: aws.String("orders, failing over to us-west-2"),
		EventBuses: []v1alpha1.EndpointEventBus{
			{EventBusARN: "arn:aws:events:us-east-1:000000000000:event-bus/orders"},
			{EventBusARN: "arn:aws:events:us-west-2:000000000000:event-bus/orders"},
		},
		RoleARN: aws.String("arn:aws:iam::000000000000:role/replication"),
		RoutingConfig: &v1alpha1.RoutingConfig{FailoverConfig: &v1alpha1.FailoverConfig{
			Primary:   &v1alpha1.Primary{HealthCheck: aws.String("arn:aws:route53:::healthcheck/abc")},
			Secondary: &v1alpha1.Secondary{Route: aws.String("us-west-2")},
		}},
	}
	return mg
}

func TestEndpointLifecycle(t *testing.T) {
	s := provider(t)
	ns := namespace(t)
	name := "orders-" + ns[len(ns)-5:]
	mg := newEndpoint(ns, name)
	// The replication role comes through a reference.
	target(t, reference.Role, ns, "replication", "arn:aws:iam::000000000000:role/replication", nil)
	mg.Spec.ForProvider.RoleARN = nil
	mg.Spec.ForProvider.RoleRef = &common.ResourceReference{From: &common.ObjectReference{Name: aws.String("replication")}}
	mg.Spec.WriteConnectionSecretToReference = &xpv2.LocalSecretReference{Name: "orders-endpoint"}
	create(t, mg)

	eventually(t, 30*time.Second, "Ready", func() error { return isReady(t, mg) })
	t.Logf("AWS calls from create to Ready: %v", s.aws.CallsFor(name))
	if c := s.aws.CallsFor(name); c["events:CreateEndpoint"] != 1 {
		t.Errorf("create: %v", c)
	}
	at := mg.Status.AtProvider
	if aws.ToString(at.State) != "ACTIVE" || at.ACKResourceMetadata == nil || aws.ToString(at.ACKResourceMetadata.ARN) != "arn:aws:events:us-east-1:000000000000:endpoint/"+name ||
		aws.ToString(at.ACKResourceMetadata.Partition) != "aws" {
		t.Errorf("status: %+v", at)
	}
	if mg.Spec.ForProvider.ReplicationConfig != nil {
		t.Errorf("the default replication state was copied into the spec: %+v", mg.Spec.ForProvider.ReplicationConfig)
	}
	// The URL, ID, name and ARN EventBridge answers are in the connection
	// Secret, and the URL also in the status, for a Composition to patch.
	d, err := eventbridge.NewFromConfig(outsiderConfig(s)).DescribeEndpoint(context.Background(), &eventbridge.DescribeEndpointInput{Name: aws.String(name)})
	if err != nil {
		t.Fatal(err)
	}
	if got := aws.ToString(at.EndpointURL); got == "" || got != aws.ToString(d.EndpointUrl) {
		t.Errorf("status.atProvider.endpointURL is %q, EventBridge's %q", got, aws.ToString(d.EndpointUrl))
	}
	requireConnectionDetails(t, ns, "orders-endpoint", eb.ConnectionKeys, map[string]string{
		"endpointName": aws.ToString(d.Name), "endpointARN": aws.ToString(d.Arn),
		"endpointID": aws.ToString(d.EndpointId), "endpointURL": aws.ToString(d.EndpointUrl),
	})

	steady := settle(s, name, 3)
	if len(writes(steady, "events")) != 0 || steady["events:DescribeEndpoint"] == 0 {
		t.Errorf("steady state over 3 polls: %v", steady)
	}
	t.Logf("AWS calls over 3 steady-state polls: %v", steady)

	updates := map[string]func(*v1alpha1.Endpoint){
		"description": func(mg *v1alpha1.Endpoint) { mg.Spec.ForProvider.Description = aws.String("changed") },
		"eventBuses": func(mg *v1alpha1.Endpoint) {
			mg.Spec.ForProvider.EventBuses = []v1alpha1.EndpointEventBus{
				{EventBusARN: "arn:aws:events:us-east-1:000000000000:event-bus/payments"},
				{EventBusARN: "arn:aws:events:us-west-2:000000000000:event-bus/payments"},
			}
		},
		"routingConfig": func(mg *v1alpha1.Endpoint) {
			mg.Spec.ForProvider.RoutingConfig.FailoverConfig.Secondary.Route = aws.String("eu-west-1")
		},
		"replicationConfig": func(mg *v1alpha1.Endpoint) {
			mg.Spec.ForProvider.ReplicationConfig = &v1alpha1.ReplicationConfig{State: aws.String("DISABLED")}
		},
		"roleARN": func(mg *v1alpha1.Endpoint) {
			mg.Spec.ForProvider.RoleRef = nil
			mg.Spec.ForProvider.RoleARN = aws.String("arn:aws:iam::000000000000:role/other")
		},
	}
	for _, field := range []string{"description", "eventBuses", "routingConfig", "replicationConfig", "roleARN"} {
		before := s.aws.CallsFor(name)["events:UpdateEndpoint"]
		change(t, mg, updates[field])
		eventually(t, 20*time.Second, "update of "+field, func() error {
			if n := s.aws.CallsFor(name)["events:UpdateEndpoint"]; n != before+1 {
				return fmt.Errorf("%d updates", n-before)
			}
			return isReady(t, mg)
		})
	}
	if n := settle(s, name, 2)["events:UpdateEndpoint"]; n != 0 {
		t.Errorf("%d updates after the last change", n)
	}

	remove(t, mg)
	if n := s.aws.CallsFor(name)["events:DeleteEndpoint"]; n != 1 {
		t.Errorf("DeleteEndpoint calls: %d", n)
	}
	t.Logf("AWS calls over the whole life: %v", s.aws.CallsFor(name))
}

func TestEndpointFailedCreation(t *testing.T) {
	s := provider(t)
	ns := namespace(t)
	name := "failing-" + ns[len(ns)-5:]
	s.aws.FailEndpointOperation("us-east-1", name, "Health check arn:aws:route53:::healthcheck/abc does not exist")
	mg := newEndpoint(ns, name)
	create(t, mg)
	eventually(t, 20*time.Second, "CREATE_FAILED shown", func() error {
		c, err := conditionOf(t, mg, xpv2.TypeReady)
		if err != nil {
			return err
		}
		if c.Status != corev1.ConditionFalse || !strings.Contains(c.Message, "CREATE_FAILED: Health check arn:aws:route53:::healthcheck/abc does not exist") {
			return fmt.Errorf("Ready: %s %q", c.Status, c.Message)
		}
		return nil
	})
	if c := settle(s, name, 2); len(writes(c, "events")) != 0 {
		t.Errorf("a failed endpoint was written to: %v", c)
	}
	if aws.ToString(mg.Status.AtProvider.StateReason) == "" {
		t.Error("no stateReason")
	}
	remove(t, mg)
}

func TestEndpointAdoptionAndObserveOnly(t *testing.T) {
	s := provider(t)
	ns := namespace(t)
	name := "adopted-" + ns[len(ns)-5:]
	c := eventbridge.NewFromConfig(aws.Config{Region: "us-east-1", BaseEndpoint: aws.String(s.url), Credentials: credentials.NewStaticCredentialsProvider("AKIDSETUP", "s", "")})
	want := newEndpoint(ns, name).Spec.ForProvider
	_, err := c.CreateEndpoint(context.Background(), &eventbridge.CreateEndpointInput{
		Name: aws.String(name), RoleArn: want.RoleARN, Description: want.Description,
		EventBuses: []ebtypes.EndpointEventBus{{EventBusArn: aws.String(want.EventBuses[0].EventBusARN)}, {EventBusArn: aws.String(want.EventBuses[1].EventBusARN)}},
		RoutingConfig: &ebtypes.RoutingConfig{FailoverConfig: &ebtypes.FailoverConfig{Primary: &ebtypes.Primary{HealthCheck: want.RoutingConfig.FailoverConfig.Primary.HealthCheck},
			Secondary: &ebtypes.Secondary{Route: want.RoutingConfig.FailoverConfig.Secondary.Route}}},
	})
	if err != nil {
		t.Fatal(err)
	}

	observer := newEndpoint(ns, name)
	observer.Name = "observer"
	observer.Spec.ManagementPolicies = xpv2.ManagementPolicies{xpv2.ManagementActionObserve}
	observer.Spec.ForProvider.Description = aws.String("something else")
	create(t, observer)
	eventually(t, 20*time.Second, "observed", func() error {
		if err := cp.Client.Get(context.Background(), client.ObjectKeyFromObject(observer), observer); err != nil {
			return err
		}
		if aws.ToString(observer.Status.AtProvider.State) != "ACTIVE" {
			return fmt.Errorf("state %v", observer.Status.AtProvider.State)
		}
		return nil
	})
	if w := writes(s.aws.CallsFor(name), "events"); len(w) != 1 {
		t.Errorf("observe-only wrote: %v", w)
	}
	remove(t, observer)

	adopter := newEndpoint(ns, name)
	adopter.Name = "adopter"
	adopter.SetAnnotations(map[string]string{ownership.AnnotationAdoptionPolicy: ownership.AdoptionPolicyAdopt})
	create(t, adopter)
	eventually(t, 20*time.Second, "adopted and Ready", func() error { return isReady(t, adopter) })
	if c := s.aws.CallsFor(name); c["events:CreateEndpoint"] != 1 || c["events:UpdateEndpoint"] != 0 {
		t.Errorf("adoption wrote: %v", c)
	}
	if md := adopter.Status.AtProvider.ACKResourceMetadata; md == nil || md.ARN == nil {
		t.Errorf("no verified ARN: %+v", md)
	}
	remove(t, adopter)
}

// A resource's own poll interval (crossplane-runtime's
// crossplane.io/poll-interval annotation) is honoured, down to the provider's
// floor (2 s under test, --min-poll-interval).
func TestPollIntervalAnnotation(t *testing.T) {
	s := provider(t)
	ns := namespace(t)
	cases := map[string]struct {
		annotation string
		min, max   int // DescribeEndpoint calls over 12 s
	}{
		"Default":       {annotation: "", min: 9, max: 15},
		"OwnInterval":   {annotation: "4s", min: 2, max: 4},
		"BelowTheFloor": {annotation: "100ms", min: 5, max: 8},
	}
	objects := map[string]*v1alpha1.Endpoint{}
	for name, tc := range cases {
		mg := newEndpoint(ns, short("poll"))
		if tc.annotation != "" {
			mg.SetAnnotations(map[string]string{meta.AnnotationKeyPollInterval: tc.annotation})
		}
		create(t, mg)
		objects[name] = mg
	}
	for _, mg := range objects {
		eventually(t, 30*time.Second, "Ready", func() error { return isReady(t, mg) })
	}
	before := map[string]int{}
	for name, mg := range objects {
		before[name] = s.aws.CallsFor(mg.Spec.ForProvider.Name)["events:DescribeEndpoint"]
	}
	time.Sleep(12 * time.Second)
	for name, tc := range cases {
		mg := objects[name]
		n := s.aws.CallsFor(mg.Spec.ForProvider.Name)["events:DescribeEndpoint"] - before[name]
		if n < tc.min || n > tc.max {
			t.Errorf("%s (annotation %q): %d looks in 12 s, want %d to %d", name, tc.annotation, n, tc.min, tc.max)
		}
	}
	for _, mg := range objects {
		remove(t, mg)
	}
}
