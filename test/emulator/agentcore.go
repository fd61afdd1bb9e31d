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
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
)

type apiKeyProvider struct {
	name, arn, secretARN, region string
	apiKey                       string
	created, updated             time.Time
	tags                         map[string]string
	updates                      int
}

var credentialProviderName = regexp.MustCompile(`^[a-zA-Z0-9\-_]{1,128}$`)

// APIKey returns the key AgentCore holds for a credential provider and how
// many times it was updated; tests use it to see a rotation reach AWS.
func (s *Server) APIKey(region, name string) (apiKey string, updates int, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.apiKeyProviders[key(region, name)]
	if !ok {
		return "", 0, false
	}
	return p.apiKey, p.updates, true
}

func (s *Server) agentcore(req *request) (any, *apiError) {
	switch req.operation {
	case "CreateApiKeyCredentialProvider":
		return s.createAPIKeyProvider(req)
	case "GetApiKeyCredentialProvider":
		return s.getAPIKeyProvider(req)
	case "UpdateApiKeyCredentialProvider":
		return s.updateAPIKeyProvider(req)
	case "DeleteApiKeyCredentialProvider":
		return s.deleteAPIKeyProvider(req)
	case "ListApiKeyCredentialProviders":
		return s.listAPIKeyProviders(req)
	case "TagResource", "UntagResource", "ListTagsForResource":
		return s.agentcoreTags(req)
	}
	return nil, errorf(404, "UnknownOperationException", "Operation %s is not supported.", req.operation)
}

func agentcoreValidation(format string, args ...any) *apiError {
	return errorf(400, "ValidationException", format, args...)
}

func providerNotFound(name string) *apiError {
	return errorf(404, "ResourceNotFoundException", "Credential provider %s not found.", name)
}

type apiKeyProviderInput struct {
	Name   string            `json:"name"`
	APIKey *string           `json:"apiKey"`
	Tags   map[string]string `json:"tags"`
}

func (in *apiKeyProviderInput) validate() *apiError {
	if !credentialProviderName.MatchString(in.Name) {
		return agentcoreValidation("1 validation error detected: Value at 'name' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9\\-_]+")
	}
	if in.APIKey == nil || *in.APIKey == "" || len(*in.APIKey) > 65536 {
		// The message names the field, never its value: it is a secret.
		return agentcoreValidation("1 validation error detected: Value at 'apiKey' failed to satisfy constraint: Member must have length between 1 and 65536")
	}
	return nil
}

func (s *Server) createAPIKeyProvider(req *request) (any, *apiError) {
	var in apiKeyProviderInput
	if err := decodeJSON(req.body, &in); err != nil {
		return nil, err
	}
	if err := in.validate(); err != nil {
		return nil, err
	}
	if len(in.Tags) > 50 {
		return nil, agentcoreValidation("1 validation error detected: Value at 'tags' failed to satisfy constraint: Member must have length less than or equal to 50")
	}
	k := key(req.region, in.Name)
	if _, ok := s.apiKeyProviders[k]; ok {
		return nil, errorf(409, "ConflictException", "Credential provider with name %s already exists.", in.Name)
	}
	now := s.opts.Now()
	p := &apiKeyProvider{
		name: in.Name, region: req.region, apiKey: *in.APIKey, created: now, updated: now, tags: map[string]string{},
		arn:       s.arn(req.region, "bedrock-agentcore", "token-vault/default/apikeycredentialprovider/"+in.Name),
		secretARN: s.arn(req.region, "secretsmanager", "secret:bedrock-agentcore-identity!default/apikey/"+in.Name+"-a1B2c3"),
	}
	for k, v := range in.Tags {
		p.tags[k] = v
	}
	s.apiKeyProviders[k] = p
	s.created(req, Creation{Kind: "APIKeyCredentialProvider", Name: p.name, ARN: p.arn})
	return restResult{status: http.StatusCreated, body: p.describe(false)}, nil
}

func (p *apiKeyProvider) describe(withTimes bool) map[string]any {
	out := map[string]any{
		"name":                  p.name,
		"credentialProviderArn": p.arn,
		"apiKeySecretArn":       map[string]string{"secretArn": p.secretARN},
		"apiKeySecretSource":    "MANAGED",
	}
	if withTimes {
		out["createdTime"] = epoch(p.created)
		out["lastUpdatedTime"] = epoch(p.updated)
	}
	return out
}

