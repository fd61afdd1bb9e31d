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

// CapacityReservationConfig holds the capacity reservation settings of a
// variant.
type CapacityReservationConfig struct {
	// CapacityReservationPreference says how reserved capacity is used.
	// +optional
	// +kubebuilder:validation:MaxLength=64
	CapacityReservationPreference *string `json:"capacityReservationPreference,omitempty"`

	// MLReservationARN is the ARN of the reservation.
	// +optional
	// +kubebuilder:validation:MaxLength=258
	MLReservationARN *string `json:"mlReservationARN,omitempty"`
}

// CoreDumpConfig configures the core dump of a crashed model container.
type CoreDumpConfig struct {
	// DestinationStoreURI is the object-store location (DestinationS3Uri) of
	// the core dump.
	// +optional
	// +kubebuilder:validation:MaxLength=512
	DestinationStoreURI *string `json:"destinationStoreURI,omitempty"`

	// KMSKeyID encrypts the core dump.
	// +optional
	// +kubebuilder:validation:MaxLength=2048
	KMSKeyID *string `json:"kmsKeyID,omitempty"`
}

// ManagedInstanceScaling sets the range of instances the endpoint scales
// over.
type ManagedInstanceScaling struct {
	// MaxInstanceCount is the largest number of instances.
	// +optional
	// +kubebuilder:validation:Minimum=1
	MaxInstanceCount *int64 `json:"maxInstanceCount,omitempty"`

	// MinInstanceCount is the smallest number of instances.
	// +optional
	// +kubebuilder:validation:Minimum=0
	MinInstanceCount *int64 `json:"minInstanceCount,omitempty"`

	// Status turns managed scaling ENABLED or DISABLED.
	// +optional
	// +kubebuilder:validation:MaxLength=16
	Status *string `json:"status,omitempty"`
}

// ProductionVariantRoutingConfig controls how traffic is routed to
// instances.
type ProductionVariantRoutingConfig struct {
	// RoutingStrategy is the routing strategy, for example LEAST_OUTSTANDING_REQUESTS.
	// +optional
	// +kubebuilder:validation:MaxLength=64
	RoutingStrategy *string `json:"routingStrategy,omitempty"`
}

// ServerlessConfig is the serverless configuration of a variant.
type ServerlessConfig struct {
	// MaxConcurrency is the largest number of concurrent invocations.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=200
	MaxConcurrency *int64 `json:"maxConcurrency,omitempty"`

	// MemorySizeInMB of the serverless endpoint.
	// +optional
	// +kubebuilder:validation:Minimum=1024
	// +kubebuilder:validation:Maximum=6144
	MemorySizeInMB *int64 `json:"memorySizeInMB,omitempty"`

	// ProvisionedConcurrency kept warm.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=200
	ProvisionedConcurrency *int64 `json:"provisionedConcurrency,omitempty"`
}

// ProductionVariant is one model hosted by the endpoint.
type ProductionVariant struct {
	// AcceleratorType of an Elastic Inference accelerator.
	// +optional
	// +kubebuilder:validation:MaxLength=64
	AcceleratorType *string `json:"acceleratorType,omitempty"`

	// CapacityReservationConfig holds the capacity reservation settings.
	// +optional
	CapacityReservationConfig *CapacityReservationConfig `json:"capacityReservationConfig,omitempty"`

	// ContainerStartupHealthCheckTimeoutInSeconds is how long the container
	// may take to pass its first health check.
	// +optional
	// +kubebuilder:validation:Minimum=60
	// +kubebuilder:validation:Maximum=3600
	ContainerStartupHealthCheckTimeoutInSeconds *int64 `json:"containerStartupHealthCheckTimeoutInSeconds,omitempty"`

	// CoreDumpConfig configures the core dump of a crashed model container.
	// +optional
	CoreDumpConfig *CoreDumpConfig `json:"coreDumpConfig,omitempty"`

	// EnableManagerAccess enables remote-session access (EnableSSMAccess) to
	// the variant's instances.
	// +optional
	EnableManagerAccess *bool `json:"enableManagerAccess,omitempty"`

	// InitialInstanceCount is the number of instances launched at first.
	// +optional
	// +kubebuilder:validation:Minimum=1
	InitialInstanceCount *int64 `json:"initialInstanceCount,omitempty"`

	// InitialVariantWeight sets the share of traffic the variant receives,
	// relative to the other variants' weights.
	// +optional
	// +kubebuilder:validation:Minimum=0
	InitialVariantWeight *float64 `json:"initialVariantWeight,omitempty"`

	// InstanceType is the ML compute instance type, for example ml.m5.large.
	// +optional
	// +kubebuilder:validation:MaxLength=64
	InstanceType *string `json:"instanceType,omitempty"`

	// ManagedInstanceScaling sets the range of instances the endpoint scales
	// over.
	// +optional
	ManagedInstanceScaling *ManagedInstanceScaling `json:"managedInstanceScaling,omitempty"`

	// ModelDataDownloadTimeoutInSeconds is how long model data may take to
	// download.
	// +optional
	// +kubebuilder:validation:Minimum=60
	// +kubebuilder:validation:Maximum=3600
	ModelDataDownloadTimeoutInSeconds *int64 `json:"modelDataDownloadTimeoutInSeconds,omitempty"`

	// ModelName is the model the variant hosts.
	// +optional
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-zA-Z0-9]([\-a-zA-Z0-9]*[a-zA-Z0-9])?$`
	ModelName *string `json:"modelName,omitempty"`

	// RoutingConfig controls how traffic is routed to instances.
	// +optional
	RoutingConfig *ProductionVariantRoutingConfig `json:"routingConfig,omitempty"`

	// ServerlessConfig is the serverless configuration of the variant.
	// +optional
	ServerlessConfig *ServerlessConfig `json:"serverlessConfig,omitempty"`

	// VariantName names the variant.
	// +optional
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$`
	VariantName *string `json:"variantName,omitempty"`

	// VolumeSizeInGB of the storage volume attached to each instance.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=512
	VolumeSizeInGB *int64 `json:"volumeSizeInGB,omitempty"`
}
