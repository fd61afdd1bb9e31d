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
	"strings"

	"github.com/aws/smithy-go"
)

// A Reaction is what the provider does with an AWS answer: one per class.
type Reaction int

// The reactions.
const (
	// Backoff: the answer heals by itself (throttling, a server error, a
	// resource busy with another change); the call is made again at the
	// object's next reconcile, after its backoff.
	Backoff Reaction = iota + 1
	// Refuse: AWS refuses what was asked until someone changes something
	// (the spec, a policy, a quota): the object's condition quotes AWS's
	// code and message with what to do, and it is tried again slowly, so
	// that it heals once the cause is fixed.
	Refuse
	// Gone: the resource the call names does not exist, as far as AWS
	// shows; what that proves is the ownership rules' to decide.
	Gone
	// NameTaken: a create names a resource that exists.
	NameTaken
)

func (r Reaction) String() string {
	switch r {
	case Backoff:
		return "backoff"
	case Refuse:
		return "refuse"
	case Gone:
		return "not found"
	case NameTaken:
		return "name taken"
	}
	return "none"
}

// React returns the reaction to err, by its class. An error no answer came
// with (a broken connection, a timeout) is backed off from.
func React(err error) Reaction {
	return reactions[Classify(err)]
}

var reactions = map[Class]Reaction{
	Other: Backoff, Throttled: Backoff, Unavailable: Backoff,
	Terminal: Refuse, AccessDenied: Refuse, Quota: Refuse,
	NotFound: Gone, AlreadyExists: NameTaken,
}

// A rule classes the answers of one operation with a code, and, when Says
// is set, a message that contains it: some services word one meaning as
// another code (SageMaker's "not found" is a ValidationException).
type rule struct {
	Code, Says string
	Class      Class
}

// operations declares, per operation the provider calls ("ServiceID:Operation",
// as the SDK names it), the class of each error AWS's model lists for it
// (Modeled) whose meaning there differs from, or is missing in, the classes
// every service shares; the first rule that matches wins. A test fails when
// a modeled error of an operation the provider calls has no class here nor
// among the shared ones.
var operations = map[string][]rule{
	// Firehose answers a name taken, and a stream busy changing, both
	// with ResourceInUseException.
	"Firehose:CreateDeliveryStream": {
		{Code: "ResourceInUseException", Says: "already exists", Class: AlreadyExists},
		{Code: "InvalidKMSResourceException", Class: Terminal},
	},
	"Firehose:StartDeliveryStreamEncryption": {{Code: "InvalidKMSResourceException", Class: Terminal}},

	// SageMaker's model lists almost nothing: it words a configuration
	// missing or existing as a ValidationException.
	"SageMaker:CreateEndpointConfig":   {{Code: "ValidationException", Says: "Cannot create already existing", Class: AlreadyExists}},
	"SageMaker:DescribeEndpointConfig": {{Code: "ValidationException", Says: "Could not find", Class: NotFound}},
	"SageMaker:DeleteEndpointConfig":   {{Code: "ValidationException", Says: "Could not find", Class: NotFound}},

	// AgentCore answers a name taken with ConflictException at create; at
	// an update it is a change in flight.
	"Bedrock AgentCore Control:CreateApiKeyCredentialProvider": {
		{Code: "ConflictException", Says: "already exists", Class: AlreadyExists},
		{Code: "ConflictException", Class: Unavailable},
		// What the create names (a KMS key, the token vault) is missing.
		{Code: "ResourceNotFoundException", Class: Terminal},
	},
	"Bedrock AgentCore Control:UpdateApiKeyCredentialProvider": {{Code: "ConflictException", Class: Unavailable}},
	// A Subscribe's not-found is of its topic: the spec names one that is
	// not there.
	"SNS:Subscribe": {{Code: "NotFound", Class: Terminal}},
}

