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

package emulator

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"
)

type (
	ebPrimary struct {
		HealthCheck string
	}
	ebSecondary struct {
		Route string
	}
	ebFailover struct {
		Primary   *ebPrimary   `json:",omitempty"`
		Secondary *ebSecondary `json:",omitempty"`
	}
	ebRouting struct {
		FailoverConfig *ebFailover `json:",omitempty"`
	}
	ebReplication struct {
		State string `json:",omitempty"`
	}
	ebBus struct {
		EventBusArn string
	}
)

type globalEndpoint struct {
	lifecycle
	name, arn, region, id string
	description           *string
	routing               ebRouting
	replication           ebReplication
	buses                 []ebBus
	roleARN               *string
	stateReason           *string
	created, modified     time.Time
	failNext              string
}

func (e *globalEndpoint) settle(now time.Time) bool {
	if e.failNext != "" && e.next != "" && !now.Before(e.at) {
		e.State, e.next = e.failNext, ""
		e.failNext = ""
		return false
	}
	return e.lifecycle.settle(now)
}

// FailEndpointOperation makes the endpoint's operation in progress, or else
// its next one (creation, update or deletion), end in its *_FAILED state with
// reason as the StateReason.
func (s *Server) FailEndpointOperation(region, name, reason string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.settle()
	if e, ok := s.endpoints[key(region, name)]; ok && e.next != "" {
		e.fail(reason)
		return
	}
	s.endpointFailures[key(region, name)] = reason
}

// fail makes the operation in progress end in its failed state.
func (e *globalEndpoint) fail(reason string) {
	e.failNext = map[string]string{"CREATING": "CREATE_FAILED", "UPDATING": "UPDATE_FAILED", "DELETING": "DELETE_FAILED"}[e.State]
	e.stateReason = &reason
}

// begin starts an operation, failing it if a failure was asked for.
func (s *Server) beginEndpoint(e *globalEndpoint, state, next string, delay time.Duration) {
	e.begin(s.opts.Now(), state, next, delay)
	if reason, ok := s.endpointFailures[key(e.region, e.name)]; ok {
		delete(s.endpointFailures, key(e.region, e.name))
		e.fail(reason)
	}
}

var endpointName = regexp.MustCompile(`^[.\-_A-Za-z0-9]{1,64}$`)

func (s *Server) eventbridge(req *request) (any, *apiError) {
	switch req.operation {
	case "CreateEndpoint":
		return s.createEndpoint(req)
	case "DescribeEndpoint":
		return s.describeEndpoint(req)
	case "UpdateEndpoint":
		return s.updateEndpoint(req)
	case "DeleteEndpoint":
		return s.deleteEndpoint(req)
	case "ListEndpoints":
		return s.listEndpoints(req)
	}
	return nil, errorf(400, "UnknownOperationException", "Operation %s is not supported.", req.operation)
}

type endpointInput struct {
	Name              string
	Description       *string
	RoutingConfig     *ebRouting
	ReplicationConfig *ebReplication
	EventBuses        []ebBus
	RoleArn           *string
}

func endpointNotFound(name string) *apiError {
	return errorf(400, "ResourceNotFoundException", "Endpoint %s does not exist.", name)
}

func (s *Server) validateEndpoint(in *endpointInput, replication ebReplication, role *string) *apiError {
	if !endpointName.MatchString(in.Name) {
		return validationError("1 validation error detected: Value '%s' at 'name' failed to satisfy constraint: Member must satisfy regular expression pattern: ^[\\.\\-_A-Za-z0-9]+$", in.Name)
	}
	if in.RoutingConfig != nil {
		f := in.RoutingConfig.FailoverConfig
		if f == nil || f.Primary == nil || f.Secondary == nil || f.Primary.HealthCheck == "" || f.Secondary.Route == "" {
			return validationError("RoutingConfig.FailoverConfig needs Primary.HealthCheck and Secondary.Route.")
		}
	}
	if in.EventBuses != nil {
		if len(in.EventBuses) != 2 {
			return validationError("1 validation error detected: Value at 'eventBuses' failed to satisfy constraint: Member must have length between 2 and 2")
		}
		name := func(arn string) string { return arn[strings.LastIndex(arn, "/")+1:] }
		if name(in.EventBuses[0].EventBusArn) != name(in.EventBuses[1].EventBusArn) {
			return validationError("Event buses of a global endpoint must have the same name in every Region.")
		}
	}
	if replication.State != "DISABLED" && role == nil {
		return validationError("RoleArn is required when replication is ENABLED.")
	}
	return nil
}

func (s *Server) createEndpoint(req *request) (any, *apiError) {
	var in endpointInput
	if err := decodeJSON(req.body, &in); err != nil {
		return nil, err
	}
	if in.RoutingConfig == nil || in.EventBuses == nil {
		return nil, validationError("RoutingConfig and EventBuses are required.")
	}
	replication := ebReplication{State: "ENABLED"}
	if in.ReplicationConfig != nil && in.ReplicationConfig.State != "" {
		replication = *in.ReplicationConfig
	}
	if err := s.validateEndpoint(&in, replication, in.RoleArn); err != nil {
		return nil, err
	}
	k := key(req.region, in.Name)
	if _, ok := s.endpoints[k]; ok {
		return nil, errorf(400, "ResourceAlreadyExistsException", "Endpoint %s already exists.", in.Name)
	}
	now := s.opts.Now()
	id := fmt.Sprintf("e%04d.x%03d", s.nextID(), len(in.Name))
	e := &globalEndpoint{
		name: in.Name, region: req.region, id: id,
		arn:         s.arn(req.region, "events", "endpoint/"+in.Name),
		description: in.Description, routing: *in.RoutingConfig, replication: replication,
		buses: in.EventBuses, roleARN: in.RoleArn, created: now, modified: now,
	}
	s.beginEndpoint(e, "CREATING", "ACTIVE", s.opts.CreateDelay)
	s.endpoints[k] = e
	s.created(req, Creation{Kind: "Endpoint", Name: e.name, ARN: e.arn})
	return map[string]any{
		"Name": e.name, "Arn": e.arn, "RoutingConfig": e.routing, "ReplicationConfig": e.replication,
		"EventBuses": e.buses, "RoleArn": e.roleARN, "State": e.State,
	}, nil
}

