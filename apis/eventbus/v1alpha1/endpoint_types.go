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

// EndpointEventBus is one event bus the endpoint routes to.
type EndpointEventBus struct {
	// EventBusARN is the ARN of the event bus.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=512
	// +kubebuilder:validation:Pattern=`^arn:[a-z0-9-]+:events:[a-z0-9-]+:\d{12}:event-bus/[\w.\-/]+$`
	EventBusARN string `json:"eventBusARN"`
}

// ReplicationConfig configures replication of events between the regions.
type ReplicationConfig struct {
	// State is ENABLED (the default; a role ARN must then be supplied) or
	// DISABLED.
	// +optional
	// +kubebuilder:validation:Enum=ENABLED;DISABLED
	State *string `json:"state,omitempty"`
}

// Primary configures the primary region.
type Primary struct {
	// HealthCheck is the ARN of the Route 53 health check of the primary
	// region.
	// +optional
	// +kubebuilder:validation:MaxLength=1600
	HealthCheck *string `json:"healthCheck,omitempty"`
}

// Secondary configures the secondary region.
type Secondary struct {
	// Route is the secondary region that processes events when failover
	// triggers or replication is enabled.
	// +optional
	// +kubebuilder:validation:MaxLength=20
	// +kubebuilder:validation:Pattern=`^[\-a-z0-9]+$`
	Route *string `json:"route,omitempty"`
}

// FailoverConfig says what triggers failover and what happens then.
type FailoverConfig struct {
	// Primary region configuration.
	// +optional
	Primary *Primary `json:"primary,omitempty"`

	// Secondary region configuration.
	// +optional
	Secondary *Secondary `json:"secondary,omitempty"`
}

// RoutingConfig is the routing policy with its health check and secondary
// region.
// +kubebuilder:validation:XValidation:rule="has(self.failoverConfig) && has(self.failoverConfig.primary) && has(self.failoverConfig.primary.healthCheck)",message="failoverConfig.primary.healthCheck is required",fieldPath=".failoverConfig"
// +kubebuilder:validation:XValidation:rule="has(self.failoverConfig) && has(self.failoverConfig.secondary) && has(self.failoverConfig.secondary.route)",message="failoverConfig.secondary.route is required",fieldPath=".failoverConfig"
type RoutingConfig struct {
	// FailoverConfig says what triggers failover and what happens then.
	// +optional
	FailoverConfig *FailoverConfig `json:"failoverConfig,omitempty"`
}

// EndpointParameters are the configurable fields of an Endpoint.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.region) || has(self.region)",message="region cannot be removed once set",fieldPath=".region"
type EndpointParameters struct {
	// Region of the endpoint. Without it the ProviderConfig's region applies.
	// +optional
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="region is immutable"
	Region *string `json:"region,omitempty"`

	// Name of the global endpoint.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[.\-_A-Za-z0-9]+$`
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="name is immutable"
	Name string `json:"name"`

	// Description of the endpoint.
	// +optional
	// +kubebuilder:validation:MaxLength=512
	// +kubebuilder:validation:Pattern=`.*`
	Description *string `json:"description,omitempty"`

	// EventBuses used by the endpoint, one in the primary and one in the
	// secondary region. Their names must be identical in every region.
	// Required unless the management policies only observe.
	// +optional
	// +kubebuilder:validation:MinItems=2
	// +kubebuilder:validation:MaxItems=2
	// +kubebuilder:validation:XValidation:rule="self.all(b, b.eventBusARN.substring(b.eventBusARN.lastIndexOf('/') + 1) == self[0].eventBusARN.substring(self[0].eventBusARN.lastIndexOf('/') + 1))",message="eventBuses must have identical names in every region"
	// +listType=atomic
	EventBuses []EndpointEventBus `json:"eventBuses,omitempty"`

	// ReplicationConfig configures event replication.
	// +optional
	ReplicationConfig *ReplicationConfig `json:"replicationConfig,omitempty"`

	// RoleARN is the role used for replication.
	// +optional
	// +kubebuilder:validation:MaxLength=256
	// +kubebuilder:validation:Pattern=`^arn:[a-z0-9-]+:iam::\d{12}:role/[a-zA-Z_0-9+=,.@\-/]+$`
	RoleARN *string `json:"roleARN,omitempty"`

	// RoleRef references the role whose ARN fills roleARN.
	// +optional
	RoleRef *common.ResourceReference `json:"roleRef,omitempty"`

	// RoleSelector selects the role whose ARN fills roleARN.
	// +optional
	RoleSelector *xpv2.Selector `json:"roleSelector,omitempty"`

	// RoutingConfig is the routing policy with health check and secondary
	// region. Required unless the management policies only observe.
	// +optional
	RoutingConfig *RoutingConfig `json:"routingConfig,omitempty"`
}

