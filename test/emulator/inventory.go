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

import "sort"

// An Inventory lists the resources of the kinds the provider manages that
// exist in the emulated account, in every region, for tests to check that
// nothing leaked. Topics and models, which the provider only refers to, are
// not listed. Resources being deleted (DELETING) still exist and are listed.
// The lists are sorted and never nil.
type Inventory struct {
	// DeliveryStreams are Firehose delivery stream names.
	DeliveryStreams []string `json:"deliveryStreams"`
	// EndpointConfigs are SageMaker endpoint configuration names.
	EndpointConfigs []string `json:"endpointConfigs"`
	// Endpoints are EventBridge global endpoint names.
	Endpoints []string `json:"endpoints"`
	// APIKeyCredentialProviders are AgentCore API key credential provider
	// names.
	APIKeyCredentialProviders []string `json:"apiKeyCredentialProviders"`
	// Subscriptions are SNS subscriptions, sorted by ARN.
	Subscriptions []InventorySubscription `json:"subscriptions"`
}

// An InventorySubscription is an SNS subscription in an Inventory.
type InventorySubscription struct {
	ARN      string `json:"arn"`
	TopicARN string `json:"topicArn"`
	Protocol string `json:"protocol"`
	Endpoint string `json:"endpoint"`
	// Pending is true until the endpoint confirms the subscription.
	Pending bool `json:"pending"`
}

// Inventory lists the resources that exist now.
func (s *Server) Inventory() Inventory {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.settle()
	inv := Inventory{
		DeliveryStreams:           make([]string, 0, len(s.streams)),
		EndpointConfigs:           make([]string, 0, len(s.endpointConfigs)),
		Endpoints:                 make([]string, 0, len(s.endpoints)),
		APIKeyCredentialProviders: make([]string, 0, len(s.apiKeyProviders)),
		Subscriptions:             make([]InventorySubscription, 0, len(s.subscriptions)),
	}
	for _, d := range s.streams {
		inv.DeliveryStreams = append(inv.DeliveryStreams, d.name)
	}
	for _, c := range s.endpointConfigs {
		inv.EndpointConfigs = append(inv.EndpointConfigs, c.name)
	}
	for _, e := range s.endpoints {
		inv.Endpoints = append(inv.Endpoints, e.name)
	}
	for _, p := range s.apiKeyProviders {
		inv.APIKeyCredentialProviders = append(inv.APIKeyCredentialProviders, p.name)
	}
	for _, sub := range s.subscriptions {
		inv.Subscriptions = append(inv.Subscriptions, InventorySubscription{
			ARN: sub.arn, TopicARN: sub.topicARN, Protocol: sub.protocol, Endpoint: sub.endpoint, Pending: sub.pending,
		})
	}
	sort.Strings(inv.DeliveryStreams)
	sort.Strings(inv.EndpointConfigs)
	sort.Strings(inv.Endpoints)
	sort.Strings(inv.APIKeyCredentialProviders)
	sort.Slice(inv.Subscriptions, func(i, j int) bool { return inv.Subscriptions[i].ARN < inv.Subscriptions[j].ARN })
	return inv
}
