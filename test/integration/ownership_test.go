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
	"context"
	"encoding/json"
	"fmt"
	"strings"
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
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	agentcorev1alpha1 "github.com/cloudkinds/provider-aws-services/apis/agentcorecontrol/v1alpha1"
	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	eventbusv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/eventbus/v1alpha1"
	mlplatformv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/mlplatform/v1alpha1"
	notificationv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/notification/v1alpha1"
	streamingv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	ac "github.com/cloudkinds/provider-aws-services/internal/aws/agentcore"
	eb "github.com/cloudkinds/provider-aws-services/internal/aws/eventbridge"
	fh "github.com/cloudkinds/provider-aws-services/internal/aws/firehose"
	sm "github.com/cloudkinds/provider-aws-services/internal/aws/sagemaker"
	snsclient "github.com/cloudkinds/provider-aws-services/internal/aws/sns"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/ownership"
)

// An ownedKind is one kind in the ownership table: how to make an object that
// asks for a given AWS identity, and how to see that identity in AWS as
// someone outside the provider.
type ownedKind struct {
	name string
	// object returns an object of namespace ns named name, asking for the
	// AWS identity that name stands for (the same in every namespace).
	object func(t *testing.T, ns, name string) resource.Managed
	// vary changes an object's spec in a value AWS holds, so that an
	// object that wrote it would show on AWS.
	vary func(mg resource.Managed)
	// outside makes the resource mg asks for, as someone outside the
	// cluster would: without owner tags.
	outside func(ctx context.Context, mg resource.Managed) error
	// state is everything AWS says of the resource mg asks for (with its
	// version and timestamps), read with an uncounted key.
	state func(ctx context.Context, mg resource.Managed) (string, error)
	// tags are the resource's tags; nil for a kind AWS cannot tag.
	tags func(ctx context.Context, mg resource.Managed) (map[string]string, error)
	// counted names the resource in the emulator's per-resource counts.
	counted func(mg resource.Managed) []string
	// creates is the kind's create operation.
	creates string
	// arn is the ARN of the resource mg asks for, read as someone outside
	// the provider.
	arn func(ctx context.Context, mg resource.Managed) (string, error)
}

func asJSON(v any, err error) (string, error) {
	if err != nil {
		return "", err
	}
	b, err := json.Marshal(v)
	return string(b), err
}

