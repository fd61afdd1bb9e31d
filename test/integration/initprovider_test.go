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
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	fhtypes "github.com/aws/aws-sdk-go-v2/service/firehose/types"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	agentcorev1alpha1 "github.com/cloudkinds/provider-aws-services/apis/agentcorecontrol/v1alpha1"
	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	eventbusv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/eventbus/v1alpha1"
	mlplatformv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/mlplatform/v1alpha1"
	notificationv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/notification/v1alpha1"
	streamingv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/aws/diff"
	eb "github.com/cloudkinds/provider-aws-services/internal/aws/eventbridge"
	fh "github.com/cloudkinds/provider-aws-services/internal/aws/firehose"
	sm "github.com/cloudkinds/provider-aws-services/internal/aws/sagemaker"
)

// An initProviderCase is one kind's object with spec.initProvider: some
// fields only there, and one set in both initProvider and forProvider.
type initProviderCase struct {
	mg resource.Managed
	// counted are the AWS resources whose writes are counted, once the
	// object is Ready.
	counted func() []string
	// created checks that AWS holds initProvider's values, and
	// forProvider's where both set a field.
	created func(ctx context.Context) error
	// drift changes the fields set only by initProvider, as someone else
	// does on AWS; drifted checks that AWS still holds that change.
	drift, drifted func(ctx context.Context) error
}

// An initProviderKind sets up one kind's case; budget is its writes from
// create to Ready.
type initProviderKind struct {
	name   string
	list   client.ObjectList
	budget int
	setup  func(t *testing.T, s *stack, ns string) initProviderCase
}

// TestInitProvider creates an object of every kind with spec.initProvider:
// initProvider's values reach AWS with the create, forProvider's win where
// both set a field, nothing of initProvider is written into forProvider, the
// create costs no more writes than any other, and a later change of an
// initProvider-only field on AWS by someone else is left alone over several
// polls: no AWS write, no change back.
func TestInitProvider(t *testing.T) {
	s := provider(t)
	for _, k := range []initProviderKind{
		{name: "DeliveryStream", list: &streamingv1alpha1.DeliveryStreamList{}, budget: createBudget + 1, setup: streamInit},
		{name: "Subscription", list: &notificationv1alpha1.SubscriptionList{}, budget: createBudget, setup: subscriptionInit},
		{name: "Endpoint", list: &eventbusv1alpha1.EndpointList{}, budget: createBudget + 1, setup: endpointInit},
		{name: "EndpointConfig", list: &mlplatformv1alpha1.EndpointConfigList{}, budget: createBudget, setup: endpointConfigInit},
		{name: "APIKeyCredentialProvider", list: &agentcorev1alpha1.APIKeyCredentialProviderList{}, budget: createBudget, setup: apiKeyInit},
	} {
		t.Run(k.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			ns := namespace(t)
			ww := watchWrites(t, k.list, ns)
			c := k.setup(t, s, ns)
			forProvider := forProviderOf(t, c.mg)
			create(t, c.mg)
			eventually(t, 60*time.Second, "Ready", func() error { return isReady(t, c.mg) })
			eventually(t, 10*time.Second, "initProvider's and forProvider's values on AWS", func() error { return c.created(ctx) })
			// Writes that follow Ready at once (the create's last status)
			// count too.
			time.Sleep(2*testPoll + testPoll/2)
			toReady, _ := ww.untilReady(c.mg.GetName(), 0)
			after := ww.count(c.mg.GetName()) - toReady
			t.Logf("writes to a %s with initProvider: create→Ready %d (+%d after)", k.name, toReady, after)
			if toReady+after > k.budget {
				t.Errorf("%d writes from create to Ready (and %d right after), want at most %d", toReady, after, k.budget)
			}
			if got := forProviderOf(t, c.mg); got != forProvider {
				t.Errorf("spec.forProvider changed: initProvider was written into it, or AWS's values were\nbefore: %s\nafter:  %s", forProvider, got)
			}
			if c.mg.GetAnnotations()["crossplane.io/external-name"] == "" {
				t.Error("no external name after create")
			}

			before := providerWritesNow(s, c.counted())
			if err := c.drift(ctx); err != nil {
				t.Fatalf("cannot change AWS as someone else: %v", err)
			}
			time.Sleep(4*testPoll + testPoll/2)
			if err := c.drifted(ctx); err != nil {
				t.Errorf("a change of an initProvider field on AWS was reverted: %v", err)
			}
			if w := subtract(providerWritesNow(s, c.counted()), before); len(w) != 0 {
				t.Errorf("the provider wrote to AWS after someone else changed initProvider's fields: %v", w)
			}
			if err := isReady(t, c.mg); err != nil {
				t.Errorf("not Ready and Synced after the change of an initProvider field: %v", err)
			}
			remove(t, c.mg)
		})
	}
}

