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

package chaos

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	agentcorev1alpha1 "github.com/cloudkinds/provider-aws-services/apis/agentcorecontrol/v1alpha1"
	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	eventbusv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/eventbus/v1alpha1"
	mlplatformv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/mlplatform/v1alpha1"
	notificationv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/notification/v1alpha1"
	streamingv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/test/workload"
)

// The objects of the storm, by kind, and what their last update set.
const (
	before = "v0"
	after  = "v1"
	model  = "chaos-model"
)

// object returns the i-th object of a kind, at version v of its updatable
// field.
func object(kind, ns string, i int, topicARN, v string) resource.Managed {
	return workload.Set{TopicARN: topicARN, Model: model}.Object(kind, ns, fmt.Sprintf("chaos-%s-%d", strings.ToLower(kind), i), v)
}

var kinds = workload.Kinds

// createSecrets creates the Secrets the objects of a namespace read.
func createSecrets(t *testing.T, kube client.Client, ns string, secrets map[string]string) {
	t.Helper()
	for name, value := range secrets {
		key := map[string]string{workload.AccessKeySecret: workload.AccessKeyKey, workload.APIKeySecret: workload.APIKeyKey}[name]
		if err := kube.Create(context.Background(), &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, StringData: map[string]string{key: value}}); err != nil {
			t.Fatal(err)
		}
	}
}

// An arrival is when, into the storm, an object is created.
type arrival struct {
	at time.Duration
	mg resource.Managed
}

// pairGap is how long after A of a colliding pair its B arrives: more than
// the one-second granularity of creation timestamps, so that the API server
// records A as the older object, and long enough that a provider that
// reconciles new objects at once asks for A's resource first; short enough
// that A's create is still exposed to the storm's throttling, errors and
// kills when B comes, and may not have reached AWS yet: the order in
// Kubernetes, not the luck of the first create to get through, is what must
// decide the owner.
const pairGap = 2 * time.Second

// arrivals spreads the storm's objects evenly over the first half of the
// storm, in random order, and each pair at a random moment of it, B pairGap
// after A.
func arrivals(rng *rand.Rand, st storm, all []resource.Managed, pairs []pair) []arrival {
	half := st.length / 2
	step := half / time.Duration(len(all))
	out := make([]arrival, 0, len(all)+2*len(pairs))
	for j, i := range rng.Perm(len(all)) {
		out = append(out, arrival{at: time.Duration(j) * step, mg: all[i]})
	}
	span := max(half-pairGap, time.Millisecond)
	for _, pr := range pairs {
		at := time.Duration(rng.Int64N(int64(span)))
		out = append(out, arrival{at: at, mg: pr.a}, arrival{at: at + pairGap, mg: pr.b})
	}
	slices.SortStableFunc(out, func(a, b arrival) int { return cmp.Compare(a.at, b.at) })
	return out
}

// bump moves an object's updatable field to the version after, retrying on
// conflicts with the provider's own writes.
func bump(t *testing.T, kube client.Client, mg resource.Managed) {
	t.Helper()
	setVersion(t, kube, mg, after)
}

// setVersion sets an object's updatable field to version v, retrying on
// conflicts with the provider's own writes.
func setVersion(t *testing.T, kube client.Client, mg resource.Managed, v string) {
	t.Helper()
	for range 50 {
		if err := kube.Get(context.Background(), client.ObjectKeyFromObject(mg), mg); err != nil {
			t.Fatal(err)
		}
		switch o := mg.(type) {
		case *streamingv1alpha1.DeliveryStream:
			o.Spec.ForProvider.Tags = []common.Tag{{Key: aws.String("version"), Value: aws.String(v)}}
		case *notificationv1alpha1.Subscription:
			o.Spec.ForProvider.FilterPolicy = aws.String(workload.FilterPolicy(v))
		case *eventbusv1alpha1.Endpoint:
			o.Spec.ForProvider.Description = aws.String(v)
		case *mlplatformv1alpha1.EndpointConfig:
			o.Spec.ForProvider.Tags = []common.Tag{{Key: aws.String("version"), Value: aws.String(v)}}
		case *agentcorev1alpha1.APIKeyCredentialProvider:
			o.Spec.ForProvider.Tags = map[string]string{"version": v}
		}
		err := kube.Update(context.Background(), mg)
		if err == nil {
			return
		}
		if !kerrors.IsConflict(err) {
			t.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("cannot update %s", mg.GetName())
}

// notSettled says why an object is not where it should end: gone when it
// was deleted, Ready and Synced otherwise.
func notSettled(ctx context.Context, kube client.Client, mg resource.Managed, deleted bool) string {
	o := mg.DeepCopyObject().(resource.Managed) //nolint:forcetypeassert // a copy of its own type
	err := kube.Get(ctx, client.ObjectKeyFromObject(mg), o)
	if deleted {
		if kerrors.IsNotFound(err) {
			return ""
		}
		return "deleted, still there: " + conditionsOf(o)
	}
	if err != nil {
		return err.Error()
	}
	r, s := o.GetCondition(xpv2.TypeReady), o.GetCondition(xpv2.TypeSynced)
	if r.Status != corev1.ConditionTrue || s.Status != corev1.ConditionTrue {
		return conditionsOf(o)
	}
	// Synced must speak of the last spec, not of one before the last update.
	if s.ObservedGeneration != o.GetGeneration() {
		return fmt.Sprintf("Synced for generation %d, the spec is at %d", s.ObservedGeneration, o.GetGeneration())
	}
	return ""
}

func conditionsOf(mg resource.Managed) string {
	r, s := mg.GetCondition(xpv2.TypeReady), mg.GetCondition(xpv2.TypeSynced)
	return fmt.Sprintf("Ready=%s %s %q, Synced=%s %s %q", r.Status, r.Reason, r.Message, s.Status, s.Reason, s.Message)
}

func kindOf(mg resource.Managed) string {
	return strings.TrimPrefix(fmt.Sprintf("%T", mg), "*v1alpha1.")
}
