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

package firehose

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	"github.com/aws/aws-sdk-go-v2/service/firehose/types"

	"github.com/cloudkinds/provider-aws-services/internal/aws/tags"
)

// TagInput sets tags on a stream.
func TagInput(name string, set map[string]string) *firehose.TagDeliveryStreamInput {
	return &firehose.TagDeliveryStreamInput{DeliveryStreamName: aws.String(name), Tags: TagsToAdd(set)}
}

// UntagInput removes tags from a stream.
func UntagInput(name string, keys []string) *firehose.UntagDeliveryStreamInput {
	return &firehose.UntagDeliveryStreamInput{DeliveryStreamName: aws.String(name), TagKeys: keys}
}

// TagsToAdd turns tags into Firehose's shape, in key order.
func TagsToAdd(m map[string]string) []types.Tag {
	return tags.Sorted(m, func(k, v string) types.Tag { return types.Tag{Key: aws.String(k), Value: aws.String(v)} })
}

// TagMap turns Firehose's tags into a map.
func TagMap(ts []types.Tag) map[string]string {
	return tags.Map(ts, func(t types.Tag) (*string, *string) { return t.Key, t.Value })
}

// TagService is how Firehose lists, removes and sets the tags of the
// delivery stream name.
func TagService(api API, name string) tags.Service {
	return tags.Service{
		Of: "delivery stream",
		List: func(ctx context.Context) (map[string]string, error) {
			out, err := api.ListTagsForDeliveryStream(ctx, &firehose.ListTagsForDeliveryStreamInput{DeliveryStreamName: aws.String(name)})
			if err != nil {
				return nil, err
			}
			return TagMap(out.Tags), nil
		},
		Remove: func(ctx context.Context, keys []string) error {
			return tags.Err(api.UntagDeliveryStream(ctx, UntagInput(name, keys)))
		},
		Set: func(ctx context.Context, set map[string]string) error {
			return tags.Err(api.TagDeliveryStream(ctx, TagInput(name, set)))
		},
	}
}
