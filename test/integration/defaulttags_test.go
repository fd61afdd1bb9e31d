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
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol"
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	agentcorev1alpha1 "github.com/cloudkinds/provider-aws-services/apis/agentcorecontrol/v1alpha1"
	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	mlplatformv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/mlplatform/v1alpha1"
	streamingv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
	fh "github.com/cloudkinds/provider-aws-services/internal/aws/firehose"
	sm "github.com/cloudkinds/provider-aws-services/internal/aws/sagemaker"
	"github.com/cloudkinds/provider-aws-services/internal/aws/tags"
)

// taggedConfig creates a ClusterProviderConfig that reaches the emulator as
// the stack's does, with default tags.
func taggedConfig(t *testing.T, s *stack, defaults map[string]string) *v1alpha1.ClusterProviderConfig {
	t.Helper()
	pc := &v1alpha1.ClusterProviderConfig{
		ObjectMeta: metav1.ObjectMeta{Name: short("tags")},
		Spec: v1alpha1.ClusterProviderConfigSpec{ProviderConfigSpec: v1alpha1.ProviderConfigSpec{
			Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceNone},
			Region:      aws.String("us-east-1"),
			Endpoint:    &v1alpha1.EndpointOverride{URL: s.url},
			DefaultTags: defaults,
		}},
	}
	create(t, pc)
	return pc
}

// setDefaultTags replaces the default tags of a config.
func setDefaultTags(t *testing.T, pc *v1alpha1.ClusterProviderConfig, defaults map[string]string) {
	t.Helper()
	change(t, pc, func(pc *v1alpha1.ClusterProviderConfig) { pc.Spec.DefaultTags = defaults })
}

// A taggedObject is an object of a taggable kind, the AWS resources its
// calls are counted on, and how its tags on AWS are listed.
type taggedObject struct {
	mg       resource.Managed
	list     client.ObjectList
	budget   int // writes from create to Ready
	counted  []string
	createOp string
	tags     func(ctx context.Context) (map[string]string, error)
}

// taggedObjects returns an object of every taggable kind in ns, using the
// config named config, with own as its spec.forProvider.tags.
func taggedObjects(t *testing.T, s *stack, ns, config string, own map[string]string) []taggedObject {
	t.Helper()
	ref := &xpv2.ProviderConfigReference{Kind: v1alpha1.ClusterProviderConfigKind, Name: config}
	var list []common.Tag
	for _, k := range slices.Sorted(maps.Keys(own)) {
		list = append(list, common.Tag{Key: aws.String(k), Value: aws.String(own[k])})
	}

	stream := newStream(t, ns, short("tags"))
	stream.Spec.ProviderConfigReference = ref
	stream.Spec.ForProvider.Tags = list
	streamName := stream.Spec.ForProvider.DeliveryStreamName
	fc := firehose.NewFromConfig(outsiderConfig(s))

	ecName := short("tags")
	model(t, s, ecName)
	ec := newEndpointConfig(ns, ecName, ecName)
	ec.Spec.ProviderConfigReference = ref
	ec.Spec.ForProvider.Tags = list
	ecARN := "arn:aws:sagemaker:us-east-1:000000000000:endpoint-config/" + ecName
	sc := sagemaker.NewFromConfig(outsiderConfig(s))

	keyName := short("tags")
	ensureSecret(t, secretWith(ns, "search-key", "apiKey", firstKey))
	key := newAPIKeyProvider(ns, keyName)
	key.Spec.ProviderConfigReference = ref
	key.Spec.ForProvider.Tags = maps.Clone(own)
	keyARN := "arn:aws:bedrock-agentcore:us-east-1:000000000000:token-vault/default/apikeycredentialprovider/" + keyName
	ac := bedrockagentcorecontrol.NewFromConfig(outsiderConfig(s))

	return []taggedObject{
		{mg: stream, list: &streamingv1alpha1.DeliveryStreamList{}, budget: createBudget + 1, counted: []string{streamName}, createOp: "firehose:CreateDeliveryStream",
			tags: func(ctx context.Context) (map[string]string, error) {
				out, err := fc.ListTagsForDeliveryStream(ctx, &firehose.ListTagsForDeliveryStreamInput{DeliveryStreamName: aws.String(streamName)})
				if err != nil {
					return nil, err
				}
				return fh.TagMap(out.Tags), nil
			}},
		{mg: ec, list: &mlplatformv1alpha1.EndpointConfigList{}, budget: createBudget, counted: []string{ecName, ecARN}, createOp: "sagemaker:CreateEndpointConfig",
			tags: func(ctx context.Context) (map[string]string, error) {
				out, err := sc.ListTags(ctx, &sagemaker.ListTagsInput{ResourceArn: aws.String(ecARN)})
				if err != nil {
					return nil, err
				}
				return sm.TagMap(out.Tags), nil
			}},
		{mg: key, list: &agentcorev1alpha1.APIKeyCredentialProviderList{}, budget: createBudget, counted: []string{keyName, keyARN}, createOp: "bedrock-agentcore:CreateApiKeyCredentialProvider",
			tags: func(ctx context.Context) (map[string]string, error) {
				out, err := ac.ListTagsForResource(ctx, &bedrockagentcorecontrol.ListTagsForResourceInput{ResourceArn: aws.String(keyARN)})
				if err != nil {
					return nil, err
				}
				return out.Tags, nil
			}},
	}
}

