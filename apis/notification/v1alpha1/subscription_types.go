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

// SubscriptionParameters are the configurable fields of a Subscription.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.region) || has(self.region)",message="region cannot be removed once set",fieldPath=".region"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.endpoint) || has(self.endpoint)",message="endpoint cannot be removed once set",fieldPath=".endpoint"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.topicARN) || has(self.topicARN)",message="topicARN cannot be removed once set",fieldPath=".topicARN"
// +kubebuilder:validation:XValidation:rule="!has(self.endpoint) || !has(self.protocol) || self.protocol != 'http' || self.endpoint.startsWith('http://')",message="endpoint must be a URL beginning with http:// for protocol http",fieldPath=".endpoint"
// +kubebuilder:validation:XValidation:rule="!has(self.endpoint) || !has(self.protocol) || self.protocol != 'https' || self.endpoint.startsWith('https://')",message="endpoint must be a URL beginning with https:// for protocol https",fieldPath=".endpoint"
// +kubebuilder:validation:XValidation:rule="!has(self.endpoint) || !has(self.protocol) || !(self.protocol in ['email', 'email-json']) || self.endpoint.matches('^[^@\\\\s]+@[^@\\\\s]+\\\\.[^@\\\\s]+$')",message="endpoint must be an e-mail address for protocols email and email-json",fieldPath=".endpoint"
// +kubebuilder:validation:XValidation:rule="!has(self.endpoint) || !has(self.protocol) || self.protocol != 'sms' || self.endpoint.matches('^\\\\+?[0-9]{7,15}$')",message="endpoint must be a phone number of 7 to 15 digits, optionally prefixed by +, for protocol sms",fieldPath=".endpoint"
// +kubebuilder:validation:XValidation:rule="!has(self.endpoint) || !has(self.protocol) || self.protocol != 'queue' || self.endpoint.matches('^arn:[a-z0-9-]+:sqs:[a-z0-9-]+:[0-9]{12}:.+$')",message="endpoint must be the ARN of an SQS queue for protocol queue",fieldPath=".endpoint"
// +kubebuilder:validation:XValidation:rule="!has(self.endpoint) || !has(self.protocol) || self.protocol != 'function' || self.endpoint.matches('^arn:[a-z0-9-]+:lambda:[a-z0-9-]+:[0-9]{12}:function:.+$')",message="endpoint must be the ARN of a Lambda function for protocol function",fieldPath=".endpoint"
// +kubebuilder:validation:XValidation:rule="!has(self.endpoint) || !has(self.protocol) || self.protocol != 'stream' || self.endpoint.matches('^arn:[a-z0-9-]+:firehose:[a-z0-9-]+:[0-9]{12}:deliverystream/.+$')",message="endpoint must be the ARN of a Firehose delivery stream for protocol stream",fieldPath=".endpoint"
// +kubebuilder:validation:XValidation:rule="!has(self.endpoint) || !has(self.protocol) || self.protocol != 'application' || self.endpoint.matches('^arn:[a-z0-9-]+:sns:[a-z0-9-]+:[0-9]{12}:endpoint/.+$')",message="endpoint must be the EndpointArn of a mobile application endpoint for protocol application",fieldPath=".endpoint"
type SubscriptionParameters struct {
	// Region of the subscription. Without it the ProviderConfig's region
	// applies.
	// +optional
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="region is immutable"
	Region *string `json:"region,omitempty"`

	// Protocol of delivery: http, https, email, email-json, sms, queue (SQS),
	// application, function (Lambda) or stream (Firehose). Required unless
	// the management policies only observe.
	// +optional
	// +kubebuilder:validation:Enum=http;https;email;email-json;sms;queue;application;function;stream
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="protocol is immutable"
	Protocol string `json:"protocol,omitempty"`

	// Endpoint receives the notifications; its meaning depends on protocol:
	// a URL beginning with http:// or https://, an e-mail address, a phone
	// number, or the ARN of a queue, function, delivery stream or
	// application endpoint.
	// +optional
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="endpoint is immutable"
	Endpoint *string `json:"endpoint,omitempty"`

	// TopicARN is the ARN of the topic to subscribe to.
	// +optional
	// +kubebuilder:validation:MaxLength=1024
	// +kubebuilder:validation:Pattern=`^arn:[a-z0-9-]+:sns:[a-z0-9-]+:[0-9]{12}:[a-zA-Z0-9_.-]+$`
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="topicARN is immutable"
	TopicARN *string `json:"topicARN,omitempty"`

	// TopicRef references the SNS topic whose ARN fills topicARN.
	// +optional
	TopicRef *common.ResourceReference `json:"topicRef,omitempty"`

	// TopicSelector selects the SNS topic whose ARN fills topicARN.
	// +optional
	TopicSelector *xpv2.Selector `json:"topicSelector,omitempty"`

	// DeliveryPolicy is the JSON delivery policy (retries for http/https).
	// +optional
	// +kubebuilder:validation:MaxLength=32768
	DeliveryPolicy *string `json:"deliveryPolicy,omitempty"`

	// FilterPolicy is the JSON filter policy that selects the messages
	// delivered.
	// +optional
	// +kubebuilder:validation:MaxLength=262144
	FilterPolicy *string `json:"filterPolicy,omitempty"`

	// FilterPolicyScope says what the filter policy applies to.
	// +optional
	FilterPolicyScope *string `json:"filterPolicyScope,omitempty"`

	// RawMessageDelivery delivers messages without the JSON envelope when
	// "true".
	// +optional
	RawMessageDelivery *string `json:"rawMessageDelivery,omitempty"`

	// RedrivePolicy is the JSON policy that sends undeliverable messages to a
	// dead-letter queue.
	// +optional
	// +kubebuilder:validation:MaxLength=32768
	RedrivePolicy *string `json:"redrivePolicy,omitempty"`

	// SubscriptionRoleARN is the role SNS assumes to deliver to a stream.
	// +optional
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:Pattern=`^arn:[a-z0-9-]+:iam::\d{12}:role/[a-zA-Z_0-9+=,.@\-/]+$`
	SubscriptionRoleARN *string `json:"subscriptionRoleARN,omitempty"`

	// SubscriptionRoleRef references the role whose ARN fills
	// subscriptionRoleARN.
	// +optional
	SubscriptionRoleRef *common.ResourceReference `json:"subscriptionRoleRef,omitempty"`

	// SubscriptionRoleSelector selects the role whose ARN fills
	// subscriptionRoleARN.
	// +optional
	SubscriptionRoleSelector *xpv2.Selector `json:"subscriptionRoleSelector,omitempty"`
}

