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

// ClientConfig sets how the endpoint behaves toward the model container when
// it is invoked asynchronously.
type ClientConfig struct {
	// MaxConcurrentInvocationsPerInstance is the number of concurrent requests
	// sent to each instance.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=1000
	MaxConcurrentInvocationsPerInstance *int64 `json:"maxConcurrentInvocationsPerInstance,omitempty"`
}

// NotificationConfig names the SNS topics that receive the results of
// asynchronous invocations.
type NotificationConfig struct {
	// ErrorTopic is the ARN of the topic notified of failed invocations.
	// +optional
	// +kubebuilder:validation:MaxLength=2048
	ErrorTopic *string `json:"errorTopic,omitempty"`

	// SuccessTopic is the ARN of the topic notified of successful invocations.
	// +optional
	// +kubebuilder:validation:MaxLength=2048
	SuccessTopic *string `json:"successTopic,omitempty"`

	// IncludeInferenceResponseIn lists the topics (SUCCESS_NOTIFICATION_TOPIC,
	// ERROR_NOTIFICATION_TOPIC) whose messages carry the inference response.
	// +optional
	// +kubebuilder:validation:MaxItems=2
	// +kubebuilder:validation:items:MaxLength=64
	// +listType=atomic
	IncludeInferenceResponseIn []string `json:"includeInferenceResponseIn,omitempty"`
}

// AsyncInferenceOutputConfig sets where the results of asynchronous
// invocations go.
type AsyncInferenceOutputConfig struct {
	// KMSKeyID encrypts the results in the object store.
	// +optional
	// +kubebuilder:validation:MaxLength=2048
	KMSKeyID *string `json:"kmsKeyID,omitempty"`

	// NotificationConfig sends notifications of results.
	// +optional
	NotificationConfig *NotificationConfig `json:"notificationConfig,omitempty"`

	// StoreFailurePath is the object-store location (S3FailurePath) of
	// failed invocations.
	// +optional
	// +kubebuilder:validation:MaxLength=512
	// +kubebuilder:validation:Pattern=`^(https|s3)://([^/])/?(.*)$`
	StoreFailurePath *string `json:"storeFailurePath,omitempty"`

	// StoreOutputPath is the object-store location (S3OutputPath) of results.
	// +optional
	// +kubebuilder:validation:MaxLength=512
	// +kubebuilder:validation:Pattern=`^(https|s3)://([^/])/?(.*)$`
	StoreOutputPath *string `json:"storeOutputPath,omitempty"`
}

// AsyncInferenceConfig is required for the endpoint to be invoked with the
// asynchronous invocation operation.
type AsyncInferenceConfig struct {
	// ClientConfig sets the client behaviour toward the model container.
	// +optional
	ClientConfig *ClientConfig `json:"clientConfig,omitempty"`

	// OutputConfig sets the output of asynchronous invocations.
	// +optional
	OutputConfig *AsyncInferenceOutputConfig `json:"outputConfig,omitempty"`
}
