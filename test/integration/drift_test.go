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
	"fmt"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	fhtypes "github.com/aws/aws-sdk-go-v2/service/firehose/types"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
	smtypes "github.com/aws/aws-sdk-go-v2/service/sagemaker/types"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	"sigs.k8s.io/controller-runtime/pkg/client"

	agentcorev1alpha1 "github.com/cloudkinds/provider-aws-services/apis/agentcorecontrol/v1alpha1"
	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	mlplatformv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/mlplatform/v1alpha1"
	streamingv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/aws/diff"
	eb "github.com/cloudkinds/provider-aws-services/internal/aws/eventbridge"
	fh "github.com/cloudkinds/provider-aws-services/internal/aws/firehose"
	sm "github.com/cloudkinds/provider-aws-services/internal/aws/sagemaker"
	"github.com/cloudkinds/provider-aws-services/internal/aws/tags"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/ownership"
)

// outsider is the access key of someone who changes AWS outside Kubernetes;
// the emulator does not count its calls, so that the counts are the
// provider's alone.
const outsider = "AKIDOUTSIDER"

func outsiderConfig(s *stack) aws.Config {
	s.aws.Uncounted(outsider)
	s.aws.FaultFree(outsider)
	return aws.Config{Region: "us-east-1", BaseEndpoint: aws.String(s.url), Credentials: credentials.NewStaticCredentialsProvider(outsider, "s", "")}
}

// A driftCase changes one field in AWS, as someone outside Kubernetes
// would, and names the one write of the provider that restores it.
type driftCase struct {
	field    string                          // the spec path that drifts
	drift    func(ctx context.Context) error // the change in AWS
	restore  string                          // the one write that restores it; "" when none may be made
	restored func(ctx context.Context) error // AWS holds the spec again (with restore "": the drift is reported)
}

// A driftKind is one kind's object, with AWS's defaults in its answers, and
// its per-field drift cases.
type driftKind struct {
	name  string
	setup func(t *testing.T, s *stack, ns string) (mg resource.Managed, counted []string, cases []driftCase)
}

// TestDriftPerField is the drift table of every kind: with AWS's defaults in
// every answer, nothing is written over many polls; a field changed in AWS is
// restored by exactly one write; nothing else is written afterwards.
func TestDriftPerField(t *testing.T) {
	s := provider(t)
	for _, k := range []driftKind{
		{name: "DeliveryStream", setup: streamDrift},
		{name: "Subscription", setup: subscriptionDrift},
		{name: "Endpoint", setup: endpointDrift},
		{name: "EndpointConfig", setup: endpointConfigDrift},
		{name: "APIKeyCredentialProvider", setup: apiKeyDrift},
	} {
		t.Run(k.name, func(t *testing.T) {
			// The kinds share nothing: their calls and writes are counted
			// per resource or per operation of their own service.
			t.Parallel()
			ctx := context.Background()
			ns := namespace(t)
			mg, counted, cases := k.setup(t, s, ns)
			eventually(t, 30*time.Second, "Ready", func() error { return isReady(t, mg) })
			if w := providerWrites(s, counted, 5); len(w) != 0 {
				t.Fatalf("with AWS's defaults in its answers, the provider wrote over 5 polls: %v", w)
			}
			for _, c := range cases {
				before := providerWritesNow(s, counted)
				if err := c.drift(ctx); err != nil {
					t.Fatalf("%s: cannot change AWS: %v", c.field, err)
				}
				eventually(t, 30*time.Second, c.field+" restored", func() error { return c.restored(ctx) })
				time.Sleep(2*testPoll + testPoll/2)
				got := subtract(providerWritesNow(s, counted), before)
				want := map[string]int{}
				if c.restore != "" {
					want[c.restore] = 1
				}
				if !maps.Equal(want, got) {
					t.Errorf("%s changed in AWS: want the writes %v, got %v", c.field, want, got)
				}
			}
		})
	}
}