// forProviderOf reads mg from the API server and returns its forProvider.
func forProviderOf(t *testing.T, mg resource.Managed) string {
	t.Helper()
	if mg.GetResourceVersion() != "" {
		if err := cp.Client.Get(context.Background(), client.ObjectKeyFromObject(mg), mg); err != nil {
			t.Fatal(err)
		}
	}
	b, err := json.Marshal(mg)
	if err != nil {
		t.Fatal(err)
	}
	var o struct {
		Spec struct {
			ForProvider json.RawMessage `json:"forProvider"`
		} `json:"spec"`
	}
	if err := json.Unmarshal(b, &o); err != nil {
		t.Fatal(err)
	}
	return string(o.Spec.ForProvider)
}

// tagsAre checks that the tags hold want, beside others.
func tagsAre(got, want map[string]string) error {
	for k, v := range want {
		if got[k] != v {
			return fmt.Errorf("tag %s is %q, want %q (tags %v)", k, got[k], v, got)
		}
	}
	return nil
}

func streamInit(t *testing.T, s *stack, ns string) initProviderCase {
	mg := newStream(t, ns, short("init"))
	name := mg.Spec.ForProvider.DeliveryStreamName
	mg.Spec.InitProvider = &streamingv1alpha1.DeliveryStreamInitParameters{
		// team is forProvider's too: forProvider's "analytics" wins.
		Tags: []common.Tag{{Key: aws.String("team"), Value: aws.String("init")}, {Key: aws.String("tuned-by"), Value: aws.String("operations")}},
		HTTPEndpointDestinationConfiguration: &streamingv1alpha1.HTTPEndpointDestinationConfigurationInitParameters{
			BufferingHints: &streamingv1alpha1.BufferingHints{SizeInMBs: aws.Int64(5), IntervalInSeconds: aws.Int64(300)},
			RetryOptions:   &streamingv1alpha1.RetryOptions{DurationInSeconds: aws.Int64(300)},
			// forProvider's role/firehose wins.
			RoleARN:            aws.String("arn:aws:iam::000000000000:role/init"),
			StoreConfiguration: &streamingv1alpha1.StoreConfigurationInitParameters{Prefix: aws.String("init/")},
		},
	}
	c := firehose.NewFromConfig(outsiderConfig(s))
	describe := func(ctx context.Context) (*fhtypes.DeliveryStreamDescription, error) {
		out, err := c.DescribeDeliveryStream(ctx, &firehose.DescribeDeliveryStreamInput{DeliveryStreamName: aws.String(name)})
		if err != nil {
			return nil, err
		}
		return out.DeliveryStreamDescription, nil
	}
	holds := func(retry int32, prefix, tuned string) func(ctx context.Context) error {
		return func(ctx context.Context) error {
			d, err := describe(ctx)
			if err != nil {
				return err
			}
			h := fh.HTTPDestination(d)
			if h.BufferingHints == nil || aws.ToInt32(h.BufferingHints.SizeInMBs) != 5 || aws.ToInt32(h.BufferingHints.IntervalInSeconds) != 300 {
				return fmt.Errorf("buffering hints %+v", h.BufferingHints)
			}
			if got := aws.ToInt32(h.RetryOptions.DurationInSeconds); got != retry {
				return fmt.Errorf("retry duration %d, want %d", got, retry)
			}
			if got := aws.ToString(h.S3DestinationDescription.Prefix); got != prefix {
				return fmt.Errorf("store prefix %q, want %q", got, prefix)
			}
			if got := aws.ToString(h.RoleARN); got != "arn:aws:iam::000000000000:role/firehose" {
				return fmt.Errorf("role %s: forProvider's should win", got)
			}
			out, err := c.ListTagsForDeliveryStream(ctx, &firehose.ListTagsForDeliveryStreamInput{DeliveryStreamName: aws.String(name)})
			if err != nil {
				return err
			}
			return tagsAre(fh.TagMap(out.Tags), map[string]string{"team": "analytics", "tuned-by": tuned})
		}
	}
	return initProviderCase{
		mg: mg, counted: func() []string { return []string{name} },
		created: holds(300, "init/", "operations"),
		drift: func(ctx context.Context) error {
			d, err := describe(ctx)
			if err != nil {
				return err
			}
			if _, err := c.UpdateDestination(ctx, &firehose.UpdateDestinationInput{
				DeliveryStreamName: aws.String(name), CurrentDeliveryStreamVersionId: d.VersionId, DestinationId: d.Destinations[0].DestinationId,
				HttpEndpointDestinationUpdate: &fhtypes.HttpEndpointDestinationUpdate{
					RetryOptions: &fhtypes.HttpEndpointRetryOptions{DurationInSeconds: aws.Int32(900)},
					S3Update:     &fhtypes.S3DestinationUpdate{Prefix: aws.String("operations/")},
				},
			}); err != nil {
				return err
			}
			_, err = c.TagDeliveryStream(ctx, fh.TagInput(name, map[string]string{"tuned-by": "someone-else"}))
			return err
		},
		drifted: holds(900, "operations/", "someone-else"),
	}
}

