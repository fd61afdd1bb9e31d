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

package workload

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	agentcorev1alpha1 "github.com/cloudkinds/provider-aws-services/apis/agentcorecontrol/v1alpha1"
	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
)

// The chaos and scale tests' APIKeyCredentialProviders: credential providers whose key is in APIKeySecret; the tag "version" holds version.
func init() {
	register("APIKeyCredentialProvider", func(_ Set, ref *xpv2.ProviderConfigReference, om metav1.ObjectMeta, name, version string) resource.Managed {
		mg := &agentcorev1alpha1.APIKeyCredentialProvider{ObjectMeta: om}
		mg.Spec.ProviderConfigReference = ref
		mg.Spec.ForProvider = agentcorev1alpha1.APIKeyCredentialProviderParameters{
			Name:   name,
			APIKey: &common.SecretKeyReference{Name: aws.String(APIKeySecret), Key: APIKeyKey},
			Tags:   map[string]string{"version": version},
		}
		return mg
	}, func() client.ObjectList { return &agentcorev1alpha1.APIKeyCredentialProviderList{} })
}
