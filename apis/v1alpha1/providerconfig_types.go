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
)

// A CredentialsSource says where the provider's AWS credentials come from.
// +kubebuilder:validation:Enum=Secret;IRSA;WebIdentity;PodIdentity;InjectedIdentity;None
type CredentialsSource string

// The credential sources a ProviderConfig may use.
const (
	// CredentialsSourceSecret reads a shared-credentials (INI) file from a
	// Secret key.
	CredentialsSourceSecret CredentialsSource = "Secret"
	// CredentialsSourceIRSA uses IAM Roles for Service Accounts: the role and
	// token file the EKS pod identity webhook injects into the environment.
	CredentialsSourceIRSA CredentialsSource = "IRSA"
	// CredentialsSourceWebIdentity assumes a role with a web identity token
	// read from a file or a Secret.
	CredentialsSourceWebIdentity CredentialsSource = "WebIdentity"
	// CredentialsSourcePodIdentity uses EKS Pod Identity: the container
	// credentials endpoint and token the agent injects.
	CredentialsSourcePodIdentity CredentialsSource = "PodIdentity"
	// CredentialsSourceInjectedIdentity uses the SDK's default credential
	// chain (environment, shared files, container and instance metadata).
	CredentialsSourceInjectedIdentity CredentialsSource = "InjectedIdentity"
	// CredentialsSourceNone signs requests with a fixed placeholder key pair:
	// AWS refuses it, emulators that only check for a signature accept it.
	CredentialsSourceNone CredentialsSource = "None"
)

// WebIdentityConfig configures the WebIdentity credential source.
type WebIdentityConfig struct {
	// RoleARN of the role to assume with the web identity token.
	// +kubebuilder:validation:Pattern=`^arn:[a-z0-9-]+:iam::\d{12}:role/[a-zA-Z_0-9+=,.@\-/]+$`
	RoleARN string `json:"roleARN"`

	// RoleSessionName names the session; it defaults to one the SDK chooses.
	// +optional
	// +kubebuilder:validation:MaxLength=64
	RoleSessionName *string `json:"roleSessionName,omitempty"`

	// TokenFile is the path of the file that holds the token.
	// +optional
	TokenFile *string `json:"tokenFile,omitempty"`

	// TokenSecretRef selects a Secret key that holds the token. A namespaced
	// ProviderConfig reads it from its own namespace only.
	// +optional
	TokenSecretRef *xpv2.SecretKeySelector `json:"tokenSecretRef,omitempty"`
}

// ProviderCredentials say how the provider authenticates to AWS.
// +kubebuilder:validation:XValidation:rule="self.source != 'Secret' || has(self.secretRef)",message="credentials.secretRef is required when source is Secret",fieldPath=".secretRef"
// +kubebuilder:validation:XValidation:rule="self.source != 'WebIdentity' || has(self.webIdentity)",message="credentials.webIdentity is required when source is WebIdentity",fieldPath=".webIdentity"
// +kubebuilder:validation:XValidation:rule="!has(self.webIdentity) || has(self.webIdentity.tokenFile) != has(self.webIdentity.tokenSecretRef)",message="credentials.webIdentity needs exactly one of tokenFile and tokenSecretRef",fieldPath=".webIdentity"
type ProviderCredentials struct {
	// Source of the credentials.
	Source CredentialsSource `json:"source"`

	// SecretRef selects the Secret key that holds a shared-credentials (INI)
	// file, for source Secret. A namespaced ProviderConfig reads it from its
	// own namespace only, whatever the reference says.
	// +optional
	SecretRef *xpv2.SecretKeySelector `json:"secretRef,omitempty"`

	// Profile of the shared-credentials file to use; default "default".
	// +optional
	Profile *string `json:"profile,omitempty"`

	// WebIdentity configures source WebIdentity.
	// +optional
	WebIdentity *WebIdentityConfig `json:"webIdentity,omitempty"`
}

// A Tag is a session tag passed when a role is assumed.
// +kubebuilder:validation:XValidation:rule="!self.key.lowerAscii().startsWith('crossplane-')",message="assumeRoleChain[].tags[].key: keys beginning with crossplane- are reserved for the session tags the provider sets (crossplane-namespace, see spec.namespaceSessions of a ClusterProviderConfig)",fieldPath=".key"
type Tag struct {
	// Key of the tag.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=128
	Key string `json:"key"`

	// Value of the tag.
	// +kubebuilder:validation:MaxLength=256
	Value string `json:"value"`
}

