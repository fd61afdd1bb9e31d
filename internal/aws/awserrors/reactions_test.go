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

package awserrors_test

import (
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"
	"github.com/google/go-cmp/cmp"

	"github.com/cloudkinds/provider-aws-services/internal/aws/agentcore"
	"github.com/cloudkinds/provider-aws-services/internal/aws/awserrors"
	"github.com/cloudkinds/provider-aws-services/internal/aws/eventbridge"
	"github.com/cloudkinds/provider-aws-services/internal/aws/firehose"
	"github.com/cloudkinds/provider-aws-services/internal/aws/sagemaker"
	"github.com/cloudkinds/provider-aws-services/internal/aws/sns"
)

// answerOf is AWS's answer to one call of operation ("ServiceID:Operation"),
// as the SDK returns it.
func answerOf(operation string, e awserrors.ModeledError, message string) error {
	service, name, _ := strings.Cut(operation, ":")
	return &smithy.OperationError{ServiceID: service, OperationName: name, Err: &smithyhttp.ResponseError{
		Response: &smithyhttp.Response{Response: &http.Response{StatusCode: e.Status}},
		Err:      &smithy.GenericAPIError{Code: e.Code, Message: message},
	}}
}

// TestEveryModeledErrorHasOneReaction: each error AWS's model lists for an
// operation the provider calls is declared a class, by the operation's rules
// or the classes every service shares, and so one reaction; none is left to
// the fallback by HTTP status.
func TestEveryModeledErrorHasOneReaction(t *testing.T) {
	var missing []string
	for op, errs := range awserrors.Modeled {
		for _, e := range errs {
			if !awserrors.Declared(op, e.Code, "") {
				missing = append(missing, op+" "+e.Code)
			}
			if awserrors.React(answerOf(op, e, "")) == 0 {
				missing = append(missing, op+" "+e.Code+" (no reaction)")
			}
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("modeled errors with no declared class: %v", missing)
	}
}

// TestModeledCoversEveryCall: Modeled, generated from the clients' API
// interfaces, lists every operation the provider calls (make generate
// writes it anew when one is added).
func TestModeledCoversEveryCall(t *testing.T) {
	apis := map[string]reflect.Type{
		"Firehose":                  reflect.TypeFor[firehose.API](),
		"SNS":                       reflect.TypeFor[sns.API](),
		"SageMaker":                 reflect.TypeFor[sagemaker.API](),
		"EventBridge":               reflect.TypeFor[eventbridge.API](),
		"Bedrock AgentCore Control": reflect.TypeFor[agentcore.API](),
	}
	var called, modeled []string
	for service, api := range apis {
		for i := range api.NumMethod() {
			called = append(called, service+":"+api.Method(i).Name)
		}
	}
	called = append(called, "STS:AssumeRole", "STS:AssumeRoleWithWebIdentity", "STS:GetCallerIdentity")
	for op := range awserrors.Modeled {
		modeled = append(modeled, op)
	}
	slices.Sort(called)
	slices.Sort(modeled)
	if diff := cmp.Diff(called, modeled); diff != "" {
		t.Errorf("operations called (-) against those Modeled lists (+), run make generate:\n%s", diff)
	}
}

// TestReactions: what one answer means depends on the operation it answers.
func TestReactions(t *testing.T) {
	cases := map[string]struct {
		op      string
		code    string
		status  int
		message string
		want    awserrors.Reaction
	}{
		"StreamNameTaken":     {op: "Firehose:CreateDeliveryStream", code: "ResourceInUseException", status: 400, message: "Firehose orders under account 000000000000 already exists.", want: awserrors.NameTaken},
		"StreamInUseAtCreate": {op: "Firehose:CreateDeliveryStream", code: "ResourceInUseException", status: 400, message: "Firehose orders is being deleted.", want: awserrors.Backoff},
		"TopicMissing":        {op: "SNS:Subscribe", code: "NotFound", status: 404, message: "Topic does not exist", want: awserrors.Refuse},
		"SubscriptionMissing": {op: "SNS:GetSubscriptionAttributes", code: "NotFound", status: 404, want: awserrors.Gone},
		"StreamBusy":          {op: "Firehose:DeleteDeliveryStream", code: "ResourceInUseException", status: 400, want: awserrors.Backoff},
		"StreamRate":          {op: "Firehose:DescribeDeliveryStream", code: "LimitExceededException", status: 400, message: "Rate exceeded for operation.", want: awserrors.Backoff},
		"StreamQuota":         {op: "Firehose:CreateDeliveryStream", code: "LimitExceededException", status: 400, message: "You have reached the limit", want: awserrors.Refuse},
		"ConfigMissing":       {op: "SageMaker:DescribeEndpointConfig", code: "ValidationException", status: 400, message: "Could not find endpoint configuration \"c\".", want: awserrors.Gone},
		"ConfigInvalid":       {op: "SageMaker:CreateEndpointConfig", code: "ValidationException", status: 400, message: "Model m does not exist", want: awserrors.Refuse},
		"ConfigExists":        {op: "SageMaker:CreateEndpointConfig", code: "ValidationException", status: 400, message: "Cannot create already existing endpoint configuration", want: awserrors.NameTaken},
		"KeyProviderConflict": {op: "Bedrock AgentCore Control:CreateApiKeyCredentialProvider", code: "ConflictException", status: 409, message: "Credential provider search already exists", want: awserrors.NameTaken},
		"KeyProviderBusy":     {op: "Bedrock AgentCore Control:CreateApiKeyCredentialProvider", code: "ConflictException", status: 409, message: "Another operation is in progress", want: awserrors.Backoff},
		"KeyProviderChanging": {op: "Bedrock AgentCore Control:UpdateApiKeyCredentialProvider", code: "ConflictException", status: 409, want: awserrors.Backoff},
		"SubscriptionQuota":   {op: "SNS:Subscribe", code: "SubscriptionLimitExceeded", status: 403, want: awserrors.Refuse},
		"SNSFailing":          {op: "SNS:Subscribe", code: "InternalError", status: 500, want: awserrors.Backoff},
		"UnknownClientError":  {op: "EventBridge:CreateEndpoint", code: "SomethingNew", status: 400, want: awserrors.Refuse},
		"UnknownServerError":  {op: "EventBridge:CreateEndpoint", code: "SomethingNew", status: 503, want: awserrors.Backoff},
		"UnknownThrottle":     {op: "EventBridge:CreateEndpoint", code: "SlowDown", status: 429, want: awserrors.Backoff},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			err := answerOf(tc.op, awserrors.ModeledError{Code: tc.code, Status: tc.status}, tc.message)
			if diff := cmp.Diff(tc.want.String(), awserrors.React(err).String()); diff != "" {
				t.Errorf("%s: -want, +got:\n%s", fmt.Sprint(tc.op, " ", tc.code), diff)
			}
		})
	}
}