// SubscriptionObservation is the observed state of a Subscription.
type SubscriptionObservation struct {
	// ACKResourceMetadata records the ARN, owner account, region and
	// partition.
	// +optional
	ACKResourceMetadata *common.PartitionedResourceMetadata `json:"ackResourceMetadata,omitempty"`

	// ConfirmationWasAuthenticated is "true" when the subscription was
	// confirmed with authentication.
	// +optional
	ConfirmationWasAuthenticated *string `json:"confirmationWasAuthenticated,omitempty"`

	// EffectiveDeliveryPolicy is the delivery policy in force, merging the
	// subscription's with the topic's and the defaults.
	// +optional
	EffectiveDeliveryPolicy *string `json:"effectiveDeliveryPolicy,omitempty"`

	// Owner is the account that owns the subscription.
	// +optional
	Owner *string `json:"owner,omitempty"`

	// PendingConfirmation is "true" while the subscription awaits
	// confirmation by its endpoint.
	// +optional
	PendingConfirmation *string `json:"pendingConfirmation,omitempty"`

	// ForProvider is the configuration AWS holds, in spec.forProvider's
	// shape, shown while the object does not manage it (its management
	// policies neither create nor update) or adopts it: copied into
	// spec.forProvider, it describes the resource as it is, and widening
	// the policies then changes nothing on AWS. Secrets are never shown.
	// +optional
	// +kubebuilder:validation:Schemaless
	// +kubebuilder:validation:Type=object
	// +kubebuilder:pruning:PreserveUnknownFields
	ForProvider *SubscriptionParameters `json:"forProvider,omitempty"`
}

// SubscriptionInitParameters are the attributes of a Subscription that SNS
// can change after Subscribe, set only when the subscription is created:
// sent with Subscribe when forProvider does not set them, never compared
// with SNS afterwards, and never copied into forProvider. The topic, protocol
// and endpoint identify the subscription and are not among them.
type SubscriptionInitParameters struct {
	// DeliveryPolicy is the JSON delivery policy (retries for http/https).
	// +optional
	// +kubebuilder:validation:MaxLength=32768
	DeliveryPolicy *string `json:"deliveryPolicy,omitempty"`

	// FilterPolicy is the JSON filter policy that selects the messages
	// delivered.
	// +optional
	// +kubebuilder:validation:MaxLength=262144
	FilterPolicy *string `json:"filterPolicy,omitempty"`

	// FilterPolicyScope says what the filter policy applies to.
	// +optional
	FilterPolicyScope *string `json:"filterPolicyScope,omitempty"`

	// RawMessageDelivery delivers messages without the JSON envelope when
	// "true".
	// +optional
	RawMessageDelivery *string `json:"rawMessageDelivery,omitempty"`

	// RedrivePolicy is the JSON policy that sends undeliverable messages to a
	// dead-letter queue.
	// +optional
	// +kubebuilder:validation:MaxLength=32768
	RedrivePolicy *string `json:"redrivePolicy,omitempty"`

	// SubscriptionRoleARN is the role SNS assumes to deliver to a stream.
	// +optional
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:Pattern=`^arn:[a-z0-9-]+:iam::\d{12}:role/[a-zA-Z_0-9+=,.@\-/]+$`
	SubscriptionRoleARN *string `json:"subscriptionRoleARN,omitempty"`
}