// providerWrites returns the provider's writes to the counted resources over
// some polls.
func providerWrites(s *stack, counted []string, polls int) map[string]int {
	before := providerWritesNow(s, counted)
	time.Sleep(time.Duration(polls)*testPoll + testPoll/2)
	return subtract(providerWritesNow(s, counted), before)
}

func providerWritesNow(s *stack, counted []string) map[string]int {
	out := map[string]int{}
	for _, r := range counted {
		for _, svc := range []string{"firehose", "sns", "events", "sagemaker", "bedrock-agentcore"} {
			for op, n := range writes(s.aws.CallsFor(r), svc) {
				out[op] += n
			}
		}
	}
	return out
}

func subtract(after, before map[string]int) map[string]int {
	out := map[string]int{}
	for k, v := range after {
		if d := v - before[k]; d != 0 {
			out[k] = d
		}
	}
	return out
}

func streamDrift(t *testing.T, s *stack, ns string) (resource.Managed, []string, []driftCase) {
	mg := newStream(t, ns, "drift-"+ns[len(ns)-5:])
	name := mg.Spec.ForProvider.DeliveryStreamName
	lambda := "arn:aws:lambda:us-east-1:000000000000:function:enrich"
	// Firehose answers the Lambda processor with four parameters more, in
	// its own order: none is drift.
	mg.Spec.ForProvider.HTTPEndpointDestinationConfiguration.ProcessingConfiguration = &streamingv1alpha1.ProcessingConfiguration{
		Enabled:    aws.Bool(true),
		Processors: []streamingv1alpha1.Processor{{Type: "Lambda", Parameters: []streamingv1alpha1.ProcessorParameter{{ParameterName: "LambdaArn", ParameterValue: lambda}}}},
	}
	mg.Spec.ForProvider.HTTPEndpointDestinationConfiguration.RetryOptions = &streamingv1alpha1.RetryOptions{DurationInSeconds: aws.Int64(120)}
	create(t, mg)

	c := firehose.NewFromConfig(outsiderConfig(s))
	describe := func(ctx context.Context) (*fhtypes.DeliveryStreamDescription, error) {
		out, err := c.DescribeDeliveryStream(ctx, &firehose.DescribeDeliveryStreamInput{DeliveryStreamName: aws.String(name)})
		if err != nil {
			return nil, err
		}
		return out.DeliveryStreamDescription, nil
	}
	update := func(u *fhtypes.HttpEndpointDestinationUpdate) func(ctx context.Context) error {
		return func(ctx context.Context) error {
			d, err := describe(ctx)
			if err != nil {
				return err
			}
			_, err = c.UpdateDestination(ctx, &firehose.UpdateDestinationInput{
				DeliveryStreamName: aws.String(name), CurrentDeliveryStreamVersionId: d.VersionId,
				DestinationId: d.Destinations[0].DestinationId, HttpEndpointDestinationUpdate: u,
			})
			return err
		}
	}
	holds := func(check func(h *fhtypes.HttpEndpointDestinationDescription) error) func(ctx context.Context) error {
		return func(ctx context.Context) error {
			d, err := describe(ctx)
			if err != nil {
				return err
			}
			return check(fh.HTTPDestination(d))
		}
	}
	listTags := func(ctx context.Context) (map[string]string, error) {
		out, err := c.ListTagsForDeliveryStream(ctx, &firehose.ListTagsForDeliveryStreamInput{DeliveryStreamName: aws.String(name)})
		if err != nil {
			return nil, err
		}
		return fh.TagMap(out.Tags), nil
	}
	cases := []driftCase{
		{
			field:   "httpEndpointDestinationConfiguration.endpointConfiguration.url",
			drift:   update(&fhtypes.HttpEndpointDestinationUpdate{EndpointConfiguration: &fhtypes.HttpEndpointConfiguration{Url: aws.String("https://elsewhere.example.com/")}}),
			restore: "firehose:UpdateDestination",
			restored: holds(func(h *fhtypes.HttpEndpointDestinationDescription) error {
				if u := aws.ToString(h.EndpointConfiguration.Url); u != "https://collector.example.com/ingest" {
					return fmt.Errorf("url %s", u)
				}
				return nil
			}),
		},
		{
			field:   "httpEndpointDestinationConfiguration.retryOptions.durationInSeconds",
			drift:   update(&fhtypes.HttpEndpointDestinationUpdate{RetryOptions: &fhtypes.HttpEndpointRetryOptions{DurationInSeconds: aws.Int32(7200)}}),
			restore: "firehose:UpdateDestination",
			restored: holds(func(h *fhtypes.HttpEndpointDestinationDescription) error {
				if d := aws.ToInt32(h.RetryOptions.DurationInSeconds); d != 120 {
					return fmt.Errorf("retry duration %d", d)
				}
				return nil
			}),
		},
		{
			field: "httpEndpointDestinationConfiguration.processingConfiguration.processors[0].parameters",
			drift: update(&fhtypes.HttpEndpointDestinationUpdate{ProcessingConfiguration: &fhtypes.ProcessingConfiguration{Enabled: aws.Bool(true), Processors: []fhtypes.Processor{{
				Type: fhtypes.ProcessorTypeLambda, Parameters: []fhtypes.ProcessorParameter{
					{ParameterName: fhtypes.ProcessorParameterNameLambdaArn, ParameterValue: aws.String(lambda)},
					{ParameterName: fhtypes.ProcessorParameterNameLambdaNumberOfRetries, ParameterValue: aws.String("7")},
				}}}}}),
			restore: "firehose:UpdateDestination",
			restored: holds(func(h *fhtypes.HttpEndpointDestinationDescription) error {
				for _, p := range h.ProcessingConfiguration.Processors[0].Parameters {
					if p.ParameterName == fhtypes.ProcessorParameterNameLambdaNumberOfRetries && aws.ToString(p.ParameterValue) != "3" {
						return fmt.Errorf("NumberOfRetries %s", aws.ToString(p.ParameterValue))
					}
				}
				return nil
			}),
		},
		{
			field: "deliveryStreamEncryptionConfiguration",
			drift: func(ctx context.Context) error {
				_, err := c.StartDeliveryStreamEncryption(ctx, &firehose.StartDeliveryStreamEncryptionInput{DeliveryStreamName: aws.String(name),
					DeliveryStreamEncryptionConfigurationInput: &fhtypes.DeliveryStreamEncryptionConfigurationInput{KeyType: fhtypes.KeyTypeAwsOwnedCmk}})
				return err
			},
			restore: "firehose:StopDeliveryStreamEncryption",
			restored: func(ctx context.Context) error {
				d, err := describe(ctx)
				if err != nil {
					return err
				}
				// Stopped: AWS disables it after a while.
				if st := d.DeliveryStreamEncryptionConfiguration.Status; st != fhtypes.DeliveryStreamEncryptionStatusDisabled && st != fhtypes.DeliveryStreamEncryptionStatusDisabling {
					return fmt.Errorf("encryption %s", st)
				}
				return nil
			},
		},
		{
			field: "tags",
			drift: func(ctx context.Context) error {
				_, err := c.TagDeliveryStream(ctx, fh.TagInput(name, map[string]string{"team": "someone-else"}))
				return err
			},
			restore:  "firehose:TagDeliveryStream",
			restored: tagsHold(listTags, map[string]string{"team": "analytics"}),
		},
		{
			field: "tags (a tag someone else set is not the provider's)",
			drift: func(ctx context.Context) error {
				_, err := c.TagDeliveryStream(ctx, fh.TagInput(name, map[string]string{"cost-center": "42"}))
				return err
			},
			restored: tagsHold(listTags, map[string]string{"team": "analytics", "cost-center": "42"}),
		},
	}
	return mg, []string{name}, cases
}

