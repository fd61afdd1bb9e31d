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

// Package convert holds the pointer conversions between the API's types and
// the SDK's that every client package needs: the API's integers are int64
// (Kubernetes' convention), the SDK's mostly int32; the SDK's enums are
// strings that are empty when AWS left them out.
package convert

import "github.com/aws/aws-sdk-go-v2/aws"

// Int32 converts an API integer to the SDK's; the CRD's bounds keep every
// value within int32.
func Int32(v *int64) *int32 {
	if v == nil {
		return nil
	}
	return aws.Int32(int32(*v)) //nolint:gosec // the CRD's bounds keep the values within int32
}

// Int64 converts an SDK integer to the API's.
func Int64(v *int32) *int64 {
	if v == nil {
		return nil
	}
	return aws.Int64(int64(*v))
}

// String converts an SDK enum or string to the API's optional string: empty
// is absent.
func String[T ~string](v T) *string {
	if v == "" {
		return nil
	}
	return aws.String(string(v))
}
