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

// Package agentcore is the AWS side of APIKeyCredentialProvider: the narrow
// AgentCore Control API the controller uses and pure functions between the
// API types and the SDK types.
package agentcore

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol/types"

	"github.com/cloudkinds/provider-aws-services/apis/agentcorecontrol/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/aws/connection"
	"github.com/cloudkinds/provider-aws-services/internal/aws/tags"
)

// API is the part of the AgentCore Control client the controller uses.
type API interface {
	CreateApiKeyCredentialProvider(ctx context.Context, in *bedrockagentcorecontrol.CreateApiKeyCredentialProviderInput, o ...func(*bedrockagentcorecontrol.Options)) (*bedrockagentcorecontrol.CreateApiKeyCredentialProviderOutput, error)
	GetApiKeyCredentialProvider(ctx context.Context, in *bedrockagentcorecontrol.GetApiKeyCredentialProviderInput, o ...func(*bedrockagentcorecontrol.Options)) (*bedrockagentcorecontrol.GetApiKeyCredentialProviderOutput, error)
	UpdateApiKeyCredentialProvider(ctx context.Context, in *bedrockagentcorecontrol.UpdateApiKeyCredentialProviderInput, o ...func(*bedrockagentcorecontrol.Options)) (*bedrockagentcorecontrol.UpdateApiKeyCredentialProviderOutput, error)
	DeleteApiKeyCredentialProvider(ctx context.Context, in *bedrockagentcorecontrol.DeleteApiKeyCredentialProviderInput, o ...func(*bedrockagentcorecontrol.Options)) (*bedrockagentcorecontrol.DeleteApiKeyCredentialProviderOutput, error)
	TagResource(ctx context.Context, in *bedrockagentcorecontrol.TagResourceInput, o ...func(*bedrockagentcorecontrol.Options)) (*bedrockagentcorecontrol.TagResourceOutput, error)
	UntagResource(ctx context.Context, in *bedrockagentcorecontrol.UntagResourceInput, o ...func(*bedrockagentcorecontrol.Options)) (*bedrockagentcorecontrol.UntagResourceOutput, error)
	ListTagsForResource(ctx context.Context, in *bedrockagentcorecontrol.ListTagsForResourceInput, o ...func(*bedrockagentcorecontrol.Options)) (*bedrockagentcorecontrol.ListTagsForResourceOutput, error)
}

// The keys of an APIKeyCredentialProvider's connection Secret: what an agent
// or a gateway target needs to name the credential provider, and the ARN of
// the Secrets Manager secret AWS keeps the key in (its ARN, which grants
// nothing by itself). Never the key: it is the user's secret, and AWS never
// answers it.
const (
	ConnectionName      = "credentialProviderName"
	ConnectionARN       = "credentialProviderARN"
	ConnectionSecretARN = "apiKeySecretARN"
)

// ConnectionKeys declares the keys, for the API reference.
var ConnectionKeys = connection.Keys{
	{Name: ConnectionName, Holds: "The credential provider's name."},
	{Name: ConnectionARN, Holds: "The credential provider's ARN."},
	{Name: ConnectionSecretARN, Holds: "The ARN of the Secrets Manager secret in which AgentCore keeps the API key (not the key)."},
}

// CreateInput builds the create request of a spec with the key read from its
// secret, and tagSet, every tag it is created with (tags.Want.AtCreate: the
// spec's, the provider config's defaults and the owner tags); the spec's own
// tags are taken from there, not from p.
func CreateInput(p *v1alpha1.APIKeyCredentialProviderParameters, apiKey []byte, tagSet map[string]string) *bedrockagentcorecontrol.CreateApiKeyCredentialProviderInput {
	in := &bedrockagentcorecontrol.CreateApiKeyCredentialProviderInput{Name: aws.String(p.Name), ApiKey: aws.String(string(apiKey))}
	if len(tagSet) > 0 {
		in.Tags = tagSet
	}
	return in
}

// UpdateInput builds the request that rotates the key.
func UpdateInput(p *v1alpha1.APIKeyCredentialProviderParameters, apiKey []byte) *bedrockagentcorecontrol.UpdateApiKeyCredentialProviderInput {
	return &bedrockagentcorecontrol.UpdateApiKeyCredentialProviderInput{Name: aws.String(p.Name), ApiKey: aws.String(string(apiKey))}
}

// Observation is the status of a credential provider whose key AWS keeps
// in secret, as a get or a create answers it; the caller adds the resource
// metadata.
func Observation(secret *types.Secret) v1alpha1.APIKeyCredentialProviderObservation {
	o := v1alpha1.APIKeyCredentialProviderObservation{}
	if secret != nil {
		o.APIKeySecretARN = &v1alpha1.APIKeySecretARN{SecretARN: secret.SecretArn}
	}
	return o
}

// ConnectionDetails are the credential provider's name and ARN and its
// secret's ARN, as a get or a create answers them.
func ConnectionDetails(name, arn *string, secret *types.Secret) map[string][]byte {
	values := map[string]string{ConnectionName: aws.ToString(name), ConnectionARN: aws.ToString(arn)}
	if secret != nil {
		values[ConnectionSecretARN] = aws.ToString(secret.SecretArn)
	}
	return connection.Details(values)
}

// TagInput sets tags on a credential provider.
func TagInput(arn string, set map[string]string) *bedrockagentcorecontrol.TagResourceInput {
	return &bedrockagentcorecontrol.TagResourceInput{ResourceArn: aws.String(arn), Tags: set}
}

// UntagInput removes tags from a credential provider.
func UntagInput(arn string, keys []string) *bedrockagentcorecontrol.UntagResourceInput {
	return &bedrockagentcorecontrol.UntagResourceInput{ResourceArn: aws.String(arn), TagKeys: keys}
}

// TagService is how AgentCore lists, removes and sets the tags of the
// credential provider arn.
func TagService(api API, arn string) tags.Service {
	return tags.Service{
		Of: "credential provider",
		List: func(ctx context.Context) (map[string]string, error) {
			out, err := api.ListTagsForResource(ctx, &bedrockagentcorecontrol.ListTagsForResourceInput{ResourceArn: aws.String(arn)})
			if err != nil {
				return nil, err
			}
			return out.Tags, nil
		},
		Remove: func(ctx context.Context, keys []string) error {
			return tags.Err(api.UntagResource(ctx, UntagInput(arn, keys)))
		},
		Set: func(ctx context.Context, set map[string]string) error {
			return tags.Err(api.TagResource(ctx, TagInput(arn, set)))
		},
	}
}
