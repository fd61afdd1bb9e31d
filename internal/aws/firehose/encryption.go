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

package firehose

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	"github.com/aws/aws-sdk-go-v2/service/firehose/types"

	"github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
)

// EncryptionWanted reports whether a spec asks for server-side encryption: an
// empty block (keyType and keyARN null, as the AWS controllers disable it)
// asks for none, like no block.
func EncryptionWanted(e *v1alpha1.DeliveryStreamEncryptionConfiguration) bool {
	return e != nil && (e.KeyType != nil || e.KeyARN != nil)
}

// EncryptionInput is the server-side encryption request of a spec: a key
// ARN without a key type means a customer managed key.
func EncryptionInput(e *v1alpha1.DeliveryStreamEncryptionConfiguration) *types.DeliveryStreamEncryptionConfigurationInput {
	keyType := types.KeyType(aws.ToString(e.KeyType))
	if keyType == "" {
		keyType = types.KeyTypeAwsOwnedCmk
		if e.KeyARN != nil {
			keyType = types.KeyTypeCustomerManagedCmk
		}
	}
	return &types.DeliveryStreamEncryptionConfigurationInput{KeyType: keyType, KeyARN: e.KeyARN}
}

// An EncryptionAction is what server-side encryption needs.
type EncryptionAction int

// The encryption actions.
const (
	EncryptionNone EncryptionAction = iota
	EncryptionStart
	EncryptionStop
)

// Encryption decides whether server-side encryption must be started (or its
// key changed) or stopped to match the spec. While AWS is enabling or
// disabling, nothing is done; a failed attempt with the same key is not
// repeated, since it would fail the same way.
func Encryption(want *v1alpha1.DeliveryStreamEncryptionConfiguration, got *types.DeliveryStreamEncryptionConfiguration) EncryptionAction {
	status := types.DeliveryStreamEncryptionStatusDisabled
	if got != nil {
		status = got.Status
	}
	switch status {
	case types.DeliveryStreamEncryptionStatusEnabling, types.DeliveryStreamEncryptionStatusDisabling:
		return EncryptionNone
	}
	if !EncryptionWanted(want) {
		if status == types.DeliveryStreamEncryptionStatusEnabled || status == types.DeliveryStreamEncryptionStatusEnablingFailed {
			return EncryptionStop
		}
		return EncryptionNone
	}
	in := EncryptionInput(want)
	sameKey := got != nil && in.KeyType == got.KeyType && aws.ToString(in.KeyARN) == aws.ToString(got.KeyARN)
	switch {
	case sameKey && (status == types.DeliveryStreamEncryptionStatusEnabled || status == types.DeliveryStreamEncryptionStatusEnablingFailed):
		return EncryptionNone
	default:
		return EncryptionStart
	}
}

// StartEncryptionInput starts (or rekeys) the server-side encryption a spec
// asks for.
func StartEncryptionInput(p *v1alpha1.DeliveryStreamParameters) *firehose.StartDeliveryStreamEncryptionInput {
	return &firehose.StartDeliveryStreamEncryptionInput{
		DeliveryStreamName:                         aws.String(p.DeliveryStreamName),
		DeliveryStreamEncryptionConfigurationInput: EncryptionInput(p.DeliveryStreamEncryptionConfiguration),
	}
}

// StopEncryptionInput stops server-side encryption.
func StopEncryptionInput(p *v1alpha1.DeliveryStreamParameters) *firehose.StopDeliveryStreamEncryptionInput {
	return &firehose.StopDeliveryStreamEncryptionInput{DeliveryStreamName: aws.String(p.DeliveryStreamName)}
}