func ownedKinds(t *testing.T, s *stack) []ownedKind {
	t.Helper()
	cfg := outsiderConfig(s)
	fhc, snc, ebc, smc, acc := firehose.NewFromConfig(cfg), sns.NewFromConfig(cfg), eventbridge.NewFromConfig(cfg), sagemaker.NewFromConfig(cfg), bedrockagentcorecontrol.NewFromConfig(cfg)
	topicARN := topic(t, s, short("owners"))
	modelName := short("owners-model")
	model(t, s, modelName)
	return []ownedKind{
		{
			name:   "DeliveryStream",
			object: func(t *testing.T, ns, name string) resource.Managed { return newStream(t, ns, name) },
			vary: func(mg resource.Managed) {
				mg.(*streamingv1alpha1.DeliveryStream).Spec.ForProvider.HTTPEndpointDestinationConfiguration.EndpointConfiguration.URL = aws.String("https://team-b.example.com/ingest")
			},
			outside: func(ctx context.Context, mg resource.Managed) error {
				_, err := fhc.CreateDeliveryStream(ctx, fh.CreateInput(&mg.(*streamingv1alpha1.DeliveryStream).Spec.ForProvider, aws.String("outsider-key"), createTags(mg, nil)))
				return err
			},
			state: func(ctx context.Context, mg resource.Managed) (string, error) {
				out, err := fhc.DescribeDeliveryStream(ctx, &firehose.DescribeDeliveryStreamInput{DeliveryStreamName: aws.String(nameOf(mg))})
				if err != nil {
					return "", err
				}
				return asJSON(out.DeliveryStreamDescription, nil)
			},
			tags: func(ctx context.Context, mg resource.Managed) (map[string]string, error) {
				out, err := fhc.ListTagsForDeliveryStream(ctx, &firehose.ListTagsForDeliveryStreamInput{DeliveryStreamName: aws.String(nameOf(mg))})
				if err != nil {
					return nil, err
				}
				return fh.TagMap(out.Tags), nil
			},
			counted: func(mg resource.Managed) []string { return []string{nameOf(mg)} },
			creates: "firehose:CreateDeliveryStream",
			arn: func(ctx context.Context, mg resource.Managed) (string, error) {
				out, err := fhc.DescribeDeliveryStream(ctx, &firehose.DescribeDeliveryStreamInput{DeliveryStreamName: aws.String(nameOf(mg))})
				if err != nil {
					return "", err
				}
				return aws.ToString(out.DeliveryStreamDescription.DeliveryStreamARN), nil
			},
		},
		{
			name: "Subscription",
			object: func(_ *testing.T, ns, name string) resource.Managed {
				return newSubscription(ns, name, topicARN)
			},
			vary: func(mg resource.Managed) {
				mg.(*notificationv1alpha1.Subscription).Spec.ForProvider.FilterPolicy = aws.String(`{"type": ["team_b"]}`)
			},
			outside: func(ctx context.Context, mg resource.Managed) error {
				_, err := snc.Subscribe(ctx, snsclient.SubscribeInput(&mg.(*notificationv1alpha1.Subscription).Spec.ForProvider))
				return err
			},
			state: func(ctx context.Context, mg resource.Managed) (string, error) {
				p := &mg.(*notificationv1alpha1.Subscription).Spec.ForProvider
				var found []string
				pages := sns.NewListSubscriptionsByTopicPaginator(snc, &sns.ListSubscriptionsByTopicInput{TopicArn: p.TopicARN})
				for pages.HasMorePages() {
					page, err := pages.NextPage(ctx)
					if err != nil {
						return "", err
					}
					for _, sub := range page.Subscriptions {
						if aws.ToString(sub.Endpoint) != aws.ToString(p.Endpoint) {
							continue
						}
						attrs, err := snc.GetSubscriptionAttributes(ctx, &sns.GetSubscriptionAttributesInput{SubscriptionArn: sub.SubscriptionArn})
						if err != nil {
							return "", err
						}
						s, _ := asJSON(attrs.Attributes, nil)
						found = append(found, s)
					}
				}
				if len(found) == 0 {
					return "", fmt.Errorf("no subscription of %s", aws.ToString(p.Endpoint))
				}
				return strings.Join(found, "\n"), nil
			},
			counted: func(mg resource.Managed) []string {
				return []string{topicARN, meta.GetExternalName(mg)}
			},
			creates: "sns:Subscribe",
			arn: func(ctx context.Context, mg resource.Managed) (string, error) {
				p := &mg.(*notificationv1alpha1.Subscription).Spec.ForProvider
				out, err := snc.ListSubscriptionsByTopic(ctx, &sns.ListSubscriptionsByTopicInput{TopicArn: p.TopicARN})
				if err != nil {
					return "", err
				}
				if arn, ok := snsclient.Find(p, out.Subscriptions); ok {
					return arn, nil
				}
				return "", fmt.Errorf("no subscription of %s", aws.ToString(p.Endpoint))
			},
		},
		{
			name:   "Endpoint",
			object: func(_ *testing.T, ns, name string) resource.Managed { return newEndpoint(ns, name) },
			vary: func(mg resource.Managed) {
				mg.(*eventbusv1alpha1.Endpoint).Spec.ForProvider.Description = aws.String("team b's")
			},
			outside: func(ctx context.Context, mg resource.Managed) error {
				_, err := ebc.CreateEndpoint(ctx, eb.CreateInput(&mg.(*eventbusv1alpha1.Endpoint).Spec.ForProvider))
				return err
			},
			state: func(ctx context.Context, mg resource.Managed) (string, error) {
				return asJSON(ebc.DescribeEndpoint(ctx, &eventbridge.DescribeEndpointInput{Name: aws.String(nameOf(mg))}))
			},
			counted: func(mg resource.Managed) []string { return []string{nameOf(mg)} },
			creates: "events:CreateEndpoint",
			arn: func(ctx context.Context, mg resource.Managed) (string, error) {
				out, err := ebc.DescribeEndpoint(ctx, &eventbridge.DescribeEndpointInput{Name: aws.String(nameOf(mg))})
				if err != nil {
					return "", err
				}
				return aws.ToString(out.Arn), nil
			},
		},
		{
			name:   "EndpointConfig",
			object: func(_ *testing.T, ns, name string) resource.Managed { return newEndpointConfig(ns, name, modelName) },
			vary: func(mg resource.Managed) {
				mg.(*mlplatformv1alpha1.EndpointConfig).Spec.ForProvider.Tags = []common.Tag{{Key: aws.String("team"), Value: aws.String("b")}}
			},
			outside: func(ctx context.Context, mg resource.Managed) error {
				_, err := smc.CreateEndpointConfig(ctx, sm.CreateInput(&mg.(*mlplatformv1alpha1.EndpointConfig).Spec.ForProvider, createTags(mg, nil)))
				return err
			},
			state: func(ctx context.Context, mg resource.Managed) (string, error) {
				return asJSON(smc.DescribeEndpointConfig(ctx, &sagemaker.DescribeEndpointConfigInput{EndpointConfigName: aws.String(nameOf(mg))}))
			},
			tags: func(ctx context.Context, mg resource.Managed) (map[string]string, error) {
				d, err := smc.DescribeEndpointConfig(ctx, &sagemaker.DescribeEndpointConfigInput{EndpointConfigName: aws.String(nameOf(mg))})
				if err != nil {
					return nil, err
				}
				out, err := smc.ListTags(ctx, &sagemaker.ListTagsInput{ResourceArn: d.EndpointConfigArn})
				if err != nil {
					return nil, err
				}
				return sm.TagMap(out.Tags), nil
			},
			counted: func(mg resource.Managed) []string {
				return []string{nameOf(mg), "arn:aws:sagemaker:us-east-1:000000000000:endpoint-config/" + nameOf(mg)}
			},
			creates: "sagemaker:CreateEndpointConfig",
			arn: func(ctx context.Context, mg resource.Managed) (string, error) {
				out, err := smc.DescribeEndpointConfig(ctx, &sagemaker.DescribeEndpointConfigInput{EndpointConfigName: aws.String(nameOf(mg))})
				if err != nil {
					return "", err
				}
				return aws.ToString(out.EndpointConfigArn), nil
			},
		},
		{
			name: "APIKeyCredentialProvider",
			object: func(t *testing.T, ns, name string) resource.Managed {
				ensureSecret(t, secretWith(ns, "search-key", "apiKey", "sk-"+ns))
				return newAPIKeyProvider(ns, name)
			},
			vary: func(mg resource.Managed) {
				mg.(*agentcorev1alpha1.APIKeyCredentialProvider).Spec.ForProvider.Tags = map[string]string{"team": "b"}
			},
			outside: func(ctx context.Context, mg resource.Managed) error {
				_, err := acc.CreateApiKeyCredentialProvider(ctx, ac.CreateInput(&mg.(*agentcorev1alpha1.APIKeyCredentialProvider).Spec.ForProvider, []byte("sk-outsider"), createTags(mg, nil)))
				return err
			},
			state: func(ctx context.Context, mg resource.Managed) (string, error) {
				out, err := acc.GetApiKeyCredentialProvider(ctx, &bedrockagentcorecontrol.GetApiKeyCredentialProviderInput{Name: aws.String(nameOf(mg))})
				if err != nil {
					return "", err
				}
				// The key AWS holds, which the describe call never
				// shows: a key sent by the wrong object must show.
				key, updates, _ := s.aws.APIKey("us-east-1", nameOf(mg))
				return asJSON(map[string]any{"get": out, "key": key, "keyUpdates": updates}, nil)
			},
			tags: func(ctx context.Context, mg resource.Managed) (map[string]string, error) {
				out, err := acc.GetApiKeyCredentialProvider(ctx, &bedrockagentcorecontrol.GetApiKeyCredentialProviderInput{Name: aws.String(nameOf(mg))})
				if err != nil {
					return nil, err
				}
				tags, err := acc.ListTagsForResource(ctx, &bedrockagentcorecontrol.ListTagsForResourceInput{ResourceArn: out.CredentialProviderArn})
				if err != nil {
					return nil, err
				}
				return tags.Tags, nil
			},
			counted: func(mg resource.Managed) []string { return []string{nameOf(mg)} },
			creates: "bedrock-agentcore:CreateApiKeyCredentialProvider",
			arn: func(ctx context.Context, mg resource.Managed) (string, error) {
				out, err := acc.GetApiKeyCredentialProvider(ctx, &bedrockagentcorecontrol.GetApiKeyCredentialProviderInput{Name: aws.String(nameOf(mg))})
				if err != nil {
					return "", err
				}
				return aws.ToString(out.CredentialProviderArn), nil
			},
		},
	}
}

