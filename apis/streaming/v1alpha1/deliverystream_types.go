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
	"reflect"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
)

// BufferingHints are hints for how the stream buffers data before delivery.
// The values are hints: the service may replace them with better values.
// +kubebuilder:validation:XValidation:rule="has(self.intervalInSeconds) == has(self.sizeInMBs)",message="bufferingHints: intervalInSeconds and sizeInMBs must be given together, or neither"
type BufferingHints struct {
	// IntervalInSeconds to buffer data before delivery.
	// +optional
	// +kubebuilder:validation:Minimum=0
	IntervalInSeconds *int64 `json:"intervalInSeconds,omitempty"`

	// SizeInMBs to buffer before delivery.
	// +optional
	// +kubebuilder:validation:Minimum=1
	SizeInMBs *int64 `json:"sizeInMBs,omitempty"`
}

// MonitorLoggingOptions configure logging of delivery errors to the
// monitoring product (CloudWatch Logs).
type MonitorLoggingOptions struct {
	// Enabled turns error logging on.
	// +optional
	Enabled *bool `json:"enabled,omitempty"`

	// LogGroupName is the log group that receives the error logs.
	// +optional
	// +kubebuilder:validation:MaxLength=512
	LogGroupName *string `json:"logGroupName,omitempty"`

	// LogStreamName is the log stream that receives the error logs.
	// +optional
	// +kubebuilder:validation:MaxLength=512
	LogStreamName *string `json:"logStreamName,omitempty"`
}

// DeliveryStreamEncryptionConfiguration sets the server-side encryption key
// type and ARN.
type DeliveryStreamEncryptionConfiguration struct {
	// KeyARN of the customer managed key used for server-side encryption.
	// +optional
	// +kubebuilder:validation:MaxLength=512
	// +kubebuilder:validation:Pattern=`^arn:.*:kms:[a-zA-Z0-9\-]+:\d{12}:(key|alias)/[a-zA-Z_0-9+=,.@\-_/]+$`
	KeyARN *string `json:"keyARN,omitempty"`

	// KeyRef references the KMS key whose ARN fills keyARN.
	// +optional
	KeyRef *common.ResourceReference `json:"keyRef,omitempty"`

	// KeySelector selects the KMS key whose ARN fills keyARN.
	// +optional
	KeySelector *xpv2.Selector `json:"keySelector,omitempty"`

	// KeyType of the server-side encryption key.
	// +optional
	KeyType *string `json:"keyType,omitempty"`
}

// HTTPEndpointConfiguration describes the HTTP endpoint data is delivered to.
type HTTPEndpointConfiguration struct {
	// AccessKey selects the secret key that holds the access key the endpoint
	// requires. The key is read from a Secret in the resource's own namespace
	// and never appears in status, events or logs.
	// +optional
	AccessKey *common.SecretKeyReference `json:"accessKey,omitempty"`

	// Name of the HTTP endpoint.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=256
	Name *string `json:"name,omitempty"`

	// URL of the HTTP endpoint.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=1000
	// +kubebuilder:validation:Pattern=`^https://.*`
	URL *string `json:"url,omitempty"`
}

// ProcessorParameter is one parameter of a data processor.
type ProcessorParameter struct {
	// ParameterName is the name of the parameter.
	ParameterName string `json:"parameterName"`

	// ParameterValue is the value of the parameter.
	// +kubebuilder:validation:MaxLength=5120
	ParameterValue string `json:"parameterValue"`
}

// Processor is a data processor.
type Processor struct {
	// Type of the processor. AppendDelimiterToRecord adds a newline delimiter
	// between records delivered to the object store and needs no parameter.
	Type string `json:"type"`

	// Parameters of the processor.
	// +optional
	// +kubebuilder:validation:MaxItems=20
	// +listType=atomic
	Parameters []ProcessorParameter `json:"parameters,omitempty"`
}

// ProcessingConfiguration configures data processing.
type ProcessingConfiguration struct {
	// Enabled turns data processing on.
	// +optional
	Enabled *bool `json:"enabled,omitempty"`

	// Processors applied to the data.
	// +optional
	// +kubebuilder:validation:MaxItems=20
	// +listType=atomic
	Processors []Processor `json:"processors,omitempty"`
}