// createTags are the tags the provider's create of mg carries when its
// config has no default tags and it has no initProvider: its own tags and
// owner (tags.Want.AtCreate), for tests that create on AWS as the provider
// would.
func createTags(mg resource.Managed, owner map[string]string) map[string]string {
	var own map[string]string
	switch o := mg.(type) {
	case *streamingv1alpha1.DeliveryStream:
		own = tags.FromList(o.Spec.ForProvider.Tags)
	case *mlplatformv1alpha1.EndpointConfig:
		own = tags.FromList(o.Spec.ForProvider.Tags)
	case *agentcorev1alpha1.APIKeyCredentialProvider:
		own = o.Spec.ForProvider.Tags
	}
	return tags.WithOwner(own, owner)
}

func kindOf(mg resource.Managed) string {
	return fmt.Sprintf("%T", mg)[len("*v1alpha1."):]
}

// TestDefaultTags: the ClusterProviderConfig's default tags are put on the
// resources of the three taggable kinds at create, within the write budget
// of any create; an object's own tag wins on the same key; a change of the
// default tags (a changed value, a new key, a removed key) reaches every
// existing resource at its next poll, and steady state writes nothing.
func TestDefaultTags(t *testing.T) {
	s := provider(t)
	ctx := context.Background()
	ns := namespace(t)
	pc := taggedConfig(t, s, map[string]string{"cost-center": "platform", "env": "prod", "retired": "soon"})
	own := map[string]string{"env": "dev", "team": "data"}
	objects := taggedObjects(t, s, ns, pc.Name, own)
	var counted []string
	watches := map[string]*writeWatch{}
	for _, o := range objects {
		counted = append(counted, o.counted...)
		watches[o.mg.GetName()] = watchWrites(t, o.list, ns)
	}
	for _, o := range objects {
		create(t, o.mg)
	}
	for _, o := range objects {
		eventually(t, 60*time.Second, kindOf(o.mg)+" Ready", func() error { return isReady(t, o.mg) })
	}
	time.Sleep(2*testPoll + testPoll/2)
	for _, o := range objects {
		ww := watches[o.mg.GetName()]
		toReady, _ := ww.untilReady(o.mg.GetName(), 0)
		after := ww.count(o.mg.GetName()) - toReady
		t.Logf("writes to a %s with default tags: create→Ready %d (+%d after)", kindOf(o.mg), toReady, after)
		if toReady+after > o.budget {
			t.Errorf("%s: %d writes from create to Ready (and %d right after), want at most %d", kindOf(o.mg), toReady, after, o.budget)
		}
		calls := map[string]int{}
		for _, r := range o.counted {
			for op, n := range s.aws.CallsFor(r) {
				calls[op] += n
			}
		}
		delete(calls, "sagemaker:CreateModel") // the test's setup
		if calls[o.createOp] != 1 || len(writes(calls, "firehose"))+len(writes(calls, "sagemaker"))+len(writes(calls, "bedrock-agentcore")) != 1 {
			t.Errorf("%s: want the create alone to carry the tags, got calls %v", kindOf(o.mg), calls)
		}
		// The object's own env=dev wins over the default env=prod.
		if err := tagsHold(o.tags, map[string]string{"cost-center": "platform", "env": "dev", "retired": "soon", "team": "data"})(ctx); err != nil {
			t.Errorf("%s at create: %v", kindOf(o.mg), err)
		}
	}
	if w := providerWrites(s, counted, 3); len(w) != 0 {
		t.Errorf("steady state with default tags: want no AWS write over 3 polls, got %v", w)
	}

	// The platform team changes the defaults: a value, a new key, and
	// one key no longer wanted.
	before := providerWritesNow(s, counted)
	changed := time.Now()
	setDefaultTags(t, pc, map[string]string{"cost-center": "finance", "env": "prod", "added": "later"})
	want := map[string]string{"cost-center": "finance", "env": "dev", "added": "later", "team": "data"}
	for _, o := range objects {
		eventually(t, 30*time.Second, kindOf(o.mg)+" tags after the change of the defaults", func() error { return tagsHold(o.tags, want)(ctx) })
	}
	t.Logf("the changed default tags were on all three resources %s after the change (poll %s)", time.Since(changed).Round(100*time.Millisecond), testPoll)
	time.Sleep(2*testPoll + testPoll/2)
	// One tag call and one untag call per resource.
	w := subtract(providerWritesNow(s, counted), before)
	if !maps.Equal(w, map[string]int{
		"firehose:TagDeliveryStream": 1, "firehose:UntagDeliveryStream": 1,
		"sagemaker:AddTags": 1, "sagemaker:DeleteTags": 1,
		"bedrock-agentcore:TagResource": 1, "bedrock-agentcore:UntagResource": 1,
	}) {
		t.Errorf("writes for the change of the defaults: want one tag and one untag call per resource, got %v", w)
	}
	for _, o := range objects {
		if err := isReady(t, o.mg); err != nil {
			t.Errorf("%s after the change of the defaults: %v", kindOf(o.mg), err)
		}
	}
	if w := providerWrites(s, counted, 3); len(w) != 0 {
		t.Errorf("steady state after the change: want no AWS write over 3 polls, got %v", w)
	}
	for _, o := range objects {
		remove(t, o.mg)
	}
}