// tagsHold checks that AWS holds exactly want, beside the owner tags.
func tagsHold(list func(ctx context.Context) (map[string]string, error), want map[string]string) func(ctx context.Context) error {
	return func(ctx context.Context) error {
		got, err := list(ctx)
		if err != nil {
			return err
		}
		if _, ok := ownership.OwnerOf(got); !ok {
			return fmt.Errorf("tags %v have no owner tags", got)
		}
		maps.DeleteFunc(got, func(k, _ string) bool { return ownership.IsOwnerTag(k) })
		if !maps.Equal(got, want) {
			return fmt.Errorf("tags %v, want %v", got, want)
		}
		return nil
	}
}

func subscriptionDrift(t *testing.T, s *stack, ns string) (resource.Managed, []string, []driftCase) {
	topicARN := topic(t, s, "drift-"+ns[len(ns)-5:])
	mg := newSubscription(ns, "drift-queue", topicARN)
	// The scope is SNS's default, set in the spec so that it counts.
	mg.Spec.ForProvider.FilterPolicyScope = aws.String("MessageAttributes")
	create(t, mg)
	eventually(t, 30*time.Second, "subscribed", func() error {
		if err := cp.Client.Get(context.Background(), client.ObjectKeyFromObject(mg), mg); err != nil {
			return err
		}
		if !strings.HasPrefix(meta.GetExternalName(mg), topicARN+":") {
			return fmt.Errorf("no ARN yet")
		}
		return nil
	})
	arn := meta.GetExternalName(mg)
	c := sns.NewFromConfig(outsiderConfig(s))
	set := func(name, value string) func(ctx context.Context) error {
		return func(ctx context.Context) error {
			_, err := c.SetSubscriptionAttributes(ctx, &sns.SetSubscriptionAttributesInput{SubscriptionArn: aws.String(arn), AttributeName: aws.String(name), AttributeValue: aws.String(value)})
			return err
		}
	}
	holds := func(name, want string) func(ctx context.Context) error {
		return func(ctx context.Context) error {
			out, err := c.GetSubscriptionAttributes(ctx, &sns.GetSubscriptionAttributesInput{SubscriptionArn: aws.String(arn)})
			if err != nil {
				return err
			}
			if got := out.Attributes[name]; !diff.JSONEqual(got, want) {
				return fmt.Errorf("%s is %s", name, got)
			}
			return nil
		}
	}
	cases := []driftCase{
		{field: "filterPolicy", drift: set("FilterPolicy", `{"type": ["order_cancelled"]}`), restore: "sns:SetSubscriptionAttributes", restored: holds("FilterPolicy", `{"type": ["order_placed"]}`)},
		{field: "rawMessageDelivery", drift: set("RawMessageDelivery", "false"), restore: "sns:SetSubscriptionAttributes", restored: holds("RawMessageDelivery", "true")},
		{field: "filterPolicyScope", drift: set("FilterPolicyScope", "MessageBody"), restore: "sns:SetSubscriptionAttributes", restored: holds("FilterPolicyScope", "MessageAttributes")},
	}
	return mg, []string{arn}, cases
}