// AssumeRoleOptions describe one role assumed on top of the credentials.
type AssumeRoleOptions struct {
	// RoleARN of the role to assume.
	// +kubebuilder:validation:Pattern=`^arn:[a-z0-9-]+:iam::\d{12}:role/[a-zA-Z_0-9+=,.@\-/]+$`
	RoleARN string `json:"roleARN"`

	// ExternalID the role's trust policy requires.
	// +optional
	// +kubebuilder:validation:MaxLength=1224
	ExternalID *string `json:"externalID,omitempty"`

	// Tags passed as session tags.
	// +optional
	// +kubebuilder:validation:MaxItems=50
	// +listType=atomic
	Tags []Tag `json:"tags,omitempty"`

	// TransitiveTagKeys are the session tags that carry over to the next
	// role of the chain.
	// +optional
	// +listType=atomic
	TransitiveTagKeys []string `json:"transitiveTagKeys,omitempty"`
}

// EndpointOverride sends every AWS call to one URL instead of AWS, for
// example a local emulator or LocalStack.
type EndpointOverride struct {
	// URL used for all five services and STS.
	// +kubebuilder:validation:Pattern=`^https?://.+`
	URL string `json:"url"`
}

// A ProviderConfigSpec defines how the provider connects to AWS.
type ProviderConfigSpec struct {
	// Credentials the provider uses.
	Credentials ProviderCredentials `json:"credentials"`

	// AssumeRoleChain lists roles assumed in order on top of the
	// credentials; the last one makes the calls.
	// +optional
	// +kubebuilder:validation:MaxItems=5
	// +listType=atomic
	AssumeRoleChain []AssumeRoleOptions `json:"assumeRoleChain,omitempty"`

	// Region used by managed resources that do not set forProvider.region.
	// +optional
	// +kubebuilder:validation:Pattern=`^[a-z]{2}(-[a-z]+)+-\d+$`
	Region *string `json:"region,omitempty"`

	// Endpoint overrides the AWS endpoints of all five services and STS.
	// +optional
	Endpoint *EndpointOverride `json:"endpoint,omitempty"`

	// DefaultTags are put on every resource of a taggable kind
	// (APIKeyCredentialProvider, EndpointConfig, DeliveryStream) that uses
	// this config: at create, and kept afterwards as the resource's own
	// forProvider.tags are. A resource's own tag (forProvider.tags or
	// initProvider.tags) wins on the same key. A change reaches existing
	// resources at their next poll; a key removed here is removed from
	// them. With the 6 owner tags the provider adds and a resource's own
	// tags they must stay within AWS's 50 per resource: a resource that
	// would exceed it is not created (or not tagged), and its Synced
	// condition names the tags and counts.
	// +optional
	// +kubebuilder:validation:MaxProperties=44
	// +kubebuilder:validation:XValidation:rule="self.all(k, !k.startsWith('crossplane-'))",message="tag keys beginning with crossplane- are the provider's owner tags and cannot be set"
	// +kubebuilder:validation:XValidation:rule="self.all(k, !k.startsWith('aws:'))",message="tag keys beginning with aws: are reserved by AWS"
	// +kubebuilder:validation:XValidation:rule="self.all(k, size(k) >= 1 && size(k) <= 128)",message="tag keys must have 1 to 128 characters"
	// +kubebuilder:validation:XValidation:rule="self.all(k, size(self[k]) <= 256)",message="tag values must have at most 256 characters"
	DefaultTags map[string]string `json:"defaultTags,omitempty"`
}