// CommonAttribute is metadata delivered with each request.
type CommonAttribute struct {
	// AttributeName is the name of the attribute.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=256
	AttributeName string `json:"attributeName"`

	// AttributeValue is the value of the attribute.
	// +kubebuilder:validation:MaxLength=1024
	AttributeValue string `json:"attributeValue"`
}

// RequestConfiguration configures the requests sent to the HTTP endpoint.
type RequestConfiguration struct {
	// CommonAttributes are metadata delivered with each request.
	// +optional
	// +kubebuilder:validation:MaxItems=50
	// +listType=atomic
	CommonAttributes []CommonAttribute `json:"commonAttributes,omitempty"`

	// ContentEncoding of the request body.
	// +optional
	ContentEncoding *string `json:"contentEncoding,omitempty"`
}

// RetryOptions configure how long delivery is retried when it fails or no
// valid acknowledgment of receipt arrives.
type RetryOptions struct {
	// DurationInSeconds is the total time delivery is retried.
	// +optional
	// +kubebuilder:validation:Minimum=0
	DurationInSeconds *int64 `json:"durationInSeconds,omitempty"`
}

// KMSEncryptionConfig names the KMS key that encrypts objects in the store.
type KMSEncryptionConfig struct {
	// VendorKMSKeyARN is the ARN of the KMS key (AWSKMSKeyARN).
	// +optional
	// +kubebuilder:validation:MaxLength=512
	// +kubebuilder:validation:Pattern=`^arn:.*:kms:[a-zA-Z0-9\-]+:\d{12}:(key|alias)/[a-zA-Z_0-9+=,.@\-_/]+$`
	VendorKMSKeyARN *string `json:"vendorKMSKeyARN,omitempty"`

	// VendorKMSKeyRef references the KMS key whose ARN fills vendorKMSKeyARN.
	// +optional
	VendorKMSKeyRef *common.ResourceReference `json:"vendorKMSKeyRef,omitempty"`

	// VendorKMSKeySelector selects the KMS key whose ARN fills vendorKMSKeyARN.
	// +optional
	VendorKMSKeySelector *xpv2.Selector `json:"vendorKMSKeySelector,omitempty"`
}

// EncryptionConfiguration sets how objects in the store are encrypted.
type EncryptionConfiguration struct {
	// KMSEncryptionConfig encrypts objects with a KMS key.
	// +optional
	KMSEncryptionConfig *KMSEncryptionConfig `json:"kmsEncryptionConfig,omitempty"`

	// NoEncryptionConfig disables encryption of objects.
	// +optional
	NoEncryptionConfig *string `json:"noEncryptionConfig,omitempty"`
}

// StoreConfiguration is the object-store (S3) destination that receives the
// backup of delivered or failed data.
type StoreConfiguration struct {
	// BucketARN is the ARN of the bucket.
	// +optional
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:Pattern=`^arn:.*:s3:::[\w\.\-]{1,255}$`
	BucketARN *string `json:"bucketARN,omitempty"`

	// BucketRef references the bucket whose ARN fills bucketARN.
	// +optional
	BucketRef *common.ResourceReference `json:"bucketRef,omitempty"`

	// BucketSelector selects the bucket whose ARN fills bucketARN.
	// +optional
	BucketSelector *xpv2.Selector `json:"bucketSelector,omitempty"`

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
	EncryptionConfiguration *EncryptionConfiguration `json:"encryptionConfiguration,omitempty"`

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

	// RoleRef references the role whose ARN fills roleARN.
	// +optional
	RoleRef *common.ResourceReference `json:"roleRef,omitempty"`

	// RoleSelector selects the role whose ARN fills roleARN.
	// +optional
	RoleSelector *xpv2.Selector `json:"roleSelector,omitempty"`
}