func endpointDrift(t *testing.T, s *stack, ns string) (resource.Managed, []string, []driftCase) {
	name := "drift-" + ns[len(ns)-5:]
	mg := newEndpoint(ns, name)
	create(t, mg)
	c := eventbridge.NewFromConfig(outsiderConfig(s))
	update := func(fn func(in *eventbridge.UpdateEndpointInput)) func(ctx context.Context) error {
		return func(ctx context.Context) error {
			in := eb.UpdateInput(&newEndpoint(ns, name).Spec.ForProvider)
			fn(in)
			_, err := c.UpdateEndpoint(ctx, in)
			return err
		}
	}
	holds := func(check func(d *eventbridge.DescribeEndpointOutput) error) func(ctx context.Context) error {
		return func(ctx context.Context) error {
			d, err := c.DescribeEndpoint(ctx, &eventbridge.DescribeEndpointInput{Name: aws.String(name)})
			if err != nil {
				return err
			}
			return check(d)
		}
	}
	want := newEndpoint(ns, name).Spec.ForProvider
	cases := []driftCase{
		{
			field: "description", restore: "events:UpdateEndpoint",
			drift: update(func(in *eventbridge.UpdateEndpointInput) { in.Description = aws.String("changed by hand") }),
			restored: holds(func(d *eventbridge.DescribeEndpointOutput) error {
				if aws.ToString(d.Description) != aws.ToString(want.Description) {
					return fmt.Errorf("description %q", aws.ToString(d.Description))
				}
				return nil
			}),
		},
		{
			field: "routingConfig.failoverConfig.secondary.route", restore: "events:UpdateEndpoint",
			drift: update(func(in *eventbridge.UpdateEndpointInput) {
				in.RoutingConfig.FailoverConfig.Secondary.Route = aws.String("eu-west-1")
			}),
			restored: holds(func(d *eventbridge.DescribeEndpointOutput) error {
				if r := aws.ToString(d.RoutingConfig.FailoverConfig.Secondary.Route); r != "us-west-2" {
					return fmt.Errorf("route %s", r)
				}
				return nil
			}),
		},
	}
	return mg, []string{name}, cases
}

