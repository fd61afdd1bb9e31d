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

package emulator

// Firehose shapes, with AWS's member names.
type (
	fhBufferingHints struct {
		IntervalInSeconds *int64 `json:",omitempty"`
		SizeInMBs         *int64 `json:",omitempty"`
	}
	fhLogging struct {
		Enabled       *bool   `json:",omitempty"`
		LogGroupName  *string `json:",omitempty"`
		LogStreamName *string `json:",omitempty"`
	}
	fhKMS struct {
		AWSKMSKeyARN *string `json:",omitempty"`
	}
	fhEncryption struct {
		KMSEncryptionConfig *fhKMS  `json:",omitempty"`
		NoEncryptionConfig  *string `json:",omitempty"`
	}
	fhS3 struct {
		BucketARN                *string           `json:",omitempty"`
		BufferingHints           *fhBufferingHints `json:",omitempty"`
		CloudWatchLoggingOptions *fhLogging        `json:",omitempty"`
		CompressionFormat        *string           `json:",omitempty"`
		EncryptionConfiguration  *fhEncryption     `json:",omitempty"`
		ErrorOutputPrefix        *string           `json:",omitempty"`
		Prefix                   *string           `json:",omitempty"`
		RoleARN                  *string           `json:",omitempty"`
	}
	fhEndpoint struct {
		AccessKey *string `json:",omitempty"`
		Name      *string `json:",omitempty"`
		Url       *string `json:",omitempty"`
	}
	fhAttribute struct {
		AttributeName  string
		AttributeValue string
	}
	fhRequestConfiguration struct {
		CommonAttributes []fhAttribute `json:",omitempty"`
		ContentEncoding  *string       `json:",omitempty"`
	}
	fhParameter struct {
		ParameterName  string
		ParameterValue string
	}
	fhProcessor struct {
		Parameters []fhParameter `json:",omitempty"`
		Type       string
	}
	fhProcessing struct {
		Enabled    *bool         `json:",omitempty"`
		Processors []fhProcessor `json:",omitempty"`
	}
	fhRetry struct {
		DurationInSeconds *int64 `json:",omitempty"`
	}
	fhSecrets struct {
		Enabled   *bool   `json:",omitempty"`
		RoleARN   *string `json:",omitempty"`
		SecretARN *string `json:",omitempty"`
	}
	// fhHTTP is HttpEndpointDestinationConfiguration and -Update; the
	// description has the same members but S3DestinationDescription and no
	// access key.
	fhHTTP struct {
		BufferingHints              *fhBufferingHints       `json:",omitempty"`
		CloudWatchLoggingOptions    *fhLogging              `json:",omitempty"`
		EndpointConfiguration       *fhEndpoint             `json:",omitempty"`
		ProcessingConfiguration     *fhProcessing           `json:",omitempty"`
		RequestConfiguration        *fhRequestConfiguration `json:",omitempty"`
		RetryOptions                *fhRetry                `json:",omitempty"`
		RoleARN                     *string                 `json:",omitempty"`
		S3BackupMode                *string                 `json:",omitempty"`
		S3Configuration             *fhS3                   `json:",omitempty"`
		S3Update                    *fhS3                   `json:",omitempty"`
		S3DestinationDescription    *fhS3                   `json:",omitempty"`
		SecretsManagerConfiguration *fhSecrets              `json:",omitempty"`
	}
	fhTag struct {
		Key   string
		Value *string `json:",omitempty"`
	}
	fhSSEInput struct {
		KeyARN  *string `json:",omitempty"`
		KeyType string
	}
)
