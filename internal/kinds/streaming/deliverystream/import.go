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

package deliverystream

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/cloudkinds/provider-aws-services/internal/aws/listing"
)

// errDestination is the reason a stream whose destination cannot be read
// is kept for an admin to judge.
const errDestination = "cannot read its destination: %w"

// listDeliveryStreams lists the region's streams to an HTTP endpoint, the
// only destination the provider manages: which destination a stream has
// only DescribeDeliveryStream tells.
func listDeliveryStreams(ctx context.Context, cfg aws.Config, workers int) ([]listing.Found, error) {
	c := firehose.NewFromConfig(cfg)
	var names []string
	in := &firehose.ListDeliveryStreamsInput{Limit: aws.Int32(10000)}
	for {
		out, err := c.ListDeliveryStreams(ctx, in)
		if err != nil {
			return nil, err
		}
		names = append(names, out.DeliveryStreamNames...)
		if !aws.ToBool(out.HasMoreDeliveryStreams) || len(out.DeliveryStreamNames) == 0 {
			break
		}
		// Names come in ascending order, after the start: an answer that
		// does not move past it would be asked for again for ever.
		last := names[len(names)-1]
		if last <= aws.ToString(in.ExclusiveStartDeliveryStreamName) {
			return nil, errors.New("firehose:ListDeliveryStreams answered a page that does not move past its start")
		}
		in.ExclusiveStartDeliveryStreamName = aws.String(last)
	}
	found := make([]listing.Found, len(names))
	http := make([]bool, len(names))
	listing.ReadTags(ctx, found, workers, func(i int) (map[string]string, error) {
		found[i].ID, found[i].Identity = names[i], names[i]
		d, err := c.DescribeDeliveryStream(ctx, &firehose.DescribeDeliveryStreamInput{DeliveryStreamName: aws.String(names[i])})
		if err != nil {
			return nil, fmt.Errorf(errDestination, err)
		}
		for _, dest := range d.DeliveryStreamDescription.Destinations {
			http[i] = http[i] || dest.HttpEndpointDestinationDescription != nil
		}
		if !http[i] {
			return nil, nil
		}
		// A stream has at most 50 tags: one page of 50 holds them.
		out, err := c.ListTagsForDeliveryStream(ctx, &firehose.ListTagsForDeliveryStreamInput{DeliveryStreamName: aws.String(names[i]), Limit: aws.Int32(50)})
		if err != nil {
			return nil, fmt.Errorf(listing.ErrTags, err)
		}
		tags := make(map[string]string, len(out.Tags))
		for _, t := range out.Tags {
			tags[aws.ToString(t.Key)] = aws.ToString(t.Value)
		}
		return tags, nil
	})
	var out []listing.Found
	for i, f := range found {
		// A stream whose destination could not be read is kept, with
		// its reason: it may be one to import.
		if http[i] || f.Unreadable != "" {
			out = append(out, f)
		}
	}
	return out, nil
}
