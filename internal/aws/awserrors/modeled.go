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

// A ModeledError is an error AWS's model lists for an operation. Modeled
// (zz_generated.modeled.go, written by hack/awsmodels from botocore's copy of
// AWS's models) lists them, so that what the classes here know can be checked
// against what AWS says it may answer: a code the model lists that Classify
// does not know is Other, whatever it means.
type ModeledError struct {
	// Code is the code smithy.APIError's ErrorCode returns: the shape's
	// name, or for a query protocol (SNS, STS) the query code (NotFound,
	// not NotFoundException).
	Code string
	// Status is the HTTP status AWS answers with: the model's, or
	// Smithy's default, 400 for a client error and 500 for a server one.
	Status int
	// Server says that the model calls it AWS's fault, not the caller's.
	Server bool
}
