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

package agentcore

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol/types"
	"github.com/google/go-cmp/cmp"

	"github.com/cloudkinds/provider-aws-services/apis/agentcorecontrol/v1alpha1"
	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
)

func TestInputs(t *testing.T) {
	p := &v1alpha1.APIKeyCredentialProviderParameters{Name: "n", APIKey: &common.SecretKeyReference{Key: "k"}, Tags: map[string]string{"a": "b"}}
	c := CreateInput(p, []byte("key"), map[string]string{"a": "b", "crossplane-name": "n"})
	if diff := cmp.Diff(map[string]string{"a": "b", "crossplane-name": "n"}, c.Tags); aws.ToString(c.Name) != "n" || aws.ToString(c.ApiKey) != "key" || diff != "" {
		t.Errorf("create: %+v, tags -want +got:\n%s", c, diff)
	}
	u := UpdateInput(p, []byte("new"))
	if aws.ToString(u.Name) != "n" || aws.ToString(u.ApiKey) != "new" {
		t.Errorf("update: %+v", u)
	}
	if CreateInput(&v1alpha1.APIKeyCredentialProviderParameters{Name: "n"}, []byte("key"), nil).Tags != nil {
		t.Error("an empty tag map was sent")
	}
}

func TestObservationAndConnectionDetails(t *testing.T) {
	out := &bedrockagentcorecontrol.GetApiKeyCredentialProviderOutput{
		CredentialProviderArn: aws.String("arn:aws:bedrock-agentcore:us-east-1:000000000000:token-vault/default/apikeycredentialprovider/n"),
		ApiKeySecretArn:       &types.Secret{SecretArn: aws.String("arn:aws:secretsmanager:us-east-1:000000000000:secret:s")},
	}
	if diff := cmp.Diff(&v1alpha1.APIKeySecretARN{SecretARN: aws.String("arn:aws:secretsmanager:us-east-1:000000000000:secret:s")}, Observation(out.ApiKeySecretArn).APIKeySecretARN); diff != "" {
		t.Errorf("-want, +got:\n%s", diff)
	}
	want := map[string][]byte{
		"credentialProviderARN": []byte("arn:aws:bedrock-agentcore:us-east-1:000000000000:token-vault/default/apikeycredentialprovider/n"),
		"secretARN":             []byte("arn:aws:secretsmanager:us-east-1:000000000000:secret:s"),
	}
	if diff := cmp.Diff(want, ConnectionDetails(out)); diff != "" {
		t.Errorf("-want, +got:\n%s", diff)
	}
}
