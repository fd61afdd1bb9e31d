//go:build integration

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
package integration

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	jsonpatch "github.com/evanphx/json-patch/v5"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	"github.com/cloudkinds/provider-aws-services/test/controlplane"
)

// An admissionCase starts from the example of a kind, changes it with a JSON
// merge patch and creates it; if update is set, it then applies update to the
// created object. The API server must refuse the last request with a message
// that contains every string of refused, or accept it when refused is empty.
type admissionCase struct {
	example string
	create  string
	update  string
	refused []string
}

const (
	stream       = "streaming/deliverystream.yaml"
	subscription = "notification/subscription.yaml"
	endpoint     = "eventbus/endpoint.yaml"
	endpointCfg  = "mlplatform/endpointconfig.yaml"
	apiKey       = "agentcorecontrol/apikeycredentialprovider.yaml"
	clusterPC    = "providerconfig/clusterproviderconfig.yaml"
	namespacedPC = "providerconfig/providerconfig.yaml"
)

func TestEveryExampleIsAccepted(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(controlplane.RepoRoot(), "examples", "*", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	for _, f := range files {
		for _, u := range readExample(t, f) {
			if u.GroupVersionKind().Group == "pkg.crossplane.io" {
				// Crossplane's own kinds (the runtime example) are checked
				// by the Crossplane test in hack/package/crossplane.
				continue
			}
			if u.GetNamespace() != "" {
				ensureNamespace(t, u.GetNamespace())
			}
			u.SetName(u.GetName() + "-accepted")
			if err := cp.Client.Create(context.Background(), u); err != nil {
				t.Errorf("%s: %s %s was refused: %v", filepath.Base(f), u.GetKind(), u.GetName(), err)
			}
		}
	}
}

func TestAdmission(t *testing.T) {
	cases := map[string]admissionCase{
		// DeliveryStream
		"StreamNamePattern": {example: stream, create: `{"spec":{"forProvider":{"deliveryStreamName":"no spaces"}}}`,
			refused: []string{"spec.forProvider.deliveryStreamName", "should match"}},
		"StreamNameRequired": {example: stream, create: `{"spec":{"forProvider":{"deliveryStreamName":null}}}`,
			refused: []string{"spec.forProvider.deliveryStreamName", "Required"}},
		"StreamTypeEnum": {example: stream, create: `{"spec":{"forProvider":{"deliveryStreamType":"KinesisStreamAsSource"}}}`,
			refused: []string{"spec.forProvider.deliveryStreamType", "Unsupported value"}},
		"StreamTypeStreamAsSource": {example: stream, create: `{"spec":{"forProvider":{"deliveryStreamType":"StreamAsSource"}}}`,
			refused: []string{"spec.forProvider.deliveryStreamType", "StreamAsSource cannot be created"}},
		"StreamTypeStreamAsSourceAdopted": {example: stream,
			create: `{"spec":{"managementPolicies":["Observe","Update","Delete"],"forProvider":{"deliveryStreamType":"StreamAsSource"}}}`},
		// Import: under policies that neither create nor update, only what
		// identifies the resource is required.
		"StreamImportedByName": {example: stream,
			create: `{"spec":{"managementPolicies":["Observe"],"forProvider":{"httpEndpointDestinationConfiguration":null,"tags":null}}}`},
		"StreamImportedThenManaged": {example: stream,
			create:  `{"spec":{"managementPolicies":["Observe"],"forProvider":{"httpEndpointDestinationConfiguration":null}}}`,
			update:  `{"spec":{"managementPolicies":["*"]}}`,
			refused: []string{"spec.forProvider.httpEndpointDestinationConfiguration", "exactly one destination"}},
		"SubscriptionImportedByARN": {example: subscription,
			create: `{"spec":{"managementPolicies":["Observe"],"forProvider":{"protocol":null,"endpoint":null,"topicARN":null,"rawMessageDelivery":null,"filterPolicy":null}}}`},
		"SubscriptionObservedAndDeletedNeedsTopic": {example: subscription,
			create:  `{"spec":{"managementPolicies":["Observe","Delete"],"forProvider":{"topicARN":null}}}`,
			refused: []string{"spec.forProvider.topicARN", "is required unless managementPolicies only observe"}},
		"EndpointImportedByName": {example: endpoint,
			create: `{"spec":{"managementPolicies":["Observe"],"forProvider":{"eventBuses":null,"routingConfig":null,"roleARN":null,"description":null}}}`},
		"EndpointConfigImportedByName": {example: endpointCfg,
			create: `{"spec":{"managementPolicies":["Observe"],"forProvider":{"productionVariants":null}}}`},
		"EndpointConfigDeletedNeedsVariants": {example: endpointCfg,
			create:  `{"spec":{"managementPolicies":["Observe","Delete"],"forProvider":{"productionVariants":null}}}`,
			refused: []string{"spec.forProvider.productionVariants", "is required unless managementPolicies only observe"}},
		"APIKeyImportedByName": {example: apiKey,
			create: `{"spec":{"managementPolicies":["Observe"],"forProvider":{"apiKey":null}}}`},
		"APIKeyUpdatedNeedsKey": {example: apiKey,
			create:  `{"spec":{"managementPolicies":["Observe","Update"],"forProvider":{"apiKey":null}}}`,
			refused: []string{"spec.forProvider.apiKey", "is required unless managementPolicies only observe"}},
		"StreamOwnerTagKey": {example: stream, create: `{"spec":{"forProvider":{"tags":[{"key":"crossplane-name","value":"someone-else"}]}}}`,
			refused: []string{"spec.forProvider.tags", "crossplane- are the provider's owner tags"}},
		"EndpointConfigOwnerTagKey": {example: endpointCfg, create: `{"spec":{"forProvider":{"tags":[{"key":"crossplane-namespace","value":"team-a"}]}}}`,
			refused: []string{"spec.forProvider.tags", "crossplane- are the provider's owner tags"}},
		"APIKeyOwnerTagKey": {example: apiKey, create: `{"spec":{"forProvider":{"tags":{"crossplane-kind":"x"}}}}`,
			refused: []string{"spec.forProvider.tags", "crossplane- are the provider's owner tags"}},
		"StreamBufferingIntervalAlone": {example: stream,
			create:  `{"spec":{"forProvider":{"httpEndpointDestinationConfiguration":{"bufferingHints":{"sizeInMBs":null}}}}}`,
			refused: []string{"spec.forProvider.httpEndpointDestinationConfiguration.bufferingHints", "intervalInSeconds and sizeInMBs must be given together"}},
		"StreamStoreBufferingSizeAlone": {example: stream,
			create:  `{"spec":{"forProvider":{"httpEndpointDestinationConfiguration":{"storeConfiguration":{"bufferingHints":{"sizeInMBs":5}}}}}}`,
			refused: []string{"spec.forProvider.httpEndpointDestinationConfiguration.storeConfiguration.bufferingHints", "intervalInSeconds and sizeInMBs must be given together"}},
		"StreamStoreBufferingBoth": {example: stream,
			create: `{"spec":{"forProvider":{"httpEndpointDestinationConfiguration":{"storeConfiguration":{"bufferingHints":{"sizeInMBs":5,"intervalInSeconds":300}}}}}}`},
		"StreamNoBufferingHints": {example: stream,
			create: `{"spec":{"forProvider":{"httpEndpointDestinationConfiguration":{"bufferingHints":null}}}}`},
		"StreamWithoutDestination": {example: stream, create: `{"spec":{"forProvider":{"httpEndpointDestinationConfiguration":null}}}`,
			refused: []string{"spec.forProvider.httpEndpointDestinationConfiguration", "exactly one destination"}},
		"StreamAccessKeyNeedsKey": {example: stream,
			create:  `{"spec":{"forProvider":{"httpEndpointDestinationConfiguration":{"endpointConfiguration":{"accessKey":{"key":null}}}}}}`,
			refused: []string{"spec.forProvider.httpEndpointDestinationConfiguration.endpointConfiguration.accessKey.key", "Required"}},
		"StreamNameImmutable": {example: stream, update: `{"spec":{"forProvider":{"deliveryStreamName":"renamed"}}}`,
			refused: []string{"spec.forProvider.deliveryStreamName", "deliveryStreamName is immutable"}},
		"StreamRegionImmutable": {example: stream, create: `{"spec":{"forProvider":{"region":"us-east-1"}}}`,
			update:  `{"spec":{"forProvider":{"region":"eu-west-1"}}}`,
			refused: []string{"spec.forProvider.region", "region is immutable"}},
		"StreamRegionCannotBeRemoved": {example: stream, create: `{"spec":{"forProvider":{"region":"us-east-1"}}}`,
			update:  `{"spec":{"forProvider":{"region":null}}}`,
			refused: []string{"spec.forProvider.region", "region cannot be removed"}},
		"StreamRegionCanBeSetLater": {example: stream, update: `{"spec":{"forProvider":{"region":"us-east-1"}}}`},
		"StreamTypeImmutable": {example: stream, create: `{"spec":{"managementPolicies":["Observe","Update","Delete"]}}`,
			update:  `{"spec":{"forProvider":{"deliveryStreamType":"StreamAsSource"}}}`,
			refused: []string{"spec.forProvider.deliveryStreamType", "deliveryStreamType is immutable"}},
		"StreamTagsCanChange": {example: stream, update: `{"spec":{"forProvider":{"tags":[{"key":"team","value":"data"}]}}}`},
		"StreamDestinationCanChange": {example: stream,
			update: `{"spec":{"forProvider":{"httpEndpointDestinationConfiguration":{"retryOptions":{"durationInSeconds":600}}}}}`},

		// Subscription
		"SubscriptionProtocolEnum": {example: subscription, create: `{"spec":{"forProvider":{"protocol":"sqs"}}}`,
			refused: []string{"spec.forProvider.protocol", "Unsupported value"}},
		"SubscriptionProtocolRequired": {example: subscription, create: `{"spec":{"forProvider":{"protocol":null}}}`,
			refused: []string{"spec.forProvider.protocol", "is required unless managementPolicies only observe"}},
		"SubscriptionHTTPNeedsHTTPURL": {example: subscription, create: `{"spec":{"forProvider":{"protocol":"http","endpoint":"https://hooks.example.com/sns"}}}`,
			refused: []string{"spec.forProvider.endpoint", "http://"}},
		"SubscriptionHTTPURL": {example: subscription, create: `{"spec":{"forProvider":{"protocol":"http","endpoint":"http://hooks.example.com/sns"}}}`},
		"SubscriptionHTTPSNeedsHTTPSURL": {example: subscription, create: `{"spec":{"forProvider":{"protocol":"https","endpoint":"http://hooks.example.com/sns"}}}`,
			refused: []string{"spec.forProvider.endpoint", "https://"}},
		"SubscriptionHTTPSURL": {example: subscription, create: `{"spec":{"forProvider":{"protocol":"https","endpoint":"https://hooks.example.com/sns"}}}`},
		"SubscriptionEmailNeedsAddress": {example: subscription, create: `{"spec":{"forProvider":{"protocol":"email","endpoint":"ops.example.com"}}}`,
			refused: []string{"spec.forProvider.endpoint", "e-mail address"}},
		"SubscriptionEmailJSONAddress": {example: subscription, create: `{"spec":{"forProvider":{"protocol":"email-json","endpoint":"ops@example.com"}}}`},
		"SubscriptionSMSNeedsPhoneNumber": {example: subscription, create: `{"spec":{"forProvider":{"protocol":"sms","endpoint":"call me"}}}`,
			refused: []string{"spec.forProvider.endpoint", "phone number"}},
		"SubscriptionSMSPhoneNumber": {example: subscription, create: `{"spec":{"forProvider":{"protocol":"sms","endpoint":"+14155550100"}}}`},
		"SubscriptionQueueNeedsQueueARN": {example: subscription, create: `{"spec":{"forProvider":{"endpoint":"arn:aws:lambda:us-east-1:000000000000:function:f"}}}`,
			refused: []string{"spec.forProvider.endpoint", "SQS queue"}},
		"SubscriptionFunctionARN": {example: subscription, create: `{"spec":{"forProvider":{"protocol":"function","endpoint":"arn:aws:lambda:us-east-1:000000000000:function:f"}}}`},
		"SubscriptionStreamNeedsRole": {example: subscription, create: `{"spec":{"forProvider":{"protocol":"stream","endpoint":"arn:aws:firehose:us-east-1:000000000000:deliverystream/s"}}}`,
			refused: []string{"spec.forProvider.subscriptionRoleARN", "requires subscriptionRoleARN"}},
		"SubscriptionStreamWithRole": {example: subscription, create: `{"spec":{"forProvider":{"protocol":"stream","endpoint":"arn:aws:firehose:us-east-1:000000000000:deliverystream/s","subscriptionRoleARN":"arn:aws:iam::000000000000:role/sns-to-firehose"}}}`},
		"SubscriptionApplicationNeedsEndpointARN": {example: subscription, create: `{"spec":{"forProvider":{"protocol":"application","endpoint":"device-token"}}}`,
			refused: []string{"spec.forProvider.endpoint", "EndpointArn"}},
		"SubscriptionNeedsTopic": {example: subscription, create: `{"spec":{"forProvider":{"topicARN":null}}}`,
			refused: []string{"spec.forProvider.topicARN", "one of spec.forProvider.topicARN, topicRef or topicSelector"}},
		"SubscriptionTopicRef": {example: subscription, create: `{"spec":{"forProvider":{"topicARN":null,"topicRef":{"from":{"name":"orders"}}}}}`},
		"SubscriptionRefNeedsName": {example: subscription, create: `{"spec":{"forProvider":{"topicARN":null,"topicRef":{"from":{}}}}}`,
			refused: []string{"spec.forProvider.topicRef", "from.name"}},
		"SubscriptionProtocolImmutable": {example: subscription, update: `{"spec":{"forProvider":{"protocol":"function","endpoint":"arn:aws:lambda:us-east-1:000000000000:function:f"}}}`,
			refused: []string{"spec.forProvider.protocol", "protocol is immutable"}},
		"SubscriptionEndpointImmutable": {example: subscription, update: `{"spec":{"forProvider":{"endpoint":"arn:aws:sqs:us-east-1:000000000000:other"}}}`,
			refused: []string{"spec.forProvider.endpoint", "endpoint is immutable"}},
		"SubscriptionTopicImmutable": {example: subscription, update: `{"spec":{"forProvider":{"topicARN":"arn:aws:sns:us-east-1:000000000000:other"}}}`,
			refused: []string{"spec.forProvider.topicARN", "topicARN is immutable"}},
		"SubscriptionTopicSetByReferenceLater": {example: subscription, create: `{"spec":{"forProvider":{"topicARN":null,"topicRef":{"from":{"name":"orders"}}}}}`,
			update: `{"spec":{"forProvider":{"topicARN":"arn:aws:sns:us-east-1:000000000000:orders"}}}`},
		"SubscriptionFilterPolicyCanChange": {example: subscription, update: `{"spec":{"forProvider":{"filterPolicy":"{\"type\":[\"order_shipped\"]}"}}}`},

		// Endpoint
		"EndpointNamePattern": {example: endpoint, create: `{"spec":{"forProvider":{"name":"orders/global"}}}`,
			refused: []string{"spec.forProvider.name", "should match"}},
		"EndpointReplicationEnabledNeedsRole": {example: endpoint, create: `{"spec":{"forProvider":{"roleARN":null}}}`,
			refused: []string{"spec.forProvider.roleARN", "replication is ENABLED"}},
		"EndpointReplicationDefaultNeedsRole": {example: endpoint, create: `{"spec":{"forProvider":{"roleARN":null,"replicationConfig":null}}}`,
			refused: []string{"spec.forProvider.roleARN", "replication is ENABLED"}},
		"EndpointReplicationDefaultWithRoleRef":  {example: endpoint, create: `{"spec":{"forProvider":{"roleARN":null,"replicationConfig":null,"roleRef":{"from":{"name":"replication"}}}}}`},
		"EndpointReplicationDisabledNeedsNoRole": {example: endpoint, create: `{"spec":{"forProvider":{"roleARN":null,"replicationConfig":{"state":"DISABLED"}}}}`},
		"EndpointReplicationStateEnum": {example: endpoint, create: `{"spec":{"forProvider":{"replicationConfig":{"state":"PAUSED"}}}}`,
			refused: []string{"spec.forProvider.replicationConfig.state", "Unsupported value"}},
		"EndpointBusesNeedSameName": {example: endpoint,
			create:  `{"spec":{"forProvider":{"eventBuses":[{"eventBusARN":"arn:aws:events:us-east-1:000000000000:event-bus/orders"},{"eventBusARN":"arn:aws:events:us-west-2:000000000000:event-bus/payments"}]}}}`,
			refused: []string{"spec.forProvider.eventBuses", "identical names"}},
		"EndpointBusesRequired": {example: endpoint, create: `{"spec":{"forProvider":{"eventBuses":null}}}`,
			refused: []string{"spec.forProvider.eventBuses", "is required unless managementPolicies only observe"}},
		"EndpointRoutingRequired": {example: endpoint, create: `{"spec":{"forProvider":{"routingConfig":null}}}`,
			refused: []string{"spec.forProvider.routingConfig", "is required unless managementPolicies only observe"}},
		"EndpointNameImmutable": {example: endpoint, update: `{"spec":{"forProvider":{"name":"renamed"}}}`,
			refused: []string{"spec.forProvider.name", "name is immutable"}},
		"EndpointDescriptionCanChange": {example: endpoint, update: `{"spec":{"forProvider":{"description":"changed"}}}`},

		// EndpointConfig
		"EndpointConfigNamePattern": {example: endpointCfg, create: `{"spec":{"forProvider":{"endpointConfigName":"churn_model"}}}`,
			refused: []string{"spec.forProvider.endpointConfigName", "should match"}},
		"EndpointConfigNameTooLong": {example: endpointCfg, create: `{"spec":{"forProvider":{"endpointConfigName":"` + strings.Repeat("a", 64) + `"}}}`,
			refused: []string{"spec.forProvider.endpointConfigName"}},
		"EndpointConfigKMSKeyPattern": {example: endpointCfg, create: `{"spec":{"forProvider":{"kmsKeyID":"alias with spaces"}}}`,
			refused: []string{"spec.forProvider.kmsKeyID", "should match"}},
		"EndpointConfigKMSKeyAlias": {example: endpointCfg, create: `{"spec":{"forProvider":{"kmsKeyID":"alias/ml-volumes"}}}`},
		"EndpointConfigVariantsRequired": {example: endpointCfg, create: `{"spec":{"forProvider":{"productionVariants":null}}}`,
			refused: []string{"spec.forProvider.productionVariants", "is required unless managementPolicies only observe"}},
		"EndpointConfigVariantsImmutable": {example: endpointCfg, update: `{"spec":{"forProvider":{"productionVariants":[{"variantName":"primary","modelName":"churn-model","instanceType":"ml.m5.xlarge","initialInstanceCount":1,"initialVariantWeight":1}]}}}`,
			refused: []string{"spec.forProvider.productionVariants", "SageMaker cannot update"}},
		"EndpointConfigCaptureImmutable": {example: endpointCfg, update: `{"spec":{"forProvider":{"dataCaptureConfig":{"initialSamplingPercentage":50}}}}`,
			refused: []string{"spec.forProvider.dataCaptureConfig", "SageMaker cannot update"}},
		"EndpointConfigKMSKeyCannotBeRemoved": {example: endpointCfg, create: `{"spec":{"forProvider":{"kmsKeyID":"alias/ml-volumes"}}}`,
			update:  `{"spec":{"forProvider":{"kmsKeyID":null}}}`,
			refused: []string{"spec.forProvider.kmsKeyID", "cannot be removed"}},
		"EndpointConfigTagsCanChange": {example: endpointCfg, update: `{"spec":{"forProvider":{"tags":[{"key":"team","value":"ml-platform"}]}}}`},

		// APIKeyCredentialProvider
		"APIKeyNamePattern": {example: apiKey, create: `{"spec":{"forProvider":{"name":"search api"}}}`,
			refused: []string{"spec.forProvider.name", "should match"}},
		"APIKeySecretKeyRequired": {example: apiKey, create: `{"spec":{"forProvider":{"apiKey":{"key":null}}}}`,
			refused: []string{"spec.forProvider.apiKey.key", "Required"}},
		"APIKeyRequired": {example: apiKey, create: `{"spec":{"forProvider":{"apiKey":null}}}`,
			refused: []string{"spec.forProvider.apiKey", "is required unless managementPolicies only observe"}},
		"APIKeyNameImmutable": {example: apiKey, update: `{"spec":{"forProvider":{"name":"renamed"}}}`,
			refused: []string{"spec.forProvider.name", "name is immutable"}},
		"APIKeyTagsCanChange": {example: apiKey, update: `{"spec":{"forProvider":{"tags":{"team":"agents","cost-center":"42"}}}}`},

		// Provider configuration
		"ConfigSourceEnum": {example: clusterPC, create: `{"spec":{"credentials":{"source":"Environment"}}}`,
			refused: []string{"spec.credentials.source", "Unsupported value"}},
		"ConfigSecretNeedsRef": {example: namespacedPC, create: `{"spec":{"credentials":{"secretRef":null}}}`,
			refused: []string{"spec.credentials.secretRef", "required when source is Secret"}},
		"ConfigWebIdentityNeedsToken": {example: clusterPC, create: `{"spec":{"credentials":{"source":"WebIdentity","webIdentity":{"roleARN":"arn:aws:iam::000000000000:role/r"}}}}`,
			refused: []string{"spec.credentials.webIdentity", "exactly one of tokenFile and tokenSecretRef"}},
		"ConfigWebIdentityTokenFile": {example: clusterPC, create: `{"spec":{"credentials":{"source":"WebIdentity","webIdentity":{"roleARN":"arn:aws:iam::000000000000:role/r","tokenFile":"/var/run/secrets/token"}}}}`},
		"NamespacedConfigRefusesIRSA": {example: namespacedPC, create: `{"spec":{"credentials":{"source":"IRSA","secretRef":null}}}`,
			refused: []string{"spec.credentials.source", "cannot use the provider pod's own identity", "ClusterProviderConfig an admin offers"}},
		"NamespacedConfigRefusesPodIdentity": {example: namespacedPC, create: `{"spec":{"credentials":{"source":"PodIdentity","secretRef":null}}}`,
			refused: []string{"spec.credentials.source", "cannot use the provider pod's own identity"}},
		"NamespacedConfigRefusesInjectedIdentity": {example: namespacedPC, create: `{"spec":{"credentials":{"source":"InjectedIdentity","secretRef":null}}}`,
			refused: []string{"spec.credentials.source", "cannot use the provider pod's own identity"}},
		"NamespacedConfigRefusesATokenFile": {example: namespacedPC, create: `{"spec":{"credentials":{"source":"WebIdentity","secretRef":null,"webIdentity":{"roleARN":"arn:aws:iam::000000000000:role/r","tokenFile":"/var/run/secrets/kubernetes.io/serviceaccount/token"}}}}`,
			refused: []string{"spec.credentials.webIdentity.tokenFile", "cannot read a token from the provider pod's files", "tokenSecretRef"}},
		"NamespacedConfigTokenFromItsSecret": {example: namespacedPC, create: `{"spec":{"credentials":{"source":"WebIdentity","secretRef":null,"webIdentity":{"roleARN":"arn:aws:iam::000000000000:role/r","tokenSecretRef":{"name":"token","namespace":"team-a","key":"token"}}}}}`},
		"ClusterConfigKeepsIRSA":             {example: clusterPC, create: `{"spec":{"credentials":{"source":"IRSA"}}}`},
		"ConfigEndpointURL": {example: clusterPC, create: `{"spec":{"endpoint":{"url":"localhost:4566"}}}`,
			refused: []string{"spec.endpoint.url", "should match"}},
		"ConfigNamespacesByNameAndLabel": {example: clusterPC, create: `{"spec":{"namespaces":{"names":["team-a"],"selector":{"matchExpressions":[{"key":"tenant","operator":"In","values":["platform"]}]}}}}`},
		"ConfigNamespacesEmpty": {example: clusterPC, create: `{"spec":{"namespaces":{"names":null}}}`,
			refused: []string{"spec.namespaces", "needs names, a selector or both; to admit every namespace, omit spec.namespaces"}},
		"ConfigNamespacesNamePattern": {example: clusterPC, create: `{"spec":{"namespaces":{"names":["Team_A"]}}}`,
			refused: []string{"spec.namespaces.names[0]", "should match"}},
		"ConfigNamespacesNamesUnique": {example: clusterPC, create: `{"spec":{"namespaces":{"names":["team-a","team-a"]}}}`,
			refused: []string{"spec.namespaces.names[1]", "Duplicate value"}},
	}
	runAdmission(t, cases)
}

// TestOwnerTagsLeaveRoom: the provider puts 6 owner tags on every resource
// of the three taggable kinds and AWS allows 50, so a spec may name 44 tags;
// 45 or more are refused at admission, naming the field and the limit,
// instead of by AWS at create.
func TestOwnerTagsLeaveRoom(t *testing.T) {
	// A merge patch replaces a list but merges into a map: the example's
	// own tags of the map kind are removed first.
	apiKeyTags := func(n int) string {
		tags, _, _ := unstructured.NestedStringMap(fromExample(t, apiKey, "").Object, "spec", "forProvider", "tags")
		removed := ""
		for k := range tags {
			removed += fmt.Sprintf(`%q:null,`, k)
		}
		return "{" + removed + strings.TrimPrefix(tagMap(n), "{")
	}
	cases := map[string]admissionCase{}
	for kind, example := range map[string]string{"Stream": stream, "EndpointConfig": endpointCfg, "APIKey": apiKey} {
		tags := tagList
		if example == apiKey {
			tags = apiKeyTags
		}
		cases[kind+"44Tags"] = admissionCase{example: example, create: `{"spec":{"forProvider":{"tags":` + tags(44) + `}}}`}
		for _, n := range []int{45, 46} {
			cases[fmt.Sprintf("%s%dTags", kind, n)] = admissionCase{example: example, create: `{"spec":{"forProvider":{"tags":` + tags(n) + `}}}`,
				refused: []string{fmt.Sprintf("spec.forProvider.tags: Too many: %d: must have at most 44 items", n)}}
		}
		cases[kind+"45TagsByUpdate"] = admissionCase{example: example, update: `{"spec":{"forProvider":{"tags":` + tags(45) + `}}}`,
			refused: []string{"spec.forProvider.tags: Too many: 45: must have at most 44 items"}}
	}
	runAdmission(t, cases)
}

// runAdmission creates (and updates) the object of every case and checks the
// API server's answer.
func runAdmission(t *testing.T, cases map[string]admissionCase) {
	t.Helper()
	seq := 0
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			seq++
			obj := fromExample(t, tc.example, tc.create)
			obj.SetName(fmt.Sprintf("%s-%d", strings.ToLower(regexp.MustCompile(`[^a-zA-Z0-9]`).ReplaceAllString(name, "")), seq))
			if obj.GetNamespace() != "" {
				ensureNamespace(t, obj.GetNamespace())
			}
			ctx := context.Background()
			err := cp.Client.Create(ctx, obj)
			if tc.update != "" {
				if err != nil {
					t.Fatalf("create before the update was refused: %v", err)
				}
				obj = merge(t, obj, tc.update)
				err = cp.Client.Update(ctx, obj)
			}
			checkAdmission(t, err, tc.refused)
		})
	}
}