func subscriptionInit(t *testing.T, s *stack, ns string) initProviderCase {
	topicARN := topic(t, s, short("init"))
	mg := newSubscription(ns, short("init"), topicARN)
	dlq := `{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:orders-dlq"}`
	mg.Spec.InitProvider = &notificationv1alpha1.SubscriptionInitParameters{
		RedrivePolicy: aws.String(dlq),
		// forProvider's {"type": ["order_placed"]} wins.
		FilterPolicy: aws.String(`{"type": ["init"]}`),
	}
	c := sns.NewFromConfig(outsiderConfig(s))
	holds := func(redrive string) func(ctx context.Context) error {
		return func(ctx context.Context) error {
			if err := cp.Client.Get(ctx, client.ObjectKeyFromObject(mg), mg); err != nil {
				return err
			}
			out, err := c.GetSubscriptionAttributes(ctx, &sns.GetSubscriptionAttributesInput{SubscriptionArn: aws.String(meta.GetExternalName(mg))})
			if err != nil {
				return err
			}
			if got := out.Attributes["RedrivePolicy"]; !diff.JSONEqual(got, redrive) {
				return fmt.Errorf("RedrivePolicy %s, want %s", got, redrive)
			}
			if got := out.Attributes["FilterPolicy"]; !diff.JSONEqual(got, `{"type": ["order_placed"]}`) {
				return fmt.Errorf("FilterPolicy %s: forProvider's should win", got)
			}
			return nil
		}
	}
	other := `{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:someone-elses-dlq"}`
	return initProviderCase{
		mg: mg, counted: func() []string { return []string{meta.GetExternalName(mg)} },
		created: holds(dlq),
		drift: func(ctx context.Context) error {
			_, err := c.SetSubscriptionAttributes(ctx, &sns.SetSubscriptionAttributesInput{SubscriptionArn: aws.String(meta.GetExternalName(mg)),
				AttributeName: aws.String("RedrivePolicy"), AttributeValue: aws.String(other)})
			return err
		},
		drifted: holds(other),
	}
}