// SecretsManagerConfiguration sets how the stream reads the endpoint's
// secret from Secrets Manager.
type SecretsManagerConfiguration struct {
	// Enabled makes the stream read the secret from Secrets Manager.
	// +optional
	Enabled *bool `json:"enabled,omitempty"`

	// RoleARN of the role the stream assumes to read the secret.
	// +optional
	// +kubebuilder:validation:MaxLength=512
	// +kubebuilder:validation:Pattern=`^arn:[a-z0-9-]+:iam::\d{12}:role/[a-zA-Z_0-9+=,.@\-/]+$`
	RoleARN *string `json:"roleARN,omitempty"`

	// RoleRef references the role whose ARN fills roleARN.
	// +optional
	RoleRef *common.ResourceReference `json:"roleRef,omitempty"`

	// RoleSelector selects the role whose ARN fills roleARN.
	// +optional
	RoleSelector *xpv2.Selector `json:"roleSelector,omitempty"`

	// SecretARN of the Secrets Manager secret.
	// +optional
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:Pattern=`^arn:.*:secretsmanager:[a-zA-Z0-9\-]+:\d{12}:secret:[a-zA-Z0-9\-/_+=.@!]+$`
	SecretARN *string `json:"secretARN,omitempty"`

	// SecretRef references the Secrets Manager secret whose ARN fills secretARN.
	// +optional
	SecretRef *common.ResourceReference `json:"secretRef,omitempty"`

	// SecretSelector selects the Secrets Manager secret whose ARN fills
	// secretARN.
	// +optional
	SecretSelector *xpv2.Selector `json:"secretSelector,omitempty"`
}

// HTTPEndpointDestinationConfiguration delivers data to an HTTP endpoint,
// with an object-store backup.
// +kubebuilder:validation:XValidation:rule="has(self.endpointConfiguration) && has(self.endpointConfiguration.url)",message="endpointConfiguration.url is required: it is where data is delivered",fieldPath=".endpointConfiguration"
// +kubebuilder:validation:XValidation:rule="has(self.storeConfiguration)",message="storeConfiguration is required: the HTTP endpoint destination needs an object-store backup",fieldPath=".storeConfiguration"
type HTTPEndpointDestinationConfiguration struct {
	// BufferingHints for delivery to the endpoint.
	// +optional
	BufferingHints *BufferingHints `json:"bufferingHints,omitempty"`

	// MonitorLoggingOptions configure error logging of delivery to the
	// endpoint.
	// +optional
	MonitorLoggingOptions *MonitorLoggingOptions `json:"monitorLoggingOptions,omitempty"`

	// EndpointConfiguration describes the HTTP endpoint.
	// +optional
	EndpointConfiguration *HTTPEndpointConfiguration `json:"endpointConfiguration,omitempty"`

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

	// RoleRef references the role whose ARN fills roleARN.
	// +optional
	RoleRef *common.ResourceReference `json:"roleRef,omitempty"`

	// RoleSelector selects the role whose ARN fills roleARN.
	// +optional
	RoleSelector *xpv2.Selector `json:"roleSelector,omitempty"`

	// StoreBackupMode says which data is backed up to the object store.
	// +optional
	StoreBackupMode *string `json:"storeBackupMode,omitempty"`

	// StoreConfiguration is the object-store destination.
	// +optional
	StoreConfiguration *StoreConfiguration `json:"storeConfiguration,omitempty"`

	// SecretsManagerConfiguration sets how the stream obtains the endpoint's
	// secret from Secrets Manager.
	// +optional
	SecretsManagerConfiguration *SecretsManagerConfiguration `json:"secretsManagerConfiguration,omitempty"`
}

// DeliveryStreamParameters are the configurable fields of a DeliveryStream.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.region) || has(self.region)",message="region cannot be removed once set",fieldPath=".region"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.deliveryStreamType) || has(self.deliveryStreamType)",message="deliveryStreamType cannot be removed once set",fieldPath=".deliveryStreamType"
type DeliveryStreamParameters struct {
	// Region of the stream. Without it the ProviderConfig's region applies.
	// +optional
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="region is immutable"
	Region *string `json:"region,omitempty"`

	// DeliveryStreamName is unique per account within one region; the same
	// name is allowed across accounts or regions.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[a-zA-Z0-9_.-]+$`
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="deliveryStreamName is immutable"
	DeliveryStreamName string `json:"deliveryStreamName"`

	// DeliveryStreamType is DirectPut (producers write to the stream
	// directly) or StreamAsSource (a data stream is the source). A stream
	// of StreamAsSource can be observed and adopted, not created: its source
	// stream has no field here.
	// +optional
	// +kubebuilder:validation:Enum=DirectPut;StreamAsSource
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="deliveryStreamType is immutable"
	DeliveryStreamType *string `json:"deliveryStreamType,omitempty"`

	// DeliveryStreamEncryptionConfiguration sets the server-side encryption
	// key type and ARN.
	// +optional
	DeliveryStreamEncryptionConfiguration *DeliveryStreamEncryptionConfiguration `json:"deliveryStreamEncryptionConfiguration,omitempty"`

	// Tags of the stream: at most 44, because AWS allows 50 tags per
	// resource and the provider adds its 6 owner tags (crossplane-kind,
	// crossplane-name, crossplane-namespace, crossplane-providerconfig,
	// crossplane-providerconfig-kind and crossplane-uid), whose keys a spec
	// cannot use.
	// +optional
	// +kubebuilder:validation:MaxItems=44
	// +listType=atomic
	// +kubebuilder:validation:XValidation:rule="self.all(t, !has(t.key) || !t.key.startsWith('crossplane-'))",message="tag keys beginning with crossplane- are the provider's owner tags and cannot be set"
	Tags []common.Tag `json:"tags,omitempty"`

	// HTTPEndpointDestinationConfiguration delivers to an HTTP endpoint. Only
	// one destination may be given.
	// +optional
	HTTPEndpointDestinationConfiguration *HTTPEndpointDestinationConfiguration `json:"httpEndpointDestinationConfiguration,omitempty"`
}

