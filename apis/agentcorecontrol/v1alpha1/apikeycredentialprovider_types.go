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

// APIKeyCredentialProviderParameters are the configurable fields of an
// APIKeyCredentialProvider.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.region) || has(self.region)",message="region cannot be removed once set",fieldPath=".region"
type APIKeyCredentialProviderParameters struct {
	// Region of the credential provider. Without it the ProviderConfig's
	// region applies.
	// +optional
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="region is immutable"
	Region *string `json:"region,omitempty"`

	// APIKey selects the Secret key that holds the API key used for
	// authentication. The provider reads it from the resource's own namespace
	// and AgentCore stores it encrypted; it never appears in status, events or
	// logs. Changing the Secret's value rotates the key. Required unless
	// the management policies only observe.
	// +optional
	APIKey *common.SecretKeyReference `json:"apiKey,omitempty"`

	// Name of the credential provider, unique within the account.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=128
	// +kubebuilder:validation:Pattern=`^[a-zA-Z0-9_-]+$`
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="name is immutable"
	Name string `json:"name"`

	// Tags is a map of tag keys to tag values: at most 44, because AWS
	// allows 50 tags per resource and the provider adds its 6 owner tags
	// (crossplane-kind, crossplane-name, crossplane-namespace,
	// crossplane-providerconfig, crossplane-providerconfig-kind and
	// crossplane-uid), whose keys a spec cannot use.
	// +optional
	// +kubebuilder:validation:MaxProperties=44
	// +kubebuilder:validation:XValidation:rule="self.all(k, !k.startsWith('crossplane-'))",message="tag keys beginning with crossplane- are the provider's owner tags and cannot be set"
	Tags map[string]string `json:"tags,omitempty"`
}

// APIKeySecretARN names the secret that holds the API key in AWS.
type APIKeySecretARN struct {
	// SecretARN is the ARN of the secret holding the API key.
	// +optional
	SecretARN *string `json:"secretARN,omitempty"`
}

// APIKeyCredentialProviderObservation is the observed state of an
// APIKeyCredentialProvider.
type APIKeyCredentialProviderObservation struct {
	// ACKResourceMetadata records the ARN, owner account, region and
	// partition.
	// +optional
	ACKResourceMetadata *common.PartitionedResourceMetadata `json:"ackResourceMetadata,omitempty"`

	// APIKeySecretARN names the secret holding the API key in AWS.
	// +optional
	APIKeySecretARN *APIKeySecretARN `json:"apiKeySecretARN,omitempty"`

	// ForProvider is the configuration AWS holds, in spec.forProvider's
	// shape, shown while the object does not manage it (its management
	// policies neither create nor update) or adopts it: copied into
	// spec.forProvider, it describes the resource as it is, and widening
	// the policies then changes nothing on AWS. Secrets are never shown.
	// +optional
	// +kubebuilder:validation:Schemaless
	// +kubebuilder:validation:Type=object
	// +kubebuilder:pruning:PreserveUnknownFields
	ForProvider *APIKeyCredentialProviderParameters `json:"forProvider,omitempty"`
}

// APIKeyCredentialProviderInitParameters are the fields of an
// APIKeyCredentialProvider set only when it is created. Of what AgentCore
// can change after creation, the API key is required in forProvider (the
// provider rotates it when its Secret changes), so only the tags are here.
type APIKeyCredentialProviderInitParameters struct {
	// Tags put on the credential provider when it is created and then left
	// to whoever changes them: never compared, never removed by the
	// provider. A key also in forProvider.tags takes forProvider's value.
	// +optional
	// +kubebuilder:validation:MaxProperties=44
	// +kubebuilder:validation:XValidation:rule="self.all(k, !k.startsWith('crossplane-'))",message="tag keys beginning with crossplane- are the provider's owner tags and cannot be set"
	Tags map[string]string `json:"tags,omitempty"`
}