func ensureSecret(t *testing.T, s *corev1.Secret) {
	t.Helper()
	if err := cp.Client.Create(context.Background(), s); err != nil && !strings.Contains(err.Error(), "already exists") {
		t.Fatal(err)
	}
}

// refused waits until mg says it does not manage its resource, in words
// that contain every one of says, and checks that it is not Ready.
func refused(t *testing.T, mg resource.Managed, says ...string) {
	t.Helper()
	eventually(t, 30*time.Second, mg.GetNamespace()+"/"+mg.GetName()+" refused", func() error {
		synced, err := conditionOf(t, mg, xpv2.TypeSynced)
		if err != nil {
			return err
		}
		if synced.Status != corev1.ConditionFalse || !strings.Contains(synced.Message, "this object does not manage it") {
			return fmt.Errorf("Synced=%s: %s", synced.Status, synced.Message)
		}
		for _, s := range says {
			if !strings.Contains(synced.Message, s) {
				return fmt.Errorf("the message does not say %q: %s", s, synced.Message)
			}
		}
		return nil
	})
	if r := mg.GetCondition(xpv2.TypeReady); r.Status == corev1.ConditionTrue {
		t.Errorf("a refused object is Ready: %+v", r)
	}
	if strings.Contains(mg.GetCondition(xpv2.TypeSynced).Message, "delete") {
		t.Errorf("the refusal advises deleting something: %s", mg.GetCondition(xpv2.TypeSynced).Message)
	}
	eventually(t, 10*time.Second, "a Warning event of the refusal", func() error {
		events := &corev1.EventList{}
		if err := cp.Client.List(context.Background(), events, client.InNamespace(mg.GetNamespace())); err != nil {
			return err
		}
		for _, e := range events.Items {
			if e.InvolvedObject.Name == mg.GetName() && e.Type == corev1.EventTypeWarning && strings.Contains(e.Message, "this object does not manage it") {
				return nil
			}
		}
		return fmt.Errorf("none among %d events", len(events.Items))
	})
}