// FailureDescription describes a failure of a key-service (KMS) operation.
type FailureDescription struct {
	// Details of the failure.
	// +optional
	Details *string `json:"details,omitempty"`

	// Type of the failure.
	// +optional
	Type *string `json:"type,omitempty"`
}

// DeliveryStreamObservation is the observed state of a DeliveryStream.
type DeliveryStreamObservation struct {
	// ACKResourceMetadata records the ARN, owner account and region.
	// +optional
	ACKResourceMetadata *common.ResourceMetadata `json:"ackResourceMetadata,omitempty"`

	// CreateTimestamp is the creation date and time.
	// +optional
	CreateTimestamp *metav1.Time `json:"createTimestamp,omitempty"`

	// LastUpdateTimestamp is the last update date and time.
	// +optional
	LastUpdateTimestamp *metav1.Time `json:"lastUpdateTimestamp,omitempty"`

	// DeliveryStreamStatus is the status of the stream, for example
	// CREATING, ACTIVE, CREATING_FAILED or DELETING.
	// +optional
	DeliveryStreamStatus *string `json:"deliveryStreamStatus,omitempty"`

	// DeliveryStreamEncryptionConfigurationStatus is the server-side
	// encryption status. For ENABLING_FAILED or DISABLING_FAILED it is the
	// status of the most recent attempt to enable or disable encryption.
	// +optional
	DeliveryStreamEncryptionConfigurationStatus *string `json:"deliveryStreamEncryptionConfigurationStatus,omitempty"`

	// DeliveryStreamEncryptionConfigurationFailureDescription is filled when
	// CreateDeliveryStream, DeleteDeliveryStream, StartDeliveryStreamEncryption
	// or StopDeliveryStreamEncryption fails through a key-service error.
	// +optional
	DeliveryStreamEncryptionConfigurationFailureDescription *FailureDescription `json:"deliveryStreamEncryptionConfigurationFailureDescription,omitempty"`

	// DestinationID identifies the destination; updates must carry it.
	// +optional
	// +kubebuilder:validation:Pattern=`^[a-zA-Z0-9-]+$`
	DestinationID *string `json:"destinationID,omitempty"`

	// VersionID changes each time the destination is updated; the current
	// value is required when updating the destination.
	// +optional
	// +kubebuilder:validation:Pattern=`^[0-9]+$`
	VersionID *string `json:"versionID,omitempty"`

	// ForProvider is the configuration AWS holds, in spec.forProvider's
	// shape, shown while the object does not manage it (its management
	// policies neither create nor update) or adopts it: copied into
	// spec.forProvider, it describes the resource as it is, and widening
	// the policies then changes nothing on AWS. Secrets are never shown.
	// +optional
	// +kubebuilder:validation:Schemaless
	// +kubebuilder:validation:Type=object
	// +kubebuilder:pruning:PreserveUnknownFields
	ForProvider *DeliveryStreamParameters `json:"forProvider,omitempty"`
}

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

