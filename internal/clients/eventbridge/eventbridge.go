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
)

// API is the part of the EventBridge client the controller uses.
type API interface {
	CreateEndpoint(ctx context.Context, in *eventbridge.CreateEndpointInput, o ...func(*eventbridge.Options)) (*eventbridge.CreateEndpointOutput, error)
	DescribeEndpoint(ctx context.Context, in *eventbridge.DescribeEndpointInput, o ...func(*eventbridge.Options)) (*eventbridge.DescribeEndpointOutput, error)
	UpdateEndpoint(ctx context.Context, in *eventbridge.UpdateEndpointInput, o ...func(*eventbridge.Options)) (*eventbridge.UpdateEndpointOutput, error)
	DeleteEndpoint(ctx context.Context, in *eventbridge.DeleteEndpointInput, o ...func(*eventbridge.Options)) (*eventbridge.DeleteEndpointOutput, error)
}

// Connection detail keys an Endpoint publishes: what applications need to
// send events through it.
const (
	ConnectionURL = "endpointURL"
	ConnectionID  = "endpointID"
	ConnectionARN = "arn"
)

// replicationDefault is the state EventBridge assumes without one.
const replicationDefault = types.ReplicationStateEnabled

func buses(p *v1alpha1.EndpointParameters) []types.EndpointEventBus {
	out := make([]types.EndpointEventBus, 0, len(p.EventBuses))
	for _, b := range p.EventBuses {
		out = append(out, types.EndpointEventBus{EventBusArn: aws.String(b.EventBusARN)})
	}
	return out
}

func routing(p *v1alpha1.EndpointParameters) *types.RoutingConfig {
	out := &types.RoutingConfig{FailoverConfig: &types.FailoverConfig{Primary: &types.Primary{}, Secondary: &types.Secondary{}}}
	if f := p.RoutingConfig.FailoverConfig; f != nil {
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
	if d.State != "" {
		o.State = aws.String(string(d.State))
	}
	return o
}

// LateInitialize fills the replication state EventBridge defaulted.
func LateInitialize(p *v1alpha1.EndpointParameters, d *eventbridge.DescribeEndpointOutput) bool {
	if d.ReplicationConfig == nil || d.ReplicationConfig.State == "" {
		return false
	}
	if p.ReplicationConfig == nil {
		p.ReplicationConfig = &v1alpha1.ReplicationConfig{}
	}
	if p.ReplicationConfig.State != nil {
		return false
	}
	p.ReplicationConfig.State = aws.String(string(d.ReplicationConfig.State))
	return true
}

// Diff lists the fields of the spec that differ from the endpoint.
func Diff(p *v1alpha1.EndpointParameters, d *eventbridge.DescribeEndpointOutput) []string {
	var diffs []string
	if p.Description != nil && aws.ToString(p.Description) != aws.ToString(d.Description) {
		diffs = append(diffs, "description")
	}
	if !sameBuses(buses(p), d.EventBuses) {
		diffs = append(diffs, "eventBuses")
	}
	want, got := replicationDefault, replicationDefault
	if r := replication(p); r != nil {
		want = r.State
	}
	if d.ReplicationConfig != nil && d.ReplicationConfig.State != "" {
		got = d.ReplicationConfig.State
	}
	if want != got {
		diffs = append(diffs, "replicationConfig.state")
	}
	if p.RoleARN != nil && aws.ToString(p.RoleARN) != aws.ToString(d.RoleArn) {
		diffs = append(diffs, "roleARN")
	}
	wantRouting, gotRouting := routing(p).FailoverConfig, d.RoutingConfig
	var gotHealth, gotRoute string
	if gotRouting != nil && gotRouting.FailoverConfig != nil {
		if gotRouting.FailoverConfig.Primary != nil {
			gotHealth = aws.ToString(gotRouting.FailoverConfig.Primary.HealthCheck)
		}
		if gotRouting.FailoverConfig.Secondary != nil {
			gotRoute = aws.ToString(gotRouting.FailoverConfig.Secondary.Route)
		}
	}
	if aws.ToString(wantRouting.Primary.HealthCheck) != gotHealth || aws.ToString(wantRouting.Secondary.Route) != gotRoute {
		diffs = append(diffs, "routingConfig")
	}
	return diffs
}

func sameBuses(a, b []types.EndpointEventBus) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if aws.ToString(a[i].EventBusArn) != aws.ToString(b[i].EventBusArn) {
			return false
		}
	}
	return true
}

// ConnectionDetails are the endpoint's URL, ID and ARN.
func ConnectionDetails(d *eventbridge.DescribeEndpointOutput) map[string][]byte {
	out := map[string][]byte{}
	for k, v := range map[string]*string{ConnectionURL: d.EndpointUrl, ConnectionID: d.EndpointId, ConnectionARN: d.Arn} {
		if v != nil && *v != "" {
			out[k] = []byte(*v)
		}
	}
	return out
}