func (s *Server) apiKeyProvider(req *request, name string) (*apiKeyProvider, *apiError) {
	p, ok := s.apiKeyProviders[key(req.region, name)]
	if !ok || !s.visible("bedrock-agentcore", p.created) {
		return nil, providerNotFound(name)
	}
	return p, nil
}

func (s *Server) getAPIKeyProvider(req *request) (any, *apiError) {
	var in apiKeyProviderInput
	if err := decodeJSON(req.body, &in); err != nil {
		return nil, err
	}
	p, err := s.apiKeyProvider(req, in.Name)
	if err != nil {
		return nil, err
	}
	return restResult{body: p.describe(true)}, nil
}

func (s *Server) updateAPIKeyProvider(req *request) (any, *apiError) {
	var in apiKeyProviderInput
	if err := decodeJSON(req.body, &in); err != nil {
		return nil, err
	}
	if err := in.validate(); err != nil {
		return nil, err
	}
	p, err := s.apiKeyProvider(req, in.Name)
	if err != nil {
		return nil, err
	}
	p.apiKey = *in.APIKey
	p.updated = s.opts.Now()
	p.updates++
	return restResult{body: p.describe(true)}, nil
}

func (s *Server) deleteAPIKeyProvider(req *request) (any, *apiError) {
	var in apiKeyProviderInput
	if err := decodeJSON(req.body, &in); err != nil {
		return nil, err
	}
	k := key(req.region, in.Name)
	if _, ok := s.apiKeyProviders[k]; !ok {
		return nil, providerNotFound(in.Name)
	}
	delete(s.apiKeyProviders, k)
	return restResult{status: http.StatusNoContent}, nil
}

func (s *Server) listAPIKeyProviders(req *request) (any, *apiError) {
	var in struct {
		NextToken  *string `json:"nextToken"`
		MaxResults *int    `json:"maxResults"`
	}
	if err := decodeJSON(req.body, &in); err != nil {
		return nil, err
	}
	size, ok := agentcoreListing.size(in.MaxResults)
	if !ok {
		return nil, agentcoreValidation("1 validation error detected: Value '%d' at 'maxResults' failed to satisfy constraint: Member must have value between 1 and %d", *in.MaxResults, agentcoreListing.maxSize)
	}
	keys := []string{}
	for _, k := range slices.Sorted(maps.Keys(s.apiKeyProviders)) {
		if s.apiKeyProviders[k].region == req.region {
			keys = append(keys, k)
		}
	}
	keys, next, ok := page(keys, in.NextToken, size)
	if !ok {
		return nil, agentcoreValidation("Invalid nextToken.")
	}
	list := []map[string]any{}
	for _, k := range keys {
		p := s.apiKeyProviders[k]
		list = append(list, map[string]any{"name": p.name, "credentialProviderArn": p.arn, "credentialProviderVendor": "CustomOauth2",
			"createdTime": epoch(p.created), "lastUpdatedTime": epoch(p.updated)})
	}
	out := map[string]any{"credentialProviders": list}
	if next != "" {
		out["nextToken"] = next
	}
	return restResult{body: out}, nil
}

func (s *Server) agentcoreTags(req *request) (any, *apiError) {
	arn, err := url.PathUnescape(strings.TrimPrefix(req.http.URL.EscapedPath(), "/tags/"))
	if err != nil || !strings.HasPrefix(arn, "arn:") {
		return nil, agentcoreValidation("1 validation error detected: Value at 'resourceArn' failed to satisfy constraint: Member must be an ARN")
	}
	var p *apiKeyProvider
	for _, candidate := range s.apiKeyProviders {
		if candidate.arn == arn {
			p = candidate
		}
	}
	if p == nil {
		return nil, errorf(404, "ResourceNotFoundException", "Resource %s not found.", arn)
	}
	switch req.operation {
	case "ListTagsForResource":
		return restResult{body: map[string]any{"tags": p.tags}}, nil
	case "TagResource":
		var in struct {
			Tags map[string]string `json:"tags"`
		}
		if err := decodeJSON(req.body, &in); err != nil {
			return nil, err
		}
		n := len(p.tags)
		for k := range in.Tags {
			if _, ok := p.tags[k]; !ok {
				n++
			}
		}
		if n > 50 {
			return nil, agentcoreValidation("Resource %s would have %d tags; at most 50 are allowed.", arn, n)
		}
		for k, v := range in.Tags {
			p.tags[k] = v
		}
		return restResult{status: http.StatusNoContent}, nil
	default: // UntagResource
		for _, k := range req.http.URL.Query()["tagKeys"] {
			delete(p.tags, k)
		}
		return restResult{status: http.StatusNoContent}, nil
	}
}