// A DeliveryStreamSpec defines the desired state of a DeliveryStream.
// +kubebuilder:validation:XValidation:rule="!has(self.initProvider) || !has(self.initProvider.tags) || !has(self.forProvider.tags) || size(self.forProvider.tags) + size(self.initProvider.tags.filter(t, has(t.key) && !self.forProvider.tags.exists(u, has(u.key) && u.key == t.key))) <= 44",message="forProvider.tags and initProvider.tags together have more than 44 keys: AWS allows 50 tags per resource and the provider adds its 6 owner tags",fieldPath=".initProvider.tags"
// +kubebuilder:validation:XValidation:rule="has(self.managementPolicies) && self.managementPolicies.all(p, p == 'Observe') || has(self.forProvider.httpEndpointDestinationConfiguration)",message="exactly one destination must be given: spec.forProvider.httpEndpointDestinationConfiguration is required unless managementPolicies only observe (an import: see the README)",fieldPath=".forProvider.httpEndpointDestinationConfiguration"
// +kubebuilder:validation:XValidation:rule="!has(self.forProvider.deliveryStreamType) || self.forProvider.deliveryStreamType != 'StreamAsSource' || (has(self.managementPolicies) && !('*' in self.managementPolicies || 'Create' in self.managementPolicies))",message="spec.forProvider.deliveryStreamType StreamAsSource cannot be created: its source data stream has no field in this API, so Firehose would refuse every create; use DirectPut, or observe or adopt an existing stream with management policies without Create",fieldPath=".forProvider.deliveryStreamType"
type DeliveryStreamSpec struct {
	xpv2.ManagedResourceSpec `json:",inline"`

	// ForProvider holds the desired state of the AWS delivery stream.
	ForProvider DeliveryStreamParameters `json:"forProvider"`

	// InitProvider holds fields set only when the stream is created, then
	// left to whoever changes them in Firehose (buffering tuned by
	// operations, say): each is sent with CreateDeliveryStream when
	// forProvider does not set it, and never compared with Firehose
	// afterwards. A field set in both is taken from forProvider; tags
	// merge by key, forProvider's value winning.
	// +optional
	InitProvider *DeliveryStreamInitParameters `json:"initProvider,omitempty"`
}

// A DeliveryStreamStatus represents the observed state of a DeliveryStream.
type DeliveryStreamStatus struct {
	xpv2.ManagedResourceStatus `json:",inline"`

	// AtProvider holds the observed state of the AWS delivery stream.
	// +optional
	AtProvider DeliveryStreamObservation `json:"atProvider,omitempty"`
}

// +kubebuilder:object:root=true

// A DeliveryStream delivers data to an HTTP endpoint destination with an
// object-store backup, through Amazon Data Firehose.
// +kubebuilder:printcolumn:name="READY",type="string",JSONPath=".status.conditions[?(@.type=='Ready')].status"
// +kubebuilder:printcolumn:name="SYNCED",type="string",JSONPath=".status.conditions[?(@.type=='Synced')].status"
// +kubebuilder:printcolumn:name="EXTERNAL-NAME",type="string",JSONPath=".metadata.annotations.crossplane\\.io/external-name"
// +kubebuilder:printcolumn:name="STATUS",type="string",JSONPath=".status.atProvider.deliveryStreamStatus"
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced,categories={crossplane,managed,aws}
type DeliveryStream struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   DeliveryStreamSpec   `json:"spec"`
	Status DeliveryStreamStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// DeliveryStreamList contains a list of DeliveryStream.
type DeliveryStreamList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []DeliveryStream `json:"items"`
}

// DeliveryStream type metadata.
var (
	DeliveryStreamKind             = reflect.TypeFor[DeliveryStream]().Name()
	DeliveryStreamGroupKind        = SchemeGroupVersion.WithKind(DeliveryStreamKind).GroupKind()
	DeliveryStreamKindAPIVersion   = DeliveryStreamKind + "." + SchemeGroupVersion.String()
	DeliveryStreamGroupVersionKind = SchemeGroupVersion.WithKind(DeliveryStreamKind)
)

// GetLastHandledReconcileAt and SetLastHandledReconcileAt let
// crossplane-runtime record the crossplane.io/reconcile-requested-at token it
// handled (angryjet does not generate them).
func (mg *DeliveryStream) GetLastHandledReconcileAt() string { return mg.Status.LastHandledReconcileAt }

// SetLastHandledReconcileAt records the token handled.
func (mg *DeliveryStream) SetLastHandledReconcileAt(token string) {
	mg.Status.LastHandledReconcileAt = token
}

func init() {
	SchemeBuilder.Register(&DeliveryStream{}, &DeliveryStreamList{})
}
