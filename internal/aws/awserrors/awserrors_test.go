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

package awserrors

import (
	"errors"
	"net/http"
	"testing"

	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"
	"github.com/google/go-cmp/cmp"
)

func apiErr(code, msg string) error {
	return &smithy.GenericAPIError{Code: code, Message: msg}
}

func TestClassify(t *testing.T) {
	cases := map[string]struct {
		err  error
		want Class
	}{
		"Nil":             {err: nil, want: Other},
		"NotAnAPIError":   {err: errors.New("connection refused"), want: Other},
		"FirehoseMissing": {err: apiErr("ResourceNotFoundException", "Firehose s not found"), want: NotFound},
		"SNSMissing":      {err: apiErr("NotFound", "Subscription does not exist"), want: NotFound},
		"Throttled":       {err: apiErr("ThrottlingException", "Rate exceeded"), want: Throttled},
		"FirehoseRate":    {err: apiErr("LimitExceededException", "Rate exceeded for operation."), want: Throttled},
		"FirehoseTags":    {err: apiErr("LimitExceededException", "Firehose s would have 51 tags; at most 50 are allowed."), want: Quota},
		"Validation":      {err: apiErr("ValidationException", "bad"), want: Terminal},
		"SNSInvalid":      {err: apiErr("InvalidParameter", "Invalid parameter"), want: Terminal},
		"Denied":          {err: apiErr("AccessDeniedException", "not authorized"), want: AccessDenied},
		"UnknownKey":      {err: apiErr("InvalidClientTokenId", "The security token included in the request is invalid."), want: AccessDenied},
		"ExpiredKey":      {err: apiErr("ExpiredToken", "The security token included in the request is expired"), want: AccessDenied},
		"Exists":          {err: apiErr("ResourceAlreadyExistsException", "Endpoint e already exists."), want: AlreadyExists},
		"ServerError":     {err: apiErr("InternalFailure", "oops"), want: Unavailable},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Classify(tc.err)); diff != "" {
				t.Errorf("-want, +got:\n%s", diff)
			}
		})
	}
}

func TestIsNotFound(t *testing.T) {
	sageMaker := "ValidationException: Could not find endpoint configuration"
	cases := map[string]struct {
		err   error
		extra []string
		want  bool
	}{
		"Code":             {err: apiErr("ResourceNotFoundException", "x"), want: true},
		"SageMakerWording": {err: apiErr("ValidationException", `Could not find endpoint configuration "arn:..."`), extra: []string{sageMaker}, want: true},
		"OtherValidation":  {err: apiErr("ValidationException", "Could not find model"), extra: []string{sageMaker}, want: false},
		"Wrapped":          {err: errors.Join(errors.New("ctx"), apiErr("NotFound", "x")), want: true},
		"Plain":            {err: errors.New("not found"), want: false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := IsNotFound(tc.err, tc.extra...); got != tc.want {
				t.Errorf("want %v, got %v", tc.want, got)
			}
		})
	}
}

func TestIsAlreadyExists(t *testing.T) {
	firehose := "ResourceInUseException: already exists"
	cases := map[string]struct {
		err   error
		extra []string
		want  bool
	}{
		"Code":           {err: apiErr("ResourceAlreadyExistsException", "Endpoint e already exists."), want: true},
		"FirehoseWords":  {err: apiErr("ResourceInUseException", "Firehose s under accountId 1 already exists"), extra: []string{firehose}, want: true},
		"FirehoseBusy":   {err: apiErr("ResourceInUseException", "Firehose s under account 1 is in CREATING state."), extra: []string{firehose}, want: false},
		"NotAnAPIError":  {err: errors.New("already exists"), extra: []string{firehose}, want: false},
		"OtherExisting":  {err: apiErr("ConflictException", "Credential provider with name k already exists."), want: false},
		"OtherWithWords": {err: apiErr("ConflictException", "Credential provider with name k already exists."), extra: []string{"ConflictException: already exists"}, want: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := IsAlreadyExists(tc.err, tc.extra...); got != tc.want {
				t.Errorf("want %v, got %v", tc.want, got)
			}
		})
	}
}

