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

package importer

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsarn "github.com/aws/aws-sdk-go-v2/aws/arn"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
	"github.com/aws/aws-sdk-go-v2/service/sns"

	notificationv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/notification/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/kinds/notification/subscription"
)

const (
	errTags        = "cannot read its tags, which say whether an object owns it: %w"
	errDestination = "cannot read its destination: %w"
)

// Each list function asks for AWS's largest page, so that a region's
// resources cost as few list calls as they can; the reads each resource
// needs (its tags; a stream's destination) are made by workers at once,
// each call waiting for its operation's budget (cmd/provider sets the
// budgets' middleware on cfg).

func listAPIKeyCredentialProviders(ctx context.Context, cfg aws.Config, workers int) ([]Found, error) {
	c := bedrockagentcorecontrol.NewFromConfig(cfg)
	var found []Found
	var arns []string
	p := bedrockagentcorecontrol.NewListApiKeyCredentialProvidersPaginator(c, &bedrockagentcorecontrol.ListApiKeyCredentialProvidersInput{MaxResults: aws.Int32(100)})
	for p.HasMorePages() {
		out, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, item := range out.CredentialProviders {
			found = append(found, Found{ID: aws.ToString(item.Name), Identity: aws.ToString(item.Name)})
			arns = append(arns, aws.ToString(item.CredentialProviderArn))
		}
	}
	readTags(ctx, found, workers, func(i int) (map[string]string, error) {
		out, err := c.ListTagsForResource(ctx, &bedrockagentcorecontrol.ListTagsForResourceInput{ResourceArn: aws.String(arns[i])})
		if err != nil {
			return nil, fmt.Errorf(errTags, err)
		}
		return out.Tags, nil
	})
	return found, nil
}

func listEndpointConfigs(ctx context.Context, cfg aws.Config, workers int) ([]Found, error) {
	c := sagemaker.NewFromConfig(cfg)
	var found []Found
	var arns []string
	p := sagemaker.NewListEndpointConfigsPaginator(c, &sagemaker.ListEndpointConfigsInput{MaxResults: aws.Int32(100)})
	for p.HasMorePages() {
		out, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, item := range out.EndpointConfigs {
			found = append(found, Found{ID: aws.ToString(item.EndpointConfigName), Identity: aws.ToString(item.EndpointConfigName)})
			arns = append(arns, aws.ToString(item.EndpointConfigArn))
		}
	}
	readTags(ctx, found, workers, func(i int) (map[string]string, error) {
		// A resource has at most 50 tags: one page of 100 holds them.
		out, err := c.ListTags(ctx, &sagemaker.ListTagsInput{ResourceArn: aws.String(arns[i]), MaxResults: aws.Int32(100)})
		if err != nil {
			return nil, fmt.Errorf(errTags, err)
		}
		tags := make(map[string]string, len(out.Tags))
		for _, t := range out.Tags {
			tags[aws.ToString(t.Key)] = aws.ToString(t.Value)
		}
		return tags, nil
	})
	return found, nil
}

// listSubscriptions lists the region's subscriptions; one pending
// confirmation has no ARN yet, nothing an object could observe, and is
// left out.
func listSubscriptions(ctx context.Context, cfg aws.Config, _ int) ([]Found, error) {
	var found []Found
	p := sns.NewListSubscriptionsPaginator(sns.NewFromConfig(cfg), &sns.ListSubscriptionsInput{})
	for p.HasMorePages() {
		out, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, item := range out.Subscriptions {
			arn := aws.ToString(item.SubscriptionArn)
			if _, err := awsarn.Parse(arn); err != nil {
				continue
			}
			f := Found{ID: arn}
			// The identity as the kind's claims key it; SNS's protocol
			// names are the kind's own translation of the API's.
			f.Identity = subscription.Identity(&notificationv1alpha1.Subscription{Spec: notificationv1alpha1.SubscriptionSpec{ForProvider: notificationv1alpha1.SubscriptionParameters{
				Protocol: aws.ToString(item.Protocol), Endpoint: item.Endpoint, TopicARN: item.TopicArn,
			}}})
			if topic, err := awsarn.Parse(aws.ToString(item.TopicArn)); err == nil {
				f.Account, f.Region = topic.AccountID, topic.Region
			}
			found = append(found, f)
		}
	}
	return found, nil
}

// listDeliveryStreams lists the region's streams to an HTTP endpoint, the
// only destination the provider manages: which destination a stream has
// only DescribeDeliveryStream tells.
func listDeliveryStreams(ctx context.Context, cfg aws.Config, workers int) ([]Found, error) {
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
	found := make([]Found, len(names))
	http := make([]bool, len(names))
	readTags(ctx, found, workers, func(i int) (map[string]string, error) {
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
			return nil, fmt.Errorf(errTags, err)
		}
		tags := make(map[string]string, len(out.Tags))
		for _, t := range out.Tags {
			tags[aws.ToString(t.Key)] = aws.ToString(t.Value)
		}
		return tags, nil
	})
	var out []Found
	for i, f := range found {
		// A stream whose destination could not be read is kept, with
		// its reason: it may be one to import.
		if http[i] || f.Unreadable != "" {
			out = append(out, f)
		}
	}
	return out, nil
}

func listEndpoints(ctx context.Context, cfg aws.Config, _ int) ([]Found, error) {
	c := eventbridge.NewFromConfig(cfg)
	var found []Found
	in := &eventbridge.ListEndpointsInput{MaxResults: aws.Int32(100)}
	seen := map[string]bool{}
	for {
		out, err := c.ListEndpoints(ctx, in)
		if err != nil {
			return nil, err
		}
		for _, e := range out.Endpoints {
			found = append(found, Found{ID: aws.ToString(e.Name), Identity: aws.ToString(e.Name)})
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

// readTags reads the tags of each found resource with workers at once; a
// resource whose tags cannot be read says why (the error read returns), for
// its ownership cannot be told.
func readTags(ctx context.Context, found []Found, workers int, read func(i int) (map[string]string, error)) {
	next := make(chan int)
	var wg sync.WaitGroup
	for range max(1, workers) {
		wg.Go(func() {
			for i := range next {
				tags, err := read(i)
				if err != nil {
					found[i].Unreadable = err.Error()
					continue
				}
				found[i].Tags = tags
			}
		})
	}
	for i := range found {
		select {
		case next <- i:
		case <-ctx.Done():
			// Stopped: what was not read is not told.
			found[i].Unreadable = ctx.Err().Error()
		}
	}
	close(next)
	wg.Wait()
}
