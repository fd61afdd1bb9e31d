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

// Package awserrors classifies the errors of AWS calls the same way for every
// service: not found, already exists, throttled, terminal (AWS refuses the
// input and will refuse it again), access denied, or anything else (worth a
// retry).
package awserrors

import (
	"errors"
	"strings"

	"github.com/aws/smithy-go"
	xperrors "github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// A Class says what an AWS error means for a reconcile.
type Class int

// The classes of AWS errors.
const (
	Other Class = iota
	NotFound
	Throttled
	Terminal
	AccessDenied
	// Quota says that an account or resource limit is reached: waiting
	// does not help, raising the limit or asking for less does.
	Quota
	// AlreadyExists answers a create whose resource exists: often the
	// resource an earlier, interrupted create of the same object made, so
	// never a reason to tell the user the spec is wrong.
	AlreadyExists
	// Unavailable says that AWS failed (HTTP 5xx) or that the resource is
	// busy with another change: asked again later, the call succeeds.
	Unavailable
)

// Code returns the AWS error code of err, or "".
func Code(err error) string {
	var ae smithy.APIError
	if errors.As(err, &ae) {
		return ae.ErrorCode()
	}
	return ""
}

// Classify returns the class of err: as the operation it answers declares
// it (operations), else as every service means its code (shared), else by
// its HTTP status: throttled (429), unavailable (5xx) or terminal (any
// other 4xx). An error with no answer (a broken connection, a timeout) is
// Other.
func Classify(err error) Class {
	var ae smithy.APIError
	if err == nil || !errors.As(err, &ae) {
		return Other
	}
	// Firehose answers both a rate and a quota with LimitExceededException;
	// only its message tells them apart.
	if Matches(err, "LimitExceededException: Rate exceeded") {
		return Throttled
	}
	if c, ok := declared(operationOf(err), ae.ErrorCode(), ae.ErrorMessage()); ok {
		return c
	}
	var answer interface{ HTTPStatusCode() int }
	if !errors.As(err, &answer) || answer.HTTPStatusCode() == 0 {
		return Other
	}
	switch code := answer.HTTPStatusCode(); {
	case code == 429:
		return Throttled
	case code >= 500:
		return Unavailable
	default:
		return Terminal
	}
}

// IsNotFound reports whether err says the resource does not exist: a
// not-found code, or one of extra, each "Code: text of the message" for
// services that word not-found as another error (SageMaker's
// ValidationException "Could not find ...").
func IsNotFound(err error, extra ...string) bool {
	return Classify(err) == NotFound || Matches(err, extra...)
}

// IsAlreadyExists reports whether err says that the resource a create names
// exists: an already-exists code, or one of extra, worded as for IsNotFound
// (Firehose's "ResourceInUseException: already exists", SageMaker's
// "ValidationException: Cannot create already existing").
func IsAlreadyExists(err error, extra ...string) bool {
	return Classify(err) == AlreadyExists || Matches(err, extra...)
}

// Matches reports whether err is an AWS error that one of patterns
// describes, each "Code: text the message contains" (or only "Code").
func Matches(err error, patterns ...string) bool {
	var ae smithy.APIError
	if !errors.As(err, &ae) {
		return false
	}
	for _, p := range patterns {
		code, text, _ := strings.Cut(p, ": ")
		if ae.ErrorCode() == code && strings.Contains(ae.ErrorMessage(), text) {
			return true
		}
	}
	return false
}

// IgnoreNotFound returns nil when err says the resource does not exist.
func IgnoreNotFound(err error, extra ...string) error {
	if IsNotFound(err, extra...) {
		return nil
	}
	return err
}

// Wrap wraps err with msg, the way every controller reports a failed AWS
// call, and says what to do for the classes a user can act on. AWS's own code
// and message stay in the text.
func Wrap(err error, msg string) error {
	if err == nil {
		return nil
	}
	switch Classify(err) {
	case AccessDenied:
		msg += " (AWS denied the call: grant the provider config's identity this permission; the call is retried with backoff)"
	case Terminal:
		msg += " (AWS refuses this input: correct what it names, in the spec or in AWS; the call is retried with backoff)"
	case Quota:
		msg += " (AWS refuses this: a limit is reached; ask for less in the spec or raise the quota; the call is retried with backoff)"
	case Throttled:
		msg += " (AWS throttled the call: it is retried with backoff)"
	case Unavailable:
		msg += " (AWS failed or the resource is busy with another change: the call is retried with backoff)"
	case NotFound, AlreadyExists, Other:
	}
	return xperrors.Wrap(err, msg)
}

// ServerFailed reports whether AWS answered err with a server error (HTTP
// 5xx): it stopped working on the call, whether or not it had done the work.
func ServerFailed(err error) bool {
	var answer interface{ HTTPStatusCode() int }
	return errors.As(err, &answer) && answer.HTTPStatusCode() >= 500
}

// Answered reports whether err carries AWS's answer that the call did
// nothing: a create AWS refused (HTTP 4xx: invalid, throttled, exists) made
// nothing. One whose answer was lost (a timeout, a broken connection) may
// have, and so may one AWS answered with a server error (HTTP 5xx), which it
// can send after the work is done.
func Answered(err error) bool {
	var answer interface{ HTTPStatusCode() int }
	if !errors.As(err, &answer) {
		return false
	}
	code := answer.HTTPStatusCode()
	return code != 0 && code < 500
}

// IsThrottled reports whether AWS throttled the call, whatever its wording
// (HTTP 429 included): AWS did nothing, and the same call succeeds later.
func IsThrottled(err error) bool {
	var answer interface{ HTTPStatusCode() int }
	if errors.As(err, &answer) && answer.HTTPStatusCode() == 429 {
		return true
	}
	return Classify(err) == Throttled
}

// Transient reports whether err is an answer that may heal by itself: a
// throttled call (whatever its wording, HTTP 429 included), a server error
// (HTTP 5xx), or a resource busy with another change. Asking again later is
// the answer to it.
func Transient(err error) bool {
	return IsThrottled(err) || ServerFailed(err) || Classify(err) == Unavailable
}

// RefusedForGood reports whether AWS answered a create by refusing it in a
// way that does not heal by itself: invalid input, access denied, a count
// quota reached, or any other refusal (HTTP 4xx) that is not throttling.
// It made nothing, and only a change (of the spec, the policy, the quota)
// makes the same create succeed. An answer that was lost or failed on
// AWS's side (5xx) is not one.
func RefusedForGood(err error) bool {
	return Answered(err) && React(err) == Refuse
}