// TestDefaultTagsBeyondFifty: defaults that would take a resource beyond
// AWS's 50 tags (with its own and the 6 owner tags) make no AWS call AWS
// would refuse: a new object is not created, an existing one is not
// tagged, and each says in its Synced condition which tags and how many;
// once the defaults fit again, the existing one is tagged and Synced.
func TestDefaultTagsBeyondFifty(t *testing.T) {
	s := provider(t)
	ns := namespace(t)
	own := map[string]string{}
	for i := range 43 {
		own[fmt.Sprintf("own%02d", i)] = "v"
	}

	// 43 own, 2 defaults and 6 owner tags: 51, never created.
	tooMany := taggedConfig(t, s, map[string]string{"cost-center": "platform", "env": "prod"})
	refused := taggedObjects(t, s, ns, tooMany.Name, own)
	for _, o := range refused {
		create(t, o.mg)
	}
	for _, o := range refused {
		eventually(t, 30*time.Second, kindOf(o.mg)+" refused", func() error {
			for _, says := range []string{"too many tags: AWS allows 50 per resource, and the create would send 51",
				"43 of spec.forProvider.tags", "2 default tags of the provider config (spec.defaultTags): cost-center, env", "the provider's 6 owner tags", "remove 1"} {
				if err := syncedMessage(t, o.mg, says); err != nil {
					return err
				}
			}
			if c := o.mg.GetCondition(xpv2.TypeSynced); c.Status != corev1.ConditionFalse {
				return fmt.Errorf("Synced %s", c.Status)
			}
			return nil
		})
	}
	time.Sleep(2 * testPoll)
	for _, o := range refused {
		for _, r := range o.counted {
			if n := s.aws.CallsFor(r)[o.createOp]; n != 0 {
				t.Errorf("%s: %d creates AWS would refuse, want none", kindOf(o.mg), n)
			}
		}
		remove(t, o.mg)
	}

	// 43 own, 1 default and 6 owner tags: 50, created; a second default
	// would make 51.
	full := taggedConfig(t, s, map[string]string{"cost-center": "platform"})
	objects := taggedObjects(t, s, ns, full.Name, own)
	var counted []string
	for _, o := range objects {
		counted = append(counted, o.counted...)
		create(t, o.mg)
	}
	for _, o := range objects {
		eventually(t, 60*time.Second, kindOf(o.mg)+" Ready with 50 tags", func() error { return isReady(t, o.mg) })
	}
	before := providerWritesNow(s, counted)
	setDefaultTags(t, full, map[string]string{"cost-center": "platform", "env": "prod"})
	for _, o := range objects {
		eventually(t, 30*time.Second, kindOf(o.mg)+" refused to tag", func() error {
			for _, says := range []string{"too many tags: AWS allows 50 per resource, and tagging it as asked would make 51",
				"43 of spec.forProvider.tags", "2 default tags of the provider config (spec.defaultTags): cost-center, env", "the provider's 6 owner tags", "remove 1"} {
				if err := syncedMessage(t, o.mg, says); err != nil {
					return err
				}
			}
			return nil
		})
	}
	if w := subtract(providerWritesNow(s, counted), before); len(w) != 0 {
		t.Errorf("tag calls AWS would refuse: %v", w)
	}

	// The platform team takes the new default back: Synced again, no write.
	setDefaultTags(t, full, map[string]string{"cost-center": "platform"})
	for _, o := range objects {
		eventually(t, 60*time.Second, kindOf(o.mg)+" Synced again", func() error { return isReady(t, o.mg) })
	}
	if w := subtract(providerWritesNow(s, counted), before); len(w) != 0 {
		t.Errorf("AWS writes while the defaults were too many and after: %v", w)
	}
	for _, o := range objects {
		remove(t, o.mg)
	}
}

