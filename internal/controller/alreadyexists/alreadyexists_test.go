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

package alreadyexists

import (
	"context"
	"errors"
	"testing"

	"github.com/aws/smithy-go"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource/fake"
	"github.com/google/go-cmp/cmp"
)

var stream = Kind{Noun: "delivery stream", NameField: "spec.forProvider.deliveryStreamName", Codes: []string{"ResourceInUseException: already exists"}}

func TestCreate(t *testing.T) {
	inUse := &smithy.GenericAPIError{Code: "ResourceInUseException", Message: "Firehose orders under accountId 000000000000 already exists"}
	busy := &smithy.GenericAPIError{Code: "ResourceInUseException", Message: "Firehose orders under account 000000000000 is in CREATING state."}
	type want struct {
		creation managed.ExternalCreation
		err      string
		observed int
	}
	cases := map[string]struct {
		create  error
		observe managed.ExternalObservation
		obsErr  error
		want    want
	}{
		"Created": {want: want{}},
		"AnotherErrorIsReturnedAsItIs": {create: busy,
			want: want{err: busy.Error()}},
		"TheResourceThisObjectDescribesIsTakenAsCreated": {create: inUse,
			observe: managed.ExternalObservation{ResourceExists: true, ResourceUpToDate: true, ConnectionDetails: managed.ConnectionDetails{"url": []byte("u")}},
			want:    want{creation: managed.ExternalCreation{ConnectionDetails: managed.ConnectionDetails{"url": []byte("u")}}, observed: 1}},
		"OneThatDiffersIsReportedWithWhatHappensNext": {create: inUse,
			observe: managed.ExternalObservation{ResourceExists: true, Diff: "tags"},
			want: want{observed: 1, err: `delivery stream "orders" (spec.forProvider.deliveryStreamName) already exists in AWS and differs from this spec in: tags; ` +
				`this object adopts it, as its annotation crossplane.io/external-name="orders" says, and the next reconcile updates it to the spec`}},
		"OneAWSDoesNotShowYetIsLookedAtAgain": {create: inUse,
			want: want{observed: 1, err: `AWS says that delivery stream "orders" (spec.forProvider.deliveryStreamName) already exists but does not show it yet; it is looked at again shortly and taken as created once it shows`}},
		"OneThatCannotBeRead": {create: inUse, obsErr: errors.New("boom"),
			want: want{observed: 1, err: `AWS says that delivery stream "orders" (spec.forProvider.deliveryStreamName) already exists, but it cannot be read: boom`}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mg := &fake.ModernManaged{}
			meta.SetExternalName(mg, "orders")
			observed := 0
			c := Wrap[resource.Managed](managed.ExternalClientFns{
				CreateFn: func(context.Context, resource.Managed) (managed.ExternalCreation, error) {
					return managed.ExternalCreation{}, tc.create
				},
				ObserveFn: func(_ context.Context, probe resource.Managed) (managed.ExternalObservation, error) {
					observed++
					meta.SetExternalName(probe, "changed by observe")
					return tc.observe, tc.obsErr
				},
			}, stream)
			creation, err := c.Create(context.Background(), mg)
			got := want{creation: creation, observed: observed}
			if err != nil {
				got.err = err.Error()
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("-want, +got:\n%s", diff)
			}
			if n := meta.GetExternalName(mg); n != "orders" {
				t.Errorf("Observe of the probe changed the managed resource: external name %q", n)
			}
		})
	}
}
