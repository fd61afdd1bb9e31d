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
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol"

	"github.com/cloudkinds/provider-aws-services/internal/aws/listing"
)

func listAPIKeyCredentialProviders(ctx context.Context, cfg aws.Config, workers int) ([]listing.Found, error) {
	c := bedrockagentcorecontrol.NewFromConfig(cfg)
	var found []listing.Found
	var arns []string
	p := bedrockagentcorecontrol.NewListApiKeyCredentialProvidersPaginator(c, &bedrockagentcorecontrol.ListApiKeyCredentialProvidersInput{MaxResults: aws.Int32(100)})
	for p.HasMorePages() {
		out, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, item := range out.CredentialProviders {
			found = append(found, listing.Found{ID: aws.ToString(item.Name), Identity: aws.ToString(item.Name)})
			arns = append(arns, aws.ToString(item.CredentialProviderArn))
		}
	}
	listing.ReadTags(ctx, found, workers, func(i int) (map[string]string, error) {
		out, err := c.ListTagsForResource(ctx, &bedrockagentcorecontrol.ListTagsForResourceInput{ResourceArn: aws.String(arns[i])})
		if err != nil {
			return nil, fmt.Errorf(listing.ErrTags, err)
		}
		return out.Tags, nil
	})
	return found, nil
}