func checkAdmission(t *testing.T, err error, refused []string) {
	t.Helper()
	if len(refused) == 0 {
		if err != nil {
			t.Fatalf("refused, want accepted: %v", err)
		}
		return
	}
	if err == nil {
		t.Fatalf("accepted, want refused with %q", refused)
	}
	if !kerrors.IsInvalid(err) {
		t.Fatalf("refused for another reason than invalid input: %v", err)
	}
	for _, s := range refused {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("refusal does not contain %q:\n%v", s, err)
		}
	}
}

// fromExample returns the managed resource or config of an example file, with
// the JSON merge patch applied.
func fromExample(t *testing.T, example, patch string) *unstructured.Unstructured {
	t.Helper()
	docs := readExample(t, filepath.Join(controlplane.RepoRoot(), "examples", example))
	u := docs[len(docs)-1] // a Secret, if any, comes first
	if patch == "" {
		return u
	}
	return merge(t, u, patch)
}

func merge(t *testing.T, u *unstructured.Unstructured, patch string) *unstructured.Unstructured {
	t.Helper()
	doc, err := u.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	merged, err := jsonpatch.MergePatch(doc, []byte(patch))
	if err != nil {
		t.Fatalf("cannot apply %s: %v", patch, err)
	}
	out := &unstructured.Unstructured{}
	if err := out.UnmarshalJSON(merged); err != nil {
		t.Fatal(err)
	}
	return out
}

