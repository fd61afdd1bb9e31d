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
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	agentcorev1alpha1 "github.com/cloudkinds/provider-aws-services/apis/agentcorecontrol/v1alpha1"
	eventbusv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/eventbus/v1alpha1"
	mlv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/mlplatform/v1alpha1"
	notificationv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/notification/v1alpha1"
	streamingv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	ac "github.com/cloudkinds/provider-aws-services/internal/aws/agentcore"
	eb "github.com/cloudkinds/provider-aws-services/internal/aws/eventbridge"
	fh "github.com/cloudkinds/provider-aws-services/internal/aws/firehose"
	sm "github.com/cloudkinds/provider-aws-services/internal/aws/sagemaker"
	snsclient "github.com/cloudkinds/provider-aws-services/internal/aws/sns"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/ownership"
)

// An importCase is one kind's resource made outside the cluster, and the
// object that imports it by its identifier alone.
type importCase struct {
	// made makes the resource outside the cluster, as the full object
	// would have, and returns the name its AWS calls carry.
	made func(t *testing.T, s *stack, ns string) string
	// imported is the observe-only object that names the resource.
	imported func(ns, awsName string) resource.Managed
	// shown returns the configuration the object shows, as JSON, and a
	// value of the resource it must hold.
	shown func(mg resource.Managed) (json string, holds string)
	// manage copies what the object shows into its spec: what the user
	// then does to manage it.
	manage func(mg resource.Managed)
	// writes are the only writes that managing it may make: the owner
	// tags adoption puts on a kind AWS can tag, and a secret AWS never
	// returns, sent once.
	writes []string
	// read and tagRead are the kind's read and tag list, for one that AWS
	// can tag: an import lists the tags to show them, once per poll.
	read, tagRead string
}