func endpointConfigDrift(t *testing.T, s *stack, ns string) (resource.Managed, []string, []driftCase) {
	name := "drift-" + ns[len(ns)-5:]
	model(t, s, name)
	mg := newEndpointConfig(ns, name, name)
	create(t, mg)
	arn := "arn:aws:sagemaker:us-east-1:000000000000:endpoint-config/" + name
	c := sagemaker.NewFromConfig(outsiderConfig(s))
	listTags := func(ctx context.Context) (map[string]string, error) {
		out, err := c.ListTags(ctx, &sagemaker.ListTagsInput{ResourceArn: aws.String(arn)})
		if err != nil {
			return nil, err
		}
		return sm.TagMap(out.Tags), nil
	}
	cases := []driftCase{
		{
			field: "tags", restore: "sagemaker:AddTags",
			drift: func(ctx context.Context) error {
				_, err := c.AddTags(ctx, sm.TagInput(arn, map[string]string{"team": "someone-else"}))
				return err
			},
			restored: tagsHold(listTags, map[string]string{"team": "ml"}),
		},
		{
			// SageMaker cannot change a configuration in place: one replaced
			// outside Kubernetes is reported by its spec path, never written.
			field: "productionVariants[0].instanceType",
			drift: func(ctx context.Context) error {
				spec := newEndpointConfig(ns, name, name).Spec.ForProvider
				in := sm.CreateInput(&spec, tags.FromList(spec.Tags))
				in.ProductionVariants[0].InstanceType = smtypes.ProductionVariantInstanceTypeMlC5Large
				if _, err := c.DeleteEndpointConfig(ctx, &sagemaker.DeleteEndpointConfigInput{EndpointConfigName: aws.String(name)}); err != nil {
					return err
				}
				_, err := c.CreateEndpointConfig(ctx, in)
				return err
			},
			restored: func(context.Context) error {
				return syncedMessage(t, mg, "spec.forProvider.productionVariants[0].instanceType")
			},
		},
	}
	return mg, []string{name, arn}, cases
}

