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
	"encoding/json"
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"
)

type smTag struct {
	Key   string
	Value string
}

type model struct {
	name, arn string
	created   time.Time
	tags      map[string]string
}

type endpointConfig struct {
	name, arn, region string
	created           time.Time
	// body is the request as it was given, plus SageMaker's defaults, with
	// the tags taken out: SageMaker returns it as the description.
	body map[string]json.RawMessage
	tags map[string]string
}

var sagemakerName = regexp.MustCompile(`^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$`)

// localStorageInstance matches instance types whose hosts have local NVMe
// storage (the "d" families), which cannot be encrypted with KmsKeyId.
var localStorageInstance = regexp.MustCompile(`^ml\.[a-z]+\d+[a-z]*d[a-z]*\.`)

func (s *Server) sagemaker(req *request) (any, *apiError) {
	switch req.operation {
	case "CreateModel":
		return s.createModel(req)
	case "DeleteModel":
		return s.deleteModel(req)
	case "CreateEndpointConfig":
		return s.createEndpointConfig(req)
	case "DescribeEndpointConfig":
		return s.describeEndpointConfig(req)
	case "DeleteEndpointConfig":
		return s.deleteEndpointConfig(req)
	case "ListEndpointConfigs":
		return s.listEndpointConfigs(req)
	case "AddTags":
		return s.sagemakerAddTags(req)
	case "DeleteTags":
		return s.sagemakerDeleteTags(req)
	case "ListTags":
		return s.sagemakerListTags(req)
	}
	return nil, errorf(400, "UnknownOperationException", "Operation %s is not supported.", req.operation)
}

func validationError(format string, args ...any) *apiError {
	return errorf(400, "ValidationException", format, args...)
}

func (s *Server) createModel(req *request) (any, *apiError) {
	var in struct {
		ModelName string
		Tags      []smTag
	}
	if err := decodeJSON(req.body, &in); err != nil {
		return nil, err
	}
	if !sagemakerName.MatchString(in.ModelName) {
		return nil, validationError("1 validation error detected: Value '%s' at 'modelName' failed to satisfy constraint: Member must satisfy regular expression pattern: ^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}", in.ModelName)
	}
	k := key(req.region, in.ModelName)
	m := &model{name: in.ModelName, arn: s.arn(req.region, "sagemaker", "model/"+strings.ToLower(in.ModelName)), created: s.opts.Now()}
	if _, ok := s.models[k]; ok {
		return nil, validationError("Cannot create already existing model %q.", m.arn)
	}
	s.models[k] = m
	return map[string]string{"ModelArn": m.arn}, nil
}

func (s *Server) deleteModel(req *request) (any, *apiError) {
	var in struct{ ModelName string }
	if err := decodeJSON(req.body, &in); err != nil {
		return nil, err
	}
	k := key(req.region, in.ModelName)
	if _, ok := s.models[k]; !ok {
		return nil, validationError("Could not find model %q.", s.arn(req.region, "sagemaker", "model/"+strings.ToLower(in.ModelName)))
	}
	delete(s.models, k)
	return struct{}{}, nil
}

func (s *Server) endpointConfigARN(region, name string) string {
	return s.arn(region, "sagemaker", "endpoint-config/"+strings.ToLower(name))
}

