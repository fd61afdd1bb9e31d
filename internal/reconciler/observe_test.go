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

package reconciler

import (
	"context"
	"errors"
	"testing"

	"github.com/aws/smithy-go"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/google/go-cmp/cmp"

	"github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/connect"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/relook"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/ownership"
)

// deleting is a kind's client whose Delete answers err.
type deleting struct {
	ownership.ExternalClient[*v1alpha1.DeliveryStream]
	err error
}

func (d deleting) Delete(context.Context, *v1alpha1.DeliveryStream) (managed.ExternalDelete, error) {
	return managed.ExternalDelete{}, d.err
}

func TestObserveStepDelete(t *testing.T) {
	denied := &smithy.GenericAPIError{Code: "AccessDeniedException", Message: "not authorized"}
	revoked := &smithy.GenericAPIError{Code: "InvalidClientTokenId", Message: "The security token included in the request is invalid."}
	invalid := &smithy.GenericAPIError{Code: "ValidationException", Message: "bad"}
	throttled := &smithy.GenericAPIError{Code: "ThrottlingException", Message: "Rate exceeded"}
	cases := map[string]struct {
		reason string
		err    error
		want   string
	}{
		"Deleted":   {reason: "A deletion AWS did says nothing.", err: nil, want: ""},
		"Denied":    {reason: "A deletion AWS denies says how to let the object go.", err: denied, want: connect.WayOut + ": " + denied.Error()},
		"Revoked":   {reason: "Credentials AWS no longer knows are a denial too.", err: revoked, want: connect.WayOut + ": " + revoked.Error()},
		"Refused":   {reason: "A deletion AWS refuses for its input says how to let the object go.", err: invalid, want: connect.WayOut + ": " + invalid.Error()},
		"Throttled": {reason: "A throttled deletion is tried again, with no advice.", err: throttled, want: throttled.Error()},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			o := &observeStep[*v1alpha1.DeliveryStream]{TypedExternalClient: deleting{err: tc.err}}
			_, err := o.Delete(context.Background(), &v1alpha1.DeliveryStream{})
			got := ""
			if err != nil {
				got = err.Error()
				if !errors.Is(err, tc.err) {
					t.Errorf("the advice hides AWS's error: %v", err)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n-want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestFinding(t *testing.T) {
	cases := map[string]struct {
		ready xpv2.Condition
		want  relook.Finding
	}{
		"Creating":  {ready: xpv2.Creating(), want: relook.StillCreating},
		"Available": {ready: xpv2.Available(), want: relook.Created},
		"Failed":    {ready: xpv2.Unavailable(), want: relook.Other},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mg := &v1alpha1.DeliveryStream{}
			mg.SetConditions(tc.ready)
			if diff := cmp.Diff(tc.want, finding(mg)); diff != "" {
				t.Errorf("-want, +got:\n%s", diff)
			}
		})
	}
}
