//go:build integration

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

package scale

import (
	"context"
	"fmt"
	"strings"

	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	corev1 "k8s.io/api/core/v1"
	kmeta "k8s.io/apimachinery/pkg/api/meta"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/test/workload"
)

// model is the SageMaker model the benchmark's EndpointConfigs serve.
const model = "scale-model"

// kinds are the kinds the benchmark creates: all five, unless BENCH_KINDS
// names some.
var kinds = append([]string{}, workload.Kinds...)

// object returns the i-th object of a kind.
func object(kind, ns string, i int, topicARN string) resource.Managed {
	return workload.Set{TopicARN: topicARN, Model: model}.Object(kind, ns, fmt.Sprintf("scale-%s-%d", strings.ToLower(kind), i), "scale")
}

// settled counts, with one list per kind, the objects of namespace ns that
// are Ready and Synced, and returns one that is not, with its conditions.
func settled(ctx context.Context, kube client.Client, ns string) (int, string, error) {
	n, example := 0, ""
	for _, kind := range kinds {
		l := workload.List(kind)
		if err := kube.List(ctx, l, client.InNamespace(ns)); err != nil {
			return 0, "", err
		}
		items, err := kmeta.ExtractList(l)
		if err != nil {
			return 0, "", err
		}
		for _, o := range items {
			mg, ok := o.(resource.Managed)
			if !ok {
				return 0, "", fmt.Errorf("%T is not a managed resource", o)
			}
			r, s := mg.GetCondition(xpv2.TypeReady), mg.GetCondition(xpv2.TypeSynced)
			if r.Status == corev1.ConditionTrue && s.Status == corev1.ConditionTrue {
				n++
				continue
			}
			if example == "" {
				example = fmt.Sprintf("%s/%s: Ready=%s %s %q, Synced=%s %s %q", kind, mg.GetName(), r.Status, r.Reason, r.Message, s.Status, s.Reason, s.Message)
			}
		}
	}
	return n, example, nil
}