// An APIKeyCredentialProviderSpec defines the desired state of an
// APIKeyCredentialProvider.
// +kubebuilder:validation:XValidation:rule="has(self.managementPolicies) && self.managementPolicies.all(p, p == 'Observe') || has(self.forProvider.apiKey)",message="spec.forProvider.apiKey is required unless managementPolicies only observe (an import: see the README)",fieldPath=".forProvider.apiKey"
// +kubebuilder:validation:XValidation:rule="!has(self.initProvider) || !has(self.initProvider.tags) || !has(self.forProvider.tags) || size(self.forProvider.tags) + size(self.initProvider.tags.filter(k, !(k in self.forProvider.tags))) <= 44",message="forProvider.tags and initProvider.tags together have more than 44 keys: AWS allows 50 tags per resource and the provider adds its 6 owner tags",fieldPath=".initProvider.tags"
type APIKeyCredentialProviderSpec struct {
	xpv2.ManagedResourceSpec `json:",inline"`

	// ForProvider holds the desired state of the credential provider.
	ForProvider APIKeyCredentialProviderParameters `json:"forProvider"`

	// InitProvider holds fields set only when the credential provider is
	// created, then left to whoever changes them in AWS: sent with the
	// create, never compared afterwards. Tags merge by key with
	// forProvider.tags, forProvider's value winning.
	// +optional
	InitProvider *APIKeyCredentialProviderInitParameters `json:"initProvider,omitempty"`
}

// An APIKeyCredentialProviderStatus represents the observed state of an
// APIKeyCredentialProvider.
type APIKeyCredentialProviderStatus struct {
	xpv2.ManagedResourceStatus `json:",inline"`

	// AtProvider holds the observed state of the credential provider.
	// +optional
	AtProvider APIKeyCredentialProviderObservation `json:"atProvider,omitempty"`
}

// +kubebuilder:object:root=true

// An APIKeyCredentialProvider is an Amazon Bedrock AgentCore credential
// provider for API-key authentication. The key is read from a Secret and
// stored encrypted in AWS. Its connection details carry the credential
// provider ARN and the secret ARN, never the key.
// +kubebuilder:printcolumn:name="READY",type="string",JSONPath=".status.conditions[?(@.type=='Ready')].status"
// +kubebuilder:printcolumn:name="SYNCED",type="string",JSONPath=".status.conditions[?(@.type=='Synced')].status"
// +kubebuilder:printcolumn:name="EXTERNAL-NAME",type="string",JSONPath=".metadata.annotations.crossplane\\.io/external-name"
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced,categories={crossplane,managed,aws}
type APIKeyCredentialProvider struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   APIKeyCredentialProviderSpec   `json:"spec"`
	Status APIKeyCredentialProviderStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// APIKeyCredentialProviderList contains a list of APIKeyCredentialProvider.
type APIKeyCredentialProviderList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []APIKeyCredentialProvider `json:"items"`
}

// APIKeyCredentialProvider type metadata.
var (
	APIKeyCredentialProviderKind             = reflect.TypeFor[APIKeyCredentialProvider]().Name()
	APIKeyCredentialProviderGroupKind        = SchemeGroupVersion.WithKind(APIKeyCredentialProviderKind).GroupKind()
	APIKeyCredentialProviderKindAPIVersion   = APIKeyCredentialProviderKind + "." + SchemeGroupVersion.String()
	APIKeyCredentialProviderGroupVersionKind = SchemeGroupVersion.WithKind(APIKeyCredentialProviderKind)
)

// GetLastHandledReconcileAt and SetLastHandledReconcileAt let
// crossplane-runtime record the crossplane.io/reconcile-requested-at token it
// handled (angryjet does not generate them).
func (mg *APIKeyCredentialProvider) GetLastHandledReconcileAt() string {
	return mg.Status.LastHandledReconcileAt
}

// SetLastHandledReconcileAt records the token handled.
func (mg *APIKeyCredentialProvider) SetLastHandledReconcileAt(token string) {
	mg.Status.LastHandledReconcileAt = token
}

func init() {
	SchemeBuilder.Register(&APIKeyCredentialProvider{}, &APIKeyCredentialProviderList{})
}
