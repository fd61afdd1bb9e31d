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

package initprovider

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/google/go-cmp/cmp"

	agentcore "github.com/cloudkinds/provider-aws-services/apis/agentcorecontrol/v1alpha1"
	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	eventbus "github.com/cloudkinds/provider-aws-services/apis/eventbus/v1alpha1"
	mlplatform "github.com/cloudkinds/provider-aws-services/apis/mlplatform/v1alpha1"
	notification "github.com/cloudkinds/provider-aws-services/apis/notification/v1alpha1"
	streaming "github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
)

func tag(k, v string) common.Tag { return common.Tag{Key: aws.String(k), Value: aws.String(v)} }

func TestMergeDeliveryStream(t *testing.T) {
	type args struct {
		forProvider *streaming.DeliveryStreamParameters
		init        *streaming.DeliveryStreamInitParameters
	}
	hints := func(size, interval int64) *streaming.BufferingHints {
		return &streaming.BufferingHints{SizeInMBs: aws.Int64(size), IntervalInSeconds: aws.Int64(interval)}
	}
	dest := func(fn func(d *streaming.HTTPEndpointDestinationConfiguration)) *streaming.DeliveryStreamParameters {
		p := &streaming.DeliveryStreamParameters{DeliveryStreamName: "s", HTTPEndpointDestinationConfiguration: &streaming.HTTPEndpointDestinationConfiguration{
			EndpointConfiguration: &streaming.HTTPEndpointConfiguration{URL: aws.String("https://e")},
			StoreConfiguration:    &streaming.StoreConfiguration{BucketARN: aws.String("arn:aws:s3:::b")},
		}}
		if fn != nil {
			fn(p.HTTPEndpointDestinationConfiguration)
		}
		return p
	}
	cases := map[string]struct {
		reason string
		args   args
		want   *streaming.DeliveryStreamParameters
	}{
		"NoInitProvider": {
			reason: "Without initProvider the create sends forProvider as it is.",
			args:   args{forProvider: dest(nil)},
			want:   dest(nil),
		},
		"FieldNotInForProvider": {
			reason: "A member forProvider leaves out (nil) is taken from initProvider, also deep inside an object forProvider sets.",
			args: args{forProvider: dest(nil), init: &streaming.DeliveryStreamInitParameters{HTTPEndpointDestinationConfiguration: &streaming.HTTPEndpointDestinationConfigurationInitParameters{
				BufferingHints:     hints(5, 300),
				StoreConfiguration: &streaming.StoreConfigurationInitParameters{Prefix: aws.String("p/"), BucketARN: aws.String("arn:aws:s3:::other")},
				EndpointConfiguration: &streaming.HTTPEndpointConfigurationInitParameters{Name: aws.String("n"),
					AccessKey: &common.SecretKeyReference{Name: aws.String("s"), Key: "k"}},
			}}},
			want: dest(func(d *streaming.HTTPEndpointDestinationConfiguration) {
				d.BufferingHints = hints(5, 300)
				d.StoreConfiguration.Prefix = aws.String("p/")
				d.EndpointConfiguration.Name = aws.String("n")
				d.EndpointConfiguration.AccessKey = &common.SecretKeyReference{Name: aws.String("s"), Key: "k"}
			}),
		},
		"ForProviderWins": {
			reason: "A member set in both is taken from forProvider, whole: buffering hints are not mixed.",
			args: args{
				forProvider: dest(func(d *streaming.HTTPEndpointDestinationConfiguration) { d.BufferingHints = hints(1, 60) }),
				init: &streaming.DeliveryStreamInitParameters{HTTPEndpointDestinationConfiguration: &streaming.HTTPEndpointDestinationConfigurationInitParameters{
					BufferingHints: hints(5, 300),
				}},
			},
			want: dest(func(d *streaming.HTTPEndpointDestinationConfiguration) { d.BufferingHints = hints(1, 60) }),
		},
		"ListsWhole": {
			reason: "A list forProvider sets is taken whole; one it leaves out is initProvider's.",
			args: args{
				forProvider: dest(func(d *streaming.HTTPEndpointDestinationConfiguration) {
					d.RequestConfiguration = &streaming.RequestConfiguration{CommonAttributes: []streaming.CommonAttribute{{AttributeName: "a", AttributeValue: "1"}}}
				}),
				init: &streaming.DeliveryStreamInitParameters{HTTPEndpointDestinationConfiguration: &streaming.HTTPEndpointDestinationConfigurationInitParameters{
					RequestConfiguration:    &streaming.RequestConfiguration{CommonAttributes: []streaming.CommonAttribute{{AttributeName: "b", AttributeValue: "2"}}, ContentEncoding: aws.String("GZIP")},
					ProcessingConfiguration: &streaming.ProcessingConfiguration{Processors: []streaming.Processor{{Type: "AppendDelimiterToRecord"}}},
				}},
			},
			want: dest(func(d *streaming.HTTPEndpointDestinationConfiguration) {
				d.RequestConfiguration = &streaming.RequestConfiguration{CommonAttributes: []streaming.CommonAttribute{{AttributeName: "a", AttributeValue: "1"}}, ContentEncoding: aws.String("GZIP")}
				d.ProcessingConfiguration = &streaming.ProcessingConfiguration{Processors: []streaming.Processor{{Type: "AppendDelimiterToRecord"}}}
			}),
		},
		"TagsByKey": {
			reason: "Tags merge by key: forProvider's value wins, initProvider adds its other keys.",
			args: args{
				forProvider: func() *streaming.DeliveryStreamParameters {
					p := dest(nil)
					p.Tags = []common.Tag{tag("team", "a")}
					return p
				}(),
				init: &streaming.DeliveryStreamInitParameters{Tags: []common.Tag{tag("team", "b"), tag("cost", "1"), {Value: aws.String("keyless")}}},
			},
			want: func() *streaming.DeliveryStreamParameters {
				p := dest(nil)
				p.Tags = []common.Tag{tag("team", "a"), tag("cost", "1")}
				return p
			}(),
		},
		"EmptyListIsSet": {
			reason: "An empty, non-nil list in forProvider is set: initProvider's is not taken.",
			args: args{
				forProvider: dest(func(d *streaming.HTTPEndpointDestinationConfiguration) {
					d.ProcessingConfiguration = &streaming.ProcessingConfiguration{Processors: []streaming.Processor{}}
				}),
				init: &streaming.DeliveryStreamInitParameters{HTTPEndpointDestinationConfiguration: &streaming.HTTPEndpointDestinationConfigurationInitParameters{
					ProcessingConfiguration: &streaming.ProcessingConfiguration{Processors: []streaming.Processor{{Type: "AppendDelimiterToRecord"}}},
				}},
			},
			want: dest(func(d *streaming.HTTPEndpointDestinationConfiguration) {
				d.ProcessingConfiguration = &streaming.ProcessingConfiguration{Processors: []streaming.Processor{}}
			}),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			before := tc.args.forProvider.DeepCopy()
			got := Merge(tc.args.forProvider, tc.args.init)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nMerge(...): -want, +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(before, tc.args.forProvider); diff != "" {
				t.Errorf("Merge changed forProvider: -before, +after:\n%s", diff)
			}
		})
	}
}