// EndpointObservation is the observed state of an Endpoint.
type EndpointObservation struct {
	// ACKResourceMetadata records the ARN, owner account, region and
	// partition.
	// +optional
	ACKResourceMetadata *common.PartitionedResourceMetadata `json:"ackResourceMetadata,omitempty"`

	// EndpointURL is the URL of the endpoint, to which events sent through
	// it go; also published in the connection Secret as endpointURL.
	// +optional
	EndpointURL *string `json:"endpointURL,omitempty"`

	// State of the endpoint, for example CREATING, ACTIVE or UPDATE_FAILED.
	// +optional
	State *string `json:"state,omitempty"`

	// StateReason is the reason for the current state.
	// +optional
	// +kubebuilder:validation:Pattern=`.*`
	StateReason *string `json:"stateReason,omitempty"`

	// ForProvider is the configuration AWS holds, in spec.forProvider's
	// shape, shown while the object does not manage it (its management
	// policies neither create nor update) or adopts it: copied into
	// spec.forProvider, it describes the resource as it is, and widening
	// the policies then changes nothing on AWS. Secrets are never shown.
	// +optional
	// +kubebuilder:validation:Schemaless
	// +kubebuilder:validation:Type=object
	// +kubebuilder:pruning:PreserveUnknownFields
	ForProvider *EndpointParameters `json:"forProvider,omitempty"`
}

// EndpointInitParameters are the fields of an Endpoint that EventBridge can
// change after creation and that the spec does not require, set only when
// the endpoint is created: sent with CreateEndpoint when forProvider does not
// set them, never compared with EventBridge afterwards, and never copied into
// forProvider. The name identifies the endpoint and is not among them; the
// event buses and routing are required in forProvider.
type EndpointInitParameters struct {
	// Description of the endpoint.
	// +optional
	// +kubebuilder:validation:MaxLength=512
	// +kubebuilder:validation:Pattern=`.*`
	Description *string `json:"description,omitempty"`

	// ReplicationConfig configures event replication.
	// +optional
	ReplicationConfig *ReplicationConfig `json:"replicationConfig,omitempty"`

	// RoleARN is the role used for replication.
	// +optional
	// +kubebuilder:validation:MaxLength=256
	// +kubebuilder:validation:Pattern=`^arn:[a-z0-9-]+:iam::\d{12}:role/[a-zA-Z_0-9+=,.@\-/]+$`
	RoleARN *string `json:"roleARN,omitempty"`
}

