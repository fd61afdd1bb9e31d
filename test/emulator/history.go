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
	"slices"
	"strings"
	"time"
)

// The emulator keeps a history of what was done to the resources of the
// kinds the provider manages, beside their present state (Inventory): every
// create AWS accepted (Creations) and every call that changed, or may have
// changed, a resource (Writes). The present state cannot show that a
// resource was created twice, since AWS keeps one resource per name and a
// second create of a name is refused: only the history can. It is never
// forgotten (ResetCalls leaves it), so that a test sees the whole run.

// A Creation is one create of a resource of a managed kind that AWS
// accepted: a new delivery stream, endpoint configuration, global endpoint,
// API key credential provider or SNS subscription. A create AWS refused
// (the name exists, a throttle, an injected fault) is none; neither is a
// Subscribe that SNS answers with the subscription that already exists for
// the topic, protocol and endpoint. Topics and models, which the provider
// only refers to, are not recorded.
type Creation struct {
	// Seq orders the creations: the n-th creation has Seq n, from 1.
	Seq int `json:"seq"`
	// Service is the signing name: firehose, sagemaker, events,
	// bedrock-agentcore or sns.
	Service string `json:"service"`
	// Kind is the provider's kind of the resource: DeliveryStream,
	// EndpointConfig, Endpoint, APIKeyCredentialProvider or Subscription.
	Kind   string `json:"kind"`
	Region string `json:"region"`
	// Name is the name the create chose; empty for a subscription, which
	// SNS names by its ARN.
	Name string `json:"name,omitempty"`
	// ARN of the new resource; for a subscription, its new ARN.
	ARN string `json:"arn"`
	// TopicARN, Protocol and Endpoint say what a subscription subscribes.
	TopicARN string `json:"topicArn,omitempty"`
	Protocol string `json:"protocol,omitempty"`
	Endpoint string `json:"endpoint,omitempty"`
	// AccessKey signed the create; Caller is who it is, as
	// GetCallerIdentity would answer.
	AccessKey string `json:"accessKey"`
	Caller    string `json:"caller"`
	// Time is when the create happened, on the emulator's clock: before
	// its answer left.
	Time time.Time `json:"time"`
}

// Identity is what makes two creations creations of the same resource: the
// kind, region and name, or for a subscription its topic, protocol and
// endpoint (SNS keeps one subscription of each, and Subscribe answers an
// existing one instead of creating another).
func (c Creation) Identity() string {
	if c.Kind == "Subscription" {
		return Identity(c.Kind, c.Region, c.TopicARN+" "+c.Protocol+" "+c.Endpoint)
	}
	return Identity(c.Kind, c.Region, c.Name)
}

// Identity is the identity (see Creation.Identity) of a resource of kind in
// region named name; for a subscription, name is "topicARN protocol
// endpoint", with the protocol as SNS names it (sqs, not queue).
func Identity(kind, region, name string) string {
	return kind + " " + region + "/" + name
}

// A Write is one call that AWS accepted and that changes a resource, or may
// change it: a create (including a Subscribe SNS answers with an existing
// subscription), an update, a tag change, a confirmation or a delete. Reads
// (Describe*, Get*, List*) and STS calls are none.
type Write struct {
	// Seq orders the writes: the n-th write has Seq n, from 1.
	Seq       int    `json:"seq"`
	Service   string `json:"service"`
	Operation string `json:"operation"`
	Region    string `json:"region"`
	// Resource names the resource as the call names it: a name or an ARN
	// (see CallsFor); empty when the call names none.
	Resource  string    `json:"resource,omitempty"`
	AccessKey string    `json:"accessKey"`
	Time      time.Time `json:"time"`
}

// IsDelete says whether the write asked for a resource to go: a Delete*
// call or an Unsubscribe.
func (w Write) IsDelete() bool {
	return strings.HasPrefix(w.Operation, "Delete") && w.Operation != "DeleteTags" || w.Operation == "Unsubscribe"
}

// Creations returns every creation so far, in the order they happened.
func (s *Server) Creations() []Creation {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.creations)
}

// CreationCounts returns how many times each identity (Creation.Identity)
// was created.
func (s *Server) CreationCounts() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]int{}
	for _, c := range s.creations {
		out[c.Identity()]++
	}
	return out
}

// Writes returns every write so far, in the order they happened.
func (s *Server) Writes() []Write {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.writes)
}

// created records a creation; the caller holds the lock.
func (s *Server) created(req *request, c Creation) {
	c.Seq = len(s.creations) + 1
	c.Service, c.Region, c.AccessKey, c.Caller = req.service, req.region, req.accessKey, s.caller(req.accessKey)
	c.Time = s.opts.Now()
	s.creations = append(s.creations, c)
}

// wrote records the write an accepted call made, if it is one; the caller
// holds the lock.
func (s *Server) wrote(req *request) {
	if req.service == "sts" {
		return
	}
	for _, read := range []string{"Describe", "Get", "List"} {
		if strings.HasPrefix(req.operation, read) {
			return
		}
	}
	s.writes = append(s.writes, Write{
		Seq: len(s.writes) + 1, Service: req.service, Operation: req.operation, Region: req.region,
		Resource: resourceOf(req), AccessKey: req.accessKey, Time: s.opts.Now(),
	})
}

// caller is the ARN of the principal that signs with accessKey, as
// GetCallerIdentity answers it; the caller holds the lock.
func (s *Server) caller(accessKey string) string {
	if accessKey == "" {
		return ""
	}
	if assumed, ok := s.issued[accessKey]; ok {
		return assumed
	}
	return fmt.Sprintf("arn:aws:iam::%s:user/%s", s.opts.Account, accessKey)
}
