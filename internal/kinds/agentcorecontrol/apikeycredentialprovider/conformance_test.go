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

package apikeycredentialprovider

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/cloudkinds/provider-aws-services/apis/agentcorecontrol/v1alpha1"
	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/test/conformance"
)

func TestConformance(t *testing.T) {
	conformance.Run(t, conformance.Case[*v1alpha1.APIKeyCredentialProvider]{
		Definition: definition,
		Object: func(name string) *v1alpha1.APIKeyCredentialProvider {
			mg := &v1alpha1.APIKeyCredentialProvider{ObjectMeta: metav1.ObjectMeta{Namespace: "conformance", Name: name}}
			mg.Spec.ForProvider = v1alpha1.APIKeyCredentialProviderParameters{
				Name: name, Region: aws.String(conformance.Region),
				APIKey: &common.SecretKeyReference{Name: aws.String("api-key"), Key: "apiKey"},
				Tags:   map[string]string{"team": "conformance"},
			}
			return mg
		},
		Secrets: []*corev1.Secret{{ObjectMeta: metav1.ObjectMeta{Namespace: "conformance", Name: "api-key"}, Data: map[string][]byte{"apiKey": []byte("the-api-key")}}},
	})
}
