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

package subscription

import (
	"context"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsarn "github.com/aws/aws-sdk-go-v2/aws/arn"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/cloudkinds/provider-aws-services/apis/notification/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/aws/listing"
)

// listSubscriptions lists the region's subscriptions; one pending
// confirmation has no ARN yet, nothing an object could observe, and is
// left out.
func listSubscriptions(ctx context.Context, cfg aws.Config, _ int) ([]listing.Found, error) {
	var found []listing.Found
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
			f := listing.Found{ID: arn}
			// The identity as the kind's claims key it; SNS's protocol
			// names are the kind's own translation of the API's.
			f.Identity = Identity(&v1alpha1.Subscription{Spec: v1alpha1.SubscriptionSpec{ForProvider: v1alpha1.SubscriptionParameters{
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

// named returns the ARN a Subscription names in its external name, and the
// topic, protocol and endpoint its spec asks for: an object that subscribed
// and lost SNS's answer names its subscription by these.
func named(u *unstructured.Unstructured) []string {
	var out []string
	if v := meta.GetExternalName(u); strings.HasPrefix(v, "arn:") {
		out = append(out, v)
	}
	s := &v1alpha1.Subscription{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, s); err == nil {
		if id := Identity(s); id != "" {
			out = append(out, id)
		}
	}
	return out
}

// topicName is the name of a subscription's topic, from its ARN
// (arn:aws:sns:region:account:topic:id).
func topicName(arn string) string {
	a, err := awsarn.Parse(arn)
	if err != nil {
		return arn
	}
	topic, _, _ := strings.Cut(a.Resource, ":")
	return topic
}
