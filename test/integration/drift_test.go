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
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol"
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	fhtypes "github.com/aws/aws-sdk-go-v2/service/firehose/types"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	"sigs.k8s.io/controller-runtime/pkg/client"

	agentcorev1alpha1 "github.com/cloudkinds/provider-aws-services/apis/agentcorecontrol/v1alpha1"
	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	mlplatformv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/mlplatform/v1alpha1"
	streamingv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	fh "github.com/cloudkinds/provider-aws-services/internal/aws/firehose"
	sm "github.com/cloudkinds/provider-aws-services/internal/aws/sagemaker"
	"github.com/cloudkinds/provider-aws-services/internal/aws/tags"
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