func readExample(t *testing.T, path string) []*unstructured.Unstructured {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(b)))
	var out []*unstructured.Unstructured
	for {
		y, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(bytes.TrimSpace(y)) == 0 {
			continue
		}
		j, err := yaml.YAMLToJSON(y)
		if err != nil {
			t.Fatal(err)
		}
		u := &unstructured.Unstructured{}
		if err := u.UnmarshalJSON(j); err != nil {
			t.Fatal(err)
		}
		out = append(out, u)
	}
}

func ensureNamespace(t *testing.T, name string) {
	t.Helper()
	ns := &unstructured.Unstructured{}
	ns.SetAPIVersion("v1")
	ns.SetKind("Namespace")
	ns.SetName(name)
	if err := cp.Client.Create(context.Background(), ns); err != nil && !kerrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
}

func tagList(n int) string {
	tags := make([]string, n)
	for i := range tags {
		tags[i] = fmt.Sprintf(`{"key":"k%d","value":"v"}`, i)
	}
	return "[" + strings.Join(tags, ",") + "]"
}

func tagMap(n int) string {
	tags := make([]string, n)
	for i := range tags {
		tags[i] = fmt.Sprintf(`"k%d":"v"`, i)
	}
	return "{" + strings.Join(tags, ",") + "}"
}