func importCases() map[string]importCase {
	observeOnly := xpv2.ManagementPolicies{xpv2.ManagementActionObserve}
	observing := func(mg resource.Managed, ns, name string) {
		mg.SetNamespace(ns)
		mg.SetName(name)
		mg.SetManagementPolicies(observeOnly)
	}
	asJSON := func(v any) string {
		b, _ := json.Marshal(v)
		return string(b)
	}
	return map[string]importCase{
		"DeliveryStream": {
			made: func(t *testing.T, s *stack, ns string) string {
				full := newStream(t, ns, "imp-stream-"+ns)
				in := fh.CreateInput(&full.Spec.ForProvider, aws.String(accessKey), map[string]string{"team": "analytics"})
				if _, err := firehose.NewFromConfig(outsiderConfig(s)).CreateDeliveryStream(t.Context(), in); err != nil {
					t.Fatal(err)
				}
				return full.Spec.ForProvider.DeliveryStreamName
			},
			imported: func(ns, name string) resource.Managed {
				mg := &streamingv1alpha1.DeliveryStream{}
				observing(mg, ns, name)
				mg.Spec.ProviderConfigReference = emulatorConfig()
				mg.Spec.ForProvider.DeliveryStreamName = name
				return mg
			},
			shown: func(mg resource.Managed) (string, string) {
				return asJSON(mg.(*streamingv1alpha1.DeliveryStream).Status.AtProvider.ForProvider), "https://collector.example.com/ingest"
			},
			manage: func(mg resource.Managed) {
				s := mg.(*streamingv1alpha1.DeliveryStream)
				s.Spec.ForProvider = *s.Status.AtProvider.ForProvider
			},
			writes: []string{"firehose:TagDeliveryStream"},
			read:   "firehose:DescribeDeliveryStream", tagRead: "firehose:ListTagsForDeliveryStream",
		},
		"EndpointConfig": {
			made: func(t *testing.T, s *stack, ns string) string {
				model(t, s, "imp-model-"+ns)
				full := newEndpointConfig(ns, "imp-config-"+ns, "imp-model-"+ns)
				if _, err := sagemaker.NewFromConfig(outsiderConfig(s)).CreateEndpointConfig(t.Context(), sm.CreateInput(&full.Spec.ForProvider, map[string]string{"team": "ml"})); err != nil {
					t.Fatal(err)
				}
				return full.Spec.ForProvider.EndpointConfigName
			},
			imported: func(ns, name string) resource.Managed {
				mg := &mlv1alpha1.EndpointConfig{}
				observing(mg, ns, name)
				mg.Spec.ProviderConfigReference = emulatorConfig()
				mg.Spec.ForProvider.EndpointConfigName = name
				return mg
			},
			shown: func(mg resource.Managed) (string, string) {
				return asJSON(mg.(*mlv1alpha1.EndpointConfig).Status.AtProvider.ForProvider), `"modelName":"imp-model-`
			},
			manage: func(mg resource.Managed) {
				c := mg.(*mlv1alpha1.EndpointConfig)
				c.Spec.ForProvider = *c.Status.AtProvider.ForProvider
			},
			writes: []string{"sagemaker:AddTags"},
			read:   "sagemaker:DescribeEndpointConfig", tagRead: "sagemaker:ListTags",
		},
		"Endpoint": {
			made: func(t *testing.T, s *stack, ns string) string {
				full := newEndpoint(ns, "imp-endpoint-"+ns)
				if _, err := eventbridge.NewFromConfig(outsiderConfig(s)).CreateEndpoint(t.Context(), eb.CreateInput(&full.Spec.ForProvider)); err != nil {
					t.Fatal(err)
				}
				return full.Spec.ForProvider.Name
			},
			imported: func(ns, name string) resource.Managed {
				mg := &eventbusv1alpha1.Endpoint{}
				observing(mg, ns, name)
				mg.Spec.ProviderConfigReference = emulatorConfig()
				mg.Spec.ForProvider.Name = name
				return mg
			},
			shown: func(mg resource.Managed) (string, string) {
				return asJSON(mg.(*eventbusv1alpha1.Endpoint).Status.AtProvider.ForProvider), "event-bus/orders"
			},
			manage: func(mg resource.Managed) {
				e := mg.(*eventbusv1alpha1.Endpoint)
				e.Spec.ForProvider = *e.Status.AtProvider.ForProvider
			},
		},
		"Subscription": {
			made: func(t *testing.T, s *stack, ns string) string {
				full := newSubscription(ns, "imp-sub-"+ns, topic(t, s, "imp-topic-"+ns))
				out, err := sns.NewFromConfig(outsiderConfig(s)).Subscribe(t.Context(), snsclient.SubscribeInput(&full.Spec.ForProvider))
				if err != nil {
					t.Fatal(err)
				}
				return aws.ToString(out.SubscriptionArn)
			},
			imported: func(ns, arn string) resource.Managed {
				mg := &notificationv1alpha1.Subscription{}
				observing(mg, ns, "imported")
				mg.Spec.ProviderConfigReference = emulatorConfig()
				meta.SetExternalName(mg, arn)
				return mg
			},
			shown: func(mg resource.Managed) (string, string) {
				return asJSON(mg.(*notificationv1alpha1.Subscription).Status.AtProvider.ForProvider), `"protocol":"queue"`
			},
			manage: func(mg resource.Managed) {
				s := mg.(*notificationv1alpha1.Subscription)
				s.Spec.ForProvider = *s.Status.AtProvider.ForProvider
			},
		},
		// Observed by its topic, protocol and endpoint rather than its ARN,
		// it is found by them, and shows what SNS holds as well.
		"SubscriptionBySpec": {
			made: func(t *testing.T, s *stack, ns string) string {
				full := newSubscription(ns, "imp-subspec-"+ns, topic(t, s, "imp-topicspec-"+ns))
				out, err := sns.NewFromConfig(outsiderConfig(s)).Subscribe(t.Context(), snsclient.SubscribeInput(&full.Spec.ForProvider))
				if err != nil {
					t.Fatal(err)
				}
				return aws.ToString(out.SubscriptionArn)
			},
			imported: func(ns, arn string) resource.Managed {
				topicARN := arn[:strings.LastIndex(arn, ":")]
				mg := newSubscription(ns, "imp-subspec-"+ns, topicARN)
				mg.Spec.ForProvider.RawMessageDelivery, mg.Spec.ForProvider.FilterPolicy = nil, nil
				observing(mg, ns, "imported")
				return mg
			},
			shown: func(mg resource.Managed) (string, string) {
				return asJSON(mg.(*notificationv1alpha1.Subscription).Status.AtProvider.ForProvider), `"rawMessageDelivery":"true"`
			},
			manage: func(mg resource.Managed) {
				s := mg.(*notificationv1alpha1.Subscription)
				s.Spec.ForProvider = *s.Status.AtProvider.ForProvider
			},
		},
		"APIKeyCredentialProvider": {
			made: func(t *testing.T, s *stack, ns string) string {
				full := newAPIKeyProvider(ns, "imp-key-"+ns)
				in := ac.CreateInput(&full.Spec.ForProvider, []byte("the-key"), map[string]string{"team": "agents"})
				if _, err := bedrockagentcorecontrol.NewFromConfig(outsiderConfig(s)).CreateApiKeyCredentialProvider(t.Context(), in); err != nil {
					t.Fatal(err)
				}
				if err := cp.Client.Create(t.Context(), secretWith(ns, "search-key", "apiKey", "the-key")); err != nil {
					t.Fatal(err)
				}
				return full.Spec.ForProvider.Name
			},
			imported: func(ns, name string) resource.Managed {
				mg := &agentcorev1alpha1.APIKeyCredentialProvider{}
				observing(mg, ns, name)
				mg.Spec.ProviderConfigReference = emulatorConfig()
				mg.Spec.ForProvider.Name = name
				return mg
			},
			shown: func(mg resource.Managed) (string, string) {
				return asJSON(mg.(*agentcorev1alpha1.APIKeyCredentialProvider).Status.AtProvider.ForProvider), `"team":"agents"`
			},
			manage: func(mg resource.Managed) {
				p := mg.(*agentcorev1alpha1.APIKeyCredentialProvider)
				p.Spec.ForProvider = *p.Status.AtProvider.ForProvider
				p.Spec.ForProvider.APIKey = newAPIKeyProvider("", "").Spec.ForProvider.APIKey
			},
			// AgentCore never returns the key: the first reconcile that
			// manages it sends the key of the spec's Secret once.
			writes:  []string{"bedrock-agentcore:TagResource", "bedrock-agentcore:UpdateApiKeyCredentialProvider"},
			read:    "bedrock-agentcore:GetApiKeyCredentialProvider",
			tagRead: "bedrock-agentcore:ListTagsForResource",
		},
	}
}

