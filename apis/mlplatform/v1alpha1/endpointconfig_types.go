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

// VPCConfig is the private network the jobs, models and compute resources
// can access.
type VPCConfig struct {
	// SecurityGroupIDs of the network interfaces.
	// +optional
	// +kubebuilder:validation:MaxItems=5
	// +kubebuilder:validation:items:MaxLength=32
	// +listType=atomic
	SecurityGroupIDs []string `json:"securityGroupIDs,omitempty"`

	// Subnets the network interfaces are placed in.
	// +optional
	// +kubebuilder:validation:MaxItems=16
	// +kubebuilder:validation:items:MaxLength=32
	// +listType=atomic
	Subnets []string `json:"subnets,omitempty"`
}

// EndpointConfigParameters are the configurable fields of an EndpointConfig.
// SageMaker cannot update an endpoint configuration, so every field apart from
// tags is immutable once set.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.region) || has(self.region)",message="region cannot be removed once set",fieldPath=".region"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.asyncInferenceConfig) || has(self.asyncInferenceConfig)",message="asyncInferenceConfig cannot be removed: SageMaker cannot update an endpoint configuration",fieldPath=".asyncInferenceConfig"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.dataCaptureConfig) || has(self.dataCaptureConfig)",message="dataCaptureConfig cannot be removed: SageMaker cannot update an endpoint configuration",fieldPath=".dataCaptureConfig"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.enableNetworkIsolation) || has(self.enableNetworkIsolation)",message="enableNetworkIsolation cannot be removed: SageMaker cannot update an endpoint configuration",fieldPath=".enableNetworkIsolation"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.executionRoleARN) || has(self.executionRoleARN)",message="executionRoleARN cannot be removed: SageMaker cannot update an endpoint configuration",fieldPath=".executionRoleARN"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.kmsKeyID) || has(self.kmsKeyID)",message="kmsKeyID cannot be removed: SageMaker cannot update an endpoint configuration",fieldPath=".kmsKeyID"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.vpcConfig) || has(self.vpcConfig)",message="vpcConfig cannot be removed: SageMaker cannot update an endpoint configuration",fieldPath=".vpcConfig"
type EndpointConfigParameters struct {
	// Region of the endpoint configuration. Without it the ProviderConfig's
	// region applies.
	// +optional
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="region is immutable"
	Region *string `json:"region,omitempty"`

	// EndpointConfigName is used when an endpoint is created from this
	// configuration.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$`
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="endpointConfigName is immutable"
	EndpointConfigName string `json:"endpointConfigName"`

	// ProductionVariants has one entry per model hosted; variant weights
	// distribute traffic between variants. Required unless the management
	// policies only observe.
	// +optional
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=10
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="productionVariants is immutable: SageMaker cannot update an endpoint configuration"
	// +listType=atomic
	ProductionVariants []ProductionVariant `json:"productionVariants,omitempty"`

	// AsyncInferenceConfig is required for the endpoint to be invoked with the
	// asynchronous invocation operation.
	// +optional
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="asyncInferenceConfig is immutable: SageMaker cannot update an endpoint configuration"
	AsyncInferenceConfig *AsyncInferenceConfig `json:"asyncInferenceConfig,omitempty"`

	// DataCaptureConfig configures the capture of inference data.
	// +optional
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="dataCaptureConfig is immutable: SageMaker cannot update an endpoint configuration"
	DataCaptureConfig *DataCaptureConfig `json:"dataCaptureConfig,omitempty"`

	// EnableNetworkIsolation, when true, prevents inbound and outbound network
	// calls to and from the model containers.
	// +optional
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="enableNetworkIsolation is immutable: SageMaker cannot update an endpoint configuration"
	EnableNetworkIsolation *bool `json:"enableNetworkIsolation,omitempty"`

	// ExecutionRoleARN is the role the service assumes for the caller; the
	// caller needs permission to pass the role.
	// +optional
	// +kubebuilder:validation:MinLength=20
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:Pattern=`^arn:aws[a-z\-]*:iam::\d{12}:role/?[a-zA-Z_0-9+=,.@\-_/]+$`
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="executionRoleARN is immutable: SageMaker cannot update an endpoint configuration"
	ExecutionRoleARN *string `json:"executionRoleARN,omitempty"`

	// KMSKeyID encrypts the storage volume of the hosting instance. It
	// accepts a key ID, key ARN, alias name or alias ARN. The key policy must
	// grant permission to the role used in create and update requests. It
	// cannot be combined with instance types that have local storage.
	// +optional
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:Pattern=`^[a-zA-Z0-9:/_-]*$`
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="kmsKeyID is immutable: SageMaker cannot update an endpoint configuration"
	KMSKeyID *string `json:"kmsKeyID,omitempty"`

	// Tags of the endpoint configuration. They are the only part that can
	// change after creation. At most 44, because AWS allows 50 tags per
	// resource and the provider adds its 6 owner tags (crossplane-kind,
	// crossplane-name, crossplane-namespace, crossplane-providerconfig,
	// crossplane-providerconfig-kind and crossplane-uid), whose keys a spec
	// cannot use.
	// +optional
	// +kubebuilder:validation:MaxItems=44
	// +listType=atomic
	// +kubebuilder:validation:XValidation:rule="self.all(t, !has(t.key) || !t.key.startsWith('crossplane-'))",message="tag keys beginning with crossplane- are the provider's owner tags and cannot be set"
	Tags []common.Tag `json:"tags,omitempty"`

	// VPCConfig is the private network the model containers can access.
	// +optional
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="vpcConfig is immutable: SageMaker cannot update an endpoint configuration"
	VPCConfig *VPCConfig `json:"vpcConfig,omitempty"`
}