// tellsNothingOf checks that nothing mg's namespace reads of the refusal,
// its conditions and its Events, names the namespace other.
func tellsNothingOf(t *testing.T, mg resource.Managed, other string) {
	t.Helper()
	if err := cp.Client.Get(context.Background(), client.ObjectKeyFromObject(mg), mg); err != nil {
		t.Fatal(err)
	}
	for _, c := range []xpv2.ConditionType{xpv2.TypeSynced, xpv2.TypeReady} {
		if m := mg.GetCondition(c).Message; strings.Contains(m, other) {
			t.Errorf("%s of %s/%s names namespace %s: %s", c, mg.GetNamespace(), mg.GetName(), other, m)
		}
	}
	events := &corev1.EventList{}
	if err := cp.Client.List(context.Background(), events, client.InNamespace(mg.GetNamespace())); err != nil {
		t.Fatal(err)
	}
	for _, e := range events.Items {
		if strings.Contains(e.Message, other) {
			t.Errorf("an Event in %s names namespace %s: %s", mg.GetNamespace(), other, e.Message)
		}
	}
}

// TestOneAWSResourceOneOwner is the ownership table of every kind: team B
// asking for what team A's object manages is refused, costs team A nothing
// (no value changes on AWS, no write is sent, deleting B deletes nothing of
// A's), cannot adopt it while A exists, and can once A is gone with its
// resource orphaned; a resource made outside the cluster is refused until
// its adoption is asked for.
func TestOneAWSResourceOneOwner(t *testing.T) {
	s := provider(t)
	ctx := context.Background()
	for _, k := range ownedKinds(t, s) {
		t.Run(k.name, func(t *testing.T) {
			// The kinds share nothing: their calls and writes are counted
			// per resource or per operation of their own service.
			t.Parallel()
			teamA, teamB := namespace(t), namespace(t)
			name := short("owned")

			a := k.object(t, teamA, name)
			create(t, a)
			eventually(t, 30*time.Second, "team A Ready", func() error { return isReady(t, a) })
			state, err := k.state(ctx, a)
			if err != nil {
				t.Fatal(err)
			}
			creates := s.aws.CallCount(k.creates)
			if k.tags != nil {
				tags, err := k.tags(ctx, a)
				if err != nil {
					t.Fatal(err)
				}
				if owner, ok := ownership.OwnerOf(tags); !ok || owner.Namespace != teamA || owner.Name != name {
					t.Errorf("team A's resource is not tagged as A's: %v", tags)
				}
			}

			// Team B asks for the same AWS identity, with other values.
			b := k.object(t, teamB, name)
			k.vary(b)
			before := providerWritesNow(s, k.counted(a))
			create(t, b)
			refused(t, b, "belongs to an object of another namespace")
			tellsNothingOf(t, b, teamA)
			if w := subtract(providerWrites(s, k.counted(a), 5), before); len(w) != 0 {
				t.Errorf("writes to team A's resource while team B asks for it: %v", w)
			}
			if now, err := k.state(ctx, a); err != nil || now != state {
				t.Errorf("team A's resource changed on AWS (%v):\nbefore %s\nnow    %s", err, state, now)
			}

			// Even asking to adopt it, B cannot take it while A manages it.
			change(t, b, func(mg resource.Managed) {
				meta.AddAnnotations(mg, map[string]string{ownership.AnnotationAdoptionPolicy: ownership.AdoptionPolicyAdopt})
			})
			refused(t, b, "cannot adopt it while")

			// Deleting B deletes only B.
			remove(t, b)
			time.Sleep(2 * testPoll)
			if now, err := k.state(ctx, a); err != nil || now != state {
				t.Errorf("team A's resource changed on AWS after team B's object was deleted (%v):\nbefore %s\nnow    %s", err, state, now)
			}
			if n := s.aws.CallCount(k.creates) - creates; n != 0 {
				t.Errorf("%d creates after team B came and went: team A's resource was made again", n)
			}
			if err := isReady(t, a); err != nil {
				t.Errorf("team A: %v", err)
			}
			if w := subtract(providerWritesNow(s, k.counted(a)), before); len(w) != 0 {
				t.Errorf("writes to team A's resource while team B came and went: %v", w)
			}

			// A leaves its resource behind (Crossplane v2's orphaning:
			// management policies without Delete); it stays team A's
			// namespace's, and B may adopt it once an admin hands it over.
			change(t, a, func(mg resource.Managed) {
				mg.SetManagementPolicies(xpv2.ManagementPolicies{xpv2.ManagementActionObserve, xpv2.ManagementActionCreate, xpv2.ManagementActionUpdate, xpv2.ManagementActionLateInitialize})
			})
			remove(t, a)
			if _, err := k.state(ctx, a); err != nil {
				t.Fatalf("the orphaned resource is gone: %v", err)
			}
			adopter := k.object(t, teamB, name)
			adopter.SetAnnotations(map[string]string{ownership.AnnotationAdoptionPolicy: ownership.AdoptionPolicyAdopt})
			create(t, adopter)
			refused(t, adopter, "was kept on AWS for its namespace by an object of another namespace", ownership.AnnotationHandedTo)
			tellsNothingOf(t, adopter, teamA)
			handOver(t, adopter, teamB)
			eventually(t, 30*time.Second, "team B's adoption Ready", func() error { return isReady(t, adopter) })
			if n := s.aws.CallCount(k.creates) - creates; n != 0 {
				t.Errorf("adoption made %d creates", n)
			}
			if k.tags != nil {
				eventually(t, 10*time.Second, "owner tags now team B's", func() error {
					tags, err := k.tags(ctx, adopter)
					if err != nil {
						return err
					}
					if owner, ok := ownership.OwnerOf(tags); !ok || owner.Namespace != teamB || owner.Name != name {
						return fmt.Errorf("owner tags %v", tags)
					}
					return nil
				})
			}
			remove(t, adopter)
			eventually(t, 30*time.Second, "the adopted resource deleted with its adopter", func() error {
				if _, err := k.state(ctx, adopter); err == nil {
					return fmt.Errorf("still there")
				}
				return nil
			})

			// A resource made outside the cluster: refused, until adopted.
			outsiderName := short("outside")
			stranger := k.object(t, teamA, outsiderName)
			if err := k.outside(ctx, stranger); err != nil {
				t.Fatal(err)
			}
			outside, err := k.state(ctx, stranger)
			if err != nil {
				t.Fatal(err)
			}
			create(t, stranger)
			refused(t, stranger, "made outside this cluster", ownership.AnnotationAdoptionPolicy)
			time.Sleep(2 * testPoll)
			if now, err := k.state(ctx, stranger); err != nil || now != outside {
				t.Errorf("the outsider's resource changed on AWS without adoption (%v):\nbefore %s\nnow    %s", err, outside, now)
			}
			change(t, stranger, func(mg resource.Managed) {
				meta.AddAnnotations(mg, map[string]string{ownership.AnnotationAdoptionPolicy: ownership.AdoptionPolicyAdopt})
			})
			eventually(t, 30*time.Second, "adopted once asked", func() error { return isReady(t, stranger) })
			remove(t, stranger)
		})
	}
}