func endpointInit(t *testing.T, s *stack, ns string) initProviderCase {
	name := short("init")
	mg := newEndpoint(ns, name)
	mg.Spec.ForProvider.Description = nil
	mg.Spec.InitProvider = &eventbusv1alpha1.EndpointInitParameters{
		Description: aws.String("set at create"),
		// forProvider's role/replication wins.
		RoleARN: aws.String("arn:aws:iam::000000000000:role/init"),
	}
	c := eventbridge.NewFromConfig(outsiderConfig(s))
	holds := func(description string) func(ctx context.Context) error {
		return func(ctx context.Context) error {
			d, err := c.DescribeEndpoint(ctx, &eventbridge.DescribeEndpointInput{Name: aws.String(name)})
			if err != nil {
				return err
			}
			if got := aws.ToString(d.Description); got != description {
				return fmt.Errorf("description %q, want %q", got, description)
			}
			if got := aws.ToString(d.RoleArn); got != "arn:aws:iam::000000000000:role/replication" {
				return fmt.Errorf("role %s: forProvider's should win", got)
			}
			return nil
		}
	}
	return initProviderCase{
		mg: mg, counted: func() []string { return []string{name} },
		created: holds("set at create"),
		drift: func(ctx context.Context) error {
			in := eb.UpdateInput(&newEndpoint(ns, name).Spec.ForProvider)
			in.Description = aws.String("changed by someone else")
			_, err := c.UpdateEndpoint(ctx, in)
			return err
		},
		drifted: holds("changed by someone else"),
	}
}

func endpointConfigInit(t *testing.T, s *stack, ns string) initProviderCase {
	name := short("init")
	model(t, s, name)
	mg := newEndpointConfig(ns, name, name)
	mg.Spec.InitProvider = &mlplatformv1alpha1.EndpointConfigInitParameters{
		// team is forProvider's too: forProvider's "ml" wins.
		Tags: []common.Tag{{Key: aws.String("team"), Value: aws.String("init")}, {Key: aws.String("tuned-by"), Value: aws.String("operations")}},
	}
	arn := "arn:aws:sagemaker:us-east-1:000000000000:endpoint-config/" + name
	c := sagemaker.NewFromConfig(outsiderConfig(s))
	holds := func(tuned string) func(ctx context.Context) error {
		return func(ctx context.Context) error {
			out, err := c.ListTags(ctx, &sagemaker.ListTagsInput{ResourceArn: aws.String(arn)})
			if err != nil {
				return err
			}
			return tagsAre(sm.TagMap(out.Tags), map[string]string{"team": "ml", "tuned-by": tuned})
		}
	}
	return initProviderCase{
		mg: mg, counted: func() []string { return []string{name, arn} },
		created: holds("operations"),
		drift: func(ctx context.Context) error {
			_, err := c.AddTags(ctx, sm.TagInput(arn, map[string]string{"tuned-by": "someone-else"}))
			return err
		},
		drifted: holds("someone-else"),
	}
}

func apiKeyInit(t *testing.T, s *stack, ns string) initProviderCase {
	name := short("init")
	ensureSecret(t, secretWith(ns, "search-key", "apiKey", firstKey))
	mg := newAPIKeyProvider(ns, name)
	// team is forProvider's too: forProvider's "agents" wins.
	mg.Spec.InitProvider = &agentcorev1alpha1.APIKeyCredentialProviderInitParameters{Tags: map[string]string{"team": "init", "tuned-by": "operations"}}
	arn := "arn:aws:bedrock-agentcore:us-east-1:000000000000:token-vault/default/apikeycredentialprovider/" + name
	c := bedrockagentcorecontrol.NewFromConfig(outsiderConfig(s))
	holds := func(tuned string) func(ctx context.Context) error {
		return func(ctx context.Context) error {
			out, err := c.ListTagsForResource(ctx, &bedrockagentcorecontrol.ListTagsForResourceInput{ResourceArn: aws.String(arn)})
			if err != nil {
				return err
			}
			return tagsAre(maps.Clone(out.Tags), map[string]string{"team": "agents", "tuned-by": tuned})
		}
	}
	return initProviderCase{
		mg: mg, counted: func() []string { return []string{name, arn} },
		created: holds("operations"),
		drift: func(ctx context.Context) error {
			_, err := c.TagResource(ctx, &bedrockagentcorecontrol.TagResourceInput{ResourceArn: aws.String(arn), Tags: map[string]string{"tuned-by": "someone-else"}})
			return err
		},
		drifted: holds("someone-else"),
	}
}

