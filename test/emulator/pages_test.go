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
	"fmt"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/google/go-cmp/cmp"

	"github.com/cloudkinds/provider-aws-services/test/emulator/seed"
)

// Each list operation pages as AWS's model says: a page is at most the size
// asked for (or the default), the next token or the flag says whether more
// follow, every resource of the region is listed exactly once, and those of
// another region never.
func TestListOperationsPage(t *testing.T) {
	_, cfg, _ := start(t, "AKIDEMO")
	other := cfg.Copy()
	other.Region = "eu-west-1"
	const n = 23
	cases := map[string]struct {
		seed func(cfg aws.Config, i int) (seed.Resource, error)
		// list lists every page, each of at most size (0: the
		// default), and returns the names or ARNs listed and the size
		// of each page.
		list func(cfg aws.Config, size int32) (names []string, pages []int, err error)
		// defaultSize is the page size without one asked for.
		defaultSize int
		// wantARN: the listing names resources by ARN.
		wantARN bool
	}{
		"ListApiKeyCredentialProviders": {
			seed: func(cfg aws.Config, i int) (seed.Resource, error) {
				return seed.APIKeyCredentialProvider(ctx, cfg, fmt.Sprintf("key-%02d", i), nil)
			},
			list: func(cfg aws.Config, size int32) ([]string, []int, error) {
				in := &bedrockagentcorecontrol.ListApiKeyCredentialProvidersInput{}
				if size > 0 {
					in.MaxResults = aws.Int32(size)
				}
				var names []string
				var pages []int
				p := bedrockagentcorecontrol.NewListApiKeyCredentialProvidersPaginator(bedrockagentcorecontrol.NewFromConfig(cfg), in)
				for p.HasMorePages() {
					out, err := p.NextPage(ctx)
					if err != nil {
						return nil, nil, err
					}
					pages = append(pages, len(out.CredentialProviders))
					for _, c := range out.CredentialProviders {
						names = append(names, aws.ToString(c.Name))
					}
				}
				return names, pages, nil
			},
			defaultSize: 10,
		},
		"ListEndpointConfigs": {
			seed: func(cfg aws.Config, i int) (seed.Resource, error) {
				return seed.EndpointConfig(ctx, cfg, fmt.Sprintf("config-%02d", i), nil)
			},
			list: func(cfg aws.Config, size int32) ([]string, []int, error) {
				in := &sagemaker.ListEndpointConfigsInput{}
				if size > 0 {
					in.MaxResults = aws.Int32(size)
				}
				var names []string
				var pages []int
				p := sagemaker.NewListEndpointConfigsPaginator(sagemaker.NewFromConfig(cfg), in)
				for p.HasMorePages() {
					out, err := p.NextPage(ctx)
					if err != nil {
						return nil, nil, err
					}
					pages = append(pages, len(out.EndpointConfigs))
					for _, c := range out.EndpointConfigs {
						names = append(names, aws.ToString(c.EndpointConfigName))
					}
				}
				return names, pages, nil
			},
			defaultSize: 10,
		},
		"ListSubscriptions": {
			seed: func(cfg aws.Config, i int) (seed.Resource, error) {
				return seed.Subscription(ctx, cfg, fmt.Sprintf("topic-%d", i%3), i)
			},
			list: func(cfg aws.Config, _ int32) ([]string, []int, error) {
				var arns []string
				var pages []int
				p := sns.NewListSubscriptionsPaginator(sns.NewFromConfig(cfg), &sns.ListSubscriptionsInput{})
				for p.HasMorePages() {
					out, err := p.NextPage(ctx)
					if err != nil {
						return nil, nil, err
					}
					pages = append(pages, len(out.Subscriptions))
					for _, s := range out.Subscriptions {
						arns = append(arns, aws.ToString(s.SubscriptionArn))
					}
				}
				return arns, pages, nil
			},
			defaultSize: 100,
			wantARN:     true,
		},
		"ListDeliveryStreams": {
			seed: func(cfg aws.Config, i int) (seed.Resource, error) {
				return seed.DeliveryStream(ctx, cfg, fmt.Sprintf("stream-%02d", i), i%2 == 0, nil)
			},
			list: func(cfg aws.Config, size int32) ([]string, []int, error) {
				c := firehose.NewFromConfig(cfg)
				var names []string
				var pages []int
				in := &firehose.ListDeliveryStreamsInput{}
				if size > 0 {
					in.Limit = aws.Int32(size)
				}
				for {
					out, err := c.ListDeliveryStreams(ctx, in)
					if err != nil {
						return nil, nil, err
					}
					pages = append(pages, len(out.DeliveryStreamNames))
					names = append(names, out.DeliveryStreamNames...)
					if !aws.ToBool(out.HasMoreDeliveryStreams) {
						return names, pages, nil
					}
					in.ExclusiveStartDeliveryStreamName = aws.String(names[len(names)-1])
				}
			},
			defaultSize: 10,
		},
		"ListEndpoints": {
			seed: func(cfg aws.Config, i int) (seed.Resource, error) {
				return seed.Endpoint(ctx, cfg, fmt.Sprintf("endpoint-%02d", i))
			},
			list: func(cfg aws.Config, size int32) ([]string, []int, error) {
				c := eventbridge.NewFromConfig(cfg)
				var names []string
				var pages []int
				in := &eventbridge.ListEndpointsInput{}
				if size > 0 {
					in.MaxResults = aws.Int32(size)
				}
				for {
					out, err := c.ListEndpoints(ctx, in)
					if err != nil {
						return nil, nil, err
					}
					pages = append(pages, len(out.Endpoints))
					for _, e := range out.Endpoints {
						names = append(names, aws.ToString(e.Name))
					}
					if out.NextToken == nil {
						return names, pages, nil
					}
					in.NextToken = out.NextToken
				}
			},
			defaultSize: 10,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var want []string
			for i := range n {
				r := must(tc.seed(cfg, i))(t)
				if tc.wantARN {
					want = append(want, r.ARN)
				} else {
					want = append(want, r.Name)
				}
			}
			must(tc.seed(other, n))(t) // another region's
			slices.Sort(want)

			for _, size := range []int32{0, 7, 100} {
				names, pages, err := tc.list(cfg, size)
				if err != nil {
					t.Fatalf("page size %d: %v", size, err)
				}
				slices.Sort(names)
				if diff := cmp.Diff(want, names); diff != "" {
					t.Errorf("page size %d: listed (-want +got):\n%s", size, diff)
				}
				per := int(size)
				if per == 0 || tc.defaultSize == 100 {
					per = tc.defaultSize
				}
				var wantPages []int
				for left := n; left > 0; left -= per {
					wantPages = append(wantPages, min(left, per))
				}
				if diff := cmp.Diff(wantPages, pages); diff != "" {
					t.Errorf("page size %d: page lengths (-want +got):\n%s", size, diff)
				}
			}
		})
	}
}

