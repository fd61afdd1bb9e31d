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

package emulator_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
)

func endpointInput(name string) *eventbridge.CreateEndpointInput {
	return &eventbridge.CreateEndpointInput{
		Name: aws.String(name),
		EventBuses: []types.EndpointEventBus{
			{EventBusArn: aws.String("arn:aws:events:us-east-1:000000000000:event-bus/orders")},
			{EventBusArn: aws.String("arn:aws:events:us-west-2:000000000000:event-bus/orders")},
		},
		RoutingConfig: &types.RoutingConfig{FailoverConfig: &types.FailoverConfig{
			Primary:   &types.Primary{HealthCheck: aws.String("arn:aws:route53:::healthcheck/x")},
			Secondary: &types.Secondary{Route: aws.String("us-west-2")},
		}},
	}
}

func TestEventBridgeEndpoints(t *testing.T) {
	e, cfg, clk := start(t, "AKIDEMO")
	c := eventbridge.NewFromConfig(cfg)

	_, err := c.CreateEndpoint(ctx, endpointInput("orders"))
	wantCode(t, err, "ValidationException", "RoleArn is required when replication is ENABLED")

	in := endpointInput("orders")
	in.RoleArn = aws.String("arn:aws:iam::000000000000:role/replication")
	out := must(c.CreateEndpoint(ctx, in))(t)
	if out.State != types.EndpointStateCreating || aws.ToString(out.Arn) != "arn:aws:events:us-east-1:000000000000:endpoint/orders" {
		t.Fatalf("create: %s %s", out.State, aws.ToString(out.Arn))
	}
	_, err = c.CreateEndpoint(ctx, in)
	wantCode(t, err, "ResourceAlreadyExistsException", "already exists")
	clk.Advance(delay)
	d := must(c.DescribeEndpoint(ctx, &eventbridge.DescribeEndpointInput{Name: aws.String("orders")}))(t)
	if d.State != types.EndpointStateActive || aws.ToString(d.EndpointUrl) == "" || aws.ToString(d.EndpointId) == "" {
		t.Fatalf("describe: %s %s", d.State, aws.ToString(d.EndpointUrl))
	}

	must(c.UpdateEndpoint(ctx, &eventbridge.UpdateEndpointInput{Name: aws.String("orders"), Description: aws.String("new")}))(t)
	if s := must(c.DescribeEndpoint(ctx, &eventbridge.DescribeEndpointInput{Name: aws.String("orders")}))(t).State; s != types.EndpointStateUpdating {
		t.Fatalf("want UPDATING, got %s", s)
	}
	clk.Advance(delay)

	e.FailEndpointOperation("us-east-1", "orders", "the health check does not exist")
	must(c.UpdateEndpoint(ctx, &eventbridge.UpdateEndpointInput{Name: aws.String("orders"), Description: aws.String("newer")}))(t)
	clk.Advance(delay)
	d = must(c.DescribeEndpoint(ctx, &eventbridge.DescribeEndpointInput{Name: aws.String("orders")}))(t)
	if d.State != types.EndpointStateUpdateFailed || aws.ToString(d.StateReason) != "the health check does not exist" || aws.ToString(d.Description) != "newer" {
		t.Fatalf("want UPDATE_FAILED with its reason, got %s %q", d.State, aws.ToString(d.StateReason))
	}

	if n := len(must(c.ListEndpoints(ctx, &eventbridge.ListEndpointsInput{}))(t).Endpoints); n != 1 {
		t.Errorf("list: %d endpoints", n)
	}
	must(c.DeleteEndpoint(ctx, &eventbridge.DeleteEndpointInput{Name: aws.String("orders")}))(t)
	clk.Advance(delay)
	_, err = c.DescribeEndpoint(ctx, &eventbridge.DescribeEndpointInput{Name: aws.String("orders")})
	wantCode(t, err, "ResourceNotFoundException", "Endpoint orders does not exist")
}