// TestInitProviderAdmission: each kind's initProvider takes only the fields
// AWS can change after create (an identity field, or one AWS cannot change,
// is an unknown field), and its rules are judged at admission.
func TestInitProviderAdmission(t *testing.T) {
	runAdmission(t, map[string]admissionCase{
		"StreamInitTags": {example: stream, create: `{"spec":{"initProvider":{"tags":[{"key":"tuned-by","value":"ops"}],
			"httpEndpointDestinationConfiguration":{"retryOptions":{"durationInSeconds":300},"storeConfiguration":{"prefix":"p/"}}}}}`},
		"StreamInitOwnerTagKey": {example: stream, create: `{"spec":{"initProvider":{"tags":[{"key":"crossplane-name","value":"x"}]}}}`,
			refused: []string{"spec.initProvider.tags", "crossplane- are the provider's owner tags"}},
		"StreamInitBufferingSizeAlone": {example: stream, create: `{"spec":{"initProvider":{"httpEndpointDestinationConfiguration":{"bufferingHints":{"sizeInMBs":5}}}}}`,
			refused: []string{"spec.initProvider.httpEndpointDestinationConfiguration.bufferingHints", "given together"}},
		"StreamInitAndOwnTagsOver44": {example: stream, create: `{"spec":{"forProvider":{"tags":` + tagList(40) + `},"initProvider":{"tags":` + tagListFrom(40, 5) + `}}}`,
			refused: []string{"spec.initProvider.tags", "together have more than 44 keys"}},
		"StreamInitAndOwnTagsShareKeys": {example: stream, create: `{"spec":{"forProvider":{"tags":` + tagList(40) + `},"initProvider":{"tags":` + tagListFrom(36, 8) + `}}}`},
		"EndpointConfigInitTagsOver44": {example: endpointCfg, create: `{"spec":{"forProvider":{"tags":` + tagList(44) + `},"initProvider":{"tags":` + tagListFrom(44, 1) + `}}}`,
			refused: []string{"spec.initProvider.tags", "together have more than 44 keys"}},
		"APIKeyInitTagsOver44": {example: apiKey, create: `{"spec":{"forProvider":{"tags":` + tagMap(43) + `},"initProvider":{"tags":{"extra":"1"}}}}`,
			refused: []string{"spec.initProvider.tags", "together have more than 44 keys"}},
		"APIKeyInitOwnerTagKey": {example: apiKey, create: `{"spec":{"initProvider":{"tags":{"crossplane-uid":"x"}}}}`,
			refused: []string{"spec.initProvider.tags", "crossplane- are the provider's owner tags"}},
		"SubscriptionStreamRoleFromInit": {example: subscription, create: `{"spec":{"forProvider":{"protocol":"stream","endpoint":"arn:aws:firehose:us-east-1:000000000000:deliverystream/s"},
			"initProvider":{"subscriptionRoleARN":"arn:aws:iam::000000000000:role/sns"}}}`},
		"SubscriptionStreamWithoutRole": {example: subscription, create: `{"spec":{"forProvider":{"protocol":"stream","endpoint":"arn:aws:firehose:us-east-1:000000000000:deliverystream/s"},
			"initProvider":{"filterPolicy":"{}"}}}`,
			refused: []string{"spec.forProvider.subscriptionRoleARN", "requires subscriptionRoleARN"}},
		"EndpointRoleFromInit":              {example: endpoint, create: `{"spec":{"forProvider":{"roleARN":null},"initProvider":{"roleARN":"arn:aws:iam::000000000000:role/r"}}}`},
		"EndpointReplicationDisabledInInit": {example: endpoint, create: `{"spec":{"forProvider":{"roleARN":null,"replicationConfig":null},"initProvider":{"replicationConfig":{"state":"DISABLED"}}}}`},
		"EndpointForProviderStateWins": {example: endpoint, create: `{"spec":{"forProvider":{"roleARN":null},"initProvider":{"replicationConfig":{"state":"DISABLED"}}}}`,
			refused: []string{"spec.forProvider.roleARN", "replication is ENABLED"}},
	})

	// Fields initProvider does not take are unknown: kubectl (strict field
	// validation) is refused, naming them.
	for name, tc := range map[string]struct{ example, patch, field string }{
		"StreamName":             {stream, `{"spec":{"initProvider":{"deliveryStreamName":"other"}}}`, "spec.initProvider.deliveryStreamName"},
		"StreamEncryption":       {stream, `{"spec":{"initProvider":{"deliveryStreamEncryptionConfiguration":{"keyType":"AWS_OWNED_CMK"}}}}`, "spec.initProvider.deliveryStreamEncryptionConfiguration"},
		"StreamURL":              {stream, `{"spec":{"initProvider":{"httpEndpointDestinationConfiguration":{"endpointConfiguration":{"url":"https://x"}}}}}`, "spec.initProvider.httpEndpointDestinationConfiguration.endpointConfiguration.url"},
		"StreamRoleRef":          {stream, `{"spec":{"initProvider":{"httpEndpointDestinationConfiguration":{"roleRef":{"from":{"name":"r"}}}}}}`, "spec.initProvider.httpEndpointDestinationConfiguration.roleRef"},
		"SubscriptionEndpoint":   {subscription, `{"spec":{"initProvider":{"endpoint":"arn:aws:sqs:us-east-1:000000000000:other"}}}`, "spec.initProvider.endpoint"},
		"SubscriptionTopic":      {subscription, `{"spec":{"initProvider":{"topicARN":"arn:aws:sns:us-east-1:000000000000:other"}}}`, "spec.initProvider.topicARN"},
		"SubscriptionProtocol":   {subscription, `{"spec":{"initProvider":{"protocol":"https"}}}`, "spec.initProvider.protocol"},
		"EndpointName":           {endpoint, `{"spec":{"initProvider":{"name":"other"}}}`, "spec.initProvider.name"},
		"EndpointConfigVariants": {endpointCfg, `{"spec":{"initProvider":{"kmsKeyID":"k"}}}`, "spec.initProvider.kmsKeyID"},
		"APIKeyName":             {apiKey, `{"spec":{"initProvider":{"name":"other"}}}`, "spec.initProvider.name"},
		"APIKeyKey":              {apiKey, `{"spec":{"initProvider":{"apiKey":{"name":"s","key":"k"}}}}`, "spec.initProvider.apiKey"},
	} {
		t.Run("Unknown"+name, func(t *testing.T) {
			obj := fromExample(t, tc.example, tc.patch)
			obj.SetName("unknown-" + strings.ToLower(name))
			ensureNamespace(t, obj.GetNamespace())
			err := cp.Client.Create(context.Background(), obj, client.FieldValidation("Strict"))
			if err == nil || !kerrors.IsBadRequest(err) && !kerrors.IsInvalid(err) || !strings.Contains(err.Error(), `unknown field "`+tc.field+`"`) {
				t.Errorf("want a refusal naming the unknown field %s, got %v", tc.field, err)
			}
		})
	}
}

// tagListFrom is a JSON list of n tags k<from>..k<from+n-1>, as tagList
// makes them.
func tagListFrom(from, n int) string {
	tags := make([]string, 0, n)
	for i := from; i < from+n; i++ {
		tags = append(tags, fmt.Sprintf(`{"key":"k%d","value":"v"}`, i))
	}
	return "[" + strings.Join(tags, ",") + "]"
}
