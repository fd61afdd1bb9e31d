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

package endpointconfig

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"

	"github.com/cloudkinds/provider-aws-services/internal/aws/listing"
)

func listEndpointConfigs(ctx context.Context, cfg aws.Config, workers int) ([]listing.Found, error) {
	c := sagemaker.NewFromConfig(cfg)
	var found []listing.Found
	var arns []string
	p := sagemaker.NewListEndpointConfigsPaginator(c, &sagemaker.ListEndpointConfigsInput{MaxResults: aws.Int32(100)})
	for p.HasMorePages() {
		out, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, item := range out.EndpointConfigs {
			found = append(found, listing.Found{ID: aws.ToString(item.EndpointConfigName), Identity: aws.ToString(item.EndpointConfigName)})
			arns = append(arns, aws.ToString(item.EndpointConfigArn))
		}
	}
	listing.ReadTags(ctx, found, workers, func(i int) (map[string]string, error) {
		// A resource has at most 50 tags: one page of 100 holds them.
		out, err := c.ListTags(ctx, &sagemaker.ListTagsInput{ResourceArn: aws.String(arns[i]), MaxResults: aws.Int32(100)})
		if err != nil {
			return nil, fmt.Errorf(listing.ErrTags, err)
		}
		tags := make(map[string]string, len(out.Tags))
		for _, t := range out.Tags {
			tags[aws.ToString(t.Key)] = aws.ToString(t.Value)
		}
		return tags, nil
	})
	return found, nil
}