// TestImportByIdentifierAlone imports a resource of each kind made outside
// the cluster: an observe-only object that names it alone becomes Ready and
// shows the configuration AWS holds in spec.forProvider's shape, never a
// secret; copied into its spec, with the policies widened and the adoption
// annotation, it becomes the object's without changing the resource's
// configuration on AWS.
func TestImportByIdentifierAlone(t *testing.T) {
	s := provider(t)
	var wg sync.WaitGroup
	defer wg.Wait()
	for kind, c := range importCases() {
		wg.Go(func() {
			t.Run(kind, func(t *testing.T) {
				ns := namespace(t)
				awsName := c.made(t, s, ns)
				mg := c.imported(ns, awsName)
				create(t, mg)
				eventually(t, 30*time.Second, "Ready, observing", func() error { return isReady(t, mg) })
				eventually(t, 10*time.Second, "the configuration shown", func() error {
					shown, holds := c.shown(mg)
					if !strings.Contains(shown, holds) {
						return fmt.Errorf("status.atProvider.forProvider %s does not hold %s", shown, holds)
					}
					return nil
				})
				shown, _ := c.shown(mg)
				for _, secret := range []string{accessKey, "the-key"} {
					if strings.Contains(shown, secret) {
						t.Errorf("status.atProvider.forProvider shows a secret: %s", shown)
					}
				}
				if calls := writesOf(s.aws.CallsMatching(awsName)); len(calls) > 0 {
					t.Errorf("an observe-only object wrote to AWS: %v", calls)
				}
				if c.tagRead != "" {
					// A few polls: the tags the kind listed are those
					// ownership looks at, not listed again.
					time.Sleep(3 * testPoll)
					calls := s.aws.CallsMatching(awsName)
					if calls[c.tagRead] > calls[c.read] {
						t.Errorf("observe-only polls: %d %s, %d %s: want one tag list per read at most", calls[c.tagRead], c.tagRead, calls[c.read], c.read)
					}
				}

				before := s.aws.CallsMatching(awsName)
				change(t, mg, func(mg resource.Managed) {
					c.manage(mg)
					mg.SetManagementPolicies(xpv2.ManagementPolicies{xpv2.ManagementActionAll})
					meta.AddAnnotations(mg, map[string]string{ownership.AnnotationAdoptionPolicy: ownership.AdoptionPolicyAdopt})
				})
				eventually(t, 30*time.Second, "Ready and up to date, managing", func() error { return upToDate(t, mg) })
				writes := writesOf(since(s.aws.CallsMatching(awsName), before))
				for op := range writes {
					if !slices.Contains(c.writes, op) {
						t.Errorf("managing what was imported wrote %s (writes %v): want only %v", op, writes, c.writes)
					}
				}
				t.Logf("%s: writes once managed: %v", kind, writes)
			})
		})
	}
}

// writesOf keeps the operations that change AWS.
func writesOf(calls map[string]int) map[string]int {
	out := map[string]int{}
	for op, n := range calls {
		_, name, _ := strings.Cut(op, ":")
		if n > 0 && !strings.HasPrefix(name, "Describe") && !strings.HasPrefix(name, "Get") && !strings.HasPrefix(name, "List") {
			out[op] = n
		}
	}
	return out
}
