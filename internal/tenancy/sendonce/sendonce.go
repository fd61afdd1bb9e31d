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

// Package sendonce keeps the SDK from sending a create again when it cannot
// know whether the first attempt made the resource.
//
// The SDK's retryer sends a call again after a server error (HTTP 5xx) or a
// call whose answer never came (a reset connection, a timeout). For a create
// AWS may have made the resource before that: the retry is then answered
// "already exists", inside one create call, and the provider cannot tell its
// own resource from anyone's. A create is therefore sent again only when AWS
// certainly did nothing: it answered with a refusal (HTTP 4xx, throttling
// among them) or the call never left (no connection was made). Any other
// failure ends the call, and the ownership rules look at what exists with
// the create recorded (crossplane-runtime's create-pending).
package sendonce

import (
	"context"
	"errors"
	"net"

	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/smithy-go/middleware"

	"github.com/cloudkinds/provider-aws-services/internal/aws/awserrors"
	"github.com/cloudkinds/provider-aws-services/internal/aws/quota"
)

type creatingKey struct{}

// Creating marks ctx as the context of a managed resource's create: the
// calls that change AWS made with it are sent once, unless AWS certainly
// did nothing with them.
func Creating(ctx context.Context) context.Context {
	return context.WithValue(ctx, creatingKey{}, true)
}

// IsCreating reports whether ctx was marked by Creating.
func IsCreating(ctx context.Context) bool {
	v, _ := ctx.Value(creatingKey{}).(bool)
	return v
}

// Middleware is the SDK option that keeps the retryer from sending a create
// again after a failure that may have come after the work. It sits inside
// the retry loop, and marks such an error as not retryable; the error is
// otherwise unchanged.
func Middleware(stack *middleware.Stack) error {
	return stack.Finalize.Add(middleware.FinalizeMiddlewareFunc("SendCreatesOnce",
		func(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
			out, md, err := next.HandleFinalize(ctx, in)
			if err == nil || !IsCreating(ctx) || !Changes(awsmiddleware.GetServiceID(ctx), awsmiddleware.GetOperationName(ctx)) {
				return out, md, err
			}
			if awserrors.Answered(err) || NeverSent(err) {
				return out, md, err
			}
			return out, md, &unknownOutcome{err: err}
		}), middleware.After)
}

// Changes reports whether a call of the operation made in a create may
// change AWS: not a read, nor a call for credentials (STS), which make
// nothing a create could make.
func Changes(service, operation string) bool {
	return service != "STS" && quota.Operation{Service: service, Name: operation}.Write()
}

// NeverSent reports whether err says the call never reached AWS: no
// connection could be made.
func NeverSent(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// unknownOutcome is the error of a create that may have been made: the
// retryer does not send it again (RetryableError, which it asks before
// anything else but a cancelled call).
type unknownOutcome struct {
	err error
}

func (e *unknownOutcome) Error() string { return e.err.Error() }

func (e *unknownOutcome) Unwrap() error { return e.err }

// RetryableError tells the SDK's retryer not to send the call again.
func (e *unknownOutcome) RetryableError() bool { return false }