func (s *Server) createEndpointConfig(req *request) (any, *apiError) {
	var body map[string]json.RawMessage
	if err := decodeJSON(req.body, &body); err != nil {
		return nil, err
	}
	var in struct {
		EndpointConfigName string
		KmsKeyId           *string
		ProductionVariants []map[string]json.RawMessage
		Tags               []smTag
	}
	if err := decodeJSON(req.body, &in); err != nil {
		return nil, err
	}
	if !sagemakerName.MatchString(in.EndpointConfigName) {
		return nil, validationError("1 validation error detected: Value '%s' at 'endpointConfigName' failed to satisfy constraint: Member must satisfy regular expression pattern: ^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}", in.EndpointConfigName)
	}
	arn := s.endpointConfigARN(req.region, in.EndpointConfigName)
	k := key(req.region, in.EndpointConfigName)
	if _, ok := s.endpointConfigs[k]; ok {
		return nil, validationError("Cannot create already existing endpoint configuration %q.", arn)
	}
	if len(in.ProductionVariants) == 0 || len(in.ProductionVariants) > 10 {
		return nil, validationError("1 validation error detected: Value at 'productionVariants' failed to satisfy constraint: Member must have length between 1 and 10")
	}
	if len(in.Tags) > 50 {
		return nil, validationError("1 validation error detected: Value at 'tags' failed to satisfy constraint: Member must have length less than or equal to 50")
	}
	names := map[string]bool{}
	variants := make([]map[string]json.RawMessage, 0, len(in.ProductionVariants))
	for _, v := range in.ProductionVariants {
		var f struct {
			VariantName          string
			ModelName            *string
			InstanceType         *string
			InitialVariantWeight *float64
			ServerlessConfig     any
		}
		raw, _ := json.Marshal(v)
		_ = json.Unmarshal(raw, &f)
		if f.VariantName == "" {
			return nil, validationError("1 validation error detected: Value null at 'productionVariants.1.member.variantName' failed to satisfy constraint: Member must not be null")
		}
		if names[f.VariantName] {
			return nil, validationError("Production variant names must be unique; %q appears more than once.", f.VariantName)
		}
		names[f.VariantName] = true
		if f.ModelName != nil {
			if _, ok := s.models[key(req.region, *f.ModelName)]; !ok {
				return nil, validationError("Could not find model %q.", s.arn(req.region, "sagemaker", "model/"+strings.ToLower(*f.ModelName)))
			}
		}
		if in.KmsKeyId != nil && f.InstanceType != nil && localStorageInstance.MatchString(*f.InstanceType) {
			return nil, validationError("The KmsKeyId parameter is not supported for instance type %s, which has local storage; remove KmsKeyId or choose an instance type without local storage.", *f.InstanceType)
		}
		if f.InstanceType == nil && f.ServerlessConfig == nil {
			return nil, validationError("Production variant %s must specify either InstanceType or ServerlessConfig.", f.VariantName)
		}
		// SageMaker fills in a weight of 1.0 where none was given, for every
		// kind of variant (the API reference, ProductionVariant.
		// InitialVariantWeight: "If unspecified, it defaults to 1.0").
		if f.InitialVariantWeight == nil {
			v["InitialVariantWeight"] = json.RawMessage("1.0")
		}
		variants = append(variants, v)
	}
	raw, _ := json.Marshal(variants)
	body["ProductionVariants"] = raw
	// DescribeEndpointConfig answers EnableNetworkIsolation false when the
	// request left it out (the AWS controllers for Kubernetes late-initialize
	// it for that reason: sagemaker-controller generator.yaml and its
	// recorded describe answers).
	if _, ok := body["EnableNetworkIsolation"]; !ok {
		body["EnableNetworkIsolation"] = json.RawMessage("false")
	}
	delete(body, "Tags")
	now := s.opts.Now()
	c := &endpointConfig{name: in.EndpointConfigName, arn: arn, region: req.region, created: now, body: body, tags: map[string]string{}}
	for _, t := range in.Tags {
		c.tags[t.Key] = t.Value
	}
	s.endpointConfigs[k] = c
	s.created(req, Creation{Kind: "EndpointConfig", Name: c.name, ARN: arn})
	return map[string]string{"EndpointConfigArn": arn}, nil
}

func (s *Server) endpointConfig(req *request, name string) (*endpointConfig, *apiError) {
	c, ok := s.endpointConfigs[key(req.region, name)]
	if !ok || !s.visible("sagemaker", c.created) {
		return nil, validationError("Could not find endpoint configuration %q.", s.endpointConfigARN(req.region, name))
	}
	return c, nil
}

func (s *Server) describeEndpointConfig(req *request) (any, *apiError) {
	var in struct{ EndpointConfigName string }
	if err := decodeJSON(req.body, &in); err != nil {
		return nil, err
	}
	c, err := s.endpointConfig(req, in.EndpointConfigName)
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	for k, v := range c.body {
		out[k] = v
	}
	out["EndpointConfigArn"] = c.arn
	out["CreationTime"] = epoch(c.created)
	return out, nil
}

