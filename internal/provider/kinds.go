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

package provider

import (
	"github.com/cloudkinds/provider-aws-services/internal/kinds/agentcorecontrol/apikeycredentialprovider"
	"github.com/cloudkinds/provider-aws-services/internal/kinds/eventbus/endpoint"
	"github.com/cloudkinds/provider-aws-services/internal/kinds/mlplatform/endpointconfig"
	"github.com/cloudkinds/provider-aws-services/internal/kinds/notification/subscription"
	"github.com/cloudkinds/provider-aws-services/internal/kinds/streaming/deliverystream"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler"
)

// kinds are the provider's managed resource kinds: the one list of them.
// Every other list of kinds (the import command's, the docs' tables, make
// dev's examples, the tests' expectations) is read from it, or checked
// against it by TestEveryKindIsRegisteredEverywhere. make kind adds a line.
var kinds = []reconciler.Kind{
	apikeycredentialprovider.Kind,
	endpointconfig.Kind,
	subscription.Kind,
	deliverystream.Kind,
	endpoint.Kind,
	// make kind: new kinds above this line.
}

// Kinds returns the provider's managed resource kinds.
func Kinds() []reconciler.Kind {
	return append([]reconciler.Kind(nil), kinds...)
}