// EndpointConfigObservation is the observed state of an EndpointConfig.
type EndpointConfigObservation struct {
	// ACKResourceMetadata records the ARN, owner account and region.
	// +optional
	ACKResourceMetadata *common.ResourceMetadata `json:"ackResourceMetadata,omitempty"`

	// ForProvider is the configuration AWS holds, in spec.forProvider's
	// shape, shown while the object does not manage it (its management
	// policies neither create nor update) or adopts it: copied into
	// spec.forProvider, it describes the resource as it is, and widening
	// the policies then changes nothing on AWS. Secrets are never shown.
	// +optional
	// +kubebuilder:validation:Schemaless
	// +kubebuilder:validation:Type=object
	// +kubebuilder:pruning:PreserveUnknownFields
	ForProvider *EndpointConfigParameters `json:"forProvider,omitempty"`
}

// EndpointConfigInitParameters are the fields of an EndpointConfig set only
// when it is created. SageMaker cannot change an endpoint configuration
// after creation apart from its tags (it has no update operation), so only
// the tags are here: every other field is fixed at create and belongs in
// forProvider, where a change is reported.
type EndpointConfigInitParameters struct {
	// Tags put on the endpoint configuration when it is created and then
	// left to whoever changes them: never compared, never removed by the
	// provider. A key also in forProvider.tags takes forProvider's value.
	// +optional
	// +kubebuilder:validation:MaxItems=44
	// +listType=atomic
	// +kubebuilder:validation:XValidation:rule="self.all(t, !has(t.key) || !t.key.startsWith('crossplane-'))",message="tag keys beginning with crossplane- are the provider's owner tags and cannot be set"
	Tags []common.Tag `json:"tags,omitempty"`
}

// An EndpointConfigSpec defines the desired state of an EndpointConfig.
// +kubebuilder:validation:XValidation:rule="!has(self.initProvider) || !has(self.initProvider.tags) || !has(self.forProvider.tags) || size(self.forProvider.tags) + size(self.initProvider.tags.filter(t, has(t.key) && !self.forProvider.tags.exists(u, has(u.key) && u.key == t.key))) <= 44",message="forProvider.tags and initProvider.tags together have more than 44 keys: AWS allows 50 tags per resource and the provider adds its 6 owner tags",fieldPath=".initProvider.tags"
// +kubebuilder:validation:XValidation:rule="has(self.managementPolicies) && self.managementPolicies.all(p, p == 'Observe') || has(self.forProvider.productionVariants)",message="spec.forProvider.productionVariants is required unless managementPolicies only observe (an import: see the README)",fieldPath=".forProvider.productionVariants"
type EndpointConfigSpec struct {
	xpv2.ManagedResourceSpec `json:",inline"`

	// ForProvider holds the desired state of the SageMaker endpoint
	// configuration.
	ForProvider EndpointConfigParameters `json:"forProvider"`

	// InitProvider holds fields set only when the endpoint configuration is
	// created, then left to whoever changes them in SageMaker: sent with
	// the create, never compared afterwards. Tags merge by key with
	// forProvider.tags, forProvider's value winning.
	// +optional
	InitProvider *EndpointConfigInitParameters `json:"initProvider,omitempty"`
}

// An EndpointConfigStatus represents the observed state of an EndpointConfig.
type EndpointConfigStatus struct {
	xpv2.ManagedResourceStatus `json:",inline"`

	// AtProvider holds the observed state of the SageMaker endpoint
	// configuration.
	// +optional
	AtProvider EndpointConfigObservation `json:"atProvider,omitempty"`
}

// +kubebuilder:object:root=true

// An EndpointConfig is the configuration of an Amazon SageMaker model hosting
// endpoint: production variants, async inference, data capture, network and
// encryption settings.
// +kubebuilder:printcolumn:name="READY",type="string",JSONPath=".status.conditions[?(@.type=='Ready')].status"
// +kubebuilder:printcolumn:name="SYNCED",type="string",JSONPath=".status.conditions[?(@.type=='Synced')].status"
// +kubebuilder:printcolumn:name="EXTERNAL-NAME",type="string",JSONPath=".metadata.annotations.crossplane\\.io/external-name"
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced,categories={crossplane,managed,aws}
type EndpointConfig struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   EndpointConfigSpec   `json:"spec"`
	Status EndpointConfigStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// EndpointConfigList contains a list of EndpointConfig.
type EndpointConfigList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []EndpointConfig `json:"items"`
}

// EndpointConfig type metadata.
var (
	EndpointConfigKind             = reflect.TypeFor[EndpointConfig]().Name()
	EndpointConfigGroupKind        = SchemeGroupVersion.WithKind(EndpointConfigKind).GroupKind()
	EndpointConfigKindAPIVersion   = EndpointConfigKind + "." + SchemeGroupVersion.String()
	EndpointConfigGroupVersionKind = SchemeGroupVersion.WithKind(EndpointConfigKind)
)

// GetLastHandledReconcileAt and SetLastHandledReconcileAt let
// crossplane-runtime record the crossplane.io/reconcile-requested-at token it
// handled (angryjet does not generate them).
func (mg *EndpointConfig) GetLastHandledReconcileAt() string { return mg.Status.LastHandledReconcileAt }

// SetLastHandledReconcileAt records the token handled.
func (mg *EndpointConfig) SetLastHandledReconcileAt(token string) {
	mg.Status.LastHandledReconcileAt = token
}

func init() {
	SchemeBuilder.Register(&EndpointConfig{}, &EndpointConfigList{})
}