// TestDefaultTagsAdmission: default tags are judged at admission on both
// config kinds.
func TestDefaultTagsAdmission(t *testing.T) {
	many := map[string]string{}
	for i := range 45 {
		many[fmt.Sprintf("k%d", i)] = "v"
	}
	manyJSON, _ := json.Marshal(many)
	runAdmission(t, map[string]admissionCase{
		"ClusterDefaultTags":    {example: clusterPC, create: `{"spec":{"defaultTags":{"cost-center":"platform","env":"prod"}}}`},
		"NamespacedDefaultTags": {example: namespacedPC, create: `{"spec":{"defaultTags":{"cost-center":"platform"}}}`},
		"DefaultOwnerTagKey": {example: clusterPC, create: `{"spec":{"defaultTags":{"crossplane-name":"x"}}}`,
			refused: []string{"spec.defaultTags", "crossplane- are the provider's owner tags"}},
		"DefaultAWSTagKey": {example: namespacedPC, create: `{"spec":{"defaultTags":{"aws:cloudformation:stack-name":"x"}}}`,
			refused: []string{"spec.defaultTags", "reserved by AWS"}},
		"DefaultTagValueTooLong": {example: clusterPC, create: `{"spec":{"defaultTags":{"k":"` + strings.Repeat("v", 257) + `"}}}`,
			refused: []string{"spec.defaultTags", "at most 256 characters"}},
		"TooManyDefaultTags": {example: clusterPC, create: `{"spec":{"defaultTags":` + string(manyJSON) + `}}`,
			refused: []string{"spec.defaultTags", "at most 44"}},
	})
}
