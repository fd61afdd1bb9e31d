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

// Package controller wires every controller of the provider into a manager.
package controller

import (
	"github.com/crossplane/crossplane-runtime/v2/pkg/controller"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/cloudkinds/provider-aws-services/internal/clients/awsconfig"
	"github.com/cloudkinds/provider-aws-services/internal/controller/agentcorecontrol/apikeycredentialprovider"
	"github.com/cloudkinds/provider-aws-services/internal/controller/config"
	"github.com/cloudkinds/provider-aws-services/internal/controller/eventbus/endpoint"
	"github.com/cloudkinds/provider-aws-services/internal/controller/mlplatform/endpointconfig"
	"github.com/cloudkinds/provider-aws-services/internal/controller/notification/subscription"
	"github.com/cloudkinds/provider-aws-services/internal/controller/streaming/deliverystream"
)

// Setup adds every controller of the provider to the manager. All kinds share
// one cache of AWS sessions.
func Setup(mgr ctrl.Manager, o controller.Options, sessions *awsconfig.Cache) error {
	if err := config.Setup(mgr, o); err != nil {
		return err
	}
	for _, setup := range []func(ctrl.Manager, controller.Options, *awsconfig.Cache) error{
		apikeycredentialprovider.Setup,
		deliverystream.Setup,
		subscription.Setup,
		endpoint.Setup,
		endpointconfig.Setup,
	} {
		if err := setup(mgr, o, sessions); err != nil {
			return err
		}
	}
	return nil
}
