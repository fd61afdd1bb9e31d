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