func (s *Server) deleteEndpointConfig(req *request) (any, *apiError) {
	var in struct{ EndpointConfigName string }
	if err := decodeJSON(req.body, &in); err != nil {
		return nil, err
	}
	k := key(req.region, in.EndpointConfigName)
	if _, ok := s.endpointConfigs[k]; !ok {
		return nil, validationError("Could not find endpoint configuration %q.", s.endpointConfigARN(req.region, in.EndpointConfigName))
	}
	delete(s.endpointConfigs, k)
	return struct{}{}, nil
}

func (s *Server) listEndpointConfigs(req *request) (any, *apiError) {
	var in struct {
		NameContains *string
		NextToken    *string
		MaxResults   *int
	}
	if err := decodeJSON(req.body, &in); err != nil {
		return nil, err
	}
	size, ok := sagemakerListing.size(in.MaxResults)
	if !ok {
		return nil, validationError("1 validation error detected: Value '%d' at 'maxResults' failed to satisfy constraint: Member must have value less than or equal to %d", *in.MaxResults, sagemakerListing.maxSize)
	}
	keys := []string{}
	for _, k := range slices.Sorted(maps.Keys(s.endpointConfigs)) {
		c := s.endpointConfigs[k]
		if c.region == req.region && (in.NameContains == nil || strings.Contains(c.name, *in.NameContains)) {
			keys = append(keys, k)
		}
	}
	keys, next, ok := page(keys, in.NextToken, size)
	if !ok {
		return nil, validationError("Invalid pagination token: %s", *in.NextToken)
	}
	list := []map[string]any{}
	for _, k := range keys {
		c := s.endpointConfigs[k]
		list = append(list, map[string]any{"EndpointConfigName": c.name, "EndpointConfigArn": c.arn, "CreationTime": epoch(c.created)})
	}
	out := map[string]any{"EndpointConfigs": list}
	if next != "" {
		out["NextToken"] = next
	}
	return out, nil
}

// taggable finds the tags of a SageMaker resource by ARN.
func (s *Server) sagemakerTags(arn string) (map[string]string, *apiError) {
	for _, c := range s.endpointConfigs {
		if c.arn == arn {
			return c.tags, nil
		}
	}
	for _, m := range s.models {
		if m.arn == arn {
			if m.tags == nil {
				m.tags = map[string]string{}
			}
			return m.tags, nil
		}
	}
	return nil, validationError("Resource %s does not exist.", arn)
}

func (s *Server) sagemakerAddTags(req *request) (any, *apiError) {
	var in struct {
		ResourceArn string
		Tags        []smTag
	}
	if err := decodeJSON(req.body, &in); err != nil {
		return nil, err
	}
	tags, err := s.sagemakerTags(in.ResourceArn)
	if err != nil {
		return nil, err
	}
	n := len(tags)
	for _, t := range in.Tags {
		if _, ok := tags[t.Key]; !ok {
			n++
		}
	}
	if n > 50 {
		return nil, validationError("Resource %s would have %d tags; at most 50 are allowed.", in.ResourceArn, n)
	}
	for _, t := range in.Tags {
		tags[t.Key] = t.Value
	}
	return map[string]any{"Tags": in.Tags}, nil
}

func (s *Server) sagemakerDeleteTags(req *request) (any, *apiError) {
	var in struct {
		ResourceArn string
		TagKeys     []string
	}
	if err := decodeJSON(req.body, &in); err != nil {
		return nil, err
	}
	tags, err := s.sagemakerTags(in.ResourceArn)
	if err != nil {
		return nil, err
	}
	for _, k := range in.TagKeys {
		delete(tags, k)
	}
	return struct{}{}, nil
}

func (s *Server) sagemakerListTags(req *request) (any, *apiError) {
	var in struct{ ResourceArn string }
	if err := decodeJSON(req.body, &in); err != nil {
		return nil, err
	}
	tags, err := s.sagemakerTags(in.ResourceArn)
	if err != nil {
		return nil, err
	}
	out := []smTag{}
	for _, k := range slices.Sorted(maps.Keys(tags)) {
		out = append(out, smTag{Key: k, Value: tags[k]})
	}
	return map[string]any{"Tags": out}, nil
}

// CreateModel creates a model that endpoint configurations can name, as test
// and local-stack setup needs.
func (s *Server) CreateModel(region, name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := key(region, name)
	if _, ok := s.models[k]; !ok {
		s.models[k] = &model{name: name, arn: s.arn(region, "sagemaker", "model/"+strings.ToLower(name)), created: s.opts.Now()}
	}
}
