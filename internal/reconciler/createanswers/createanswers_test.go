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

package createanswers

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/apis/mlplatform/v1alpha1"
)

func TestAnswers(t *testing.T) {
	const arn = "arn:aws:sagemaker:us-east-1:111122223333:endpoint-config/orders"
	created := func() *v1alpha1.EndpointConfig {
		mg := &v1alpha1.EndpointConfig{ObjectMeta: metav1.ObjectMeta{UID: "u1", Generation: 1}}
		mg.Status.AtProvider.ACKResourceMetadata = &common.ResourceMetadata{ARN: aws.String(arn)}
		return mg
	}
	// What the next reconcile reads: the object as crossplane-runtime
	// recorded it, without the status the create set.
	next := func(change func(*v1alpha1.EndpointConfig)) *v1alpha1.EndpointConfig {
		mg := &v1alpha1.EndpointConfig{ObjectMeta: metav1.ObjectMeta{UID: "u1", Generation: 1}}
		meta.SetExternalCreateSucceeded(mg, time.Now())
		if change != nil {
			change(mg)
		}
		return mg
	}
	details := managed.ConnectionDetails{"arn": []byte(arn)}
	cases := map[string]struct {
		reason string
		then   *v1alpha1.EndpointConfig
		want   bool
	}{
		"LookAfterTheCreate": {
			reason: "The Observe after the create takes the status the create's answer showed.",
			then:   next(nil),
			want:   true,
		},
		"SpecChangedSince": {
			reason: "A spec changed since the create is observed in AWS.",
			then:   next(func(mg *v1alpha1.EndpointConfig) { mg.Generation = 2 }),
		},
		"CreateNotRecorded": {
			reason: "A create crossplane-runtime did not record is observed in AWS.",
			then: next(func(mg *v1alpha1.EndpointConfig) {
				meta.RemoveAnnotations(mg, meta.AnnotationKeyExternalCreateSucceeded)
			}),
		},
		"Deleted": {
			reason: "A resource being deleted is observed in AWS.",
			then: next(func(mg *v1alpha1.EndpointConfig) {
				now := metav1.Now()
				mg.SetDeletionTimestamp(&now)
			}),
		},
		"AnotherObject": {
			reason: "Another object is observed in AWS.",
			then:   next(func(mg *v1alpha1.EndpointConfig) { mg.UID = "u2" }),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			a := New()
			a.Remember(created(), details)
			got, ok := a.Restore(tc.then)
			if ok != tc.want {
				t.Fatalf("%s\ntake: got %v, want %v", tc.reason, ok, tc.want)
			}
			if !ok {
				return
			}
			if diff := cmp.Diff(details, got); diff != "" {
				t.Errorf("%s\nconnection details: -want, +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(created().Status.AtProvider, tc.then.Status.AtProvider); diff != "" {
				t.Errorf("%s\nstatus.atProvider: -want, +got:\n%s", tc.reason, diff)
			}
			if _, again := a.Restore(next(nil)); again {
				t.Errorf("%s\nwhat the create answered served twice", tc.reason)
			}
		})
	}
}
