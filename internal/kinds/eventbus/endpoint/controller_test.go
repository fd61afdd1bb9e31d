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

package endpoint

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/test"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/cloudkinds/provider-aws-services/apis/eventbus/v1alpha1"
	eb "github.com/cloudkinds/provider-aws-services/internal/aws/eventbridge"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/conditions"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/connect"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/awsconfig"
)

type fakeEventBridge struct {
	eb.API
	out     *eventbridge.DescribeEndpointOutput
	deletes int
}

func (f *fakeEventBridge) DescribeEndpoint(context.Context, *eventbridge.DescribeEndpointInput, ...func(*eventbridge.Options)) (*eventbridge.DescribeEndpointOutput, error) {
	return f.out, nil
}

func (f *fakeEventBridge) UpdateEndpoint(context.Context, *eventbridge.UpdateEndpointInput, ...func(*eventbridge.Options)) (*eventbridge.UpdateEndpointOutput, error) {
	return &eventbridge.UpdateEndpointOutput{}, nil
}

func (f *fakeEventBridge) DeleteEndpoint(context.Context, *eventbridge.DeleteEndpointInput, ...func(*eventbridge.Options)) (*eventbridge.DeleteEndpointOutput, error) {
	f.deletes++
	return &eventbridge.DeleteEndpointOutput{}, nil
}

func endpointMR() *v1alpha1.Endpoint {
	mg := &v1alpha1.Endpoint{}
	meta.SetExternalName(mg, "e")
	mg.Spec.ForProvider = v1alpha1.EndpointParameters{Name: "e", RoleARN: aws.String("arn:aws:iam::000000000000:role/r"),
		EventBuses:    []v1alpha1.EndpointEventBus{{EventBusARN: "arn:aws:events:us-east-1:000000000000:event-bus/b"}, {EventBusARN: "arn:aws:events:us-west-2:000000000000:event-bus/b"}},
		RoutingConfig: &v1alpha1.RoutingConfig{FailoverConfig: &v1alpha1.FailoverConfig{Primary: &v1alpha1.Primary{HealthCheck: aws.String("hc")}, Secondary: &v1alpha1.Secondary{Route: aws.String("us-west-2")}}}}
	return mg
}

func described(state types.EndpointState, description string) *eventbridge.DescribeEndpointOutput {
	return &eventbridge.DescribeEndpointOutput{
		Name: aws.String("e"), Arn: aws.String("arn:aws:events:us-east-1:000000000000:endpoint/e"), State: state, Description: aws.String(description),
		StateReason: aws.String("the health check does not exist"), RoleArn: aws.String("arn:aws:iam::000000000000:role/r"),
		EventBuses:        []types.EndpointEventBus{{EventBusArn: aws.String("arn:aws:events:us-east-1:000000000000:event-bus/b")}, {EventBusArn: aws.String("arn:aws:events:us-west-2:000000000000:event-bus/b")}},
		RoutingConfig:     &types.RoutingConfig{FailoverConfig: &types.FailoverConfig{Primary: &types.Primary{HealthCheck: aws.String("hc")}, Secondary: &types.Secondary{Route: aws.String("us-west-2")}}},
		ReplicationConfig: &types.ReplicationConfig{State: types.ReplicationStateEnabled},
		EndpointUrl:       aws.String("https://x.endpoint.events.amazonaws.com"), EndpointId: aws.String("x"),
	}
}