func apiKeyDrift(t *testing.T, s *stack, ns string) (resource.Managed, []string, []driftCase) {
	name := "drift-" + ns[len(ns)-5:]
	create(t, secretWith(ns, "search-key", "apiKey", firstKey))
	mg := newAPIKeyProvider(ns, name)
	create(t, mg)
	arn := "arn:aws:bedrock-agentcore:us-east-1:000000000000:token-vault/default/apikeycredentialprovider/" + name
	c := bedrockagentcorecontrol.NewFromConfig(outsiderConfig(s))
	listTags := func(ctx context.Context) (map[string]string, error) {
		out, err := c.ListTagsForResource(ctx, &bedrockagentcorecontrol.ListTagsForResourceInput{ResourceArn: aws.String(arn)})
		if err != nil {
			return nil, err
		}
		return out.Tags, nil
	}
	cases := []driftCase{{
		field: "tags", restore: "bedrock-agentcore:TagResource",
		drift: func(ctx context.Context) error {
			_, err := c.TagResource(ctx, &bedrockagentcorecontrol.TagResourceInput{ResourceArn: aws.String(arn), Tags: map[string]string{"team": "someone-else"}})
			return err
		},
		restored: tagsHold(listTags, map[string]string{"team": "agents"}),
	}}
	return mg, []string{name, arn}, cases
}

// TestTagsRemovedFromTheSpecLeaveAWS drops a tag from the spec of every kind
// with tags: the provider removes exactly the tags it set, and keeps the tags
// someone else set.
func TestTagsRemovedFromTheSpecLeaveAWS(t *testing.T) {
	s := provider(t)
	ctx := context.Background()
	ns := namespace(t)
	suffix := ns[len(ns)-5:]

	fc := firehose.NewFromConfig(outsiderConfig(s))
	stream := newStream(t, ns, "untag-"+suffix)
	stream.Spec.ForProvider.Tags = append(stream.Spec.ForProvider.Tags, common.Tag{Key: aws.String("env"), Value: aws.String("dev")})
	streamName := stream.Spec.ForProvider.DeliveryStreamName

	model(t, s, "untag-"+suffix)
	config := newEndpointConfig(ns, "untag-"+suffix, "untag-"+suffix)
	config.Spec.ForProvider.Tags = append(config.Spec.ForProvider.Tags, common.Tag{Key: aws.String("env"), Value: aws.String("dev")})
	configARN := "arn:aws:sagemaker:us-east-1:000000000000:endpoint-config/untag-" + suffix
	sc := sagemaker.NewFromConfig(outsiderConfig(s))

	create(t, secretWith(ns, "search-key", "apiKey", firstKey))
	key := newAPIKeyProvider(ns, "untag-"+suffix)
	key.Spec.ForProvider.Tags["env"] = "dev"
	keyARN := "arn:aws:bedrock-agentcore:us-east-1:000000000000:token-vault/default/apikeycredentialprovider/untag-" + suffix
	ac := bedrockagentcorecontrol.NewFromConfig(outsiderConfig(s))

	type tagged struct {
		mg      resource.Managed
		counted []string
		list    func(ctx context.Context) (map[string]string, error)
		foreign func(ctx context.Context) error
		drop    func(mg resource.Managed) // removes "env" from the spec
		untag   string
		kept    map[string]string
	}
	for _, k := range []tagged{
		{
			mg: stream, counted: []string{streamName}, untag: "firehose:UntagDeliveryStream",
			list: func(ctx context.Context) (map[string]string, error) {
				out, err := fc.ListTagsForDeliveryStream(ctx, &firehose.ListTagsForDeliveryStreamInput{DeliveryStreamName: aws.String(streamName)})
				if err != nil {
					return nil, err
				}
				return fh.TagMap(out.Tags), nil
			},
			foreign: func(ctx context.Context) error {
				_, err := fc.TagDeliveryStream(ctx, fh.TagInput(streamName, map[string]string{"cost-center": "42"}))
				return err
			},
			drop: func(mg resource.Managed) {
				mg.(*streamingv1alpha1.DeliveryStream).Spec.ForProvider.Tags = []common.Tag{{Key: aws.String("team"), Value: aws.String("analytics")}}
			},
			kept: map[string]string{"team": "analytics", "cost-center": "42"},
		},
		{
			mg: config, counted: []string{config.Name, configARN}, untag: "sagemaker:DeleteTags",
			list: func(ctx context.Context) (map[string]string, error) {
				out, err := sc.ListTags(ctx, &sagemaker.ListTagsInput{ResourceArn: aws.String(configARN)})
				if err != nil {
					return nil, err
				}
				return sm.TagMap(out.Tags), nil
			},
			foreign: func(ctx context.Context) error {
				_, err := sc.AddTags(ctx, sm.TagInput(configARN, map[string]string{"cost-center": "42"}))
				return err
			},
			drop: func(mg resource.Managed) {
				mg.(*mlplatformv1alpha1.EndpointConfig).Spec.ForProvider.Tags = nil
			},
			kept: map[string]string{"cost-center": "42"},
		},
		{
			mg: key, counted: []string{key.Name, keyARN}, untag: "bedrock-agentcore:UntagResource",
			list: func(ctx context.Context) (map[string]string, error) {
				out, err := ac.ListTagsForResource(ctx, &bedrockagentcorecontrol.ListTagsForResourceInput{ResourceArn: aws.String(keyARN)})
				if err != nil {
					return nil, err
				}
				return out.Tags, nil
			},
			foreign: func(ctx context.Context) error {
				_, err := ac.TagResource(ctx, &bedrockagentcorecontrol.TagResourceInput{ResourceArn: aws.String(keyARN), Tags: map[string]string{"cost-center": "42"}})
				return err
			},
			drop: func(mg resource.Managed) {
				mg.(*agentcorev1alpha1.APIKeyCredentialProvider).Spec.ForProvider.Tags = map[string]string{"team": "agents"}
			},
			kept: map[string]string{"team": "agents", "cost-center": "42"},
		},
	} {
		t.Run(fmt.Sprintf("%T", k.mg), func(t *testing.T) {
			create(t, k.mg)
			eventually(t, 30*time.Second, "Ready", func() error { return isReady(t, k.mg) })
			if got := k.mg.GetAnnotations()[tags.AnnotationManagedKeys]; got == "" {
				t.Errorf("no record of the managed tag keys")
			}
			if err := k.foreign(ctx); err != nil {
				t.Fatal(err)
			}
			before := providerWritesNow(s, k.counted)
			change(t, k.mg, k.drop)
			eventually(t, 30*time.Second, "tag removed", func() error { return tagsHold(k.list, k.kept)(ctx) })
			time.Sleep(2*testPoll + testPoll/2)
			if got := subtract(providerWritesNow(s, k.counted), before); !maps.Equal(got, map[string]int{k.untag: 1}) {
				t.Errorf("dropping a tag from the spec: want one %s, got %v", k.untag, got)
			}
		})
	}
}