func TestWrap(t *testing.T) {
	cases := map[string]struct {
		err  error
		want string
	}{
		"Nil":     {err: nil, want: ""},
		"Denied":  {err: apiErr("AccessDeniedException", "User is not authorized to perform: firehose:TagDeliveryStream"), want: "cannot create delivery stream (AWS denied the call: grant the provider config's identity this permission; the call is retried with backoff): api error AccessDeniedException: User is not authorized to perform: firehose:TagDeliveryStream"},
		"Invalid": {err: apiErr("ValidationException", "bad name"), want: "cannot create delivery stream (AWS refuses this input: correct what it names, in the spec or in AWS; the call is retried with backoff): api error ValidationException: bad name"},
		"Other":   {err: errors.New("connection reset"), want: "cannot create delivery stream: connection reset"},
		"Quota":   {err: apiErr("LimitExceededException", "at most 50 tags"), want: "cannot create delivery stream (AWS refuses this: a limit is reached; ask for less in the spec or raise the quota; the call is retried with backoff): api error LimitExceededException: at most 50 tags"},
		"Exists":  {err: apiErr("ResourceAlreadyExistsException", "Endpoint e already exists."), want: "cannot create delivery stream: api error ResourceAlreadyExistsException: Endpoint e already exists."},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := ""
			if err := Wrap(tc.err, "cannot create delivery stream"); err != nil {
				got = err.Error()
			}
			if got != tc.want {
				t.Errorf("want %q, got %q", tc.want, got)
			}
		})
	}
}

// answer is an error AWS answered with the HTTP status code.
func answer(code int, apiCode string) error {
	return &smithy.OperationError{ServiceID: "EventBridge", OperationName: "CreateEndpoint", Err: &smithyhttp.ResponseError{
		Response: &smithyhttp.Response{Response: &http.Response{StatusCode: code}}, Err: apiErr(apiCode, "x"),
	}}
}

func TestAnswered(t *testing.T) {
	type want struct{ answered, serverFailed bool }
	cases := map[string]struct {
		reason string
		err    error
		want   want
	}{
		"Refused":     {reason: "AWS refused the call: it did nothing.", err: answer(http.StatusBadRequest, "ValidationException"), want: want{answered: true}},
		"Throttled":   {reason: "A throttled call did nothing.", err: answer(http.StatusTooManyRequests, "ThrottlingException"), want: want{answered: true}},
		"ServerError": {reason: "AWS can fail after the work is done.", err: answer(http.StatusInternalServerError, "InternalFailure"), want: want{serverFailed: true}},
		"Unavailable": {reason: "As can an unavailable service.", err: answer(http.StatusServiceUnavailable, "ServiceUnavailableException"), want: want{serverFailed: true}},
		"NoAnswer":    {reason: "A reset connection tells nothing.", err: errors.New("read: connection reset by peer")},
		"Nil":         {reason: "No error, no answer of one."},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := want{answered: Answered(tc.err), serverFailed: ServerFailed(tc.err)}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("%s\n-want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestRefusedForGood(t *testing.T) {
	type want struct{ transient, forGood bool }
	cases := map[string]struct {
		reason string
		err    error
		want   want
	}{
		"Invalid":      {reason: "Invalid input stays invalid until the spec changes.", err: answer(http.StatusBadRequest, "ValidationException"), want: want{forGood: true}},
		"Denied":       {reason: "A denied create stays denied until the policy changes.", err: answer(http.StatusForbidden, "AccessDeniedException"), want: want{forGood: true}},
		"CountQuota":   {reason: "A count quota reached stays reached until something goes.", err: answer(http.StatusBadRequest, "ResourceLimitExceededException"), want: want{forGood: true}},
		"OtherRefusal": {reason: "Any other 4xx is a refusal of this input.", err: answer(http.StatusBadRequest, "InvalidRequestException"), want: want{forGood: true}},
		"Throttled":    {reason: "Throttling heals by itself.", err: answer(http.StatusBadRequest, "ThrottlingException"), want: want{transient: true}},
		"TooMany":      {reason: "HTTP 429 is throttling, whatever its code says.", err: answer(http.StatusTooManyRequests, "SlowDown"), want: want{transient: true}},
		"ServerError":  {reason: "A server error heals by itself, and may have done the work.", err: answer(http.StatusInternalServerError, "InternalFailure"), want: want{transient: true}},
		"Busy":         {reason: "A resource another change holds is free again shortly.", err: answer(http.StatusBadRequest, "ConcurrentModificationException"), want: want{transient: true}},
		"Exists":       {reason: "An existing resource is looked at, not refused.", err: answer(http.StatusBadRequest, "ResourceAlreadyExistsException")},
		"NoAnswer":     {reason: "A lost answer says nothing.", err: errors.New("read: connection reset by peer")},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := want{transient: Transient(tc.err), forGood: RefusedForGood(tc.err)}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("%s\n-want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