// A ClusterProviderConfigSpec defines how the provider connects to AWS, and
// which namespaces' managed resources may connect through it.
// +kubebuilder:validation:XValidation:rule="!has(self.namespaceSessions) || has(self.namespaceSessions.roleARN) || (has(self.assumeRoleChain) && size(self.assumeRoleChain) > 0)",message="spec.namespaceSessions needs a role to assume per namespace: set spec.namespaceSessions.roleARN, or list that role last in spec.assumeRoleChain",fieldPath=".namespaceSessions"
// +kubebuilder:validation:XValidation:rule="!has(self.namespaceSessions) || has(self.namespaceSessions.roleARN) || !has(self.assumeRoleChain) || size(self.assumeRoleChain) == 0 || !has(self.assumeRoleChain[size(self.assumeRoleChain) - 1].tags) || size(self.assumeRoleChain[size(self.assumeRoleChain) - 1].tags) <= 49",message="spec.assumeRoleChain: with spec.namespaceSessions the last role is assumed per namespace with the session tag crossplane-namespace, so its tags may number at most 49 (AWS allows 50 session tags)",fieldPath=".assumeRoleChain"
type ClusterProviderConfigSpec struct {
	ProviderConfigSpec `json:",inline"`

	// NamespaceSessions, when set, makes every AWS call for a managed
	// resource of namespace N go through a session of N's own: its last
	// assumed role carries the session tag crossplane-namespace=N and the
	// role session name crossplane-ns-N (hashed to AWS's 64 characters when
	// longer), so that IAM policies can tell one namespace's calls from
	// another's (aws:PrincipalTag/crossplane-namespace). That role is
	// namespaceSessions.roleARN, assumed on top of the credentials and the
	// whole assumeRoleChain, or else the last role of assumeRoleChain,
	// assumed per namespace instead of once; its trust policy must allow
	// sts:TagSession. Each namespace's session assumes it for an hour, once
	// an hour per region; the roles before it are assumed once for all
	// namespaces. Without namespaceSessions every namespace shares one
	// session per region.
	// +optional
	NamespaceSessions *NamespaceSessions `json:"namespaceSessions,omitempty"`

	// Namespaces whose managed resources may use this config. A namespace is
	// admitted if it is one of names or its labels match selector. Without
	// namespaces every namespace may use the config. A managed resource of a
	// namespace the config does not admit is refused before any AWS call,
	// STS included, and records no ProviderConfigUsage. A change takes
	// effect at each resource's next reconcile.
	// +optional
	Namespaces *NamespaceSelector `json:"namespaces,omitempty"`

	// NamespaceShares weight or cap namespaces in the turns they take in
	// each AWS budget (an account's per-operation share of AWS's rate
	// quota). A namespace of weight 3 has three calls for every one of a
	// namespace of weight 1 while both have work waiting; a namespace alone
	// still has the whole budget, unless capped. A namespace not listed has
	// weight 1 and no cap. The share is that of the config of the object
	// whose reconcile waits.
	// +optional
	// +listType=map
	// +listMapKey=namespace
	// +kubebuilder:validation:MaxItems=256
	NamespaceShares []NamespaceShare `json:"namespaceShares,omitempty"`
}

// A NamespaceShare is a namespace's weight in the AWS budgets, and its cap.
type NamespaceShare struct {
	// Namespace is the namespace's name.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	Namespace string `json:"namespace"`
	// Weight is how many turns the namespace takes for every one of a
	// namespace of weight 1. Unset is 1.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100
	Weight *int32 `json:"weight,omitempty"`
	// MaxPercent caps the namespace at this percentage of each budget's
	// rate, even when no other namespace has work waiting: a cap gives up
	// the budget's unused calls, so that one team's flood never takes
	// more, at the cost of taking longer. Unset caps nothing.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100
	MaxPercent *int32 `json:"maxPercent,omitempty"`
}

// NamespaceSessions configure the per-namespace sessions of a
// ClusterProviderConfig. An empty object ({}) assumes the last role of
// assumeRoleChain per namespace.
// +kubebuilder:validation:XValidation:rule="!has(self.externalID) || has(self.roleARN)",message="spec.namespaceSessions.externalID goes with spec.namespaceSessions.roleARN; the last role of assumeRoleChain has its own externalID",fieldPath=".externalID"
type NamespaceSessions struct {
	// RoleARN of the role each namespace's session assumes, on top of the
	// credentials and the whole assumeRoleChain. Without it the last role of
	// assumeRoleChain is assumed per namespace, with its own externalID and
	// tags besides crossplane-namespace.
	// +optional
	// +kubebuilder:validation:Pattern=`^arn:[a-z0-9-]+:iam::\d{12}:role/[a-zA-Z_0-9+=,.@\-/]+$`
	RoleARN *string `json:"roleARN,omitempty"`

	// ExternalID the trust policy of roleARN requires.
	// +optional
	// +kubebuilder:validation:MaxLength=1224
	ExternalID *string `json:"externalID,omitempty"`
}

// A NamespaceSelector names namespaces by name, by label or both: a
// namespace is selected if it is one of names or its labels match selector.
// +kubebuilder:validation:XValidation:rule="has(self.names) || has(self.selector)",message="spec.namespaces needs names, a selector or both; to admit every namespace, omit spec.namespaces"
type NamespaceSelector struct {
	// Names of the admitted namespaces.
	// +optional
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=256
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:MaxLength=63
	// +kubebuilder:validation:items:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
	// +listType=set
	Names []string `json:"names,omitempty"`

	// Selector admits the namespaces whose labels match it (matchLabels
	// and matchExpressions, as a Deployment's selector). An empty selector
	// matches every namespace. Reading namespaces' labels needs the
	// ClusterRole of cluster/rbac/namespaces.yaml.
	// +optional
	Selector *metav1.LabelSelector `json:"selector,omitempty"`
}

// A ProviderConfigStatus is the observed state of a provider configuration.
type ProviderConfigStatus struct {
	xpv2.ProviderConfigStatus `json:",inline"`
}

// +kubebuilder:object:root=true

