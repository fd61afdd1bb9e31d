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

package emulator_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol"
	"github.com/google/go-cmp/cmp"
)

func TestAgentCoreAPIKeyCredentialProvider(t *testing.T) {
	e, cfg, _ := start(t, "AKIDEMO")
	c := bedrockagentcorecontrol.NewFromConfig(cfg)

	out := must(c.CreateApiKeyCredentialProvider(ctx, &bedrockagentcorecontrol.CreateApiKeyCredentialProviderInput{
		Name: aws.String("search"), ApiKey: aws.String("key-1"), Tags: map[string]string{"team": "agents"},
	}))(t)
	arn := aws.ToString(out.CredentialProviderArn)
	if arn != "arn:aws:bedrock-agentcore:us-east-1:000000000000:token-vault/default/apikeycredentialprovider/search" || out.ApiKeySecretArn == nil {
		t.Fatalf("create: %s %+v", arn, out.ApiKeySecretArn)
	}
	_, err := c.CreateApiKeyCredentialProvider(ctx, &bedrockagentcorecontrol.CreateApiKeyCredentialProviderInput{Name: aws.String("search"), ApiKey: aws.String("k")})
	wantCode(t, err, "ConflictException", "already exists")
	_, err = c.CreateApiKeyCredentialProvider(ctx, &bedrockagentcorecontrol.CreateApiKeyCredentialProviderInput{Name: aws.String("bad name"), ApiKey: aws.String("k")})
	wantCode(t, err, "ValidationException", "'name'")

	got := must(c.GetApiKeyCredentialProvider(ctx, &bedrockagentcorecontrol.GetApiKeyCredentialProviderInput{Name: aws.String("search")}))(t)
	if got.CreatedTime == nil || aws.ToString(got.ApiKeySecretArn.SecretArn) != aws.ToString(out.ApiKeySecretArn.SecretArn) {
		t.Errorf("get: %+v", got)
	}

	must(c.UpdateApiKeyCredentialProvider(ctx, &bedrockagentcorecontrol.UpdateApiKeyCredentialProviderInput{Name: aws.String("search"), ApiKey: aws.String("key-2")}))(t)
	if key, updates, _ := e.APIKey("us-east-1", "search"); key != "key-2" || updates != 1 {
		t.Errorf("after update: key %q, %d updates", key, updates)
	}

	// The ARN travels percent-encoded in the path.
	must(c.TagResource(ctx, &bedrockagentcorecontrol.TagResourceInput{ResourceArn: aws.String(arn), Tags: map[string]string{"env": "dev"}}))(t)
	must(c.UntagResource(ctx, &bedrockagentcorecontrol.UntagResourceInput{ResourceArn: aws.String(arn), TagKeys: []string{"team"}}))(t)
	tags := must(c.ListTagsForResource(ctx, &bedrockagentcorecontrol.ListTagsForResourceInput{ResourceArn: aws.String(arn)}))(t).Tags
	if diff := cmp.Diff(map[string]string{"env": "dev"}, tags); diff != "" {
		t.Errorf("tags: %s", diff)
	}
	if n := len(must(c.ListApiKeyCredentialProviders(ctx, &bedrockagentcorecontrol.ListApiKeyCredentialProvidersInput{}))(t).CredentialProviders); n != 1 {
		t.Errorf("list: %d", n)
	}

	must(c.DeleteApiKeyCredentialProvider(ctx, &bedrockagentcorecontrol.DeleteApiKeyCredentialProviderInput{Name: aws.String("search")}))(t)
	_, err = c.GetApiKeyCredentialProvider(ctx, &bedrockagentcorecontrol.GetApiKeyCredentialProviderInput{Name: aws.String("search")})
	wantCode(t, err, "ResourceNotFoundException", "search not found")
}
