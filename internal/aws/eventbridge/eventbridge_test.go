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

package eventbridge

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/cloudkinds/provider-aws-services/apis/eventbus/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/aws/connection"
)

func spec() *v1alpha1.EndpointParameters {
	return &v1alpha1.EndpointParameters{
		Name: "e", Description: aws.String("d"), RoleARN: aws.String("arn:aws:iam::000000000000:role/r"),
		EventBuses: []v1alpha1.EndpointEventBus{{EventBusARN: "arn:aws:events:us-east-1:000000000000:event-bus/b"}, {EventBusARN: "arn:aws:events:us-west-2:000000000000:event-bus/b"}},
		RoutingConfig: &v1alpha1.RoutingConfig{FailoverConfig: &v1alpha1.FailoverConfig{
			Primary: &v1alpha1.Primary{HealthCheck: aws.String("hc")}, Secondary: &v1alpha1.Secondary{Route: aws.String("us-west-2")}}},
	}
}

func described() *eventbridge.DescribeEndpointOutput {
	return &eventbridge.DescribeEndpointOutput{
		Name: aws.String("e"), Description: aws.String("d"), RoleArn: aws.String("arn:aws:iam::000000000000:role/r"),
		EventBuses:        []types.EndpointEventBus{{EventBusArn: aws.String("arn:aws:events:us-east-1:000000000000:event-bus/b")}, {EventBusArn: aws.String("arn:aws:events:us-west-2:000000000000:event-bus/b")}},
		RoutingConfig:     &types.RoutingConfig{FailoverConfig: &types.FailoverConfig{Primary: &types.Primary{HealthCheck: aws.String("hc")}, Secondary: &types.Secondary{Route: aws.String("us-west-2")}}},
		ReplicationConfig: &types.ReplicationConfig{State: types.ReplicationStateEnabled},
		State:             types.EndpointStateActive, EndpointId: aws.String("abc.xyz"), EndpointUrl: aws.String("https://abc.xyz.endpoint.events.amazonaws.com"),
		Arn: aws.String("arn:aws:events:us-east-1:000000000000:endpoint/e"),
	}
}

func TestDiff(t *testing.T) {
	cases := map[string]struct {
		change func(*v1alpha1.EndpointParameters)
		want   []string
	}{
		"Same":               {change: func(*v1alpha1.EndpointParameters) {}},
		"DefaultReplication": {change: func(p *v1alpha1.EndpointParameters) { p.ReplicationConfig = nil }},
		"ReplicationDisabled": {change: func(p *v1alpha1.EndpointParameters) {
			p.ReplicationConfig = &v1alpha1.ReplicationConfig{State: aws.String("DISABLED")}
		}, want: []string{"spec.forProvider.replicationConfig.state"}},
		"Description":            {change: func(p *v1alpha1.EndpointParameters) { p.Description = aws.String("x") }, want: []string{"spec.forProvider.description"}},
		"UnsetDescriptionIsAWSs": {change: func(p *v1alpha1.EndpointParameters) { p.Description = nil }},
		"Buses": {change: func(p *v1alpha1.EndpointParameters) {
			p.EventBuses[1].EventBusARN = "arn:aws:events:eu-west-1:000000000000:event-bus/b"
		}, want: []string{"spec.forProvider.eventBuses[1].eventBusARN"}},
		"Route": {change: func(p *v1alpha1.EndpointParameters) {
			p.RoutingConfig.FailoverConfig.Secondary.Route = aws.String("eu-west-1")
		}, want: []string{"spec.forProvider.routingConfig.failoverConfig.secondary.route"}},
		"BusRemoved": {change: func(p *v1alpha1.EndpointParameters) { p.EventBuses = p.EventBuses[:1] }, want: []string{"spec.forProvider.eventBuses"}},
		"Role":       {change: func(p *v1alpha1.EndpointParameters) { p.RoleARN = aws.String("arn:aws:iam::000000000000:role/x") }, want: []string{"spec.forProvider.roleARN"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			p := spec()
			tc.change(p)
			if diff := cmp.Diff(tc.want, Diff(p, described()), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("-want, +got:\n%s", diff)
			}
		})
	}
}

func TestDefaults(t *testing.T) {
	// The replication state EventBridge defaults is not copied into the
	// spec, and a spec that leaves it out does not differ.
	if d := Diff(spec(), described()); len(d) != 0 {
		t.Errorf("a spec without the default replication state differs: %v", d)
	}
	in := CreateInput(spec())
	if in.ReplicationConfig != nil || aws.ToString(in.RoutingConfig.FailoverConfig.Secondary.Route) != "us-west-2" || len(in.EventBuses) != 2 {
		t.Errorf("create input: %+v", in)
	}
}

func TestObservationAndConnectionDetails(t *testing.T) {
	type want struct {
		o  v1alpha1.EndpointObservation
		cd map[string][]byte
	}
	cases := map[string]struct {
		reason string
		d      *eventbridge.DescribeEndpointOutput
		want   want
	}{
		"Active": {
			reason: "An active endpoint shows its URL in its status, and publishes its name, ARN, ID and URL.",
			d:      described(),
			want: want{
				o: v1alpha1.EndpointObservation{State: aws.String("ACTIVE"), EndpointURL: aws.String("https://abc.xyz.endpoint.events.amazonaws.com")},
				cd: map[string][]byte{
					"endpointName": []byte("e"),
					"endpointARN":  []byte("arn:aws:events:us-east-1:000000000000:endpoint/e"),
					"endpointID":   []byte("abc.xyz"),
					"endpointURL":  []byte("https://abc.xyz.endpoint.events.amazonaws.com"),
				},
			},
		},
		"NoURLYet": {
			reason: "What EventBridge does not answer is neither in the status nor published, not even empty.",
			d: &eventbridge.DescribeEndpointOutput{
				Name: aws.String("e"), Arn: aws.String("arn:aws:events:us-east-1:000000000000:endpoint/e"),
				State: types.EndpointStateCreating, EndpointUrl: aws.String(""),
			},
			want: want{
				o: v1alpha1.EndpointObservation{State: aws.String("CREATING")},
				cd: map[string][]byte{
					"endpointName": []byte("e"),
					"endpointARN":  []byte("arn:aws:events:us-east-1:000000000000:endpoint/e"),
				},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want.o, Observation(tc.d)); diff != "" {
				t.Errorf("%s\nObservation(...): -want, +got:\n%s", tc.reason, diff)
			}
			cd := ConnectionDetails(tc.d)
			if diff := cmp.Diff(tc.want.cd, cd); diff != "" {
				t.Errorf("%s\nConnectionDetails(...): -want, +got:\n%s", tc.reason, diff)
			}
			if u := connection.Undeclared(ConnectionKeys, cd); len(u) != 0 {
				t.Errorf("published keys that ConnectionKeys does not declare: %v", u)
			}
		})
	}
}
