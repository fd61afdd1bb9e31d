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

// Package importer finds the AWS resources of an account and region that no
// object of the cluster manages, and writes observe-only manifests that
// bring them under Crossplane: the provider's import command.
//
// Each kind is one row of Kinds: how AWS lists its resources (list.go), how
// its objects name them, and how its manifests name and identify them
// (manifest.go). What the cluster holds (objects and the provider's
// ownership claims) is read once (cluster.go); Decide says, for each
// resource, whether it is free to import, and if not, why.
package importer

import (
	"context"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsarn "github.com/aws/aws-sdk-go-v2/aws/arn"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	notificationv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/notification/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/kinds/agentcorecontrol/apikeycredentialprovider"
	"github.com/cloudkinds/provider-aws-services/internal/kinds/eventbus/endpoint"
	"github.com/cloudkinds/provider-aws-services/internal/kinds/mlplatform/endpointconfig"
	"github.com/cloudkinds/provider-aws-services/internal/kinds/notification/subscription"
	"github.com/cloudkinds/provider-aws-services/internal/kinds/streaming/deliverystream"
)

// A Kind is one of the provider's kinds, as the import sees it.
type Kind struct {
	schema.GroupVersionKind
	// NameField is the spec.forProvider field that names a resource; ""
	// for a kind whose resources are named by the ARN AWS gives them, in
	// the external-name annotation (Subscription).
	NameField string
	// Tagged is true for the kinds AWS can tag: their owner tags are read.
	Tagged bool
	// List lists the resources of the kind in the region cfg calls.
	List func(ctx context.Context, cfg aws.Config, workers int) ([]Found, error)
	// Named returns the identifiers an object of the kind names: its
	// name field and external name, or for a subscription its ARN and its
	// identity (Found.Identity).
	Named func(u *unstructured.Unstructured) []string
	// Base is the readable part of an object name for a resource, before
	// it is made a DNS label; the identifier when nil.
	Base func(id string) string
}

// Kinds are the provider's kinds, in the order the import lists them.
var Kinds = []Kind{
	{GroupVersionKind: apikeycredentialprovider.Kind.GroupVersionKind, NameField: "name", Tagged: true, List: listAPIKeyCredentialProviders},
	{GroupVersionKind: endpointconfig.Kind.GroupVersionKind, NameField: "endpointConfigName", Tagged: true, List: listEndpointConfigs},
	{GroupVersionKind: subscription.Kind.GroupVersionKind, List: listSubscriptions, Named: subscriptionNamed, Base: topicName},
	{GroupVersionKind: deliverystream.Kind.GroupVersionKind, NameField: "deliveryStreamName", Tagged: true, List: listDeliveryStreams},
	{GroupVersionKind: endpoint.Kind.GroupVersionKind, NameField: "name", List: listEndpoints},
}

// A Found is one resource AWS listed.
type Found struct {
	// ID identifies the resource: its name, or a subscription's ARN.
	ID string
	// Identity is what the provider's ownership claims key the resource
	// by (ownership.Identity.Fields): its name, or a subscription's
	// protocol, endpoint and topic.
	Identity string
	// Account and Region are where AWS keeps the identity unique, when
	// not where it was listed: a subscription's topic's.
	Account, Region string
	// Tags are the resource's tags, for a kind AWS can tag.
	Tags map[string]string
	// Unreadable says why the resource's ownership cannot be told (its
	// tags could not be read); "" when it can.
	Unreadable string
}

// names returns the identifiers an object of a name-keyed kind names: its
// name field and its external name.
func (k Kind) names(u *unstructured.Unstructured) []string {
	if k.Named != nil {
		return k.Named(u)
	}
	var out []string
	if v, _, _ := unstructured.NestedString(u.Object, "spec", "forProvider", k.NameField); v != "" {
		out = append(out, v)
	}
	if v := externalName(u); v != "" {
		out = append(out, v)
	}
	return out
}

func externalName(u *unstructured.Unstructured) string {
	return u.GetAnnotations()["crossplane.io/external-name"]
}

// subscriptionNamed returns the ARN a Subscription names in its external
// name, and the topic, protocol and endpoint its spec asks for: an object
// that subscribed and lost SNS's answer names its subscription by these.
func subscriptionNamed(u *unstructured.Unstructured) []string {
	var out []string
	if v := externalName(u); strings.HasPrefix(v, "arn:") {
		out = append(out, v)
	}
	s := &notificationv1alpha1.Subscription{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, s); err == nil {
		if id := subscription.Identity(s); id != "" {
			out = append(out, id)
		}
	}
	return out
}

// topicName is the name of a subscription's topic, from its ARN
// (arn:aws:sns:region:account:topic:id).
func topicName(arn string) string {
	a, err := awsarn.Parse(arn)
	if err != nil {
		return arn
	}
	topic, _, _ := strings.Cut(a.Resource, ":")
	return topic
}
