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

package deliverystream

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	"github.com/cloudkinds/provider-aws-services/internal/tenancy/ownership"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	"github.com/aws/aws-sdk-go-v2/service/firehose/types"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/test"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	fh "github.com/cloudkinds/provider-aws-services/internal/aws/firehose"
	"github.com/cloudkinds/provider-aws-services/internal/aws/tags"
)

// ownerTags are the owner tags setup gives the kind's creates.
func ownerTags(mg resource.Managed) map[string]string {
	return ownership.OwnerTags(v1alpha1.DeliveryStreamGroupVersionKind.GroupKind(), mg)
}

func TestCreateFromInitProviderAndDefaultTags(t *testing.T) {
	hints := &v1alpha1.BufferingHints{SizeInMBs: aws.Int64(5), IntervalInSeconds: aws.Int64(300)}
	tag := func(k, v string) common.Tag { return common.Tag{Key: aws.String(k), Value: aws.String(v)} }
	manyTags := func(n int) []common.Tag {
		out := make([]common.Tag, 0, n)
		for i := range n {
			out = append(out, tag("k"+string(rune('a'+i/26))+string(rune('a'+i%26)), "v"))
		}
		return out
	}
	type want struct {
		created     bool
		hints       *types.HttpEndpointBufferingHints
		tags        map[string]string // besides the owner tags
		managedKeys string
		err         []string
	}
	cases := map[string]struct {
		reason   string
		defaults map[string]string
		spec     []common.Tag
		init     *v1alpha1.DeliveryStreamInitParameters
		want     want
	}{
		"InitProviderAndDefaults": {
			reason:   "The create sends initProvider's hints and tags, the config's defaults and forProvider's tags (the object's own winning on a key); only the defaults and forProvider's keys are recorded as managed.",
			defaults: map[string]string{"cost": "platform", "env": "prod", "owner": "platform"},
			spec:     []common.Tag{tag("env", "dev")},
			init:     &v1alpha1.DeliveryStreamInitParameters{Tags: []common.Tag{tag("owner", "team-a"), tag("tuned-by", "ops")}, HTTPEndpointDestinationConfiguration: &v1alpha1.HTTPEndpointDestinationConfigurationInitParameters{BufferingHints: hints}},
			want: want{
				created: true, hints: &types.HttpEndpointBufferingHints{SizeInMBs: aws.Int32(5), IntervalInSeconds: aws.Int32(300)},
				tags:        map[string]string{"cost": "platform", "env": "dev", "owner": "team-a", "tuned-by": "ops"},
				managedKeys: `["cost","env"]`,
			},
		},
		"TooManyTags": {
			reason:   "Defaults that make more than 50 tags with the spec's and the owner tags refuse the create before any call.",
			defaults: map[string]string{"cost": "platform"},
			spec:     manyTags(44),
			want:     want{err: []string{"the create would send 51", "1 default tags of the provider config (spec.defaultTags): cost", "remove 1"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mg := newMR()
			mg.Spec.ForProvider.Tags = tc.spec
			mg.Spec.InitProvider = tc.init
			mg.Spec.ProviderConfigReference = &xpv2.ProviderConfigReference{Kind: "ClusterProviderConfig", Name: "default"} // all 6 owner tags
			var sent *firehose.CreateDeliveryStreamInput
			api := &mockAPI{}
			if tc.want.created {
				api.create = func(in *firehose.CreateDeliveryStreamInput) (*firehose.CreateDeliveryStreamOutput, error) {
					sent = in
					return &firehose.CreateDeliveryStreamOutput{}, nil
				}
			}
			e := newExternal(t, api, mg)
			e.session.DefaultTags = tc.defaults
			_, err := e.Create(context.Background(), mg)
			if !tc.want.created {
				for _, s := range tc.want.err {
					if err == nil || !strings.Contains(err.Error(), s) {
						t.Errorf("%s\nCreate(): error %v does not say %q", tc.reason, err, s)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want.hints, sent.HttpEndpointDestinationConfiguration.BufferingHints, cmpopts.IgnoreUnexported(types.HttpEndpointBufferingHints{})); diff != "" {
				t.Errorf("%s\nbuffering hints sent: -want, +got:\n%s", tc.reason, diff)
			}
			got := fh.TagMap(sent.Tags)
			for k := range ownerTags(mg) {
				delete(got, k)
			}
			if diff := cmp.Diff(tc.want.tags, got); diff != "" {
				t.Errorf("%s\ntags sent: -want, +got:\n%s", tc.reason, diff)
			}
			if got := mg.GetAnnotations()[tags.AnnotationManagedKeys]; got != tc.want.managedKeys {
				t.Errorf("%s\nmanaged tag keys recorded: want %s, got %s", tc.reason, tc.want.managedKeys, got)
			}
			if mg.Spec.ForProvider.HTTPEndpointDestinationConfiguration.BufferingHints != nil {
				t.Errorf("%s\ninitProvider's hints were written into forProvider", tc.reason)
			}
		})
	}
}

// created makes mg an object whose create crossplane-runtime recorded at
// generation gen: its create records and the Ready and Synced conditions it
// writes after a create.
func created(mg *v1alpha1.DeliveryStream, gen int64) {
	mg.SetGeneration(gen)
	at := time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC)
	meta.SetExternalCreatePending(mg, at)
	meta.SetExternalCreateSucceeded(mg, at)
	mg.SetConditions(xpv2.Creating().WithObservedGeneration(gen), xpv2.ReconcileSuccess().WithObservedGeneration(gen))
}

func TestObserveListsTagsOnlyOnceSeenReady(t *testing.T) {
	tag := []common.Tag{{Key: aws.String("team"), Value: aws.String("a")}}
	type want struct {
		calls []string
		// declared, when not the calls made: the declaration is made
		// before AWS says the stream cannot be changed, and a declared
		// call not made only holds budget that an undeclared call made
		// would escape.
		declared []string
		obs      managed.ExternalObservation
		ready    xpv2.Condition
	}
	cases := map[string]struct {
		reason string
		status types.DeliveryStreamStatus
		object func(mg *v1alpha1.DeliveryStream)
		onAWS  map[string]string // the tags on AWS
		want   want
	}{
		"ActiveRightAfterTheCreate": {
			reason: "The create set exactly the desired tags and the stream was not seen Ready since: the Observe that finds it ACTIVE lists none.",
			status: types.DeliveryStreamStatusActive,
			object: func(mg *v1alpha1.DeliveryStream) { created(mg, 1) },
			want: want{calls: []string{"DescribeDeliveryStream"}, obs: managed.ExternalObservation{ResourceExists: true, ResourceUpToDate: true},
				ready: xpv2.Available()},
		},
		"StillCreating": {
			reason: "While AWS creates the stream nothing is compared: no tags are listed and nothing is reported to update.",
			status: types.DeliveryStreamStatusCreating,
			object: func(mg *v1alpha1.DeliveryStream) { created(mg, 1) },
			want: want{calls: []string{"DescribeDeliveryStream"}, obs: managed.ExternalObservation{ResourceExists: true, ResourceUpToDate: true},
				ready: xpv2.Creating()},
		},
		"SpecChangedWhileAWSCreates": {
			reason: "While AWS creates the stream a spec that differs in every part (destination, access key, tags) is not compared: AWS could not take an update yet.",
			status: types.DeliveryStreamStatusCreating,
			object: func(mg *v1alpha1.DeliveryStream) {
				mg.SetConditions(xpv2.Available())
				mg.SetAnnotations(map[string]string{meta.AnnotationKeyExternalName: "s"})
				mg.Spec.ForProvider.HTTPEndpointDestinationConfiguration.EndpointConfiguration.URL = aws.String("https://changed")
				mg.Spec.ForProvider.Tags = []common.Tag{{Key: aws.String("team"), Value: aws.String("b")}}
			},
			want: want{calls: []string{"DescribeDeliveryStream"}, declared: []string{"DescribeDeliveryStream", "ListTagsForDeliveryStream"},
				obs: managed.ExternalObservation{ResourceExists: true, ResourceUpToDate: true}, ready: xpv2.Creating()},
		},
		"SpecChangedWhileAWSDeletes": {
			reason: "Nor while AWS deletes it.",
			status: types.DeliveryStreamStatusDeleting,
			object: func(mg *v1alpha1.DeliveryStream) {
				mg.Spec.ForProvider.HTTPEndpointDestinationConfiguration.EndpointConfiguration.URL = aws.String("https://changed")
			},
			want: want{calls: []string{"DescribeDeliveryStream"}, declared: []string{"DescribeDeliveryStream", "ListTagsForDeliveryStream"},
				obs: managed.ExternalObservation{ResourceExists: true, ResourceUpToDate: true}, ready: xpv2.Deleting()},
		},
		"SeenReady": {
			reason: "Once seen Ready, every poll lists the tags, so that a change made on AWS is found.",
			status: types.DeliveryStreamStatusActive,
			object: func(mg *v1alpha1.DeliveryStream) { created(mg, 1); mg.SetConditions(xpv2.Available()) },
			onAWS:  map[string]string{"team": "a"},
			want: want{calls: []string{"DescribeDeliveryStream", "ListTagsForDeliveryStream"}, obs: managed.ExternalObservation{ResourceExists: true, ResourceUpToDate: true},
				ready: xpv2.Available()},
		},
		"SpecChangedWhileCreating": {
			reason: "A spec changed after the create may ask for other tags than the create sent, even once a reconcile synced it: they are listed.",
			status: types.DeliveryStreamStatusActive,
			object: func(mg *v1alpha1.DeliveryStream) {
				created(mg, 1)
				mg.SetGeneration(2)
				mg.SetConditions(xpv2.ReconcileSuccess().WithObservedGeneration(2))
				mg.Spec.ForProvider.Tags = []common.Tag{{Key: aws.String("team"), Value: aws.String("b")}}
			},
			onAWS: map[string]string{"team": "a"},
			want: want{calls: []string{"DescribeDeliveryStream", "ListTagsForDeliveryStream"},
				obs: managed.ExternalObservation{ResourceExists: true, Diff: tags.Path}, ready: xpv2.Available()},
		},
		"NotCreatedHere": {
			reason: "A stream this object did not create (adopted) may have any tags: they are listed.",
			status: types.DeliveryStreamStatusActive,
			onAWS:  map[string]string{"team": "a"},
			want: want{calls: []string{"DescribeDeliveryStream", "ListTagsForDeliveryStream"}, obs: managed.ExternalObservation{ResourceExists: true, ResourceUpToDate: true},
				ready: xpv2.Available()},
		},
		"BeingDeleted": {
			reason: "A stream being deleted is not compared: no tags are listed.",
			status: types.DeliveryStreamStatusActive,
			object: func(mg *v1alpha1.DeliveryStream) {
				now := metav1.Now()
				mg.SetDeletionTimestamp(&now)
				mg.SetFinalizers([]string{"finalizer.managedresource.crossplane.io"})
				mg.SetConditions(xpv2.Available())
			},
			want: want{calls: []string{"DescribeDeliveryStream"}, obs: managed.ExternalObservation{ResourceExists: true, ResourceUpToDate: true},
				ready: xpv2.Available()},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mg := newMR()
			mg.Spec.ForProvider.Tags = tag
			meta.AddAnnotations(mg, map[string]string{AnnotationAccessKeyFingerprint: fingerprintKey.Fingerprint("uid", []byte(key))})
			if tc.object != nil {
				tc.object(mg)
			}
			var calls []string
			api := &mockAPI{describe: func(*firehose.DescribeDeliveryStreamInput) (*firehose.DescribeDeliveryStreamOutput, error) {
				calls = append(calls, "DescribeDeliveryStream")
				out := stream(tc.status)
				out.DeliveryStreamDescription.FailureDescription = nil
				return out, nil
			}}
			if tc.onAWS != nil {
				api.listTags = func(*firehose.ListTagsForDeliveryStreamInput) (*firehose.ListTagsForDeliveryStreamOutput, error) {
					calls = append(calls, "ListTagsForDeliveryStream")
					return &firehose.ListTagsForDeliveryStreamOutput{Tags: fh.TagsToAdd(tc.onAWS)}, nil
				}
			}
			e := newExternal(t, api, mg)
			var declared []string
			for _, op := range observeCalls(mg, e.session) {
				declared = append(declared, op.Name)
			}
			obs, err := e.Observe(context.Background(), mg)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want.calls, calls); diff != "" {
				t.Errorf("%s\ncalls made: -want, +got:\n%s", tc.reason, diff)
			}
			wantDeclared := tc.want.declared
			if wantDeclared == nil {
				wantDeclared = calls
			}
			if diff := cmp.Diff(wantDeclared, declared); diff != "" {
				t.Errorf("%s\ncalls declared (observeCalls): -want, +got:\n%s", tc.reason, diff)
			}
			// TestObserve checks the connection details.
			if diff := cmp.Diff(tc.want.obs, obs, cmpopts.IgnoreFields(managed.ExternalObservation{}, "ConnectionDetails")); diff != "" {
				t.Errorf("%s\nobservation: -want, +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want.ready, mg.GetCondition(xpv2.TypeReady), test.EquateConditions()); diff != "" {
				t.Errorf("%s\nReady: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