func TestMergeMapsAndScalars(t *testing.T) {
	cases := map[string]struct {
		reason      string
		forProvider *agentcore.APIKeyCredentialProviderParameters
		init        *agentcore.APIKeyCredentialProviderInitParameters
		want        map[string]string
	}{
		"NilMap":  {reason: "A map forProvider leaves out is initProvider's.", forProvider: &agentcore.APIKeyCredentialProviderParameters{}, init: &agentcore.APIKeyCredentialProviderInitParameters{Tags: map[string]string{"a": "1"}}, want: map[string]string{"a": "1"}},
		"ByKey":   {reason: "Maps merge by key, forProvider's value winning.", forProvider: &agentcore.APIKeyCredentialProviderParameters{Tags: map[string]string{"a": "1"}}, init: &agentcore.APIKeyCredentialProviderInitParameters{Tags: map[string]string{"a": "2", "b": "3"}}, want: map[string]string{"a": "1", "b": "3"}},
		"NilInit": {reason: "A nil initProvider changes nothing.", forProvider: &agentcore.APIKeyCredentialProviderParameters{Tags: map[string]string{"a": "1"}}, want: map[string]string{"a": "1"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := Merge(tc.forProvider, tc.init)
			if diff := cmp.Diff(tc.want, got.Tags); diff != "" {
				t.Errorf("%s\nMerge(...).Tags: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}

	sub := Merge(&notification.SubscriptionParameters{Protocol: "https", FilterPolicy: aws.String(`{"a":[1]}`)},
		&notification.SubscriptionInitParameters{FilterPolicy: aws.String(`{"b":[2]}`), RawMessageDelivery: aws.String("true")})
	if aws.ToString(sub.FilterPolicy) != `{"a":[1]}` || aws.ToString(sub.RawMessageDelivery) != "true" || sub.Protocol != "https" {
		t.Errorf("Subscription: forProvider's filterPolicy and initProvider's rawMessageDelivery wanted, got %+v", sub)
	}
	ep := Merge(&eventbus.EndpointParameters{Name: "e", ReplicationConfig: &eventbus.ReplicationConfig{}},
		&eventbus.EndpointInitParameters{ReplicationConfig: &eventbus.ReplicationConfig{State: aws.String("DISABLED")}, Description: aws.String("d")})
	if aws.ToString(ep.ReplicationConfig.State) != "DISABLED" || aws.ToString(ep.Description) != "d" {
		t.Errorf("Endpoint: initProvider's replication state inside forProvider's empty replicationConfig, and its description, wanted; got %+v", ep)
	}
}

// TestEveryInitFieldReachesTheCreate fills every member of each kind's
// initProvider type and merges it into an empty forProvider: every member
// must arrive under the same JSON path, so that no initProvider field is
// silently dropped (or the merge panics on a field forProvider lacks).
func TestEveryInitFieldReachesTheCreate(t *testing.T) {
	cases := map[string]struct {
		init  any
		merge func(init any) any
	}{
		"APIKeyCredentialProvider": {init: &agentcore.APIKeyCredentialProviderInitParameters{}, merge: func(i any) any {
			return Merge(&agentcore.APIKeyCredentialProviderParameters{}, i)
		}},
		"EndpointConfig": {init: &mlplatform.EndpointConfigInitParameters{}, merge: func(i any) any {
			return Merge(&mlplatform.EndpointConfigParameters{}, i)
		}},
		"Subscription": {init: &notification.SubscriptionInitParameters{}, merge: func(i any) any {
			return Merge(&notification.SubscriptionParameters{}, i)
		}},
		"DeliveryStream": {init: &streaming.DeliveryStreamInitParameters{}, merge: func(i any) any {
			return Merge(&streaming.DeliveryStreamParameters{}, i)
		}},
		"Endpoint": {init: &eventbus.EndpointInitParameters{}, merge: func(i any) any {
			return Merge(&eventbus.EndpointParameters{}, i)
		}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			fill(reflect.ValueOf(tc.init).Elem())
			want := asMap(t, tc.init)
			got := asMap(t, tc.merge(tc.init))
			for k := range got {
				if _, ok := want[k]; !ok {
					delete(got, k) // forProvider's required members, empty
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("the merged forProvider lacks initProvider's members: -initProvider, +merged:\n%s", diff)
			}
		})
	}
}

// fill sets every member of v to a value that is not zero.
func fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem())
	case reflect.Struct:
		for i := range v.NumField() {
			fill(v.Field(i))
		}
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(v.Index(0))
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(k)
		fill(e)
		v.SetMapIndex(k, e)
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int32, reflect.Int64:
		v.SetInt(1)
	case reflect.Float64:
		v.SetFloat(1)
	default:
		panic("fill: unexpected kind " + v.Kind().String())
	}
}

func asMap(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]any{}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