// A ProviderConfig configures how the provider connects to AWS for managed
// resources in its own namespace. Anyone who may edit the namespace may write
// one, so it uses only what the namespace holds: credentials from its own
// Secrets (source Secret, WebIdentity with tokenSecretRef) or none. The
// sources that take the provider pod's own identity (IRSA, PodIdentity,
// InjectedIdentity) and web-identity tokens read from the pod's files are a
// ClusterProviderConfig's, which an admin offers to the namespaces it names.
// +kubebuilder:validation:XValidation:rule="self.spec.credentials.source in ['Secret', 'WebIdentity', 'None']",message="a namespaced ProviderConfig cannot use the provider pod's own identity (sources IRSA, PodIdentity, InjectedIdentity): use source Secret or WebIdentity with tokenSecretRef, or a ClusterProviderConfig an admin offers to this namespace",fieldPath=".spec.credentials.source"
// +kubebuilder:validation:XValidation:rule="!has(self.spec.credentials.webIdentity) || !has(self.spec.credentials.webIdentity.tokenFile)",message="a namespaced ProviderConfig cannot read a token from the provider pod's files: use tokenSecretRef (a Secret of this namespace), or a ClusterProviderConfig an admin offers to this namespace",fieldPath=".spec.credentials.webIdentity.tokenFile"
// +kubebuilder:printcolumn:name="SOURCE",type="string",JSONPath=".spec.credentials.source"
// +kubebuilder:printcolumn:name="REGION",type="string",JSONPath=".spec.region"
// +kubebuilder:printcolumn:name="USERS",type="integer",JSONPath=".status.users"
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced,categories={crossplane,provider,aws}
type ProviderConfig struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   ProviderConfigSpec   `json:"spec"`
	Status ProviderConfigStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// ProviderConfigList contains a list of ProviderConfig.
type ProviderConfigList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ProviderConfig `json:"items"`
}

// +kubebuilder:object:root=true

// A ClusterProviderConfig configures how the provider connects to AWS for
// managed resources in any namespace, or in the namespaces its
// spec.namespaces admits.
// +kubebuilder:printcolumn:name="SOURCE",type="string",JSONPath=".spec.credentials.source"
// +kubebuilder:printcolumn:name="REGION",type="string",JSONPath=".spec.region"
// +kubebuilder:printcolumn:name="USERS",type="integer",JSONPath=".status.users"
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Cluster,categories={crossplane,provider,aws}
type ClusterProviderConfig struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   ClusterProviderConfigSpec `json:"spec"`
	Status ProviderConfigStatus      `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// ClusterProviderConfigList contains a list of ClusterProviderConfig.
type ClusterProviderConfigList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ClusterProviderConfig `json:"items"`
}

// +kubebuilder:object:root=true

// A ProviderConfigUsage records that a managed resource uses a
// ProviderConfig or a ClusterProviderConfig; a config in use cannot be
// deleted.
// +kubebuilder:printcolumn:name="CONFIG-KIND",type="string",JSONPath=".providerConfigRef.kind"
// +kubebuilder:printcolumn:name="CONFIG-NAME",type="string",JSONPath=".providerConfigRef.name"
// +kubebuilder:printcolumn:name="RESOURCE-KIND",type="string",JSONPath=".resourceRef.kind"
// +kubebuilder:printcolumn:name="RESOURCE-NAME",type="string",JSONPath=".resourceRef.name"
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:resource:scope=Namespaced,categories={crossplane,provider,aws}
type ProviderConfigUsage struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	xpv2.TypedProviderConfigUsage `json:",inline"`
}

// +kubebuilder:object:root=true

// ProviderConfigUsageList contains a list of ProviderConfigUsage.
type ProviderConfigUsageList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ProviderConfigUsage `json:"items"`
}

// Provider configuration type metadata.
var (
	ProviderConfigKind                      = reflect.TypeFor[ProviderConfig]().Name()
	ProviderConfigGroupVersionKind          = SchemeGroupVersion.WithKind(ProviderConfigKind)
	ClusterProviderConfigKind               = reflect.TypeFor[ClusterProviderConfig]().Name()
	ClusterProviderConfigGroupVersionKind   = SchemeGroupVersion.WithKind(ClusterProviderConfigKind)
	ProviderConfigUsageKind                 = reflect.TypeFor[ProviderConfigUsage]().Name()
	ProviderConfigUsageGroupVersionKind     = SchemeGroupVersion.WithKind(ProviderConfigUsageKind)
	ProviderConfigUsageListKind             = reflect.TypeFor[ProviderConfigUsageList]().Name()
	ProviderConfigUsageListGroupVersionKind = SchemeGroupVersion.WithKind(ProviderConfigUsageListKind)
)

func init() {
	SchemeBuilder.Register(
		&ProviderConfig{}, &ProviderConfigList{},
		&ClusterProviderConfig{}, &ClusterProviderConfigList{},
		&ProviderConfigUsage{}, &ProviderConfigUsageList{},
	)
}