// A page size outside the model's range, and a token the service never
// gave, are refused with AWS's codes.
func TestListOperationsRefuse(t *testing.T) {
	_, cfg, _ := start(t, "AKIDEMO")
	_, err := bedrockagentcorecontrol.NewFromConfig(cfg).ListApiKeyCredentialProviders(ctx, &bedrockagentcorecontrol.ListApiKeyCredentialProvidersInput{MaxResults: aws.Int32(101)})
	wantCode(t, err, "ValidationException", "maxResults")
	_, err = bedrockagentcorecontrol.NewFromConfig(cfg).ListApiKeyCredentialProviders(ctx, &bedrockagentcorecontrol.ListApiKeyCredentialProvidersInput{NextToken: aws.String("%%%")})
	wantCode(t, err, "ValidationException", "nextToken")
	_, err = sagemaker.NewFromConfig(cfg).ListEndpointConfigs(ctx, &sagemaker.ListEndpointConfigsInput{MaxResults: aws.Int32(101)})
	wantCode(t, err, "ValidationException", "maxResults")
	_, err = sns.NewFromConfig(cfg).ListSubscriptions(ctx, &sns.ListSubscriptionsInput{NextToken: aws.String("%%%")})
	wantCode(t, err, "InvalidParameter", "NextToken")
	_, err = firehose.NewFromConfig(cfg).ListDeliveryStreams(ctx, &firehose.ListDeliveryStreamsInput{Limit: aws.Int32(10001)})
	wantCode(t, err, "ValidationException", "limit")
	_, err = eventbridge.NewFromConfig(cfg).ListEndpoints(ctx, &eventbridge.ListEndpointsInput{NextToken: aws.String("%%%")})
	wantCode(t, err, "ValidationException", "NextToken")
}
