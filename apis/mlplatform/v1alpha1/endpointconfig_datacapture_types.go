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

// CaptureContentTypeHeader says how headers are treated; with no headers
// given, captured data is base64 encoded.
type CaptureContentTypeHeader struct {
	// CSVContentTypes are treated as CSV.
	// +optional
	// +kubebuilder:validation:MaxItems=10
	// +kubebuilder:validation:items:MaxLength=256
	// +listType=atomic
	CSVContentTypes []string `json:"csvContentTypes,omitempty"`

	// JSONContentTypes are treated as JSON.
	// +optional
	// +kubebuilder:validation:MaxItems=10
	// +kubebuilder:validation:items:MaxLength=256
	// +listType=atomic
	JSONContentTypes []string `json:"jsonContentTypes,omitempty"`
}

// CaptureOption selects data to capture.
type CaptureOption struct {
	// CaptureMode is the data to capture, Input or Output.
	// +optional
	// +kubebuilder:validation:MaxLength=32
	CaptureMode *string `json:"captureMode,omitempty"`
}

// DataCaptureConfig configures the capture of inference data.
type DataCaptureConfig struct {
	// CaptureContentTypeHeader says how headers are treated.
	// +optional
	CaptureContentTypeHeader *CaptureContentTypeHeader `json:"captureContentTypeHeader,omitempty"`

	// CaptureOptions select the data to capture.
	// +optional
	// +kubebuilder:validation:MaxItems=2
	// +listType=atomic
	CaptureOptions []CaptureOption `json:"captureOptions,omitempty"`

	// DestinationStoreURI is the object-store location (DestinationS3Uri) of
	// captured data.
	// +optional
	// +kubebuilder:validation:MaxLength=512
	DestinationStoreURI *string `json:"destinationStoreURI,omitempty"`

	// EnableCapture turns capture on.
	// +optional
	EnableCapture *bool `json:"enableCapture,omitempty"`

	// InitialSamplingPercentage is the share of requests captured.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=100
	InitialSamplingPercentage *int64 `json:"initialSamplingPercentage,omitempty"`

	// KMSKeyID encrypts the captured data.
	// +optional
	// +kubebuilder:validation:MaxLength=2048
	KMSKeyID *string `json:"kmsKeyID,omitempty"`
}
