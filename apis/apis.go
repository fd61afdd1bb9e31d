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

// Package apis holds the API groups of provider-aws-services.
package apis

import (
	"k8s.io/apimachinery/pkg/runtime"

	agentcorecontrolv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/agentcorecontrol/v1alpha1"
	eventbusv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/eventbus/v1alpha1"
	mlplatformv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/mlplatform/v1alpha1"
	notificationv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/notification/v1alpha1"
	streamingv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
)

// AddToScheme adds every type of the provider to a scheme.
func AddToScheme(s *runtime.Scheme) error {
	builder := runtime.NewSchemeBuilder(
		v1alpha1.AddToScheme,
		agentcorecontrolv1alpha1.AddToScheme,
		mlplatformv1alpha1.AddToScheme,
		notificationv1alpha1.AddToScheme,
		streamingv1alpha1.AddToScheme,
		eventbusv1alpha1.AddToScheme,
	)
	return builder.AddToScheme(s)
}
