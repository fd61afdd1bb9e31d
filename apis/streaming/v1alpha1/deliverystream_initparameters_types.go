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

package v1alpha1

import (
	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
)

// HTTPEndpointConfigurationInitParameters are the members of the HTTP
// endpoint set only at create. The URL is required in forProvider.
type HTTPEndpointConfigurationInitParameters struct {
	// AccessKey selects the secret key that holds the access key the endpoint
	// requires, read from a Secret in the resource's own namespace when the
	// stream is created. Set here, it is sent once: a later change of the
	// Secret is not sent (in forProvider it is).
	// +optional
	AccessKey *common.SecretKeyReference `json:"accessKey,omitempty"`

	// Name of the HTTP endpoint.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=256
	Name *string `json:"name,omitempty"`
}

// KMSEncryptionConfigInitParameters name the KMS key that encrypts objects
// in the store.
type KMSEncryptionConfigInitParameters struct {
	// VendorKMSKeyARN is the ARN of the KMS key (AWSKMSKeyARN).
	// +optional
	// +kubebuilder:validation:MaxLength=512
	// +kubebuilder:validation:Pattern=`^arn:.*:kms:[a-zA-Z0-9\-]+:\d{12}:(key|alias)/[a-zA-Z_0-9+=,.@\-_/]+$`
	VendorKMSKeyARN *string `json:"vendorKMSKeyARN,omitempty"`
}

// EncryptionConfigurationInitParameters set how objects in the store are
// encrypted.
type EncryptionConfigurationInitParameters struct {
	// KMSEncryptionConfig encrypts objects with a KMS key.
	// +optional
	KMSEncryptionConfig *KMSEncryptionConfigInitParameters `json:"kmsEncryptionConfig,omitempty"`

	// NoEncryptionConfig disables encryption of objects.
	// +optional
	NoEncryptionConfig *string `json:"noEncryptionConfig,omitempty"`
}

// StoreConfigurationInitParameters are the members of the object-store
// destination set only at create.
type StoreConfigurationInitParameters struct {
	// BucketARN is the ARN of the bucket.
	// +optional
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:Pattern=`^arn:.*:s3:::[\w\.\-]{1,255}$`
	BucketARN *string `json:"bucketARN,omitempty"`

	// BufferingHints for delivery to the store.
	// +optional
	BufferingHints *BufferingHints `json:"bufferingHints,omitempty"`

	// MonitorLoggingOptions configure error logging of delivery to the store.
	// +optional
	MonitorLoggingOptions *MonitorLoggingOptions `json:"monitorLoggingOptions,omitempty"`

	// CompressionFormat of the delivered objects.
	// +optional
	CompressionFormat *string `json:"compressionFormat,omitempty"`

	// EncryptionConfiguration of the delivered objects.
	// +optional
	EncryptionConfiguration *EncryptionConfigurationInitParameters `json:"encryptionConfiguration,omitempty"`

	// ErrorOutputPrefix is prepended to the names of objects written after a
	// delivery error.
	// +optional
	// +kubebuilder:validation:MaxLength=1024
	ErrorOutputPrefix *string `json:"errorOutputPrefix,omitempty"`

	// Prefix is prepended to the names of delivered objects.
	// +optional
	// +kubebuilder:validation:MaxLength=1024
	Prefix *string `json:"prefix,omitempty"`

	// RoleARN of the role the stream assumes to write to the store.
	// +optional
	// +kubebuilder:validation:MaxLength=512
	// +kubebuilder:validation:Pattern=`^arn:[a-z0-9-]+:iam::\d{12}:role/[a-zA-Z_0-9+=,.@\-/]+$`
	RoleARN *string `json:"roleARN,omitempty"`
}

