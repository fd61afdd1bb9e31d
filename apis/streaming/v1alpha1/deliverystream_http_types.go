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
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

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