// TestDeliveryStreamEmptyEncryptionBlockDisables disables encryption the way
// the AWS controllers do: keyType and keyARN set to null, which leaves an
// empty block.
func TestDeliveryStreamEmptyEncryptionBlockDisables(t *testing.T) {
	s := provider(t)
	ns := namespace(t)
	mg := newStream(t, ns, "sse-"+ns[len(ns)-5:])
	mg.Spec.ForProvider.DeliveryStreamEncryptionConfiguration = &streamingv1alpha1.DeliveryStreamEncryptionConfiguration{KeyType: aws.String("AWS_OWNED_CMK")}
	create(t, mg)
	eventually(t, 30*time.Second, "encryption ENABLED", func() error { return encryptionStatus(mg, "ENABLED") })

	change(t, mg, func(mg *streamingv1alpha1.DeliveryStream) {
		mg.Spec.ForProvider.DeliveryStreamEncryptionConfiguration = &streamingv1alpha1.DeliveryStreamEncryptionConfiguration{}
	})
	if err := cp.Client.Get(context.Background(), client.ObjectKeyFromObject(mg), mg); err != nil || mg.Spec.ForProvider.DeliveryStreamEncryptionConfiguration == nil {
		t.Fatalf("the API server did not keep the empty block: %+v (%v)", mg.Spec.ForProvider.DeliveryStreamEncryptionConfiguration, err)
	}
	eventually(t, 30*time.Second, "encryption DISABLED", func() error { return encryptionStatus(mg, "DISABLED") })
	if n := s.aws.CallsFor(mg.Spec.ForProvider.DeliveryStreamName)["firehose:StopDeliveryStreamEncryption"]; n != 1 {
		t.Errorf("StopDeliveryStreamEncryption calls: want 1, got %d", n)
	}
	remove(t, mg)

	// Created with an empty block, a stream has no encryption.
	created := newStream(t, ns, "nosse-"+ns[len(ns)-5:])
	created.Spec.ForProvider.DeliveryStreamEncryptionConfiguration = &streamingv1alpha1.DeliveryStreamEncryptionConfiguration{}
	create(t, created)
	eventually(t, 30*time.Second, "Ready", func() error { return isReady(t, created) })
	if err := encryptionStatus(created, "DISABLED"); err != nil {
		t.Error(err)
	}
	remove(t, created)
}

