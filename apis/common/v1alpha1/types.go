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

// An ObjectReference names another object in the cluster.
type ObjectReference struct {
	// Name of the referenced object.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name *string `json:"name,omitempty"`

	// Namespace of the referenced object. It defaults to the namespace of the
	// referencing object, which is also the only namespace accepted.
	// +optional
	// +kubebuilder:validation:MaxLength=63
	Namespace *string `json:"namespace,omitempty"`
}

// A ResourceReference points to another object in the cluster from which the
// identifier (ID, ARN or name) of its sibling field is taken. It is an
// alternative to setting the sibling field directly.
// +kubebuilder:validation:XValidation:rule="has(self.from) && has(self.from.name)",message="a reference must name its target in from.name"
type ResourceReference struct {
	// From names the referenced object.
	// +optional
	From *ObjectReference `json:"from,omitempty"`
}

// A SecretKeyReference selects one key of a Kubernetes Secret.
// +kubebuilder:validation:XValidation:rule="has(self.name)",message="the name of the secret is required"
type SecretKeyReference struct {
	// Key within the secret.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Key string `json:"key"`

	// Name of the secret, unique within a namespace.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name *string `json:"name,omitempty"`

	// Namespace of the secret. It defaults to the namespace of the managed
	// resource, which is also the only namespace a managed resource may read
	// secrets from.
	// +optional
	// +kubebuilder:validation:MaxLength=63
	Namespace *string `json:"namespace,omitempty"`
}

// A Tag is a key-value pair attached to an AWS resource.
type Tag struct {
	// Key of the tag.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=128
	Key *string `json:"key,omitempty"`

	// Value of the tag.
	// +optional
	// +kubebuilder:validation:MaxLength=256
	Value *string `json:"value,omitempty"`
}

// ResourceMetadata records the sync state and ownership of the backing AWS
// resource.
type ResourceMetadata struct {
	// ARN is the globally unique name of the resource. It is set only by the
	// controller after it created the resource, or after it verified that an
	// adopted resource exists and matches the spec.
	// +optional
	ARN *string `json:"arn,omitempty"`

	// OwnerAccountID is the AWS account that owns the backing resource.
	OwnerAccountID string `json:"ownerAccountID"`

	// Region in which the resource exists or will exist.
	Region string `json:"region"`
}

// PartitionedResourceMetadata is ResourceMetadata that also names the AWS
// partition of the resource.
type PartitionedResourceMetadata struct {
	ResourceMetadata `json:",inline"`

	// Partition of the resource, for example aws or aws-cn.
	// +optional
	Partition *string `json:"partition,omitempty"`
}
