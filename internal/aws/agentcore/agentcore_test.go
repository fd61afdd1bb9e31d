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
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol/types"
	"github.com/google/go-cmp/cmp"

	"github.com/cloudkinds/provider-aws-services/apis/agentcorecontrol/v1alpha1"
	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/aws/connection"
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
	const (
		arn    = "arn:aws:bedrock-agentcore:us-east-1:000000000000:token-vault/default/apikeycredentialprovider/n"
		secret = "arn:aws:secretsmanager:us-east-1:000000000000:secret:s"
	)
	type want struct {
		o  *v1alpha1.APIKeySecretARN
		cd map[string][]byte
	}
	cases := map[string]struct {
		reason string
		name   *string
		arn    *string
		secret *types.Secret
		want   want
	}{
		"Stored": {
			reason: "A credential provider publishes its name and ARN and its secret's ARN, never the key.",
			name:   aws.String("n"), arn: aws.String(arn), secret: &types.Secret{SecretArn: aws.String(secret)},
			want: want{
				o:  &v1alpha1.APIKeySecretARN{SecretARN: aws.String(secret)},
				cd: map[string][]byte{"credentialProviderName": []byte("n"), "credentialProviderARN": []byte(arn), "apiKeySecretARN": []byte(secret)},
			},
		},
		"NoSecretAnswered": {
			reason: "A secret AWS does not answer is neither in the status nor published.",
			name:   aws.String("n"), arn: aws.String(arn),
			want: want{cd: map[string][]byte{"credentialProviderName": []byte("n"), "credentialProviderARN": []byte(arn)}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want.o, Observation(tc.secret).APIKeySecretARN); diff != "" {
				t.Errorf("%s\nObservation(...): -want, +got:\n%s", tc.reason, diff)
			}
			cd := ConnectionDetails(tc.name, tc.arn, tc.secret)
			if diff := cmp.Diff(tc.want.cd, cd); diff != "" {
				t.Errorf("%s\nConnectionDetails(...): -want, +got:\n%s", tc.reason, diff)
			}
			if u := connection.Undeclared(ConnectionKeys, cd); len(u) != 0 {
				t.Errorf("published keys that ConnectionKeys does not declare: %v", u)
			}
		})
	}
}