func TestObserveStates(t *testing.T) {
	cases := map[string]struct {
		out         *eventbridge.DescribeEndpointOutput
		description *string
		deleted     bool
		upToDate    bool
		ready       xpv2.Condition
	}{
		"DeleteFailedSaysTheWayOut": {out: described(types.EndpointStateDeleteFailed, "old"), deleted: true, upToDate: true,
			ready: conditions.Failed("DELETE_FAILED: the health check does not exist; the deletion is asked again: " + connect.WayOut)},
		"Creating":             {out: described(types.EndpointStateCreating, ""), upToDate: true, ready: xpv2.Creating()},
		"Updating":             {out: described(types.EndpointStateUpdating, ""), upToDate: true, ready: conditions.Updating()},
		"ActiveWithNewSpec":    {out: described(types.EndpointStateActive, "old"), description: aws.String("new"), upToDate: false, ready: xpv2.Available()},
		"UpdateFailedNoRetry":  {out: described(types.EndpointStateUpdateFailed, "new"), description: aws.String("new"), upToDate: true, ready: conditions.Failed("UPDATE_FAILED: the health check does not exist")},
		"CreateFailedNoUpdate": {out: described(types.EndpointStateCreateFailed, "old"), description: aws.String("new"), upToDate: true, ready: conditions.Failed("CREATE_FAILED: the health check does not exist")},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mg := endpointMR()
			mg.Spec.ForProvider.Description = tc.description
			if tc.deleted {
				mg.SetDeletionTimestamp(&metav1.Time{Time: time.Now()})
			}
			e := &external{client: &fakeEventBridge{out: tc.out}, session: &awsconfig.Session{AccountID: "000000000000", Partition: "aws", Region: "us-east-1"}}
			obs, err := e.Observe(context.Background(), mg)
			if err != nil {
				t.Fatal(err)
			}
			if obs.ResourceUpToDate != tc.upToDate || string(obs.ConnectionDetails["endpointURL"]) != "https://x.endpoint.events.amazonaws.com" {
				t.Errorf("upToDate %v, connection details %v", obs.ResourceUpToDate, obs.ConnectionDetails)
			}
			if diff := cmp.Diff(tc.ready, mg.GetCondition(xpv2.TypeReady), test.EquateConditions()); diff != "" {
				t.Errorf("Ready: -want, +got:\n%s", diff)
			}
		})
	}
}

// TestUpdatePublishesWhatObserveRead: the update that follows an Observe
// publishes the details that Observe read, not none, so that the connection
// Secret is not written again to say nothing new.
func TestUpdatePublishesWhatObserveRead(t *testing.T) {
	mg := endpointMR()
	mg.Spec.ForProvider.Description = aws.String("new")
	e := &external{client: &fakeEventBridge{out: described(types.EndpointStateActive, "old")}, session: &awsconfig.Session{AccountID: "000000000000", Partition: "aws", Region: "us-east-1"}}
	obs, err := e.Observe(context.Background(), mg)
	if err != nil || obs.ResourceUpToDate {
		t.Fatalf("observe: %+v, %v", obs, err)
	}
	upd, err := e.Update(context.Background(), mg)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(obs.ConnectionDetails, upd.ConnectionDetails); diff != "" || len(upd.ConnectionDetails) != 4 {
		t.Errorf("update's details: -observed, +updated:\n%s", diff)
	}
	if got := aws.ToString(mg.Status.AtProvider.EndpointURL); got != "https://x.endpoint.events.amazonaws.com" {
		t.Errorf("status.atProvider.endpointURL is %q", got)
	}
}

func TestDeleteSkipsAnEndpointBeingDeleted(t *testing.T) {
	mg := endpointMR()
	mg.Status.AtProvider.State = aws.String("DELETING")
	f := &fakeEventBridge{}
	e := &external{client: f}
	if _, err := e.Delete(context.Background(), mg); err != nil || f.deletes != 0 {
		t.Errorf("deletes %d, err %v", f.deletes, err)
	}
	mg.Status.AtProvider.State = aws.String("DELETE_FAILED")
	failed := conditions.Failed("DELETE_FAILED: why; the deletion is asked again: " + connect.WayOut)
	mg.SetConditions(failed)
	if _, err := e.Delete(context.Background(), mg); err != nil || f.deletes != 1 {
		t.Errorf("a failed deletion was not retried: deletes %d, err %v", f.deletes, err)
	}
	if diff := cmp.Diff(failed, mg.GetCondition(xpv2.TypeReady), test.EquateConditions()); diff != "" {
		t.Errorf("the failure and its way out are not kept while the deletion is asked again: -want, +got:\n%s", diff)
	}
}