// shared are the classes of the codes every service may answer with, or
// that mean the same wherever a model lists them.
var shared = map[string]Class{
	"ResourceNotFoundException": NotFound,
	"NotFound":                  NotFound,
	"NotFoundException":         NotFound,

	"ThrottlingException":                    Throttled,
	"Throttling":                             Throttled,
	"ThrottledException":                     Throttled,
	"TooManyRequestsException":               Throttled,
	"RequestLimitExceeded":                   Throttled,
	"ProvisionedThroughputExceededException": Throttled,
	"RequestThrottled":                       Throttled,
	"RequestThrottledException":              Throttled,
	"SlowDown":                               Throttled,
	"PriorRequestNotComplete":                Throttled,
	"BandwidthLimitExceeded":                 Throttled,

	"LimitExceededException":         Quota, // a rate too when it says so, see Classify
	"ServiceQuotaExceededException":  Quota,
	"ResourceLimitExceededException": Quota,
	"ResourceLimitExceeded":          Quota,
	"SubscriptionLimitExceeded":      Quota,
	"FilterPolicyLimitExceeded":      Quota,
	"ReplayLimitExceeded":            Quota,

	"ValidationException":       Terminal,
	"ValidationError":           Terminal,
	"InvalidArgumentException":  Terminal,
	"InvalidParameter":          Terminal,
	"InvalidParameterException": Terminal,
	"MalformedPolicyDocument":   Terminal,
	"PackedPolicyTooLarge":      Terminal,
	// A KMS key the service cannot use for the secret: the key's policy
	// or state, which someone must fix.
	"DecryptionFailure": Terminal,
	"EncryptionFailure": Terminal,

	"ResourceAlreadyExistsException": AlreadyExists,

	"AccessDeniedException":   AccessDenied,
	"AccessDenied":            AccessDenied,
	"AuthorizationError":      AccessDenied,
	"UnauthorizedException":   AccessDenied,
	"InvalidSecurity":         AccessDenied,
	"RegionDisabledException": AccessDenied,
	"OptInRequired":           AccessDenied,
	// A call AWS cannot authenticate: no signature, or one it cannot
	// verify (a clock the SDK corrects after one retry, else wrong).
	"InvalidSignatureException":           AccessDenied,
	"MissingAuthenticationToken":          AccessDenied,
	"MissingAuthenticationTokenException": AccessDenied,
	// AWS refuses the credentials themselves: a key unknown, revoked or
	// expired, a signature it cannot verify, a web identity token its
	// provider rejects.
	"InvalidClientTokenId":        AccessDenied,
	"UnrecognizedClientException": AccessDenied,
	"InvalidAccessKeyId":          AccessDenied,
	"SignatureDoesNotMatch":       AccessDenied,
	"IncompleteSignature":         AccessDenied,
	"ExpiredToken":                AccessDenied,
	"ExpiredTokenException":       AccessDenied,
	"IDPRejectedClaim":            AccessDenied,
	"InvalidIdentityToken":        AccessDenied,

	// A change of the resource in flight, or AWS failing: asked again
	// later, it succeeds.
	"ConcurrentModificationException": Unavailable,
	"ResourceInUseException":          Unavailable,
	"IDPCommunicationError":           Unavailable,
	"InternalFailure":                 Unavailable,
	"InternalError":                   Unavailable,
	"InternalException":               Unavailable,
	"InternalServerException":         Unavailable,
	"ServiceUnavailable":              Unavailable,
	"ServiceUnavailableException":     Unavailable,
	"RequestTimeout":                  Unavailable,
	"RequestTimeoutException":         Unavailable,
	"RequestExpired":                  Unavailable,
	"RequestTimeTooSkewed":            Unavailable,
}

// declared returns the class an operation's rules or the shared classes
// give an answer, and whether any does.
func declared(operation, code, message string) (Class, bool) {
	for _, r := range operations[operation] {
		if r.Code == code && (r.Says == "" || strings.Contains(message, r.Says)) {
			return r.Class, true
		}
	}
	c, ok := shared[code]
	return c, ok
}

// operationOf is the operation err answered, "ServiceID:Operation", or "".
func operationOf(err error) string {
	var oe *smithy.OperationError
	if !errors.As(err, &oe) {
		return ""
	}
	return oe.Service() + ":" + oe.Operation()
}

// Declared reports whether an answer of operation with code and message has
// a class declared for it, by the operation's rules or the shared classes.
func Declared(operation, code, message string) bool {
	_, ok := declared(operation, code, message)
	return ok
}
