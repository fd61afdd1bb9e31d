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

package endpoint

import (
	"context"
	"errors"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"

	"github.com/cloudkinds/provider-aws-services/internal/aws/listing"
)

func listEndpoints(ctx context.Context, cfg aws.Config, _ int) ([]listing.Found, error) {
	c := eventbridge.NewFromConfig(cfg)
	var found []listing.Found
	in := &eventbridge.ListEndpointsInput{MaxResults: aws.Int32(100)}
	seen := map[string]bool{}
	for {
		out, err := c.ListEndpoints(ctx, in)
		if err != nil {
			return nil, err
		}
		for _, e := range out.Endpoints {
			found = append(found, listing.Found{ID: aws.ToString(e.Name), Identity: aws.ToString(e.Name)})
		}
		if out.NextToken == nil {
			return found, nil
		}
		if seen[*out.NextToken] {
			// A token answered twice would be asked for again for ever.
			return nil, errors.New("events:ListEndpoints answered a page token it had answered before")
		}
		seen[*out.NextToken] = true
		in.NextToken = out.NextToken
	}
}