// An EndpointSpec defines the desired state of an Endpoint. Replication is
// judged on what the create sends: forProvider's state, else
// initProvider's.
// +kubebuilder:validation:XValidation:rule="has(self.managementPolicies) && self.managementPolicies.all(p, p == 'Observe') || has(self.forProvider.eventBuses)",message="spec.forProvider.eventBuses is required unless managementPolicies only observe (an import: see the README)",fieldPath=".forProvider.eventBuses"
// +kubebuilder:validation:XValidation:rule="has(self.managementPolicies) && self.managementPolicies.all(p, p == 'Observe') || has(self.forProvider.routingConfig)",message="spec.forProvider.routingConfig is required unless managementPolicies only observe (an import: see the README)",fieldPath=".forProvider.routingConfig"
// +kubebuilder:validation:XValidation:rule="(has(self.managementPolicies) && self.managementPolicies.all(p, p == 'Observe')) || (has(self.forProvider.replicationConfig) && has(self.forProvider.replicationConfig.state) ? self.forProvider.replicationConfig.state == 'DISABLED' : (has(self.initProvider) && has(self.initProvider.replicationConfig) && has(self.initProvider.replicationConfig.state) && self.initProvider.replicationConfig.state == 'DISABLED')) || has(self.forProvider.roleARN) || has(self.forProvider.roleRef) || has(self.forProvider.roleSelector) || (has(self.initProvider) && has(self.initProvider.roleARN))",message="replication is ENABLED (the default when replicationConfig.state is absent), so roleARN, roleRef or roleSelector is required; supply a role or set replicationConfig.state to DISABLED",fieldPath=".forProvider.roleARN"
type EndpointSpec struct {
	xpv2.ManagedResourceSpec `json:",inline"`

	// ForProvider holds the desired state of the global endpoint.
	ForProvider EndpointParameters `json:"forProvider"`

	// InitProvider holds fields set only when the endpoint is created, then
	// left to whoever changes them in EventBridge: each is sent with
	// CreateEndpoint when forProvider does not set it, and never compared
	// with EventBridge afterwards. A field set in both is taken from
	// forProvider.
	// +optional
	InitProvider *EndpointInitParameters `json:"initProvider,omitempty"`
}

// An EndpointStatus represents the observed state of an Endpoint.
type EndpointStatus struct {
	xpv2.ManagedResourceStatus `json:",inline"`

	// AtProvider holds the observed state of the global endpoint.
	// +optional
	AtProvider EndpointObservation `json:"atProvider,omitempty"`
}

// +kubebuilder:object:root=true

// An Endpoint is an Amazon EventBridge global endpoint: it makes an
// application regional-fault tolerant through failover and event replication
// across event buses. Its connection details carry its name, ARN, ID and URL.
// +kubebuilder:printcolumn:name="READY",type="string",JSONPath=".status.conditions[?(@.type=='Ready')].status"
// +kubebuilder:printcolumn:name="SYNCED",type="string",JSONPath=".status.conditions[?(@.type=='Synced')].status"
// +kubebuilder:printcolumn:name="EXTERNAL-NAME",type="string",JSONPath=".metadata.annotations.crossplane\\.io/external-name"
// +kubebuilder:printcolumn:name="STATE",type="string",JSONPath=".status.atProvider.state"
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced,categories={crossplane,managed,aws}
type Endpoint struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   EndpointSpec   `json:"spec"`
	Status EndpointStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// EndpointList contains a list of Endpoint.
type EndpointList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Endpoint `json:"items"`
}

// Endpoint type metadata.
var (
	EndpointKind             = reflect.TypeFor[Endpoint]().Name()
	EndpointGroupKind        = SchemeGroupVersion.WithKind(EndpointKind).GroupKind()
	EndpointKindAPIVersion   = EndpointKind + "." + SchemeGroupVersion.String()
	EndpointGroupVersionKind = SchemeGroupVersion.WithKind(EndpointKind)
)

// GetLastHandledReconcileAt and SetLastHandledReconcileAt let
// crossplane-runtime record the crossplane.io/reconcile-requested-at token it
// handled (angryjet does not generate them).
func (mg *Endpoint) GetLastHandledReconcileAt() string { return mg.Status.LastHandledReconcileAt }

// SetLastHandledReconcileAt records the token handled.
func (mg *Endpoint) SetLastHandledReconcileAt(token string) { mg.Status.LastHandledReconcileAt = token }

func init() {
	SchemeBuilder.Register(&Endpoint{}, &EndpointList{})
}
