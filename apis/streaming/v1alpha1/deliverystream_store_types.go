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