// TestDeliveryStreamOfAnotherDestinationIsNotAdopted names, by external
// name, a stream that delivers to S3: the object says what the stream is and
// gets no ARN; deleting the object leaves the stream alone.
func TestDeliveryStreamOfAnotherDestinationIsNotAdopted(t *testing.T) {
	s := provider(t)
	ns := namespace(t)
	name := "s3-" + ns[len(ns)-5:]
	c := firehose.NewFromConfig(outsiderConfig(s))
	if _, err := c.CreateDeliveryStream(context.Background(), &firehose.CreateDeliveryStreamInput{
		DeliveryStreamName: aws.String(name),
		ExtendedS3DestinationConfiguration: &fhtypes.ExtendedS3DestinationConfiguration{
			BucketARN: aws.String("arn:aws:s3:::archive"), RoleARN: aws.String("arn:aws:iam::000000000000:role/firehose"),
		},
	}); err != nil {
		t.Fatal(err)
	}
	mg := newStream(t, ns, name)
	meta.SetExternalName(mg, name)
	create(t, mg)
	eventually(t, 30*time.Second, "a clear error", func() error {
		return syncedMessage(t, mg, "does not deliver to an HTTP endpoint")
	})
	if md := mg.Status.AtProvider.ACKResourceMetadata; md != nil && md.ARN != nil {
		t.Errorf("a stream of another destination type got an ARN: %s", aws.ToString(md.ARN))
	}
	if c := isReady(t, mg); c == nil {
		t.Error("a stream of another destination type is Ready")
	}
	remove(t, mg)
	d, err := c.DescribeDeliveryStream(context.Background(), &firehose.DescribeDeliveryStreamInput{DeliveryStreamName: aws.String(name)})
	if err != nil {
		t.Fatalf("deleting the object touched the S3 stream: %v", err)
	}
	if dests := d.DeliveryStreamDescription.Destinations; len(dests) != 1 || dests[0].ExtendedS3DestinationDescription == nil {
		t.Errorf("the S3 stream's destination changed: %+v", dests)
	}
	// A new object creates before it looks (AWS refuses a create whose name
	// exists): one create, refused, is all it may send; nothing else.
	w := writes(s.aws.CallsFor(name), "firehose")
	if w["firehose:CreateDeliveryStream"] > 1 {
		t.Errorf("the provider tried %d creates of a name that exists, want at most 1", w["firehose:CreateDeliveryStream"])
	}
	delete(w, "firehose:CreateDeliveryStream")
	if len(w) != 0 {
		t.Errorf("the provider wrote to a stream of another destination type: %v", w)
	}
}