func (s *Server) endpoint(req *request, name string) (*globalEndpoint, *apiError) {
	e, ok := s.endpoints[key(req.region, name)]
	if !ok || !s.visible("events", e.created) {
		return nil, endpointNotFound(name)
	}
	return e, nil
}

func (s *Server) describeEndpoint(req *request) (any, *apiError) {
	var in struct{ Name string }
	if err := decodeJSON(req.body, &in); err != nil {
		return nil, err
	}
	e, err := s.endpoint(req, in.Name)
	if err != nil {
		return nil, err
	}
	return e.describe(), nil
}

func (e *globalEndpoint) describe() map[string]any {
	out := map[string]any{
		"Name": e.name, "Arn": e.arn, "RoutingConfig": e.routing, "ReplicationConfig": e.replication,
		"EventBuses": e.buses, "EndpointId": e.id, "EndpointUrl": "https://" + e.id + ".endpoint.events.amazonaws.com",
		"State": e.State, "CreationTime": epoch(e.created), "LastModifiedTime": epoch(e.modified),
	}
	if e.description != nil {
		out["Description"] = *e.description
	}
	if e.roleARN != nil {
		out["RoleArn"] = *e.roleARN
	}
	if e.stateReason != nil && strings.HasSuffix(e.State, "_FAILED") {
		out["StateReason"] = *e.stateReason
	}
	return out
}

func (s *Server) updateEndpoint(req *request) (any, *apiError) {
	var in endpointInput
	if err := decodeJSON(req.body, &in); err != nil {
		return nil, err
	}
	e, err := s.endpoint(req, in.Name)
	if err != nil {
		return nil, err
	}
	if e.State != "ACTIVE" && e.State != "UPDATE_FAILED" && e.State != "CREATE_FAILED" {
		return nil, errorf(400, "ConcurrentModificationException", "Endpoint %s is %s and cannot be updated now.", e.name, e.State)
	}
	replication, role := e.replication, e.roleARN
	if in.ReplicationConfig != nil {
		replication = *in.ReplicationConfig
	}
	if in.RoleArn != nil {
		role = in.RoleArn
	}
	if err := s.validateEndpoint(&in, replication, role); err != nil {
		return nil, err
	}
	mergePtr(&e.description, in.Description)
	if in.RoutingConfig != nil {
		e.routing = *in.RoutingConfig
	}
	if in.EventBuses != nil {
		e.buses = in.EventBuses
	}
	e.replication, e.roleARN, e.stateReason = replication, role, nil
	now := s.opts.Now()
	e.modified = now
	s.beginEndpoint(e, "UPDATING", "ACTIVE", s.opts.UpdateDelay)
	return map[string]any{
		"Name": e.name, "Arn": e.arn, "RoutingConfig": e.routing, "ReplicationConfig": e.replication,
		"EventBuses": e.buses, "RoleArn": e.roleARN, "EndpointId": e.id,
		"EndpointUrl": "https://" + e.id + ".endpoint.events.amazonaws.com", "State": e.State,
	}, nil
}

func (s *Server) deleteEndpoint(req *request) (any, *apiError) {
	var in struct{ Name string }
	if err := decodeJSON(req.body, &in); err != nil {
		return nil, err
	}
	e, ok := s.endpoints[key(req.region, in.Name)]
	if !ok {
		return nil, endpointNotFound(in.Name)
	}
	if e.State == "DELETING" {
		return nil, errorf(400, "ConcurrentModificationException", "Endpoint %s is already being deleted.", e.name)
	}
	s.beginEndpoint(e, "DELETING", deleted, s.opts.DeleteDelay)
	return struct{}{}, nil
}

func (s *Server) listEndpoints(req *request) (any, *apiError) {
	var in struct {
		NamePrefix, HomeRegion, NextToken *string
		MaxResults                        *int
	}
	if err := decodeJSON(req.body, &in); err != nil {
		return nil, err
	}
	size, ok := eventbridgeListing.size(in.MaxResults)
	if !ok {
		return nil, errorf(400, "ValidationException", "1 validation error detected: Value '%d' at 'maxResults' failed to satisfy constraint: Member must have value less than or equal to %d", *in.MaxResults, eventbridgeListing.maxSize)
	}
	keys := []string{}
	for _, k := range slices.Sorted(maps.Keys(s.endpoints)) {
		e := s.endpoints[k]
		// An endpoint's home is the region it was created in.
		if e.region == req.region && (in.NamePrefix == nil || strings.HasPrefix(e.name, *in.NamePrefix)) && (in.HomeRegion == nil || *in.HomeRegion == e.region) {
			keys = append(keys, k)
		}
	}
	keys, next, ok := page(keys, in.NextToken, size)
	if !ok {
		return nil, errorf(400, "ValidationException", "The provided NextToken is invalid.")
	}
	list := []map[string]any{}
	for _, k := range keys {
		list = append(list, s.endpoints[k].describe())
	}
	out := map[string]any{"Endpoints": list}
	if next != "" {
		out["NextToken"] = next
	}
	return out, nil
}
