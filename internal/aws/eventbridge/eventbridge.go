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

// Package eventbridge is the AWS side of Endpoint (an EventBridge global
// endpoint): the narrow API the controller uses and pure functions between
// the API types and the SDK types.
package eventbridge

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge/types"

	"github.com/cloudkinds/provider-aws-services/apis/eventbus/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/aws/connection"
	"github.com/cloudkinds/provider-aws-services/internal/aws/diff"
)

// API is the part of the EventBridge client the controller uses.
type API interface {
	CreateEndpoint(ctx context.Context, in *eventbridge.CreateEndpointInput, o ...func(*eventbridge.Options)) (*eventbridge.CreateEndpointOutput, error)
	DescribeEndpoint(ctx context.Context, in *eventbridge.DescribeEndpointInput, o ...func(*eventbridge.Options)) (*eventbridge.DescribeEndpointOutput, error)
	UpdateEndpoint(ctx context.Context, in *eventbridge.UpdateEndpointInput, o ...func(*eventbridge.Options)) (*eventbridge.UpdateEndpointOutput, error)
	DeleteEndpoint(ctx context.Context, in *eventbridge.DeleteEndpointInput, o ...func(*eventbridge.Options)) (*eventbridge.DeleteEndpointOutput, error)
}

// The keys of an Endpoint's connection Secret: what an application needs to
// send events through it (PutEvents takes the endpoint's ID; its URL is
// where they go), all of them AWS's answer to DescribeEndpoint. The URL is
// one EventBridge makes, never one the user wrote, so it carries no
// credentials.
const (
	ConnectionName = "endpointName"
	ConnectionARN  = "endpointARN"
	ConnectionID   = "endpointID"
	ConnectionURL  = "endpointURL"
)

// ConnectionKeys declares the keys, for the API reference.
var ConnectionKeys = connection.Keys{
	{Name: ConnectionName, Holds: "The global endpoint's name."},
	{Name: ConnectionARN, Holds: "The global endpoint's ARN."},
	{Name: ConnectionID, Holds: "The global endpoint's ID, which PutEvents takes as EndpointId."},
	{Name: ConnectionURL, Holds: "The global endpoint's URL, to which events sent through it go."},
}

func buses(p *v1alpha1.EndpointParameters) []types.EndpointEventBus {
	out := make([]types.EndpointEventBus, 0, len(p.EventBuses))
	for _, b := range p.EventBuses {
		out = append(out, types.EndpointEventBus{EventBusArn: aws.String(b.EventBusARN)})
	}
	return out
}

func routing(p *v1alpha1.EndpointParameters) *types.RoutingConfig {
	out := &types.RoutingConfig{FailoverConfig: &types.FailoverConfig{Primary: &types.Primary{}, Secondary: &types.Secondary{}}}
	if r := p.RoutingConfig; r != nil && r.FailoverConfig != nil {
		f := r.FailoverConfig
		if f.Primary != nil {
			out.FailoverConfig.Primary.HealthCheck = f.Primary.HealthCheck
		}
		if f.Secondary != nil {
			out.FailoverConfig.Secondary.Route = f.Secondary.Route
		}
	}
	return out
}

func replication(p *v1alpha1.EndpointParameters) *types.ReplicationConfig {
	if p.ReplicationConfig == nil || p.ReplicationConfig.State == nil {
		return nil
	}
	return &types.ReplicationConfig{State: types.ReplicationState(*p.ReplicationConfig.State)}
}

// CreateInput builds the CreateEndpoint request of a spec.
func CreateInput(p *v1alpha1.EndpointParameters) *eventbridge.CreateEndpointInput {
	return &eventbridge.CreateEndpointInput{
		Name: aws.String(p.Name), Description: p.Description, EventBuses: buses(p),
		ReplicationConfig: replication(p), RoleArn: p.RoleARN, RoutingConfig: routing(p),
	}
}

// UpdateInput builds the UpdateEndpoint request that makes the endpoint
// match the spec.
func UpdateInput(p *v1alpha1.EndpointParameters) *eventbridge.UpdateEndpointInput {
	return &eventbridge.UpdateEndpointInput{
		Name: aws.String(p.Name), Description: p.Description, EventBuses: buses(p),
		ReplicationConfig: replication(p), RoleArn: p.RoleARN, RoutingConfig: routing(p),
	}
}

// Observation is the status of an endpoint as EventBridge describes it; the
// caller adds the resource metadata.
func Observation(d *eventbridge.DescribeEndpointOutput) v1alpha1.EndpointObservation {
	o := v1alpha1.EndpointObservation{StateReason: d.StateReason}
	if aws.ToString(d.EndpointUrl) != "" {
		o.EndpointURL = d.EndpointUrl
	}
	if d.State != "" {
		o.State = aws.String(string(d.State))
	}
	return o
}

// ObservedParameters is the spec that describes the endpoint as EventBridge
// holds it.
func ObservedParameters(d *eventbridge.DescribeEndpointOutput) v1alpha1.EndpointParameters {
	o := v1alpha1.EndpointParameters{Name: aws.ToString(d.Name), Description: d.Description, RoleARN: d.RoleArn}
	for _, b := range d.EventBuses {
		o.EventBuses = append(o.EventBuses, v1alpha1.EndpointEventBus{EventBusARN: aws.ToString(b.EventBusArn)})
	}
	if r := d.ReplicationConfig; r != nil && r.State != "" {
		o.ReplicationConfig = &v1alpha1.ReplicationConfig{State: aws.String(string(r.State))}
	}
	if r := d.RoutingConfig; r != nil && r.FailoverConfig != nil {
		f := &v1alpha1.FailoverConfig{}
		if pr := r.FailoverConfig.Primary; pr != nil {
			f.Primary = &v1alpha1.Primary{HealthCheck: pr.HealthCheck}
		}
		if sc := r.FailoverConfig.Secondary; sc != nil {
			f.Secondary = &v1alpha1.Secondary{Route: sc.Route}
		}
		o.RoutingConfig = &v1alpha1.RoutingConfig{FailoverConfig: f}
	}
	return o
}

// Diff lists the spec paths that differ from the endpoint.
func Diff(p *v1alpha1.EndpointParameters, d *eventbridge.DescribeEndpointOutput) []string {
	want := p.DeepCopy()
	want.Region = nil
	return diff.Paths("spec.forProvider", want, ObservedParameters(d))
}

// ConnectionDetails are the endpoint's name, ARN, ID and URL.
func ConnectionDetails(d *eventbridge.DescribeEndpointOutput) map[string][]byte {
	return connection.Details(map[string]string{
		ConnectionName: aws.ToString(d.Name), ConnectionARN: aws.ToString(d.Arn),
		ConnectionID: aws.ToString(d.EndpointId), ConnectionURL: aws.ToString(d.EndpointUrl),
	})
}