// A SubscriptionSpec defines the desired state of a Subscription.
// +kubebuilder:validation:XValidation:rule="!has(self.forProvider.protocol) || self.forProvider.protocol != 'stream' || has(self.forProvider.subscriptionRoleARN) || has(self.forProvider.subscriptionRoleRef) || has(self.forProvider.subscriptionRoleSelector) || (has(self.initProvider) && has(self.initProvider.subscriptionRoleARN))",message="protocol stream requires subscriptionRoleARN, subscriptionRoleRef or subscriptionRoleSelector (or initProvider.subscriptionRoleARN)",fieldPath=".forProvider.subscriptionRoleARN"
// +kubebuilder:validation:XValidation:rule="has(self.managementPolicies) && self.managementPolicies.all(p, p == 'Observe') || has(self.forProvider.protocol)",message="spec.forProvider.protocol is required unless managementPolicies only observe (an import: see the README)",fieldPath=".forProvider.protocol"
// +kubebuilder:validation:XValidation:rule="has(self.managementPolicies) && self.managementPolicies.all(p, p == 'Observe') || has(self.forProvider.topicARN) || has(self.forProvider.topicRef) || has(self.forProvider.topicSelector)",message="one of spec.forProvider.topicARN, topicRef or topicSelector is required unless managementPolicies only observe (an import: see the README)",fieldPath=".forProvider.topicARN"
// +kubebuilder:validation:XValidation:rule="has(self.managementPolicies) && self.managementPolicies.all(p, p == 'Observe') || has(self.forProvider.endpoint)",message="spec.forProvider.endpoint is required unless managementPolicies only observe (an import: see the README)",fieldPath=".forProvider.endpoint"
type SubscriptionSpec struct {
	xpv2.ManagedResourceSpec `json:",inline"`

	// ForProvider holds the desired state of the SNS subscription.
	ForProvider SubscriptionParameters `json:"forProvider"`

	// InitProvider holds attributes set only when the subscription is
	// created, then left to whoever changes them in SNS: each is sent with
	// Subscribe when forProvider does not set it, and never compared with
	// SNS afterwards. An attribute set in both is taken from forProvider.
	// +optional
	InitProvider *SubscriptionInitParameters `json:"initProvider,omitempty"`
}

// A SubscriptionStatus represents the observed state of a Subscription.
type SubscriptionStatus struct {
	xpv2.ManagedResourceStatus `json:",inline"`

	// AtProvider holds the observed state of the SNS subscription.
	// +optional
	AtProvider SubscriptionObservation `json:"atProvider,omitempty"`
}

// +kubebuilder:object:root=true

// A Subscription subscribes a delivery endpoint to an Amazon SNS topic. Its
// external name is the subscription ARN, set after Subscribe.
// +kubebuilder:printcolumn:name="READY",type="string",JSONPath=".status.conditions[?(@.type=='Ready')].status"
// +kubebuilder:printcolumn:name="SYNCED",type="string",JSONPath=".status.conditions[?(@.type=='Synced')].status"
// +kubebuilder:printcolumn:name="EXTERNAL-NAME",type="string",JSONPath=".metadata.annotations.crossplane\\.io/external-name"
// +kubebuilder:printcolumn:name="PROTOCOL",type="string",JSONPath=".spec.forProvider.protocol"
// +kubebuilder:printcolumn:name="PENDING",type="string",JSONPath=".status.atProvider.pendingConfirmation"
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced,categories={crossplane,managed,aws}
type Subscription struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   SubscriptionSpec   `json:"spec"`
	Status SubscriptionStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// SubscriptionList contains a list of Subscription.
type SubscriptionList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Subscription `json:"items"`
}

// Subscription type metadata.
var (
	SubscriptionKind             = reflect.TypeFor[Subscription]().Name()
	SubscriptionGroupKind        = SchemeGroupVersion.WithKind(SubscriptionKind).GroupKind()
	SubscriptionKindAPIVersion   = SubscriptionKind + "." + SchemeGroupVersion.String()
	SubscriptionGroupVersionKind = SchemeGroupVersion.WithKind(SubscriptionKind)
)

// GetLastHandledReconcileAt and SetLastHandledReconcileAt let
// crossplane-runtime record the crossplane.io/reconcile-requested-at token it
// handled (angryjet does not generate them).
func (mg *Subscription) GetLastHandledReconcileAt() string { return mg.Status.LastHandledReconcileAt }

// SetLastHandledReconcileAt records the token handled.
func (mg *Subscription) SetLastHandledReconcileAt(token string) {
	mg.Status.LastHandledReconcileAt = token
}

func init() {
	SchemeBuilder.Register(&Subscription{}, &SubscriptionList{})
}