// SecretsManagerConfigurationInitParameters set, at create only, how the
// stream reads the endpoint's secret from Secrets Manager.
type SecretsManagerConfigurationInitParameters struct {
	// Enabled makes the stream read the secret from Secrets Manager.
	// +optional
	Enabled *bool `json:"enabled,omitempty"`

	// RoleARN of the role the stream assumes to read the secret.
	// +optional
	// +kubebuilder:validation:MaxLength=512
	// +kubebuilder:validation:Pattern=`^arn:[a-z0-9-]+:iam::\d{12}:role/[a-zA-Z_0-9+=,.@\-/]+$`
	RoleARN *string `json:"roleARN,omitempty"`

	// SecretARN of the Secrets Manager secret.
	// +optional
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:Pattern=`^arn:.*:secretsmanager:[a-zA-Z0-9\-]+:\d{12}:secret:[a-zA-Z0-9\-/_+=.@!]+$`
	SecretARN *string `json:"secretARN,omitempty"`
}

// HTTPEndpointDestinationConfigurationInitParameters are the members of the
// HTTP endpoint destination set only at create: everything
// UpdateDestination can change, but the endpoint's URL, which forProvider
// requires.
type HTTPEndpointDestinationConfigurationInitParameters struct {
	// BufferingHints for delivery to the endpoint.
	// +optional
	BufferingHints *BufferingHints `json:"bufferingHints,omitempty"`

	// MonitorLoggingOptions configure error logging of delivery to the
	// endpoint.
	// +optional
	MonitorLoggingOptions *MonitorLoggingOptions `json:"monitorLoggingOptions,omitempty"`

	// EndpointConfiguration describes the HTTP endpoint.
	// +optional
	EndpointConfiguration *HTTPEndpointConfigurationInitParameters `json:"endpointConfiguration,omitempty"`

	// ProcessingConfiguration configures data processing.
	// +optional
	ProcessingConfiguration *ProcessingConfiguration `json:"processingConfiguration,omitempty"`

	// RequestConfiguration configures the requests sent to the endpoint.
	// +optional
	RequestConfiguration *RequestConfiguration `json:"requestConfiguration,omitempty"`

	// RetryOptions configure retries of failed deliveries.
	// +optional
	RetryOptions *RetryOptions `json:"retryOptions,omitempty"`

	// RoleARN of the role the stream assumes.
	// +optional
	// +kubebuilder:validation:MaxLength=512
	// +kubebuilder:validation:Pattern=`^arn:[a-z0-9-]+:iam::\d{12}:role/[a-zA-Z_0-9+=,.@\-/]+$`
	RoleARN *string `json:"roleARN,omitempty"`

	// StoreBackupMode says which data is backed up to the object store.
	// +optional
	StoreBackupMode *string `json:"storeBackupMode,omitempty"`

	// StoreConfiguration is the object-store destination.
	// +optional
	StoreConfiguration *StoreConfigurationInitParameters `json:"storeConfiguration,omitempty"`

	// SecretsManagerConfiguration sets how the stream obtains the endpoint's
	// secret from Secrets Manager.
	// +optional
	SecretsManagerConfiguration *SecretsManagerConfigurationInitParameters `json:"secretsManagerConfiguration,omitempty"`
}

// DeliveryStreamInitParameters are the fields of a DeliveryStream that
// Firehose can change after creation, set only when the stream is created:
// sent with CreateDeliveryStream when forProvider does not set them, never
// compared with Firehose afterwards, and never copied into forProvider. Not
// among them: the name and stream type, which Firehose cannot change, and
// the server-side encryption, which forProvider leaving out means "no
// encryption" (the provider stops encryption someone else started).
// References (roleRef, bucketRef, ...) resolve in forProvider only.
type DeliveryStreamInitParameters struct {
	// Tags put on the stream when it is created and then left to whoever
	// changes them: never compared, never removed by the provider. A key
	// also in forProvider.tags takes forProvider's value.
	// +optional
	// +kubebuilder:validation:MaxItems=44
	// +listType=atomic
	// +kubebuilder:validation:XValidation:rule="self.all(t, !has(t.key) || !t.key.startsWith('crossplane-'))",message="tag keys beginning with crossplane- are the provider's owner tags and cannot be set"
	Tags []common.Tag `json:"tags,omitempty"`

	// HTTPEndpointDestinationConfiguration holds members of the HTTP
	// endpoint destination set only at create.
	// +optional
	HTTPEndpointDestinationConfiguration *HTTPEndpointDestinationConfigurationInitParameters `json:"httpEndpointDestinationConfiguration,omitempty"`
}
