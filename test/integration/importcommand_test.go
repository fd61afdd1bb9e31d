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

package integration

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	"github.com/google/go-cmp/cmp"
	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	agentcorev1alpha1 "github.com/cloudkinds/provider-aws-services/apis/agentcorecontrol/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/aws/quota"
	"github.com/cloudkinds/provider-aws-services/internal/provider/importer"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/budget"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/ownership"
	"github.com/cloudkinds/provider-aws-services/test/emulator"
	"github.com/cloudkinds/provider-aws-services/test/emulator/seed"
)

// importer and seeder sign the import's calls and the setup's: someone
// outside the cluster, whose calls the provider's tests do not count.
const (
	importerKey = "AKIDIMPORTER"
	seederKey   = "AKIDSEEDER"
)

const (
	perKind     = 50 // resources of each kind
	managedEach = 10 // of them, named by objects of the cluster
)

// An importScene is an AWS region with 50 resources of each kind, 10 of each
// named by objects of the cluster, and resources the import must leave out
// for what the ownership rules say of them; and the import's run over it.
type importScene struct {
	ns, region string
	// free are the identifiers no object names, by kind: what the import
	// must print.
	free map[string][]string
	// leftOut are the reasons the import must give, by "Kind id".
	leftOut map[string]string
	// seeded is how many writes the emulator had once the scene was set.
	seeded int

	result           *importer.Result
	err              error
	manifests, notes string
	took             time.Duration
}

func ownerTags(kind, ns, name string) map[string]string {
	return map[string]string{resource.ExternalResourceTagKeyKind: kind, resource.ExternalResourceTagKeyNamespace: ns,
		resource.ExternalResourceTagKeyName: name, ownership.TagKeyUID: "3f1c-another-cluster"}
}

// newImportScene seeds region through the SDK, as resources made outside
// the cluster are, names 10 of each kind by paused objects of a namespace
// of the test's, and runs the import within quotas.
func newImportScene(t *testing.T, s *stack, region string, quotas budget.Quotas) *importScene {
	t.Helper()
	ctx := context.Background()
	s.aws.Uncounted(seederKey)
	s.aws.FaultFree(seederKey)
	s.aws.Uncounted(importerKey)
	s.aws.FaultFree(importerKey)
	cfg := aws.Config{Region: region, BaseEndpoint: aws.String(s.url), Credentials: credentials.NewStaticCredentialsProvider(seederKey, "s", "")}
	sc := &importScene{ns: namespace(t), region: region, free: map[string][]string{}, leftOut: map[string]string{}}
	must := func(r seed.Resource, err error) seed.Resource {
		t.Helper()
		if err != nil {
			t.Fatalf("seeding: %v", err)
		}
		return r
	}
	paused := func(mg resource.Managed, id string) {
		t.Helper()
		kind := mg.GetObjectKind().GroupVersionKind().Kind
		meta.AddAnnotations(mg, map[string]string{meta.AnnotationKeyReconciliationPaused: "true"})
		create(t, mg)
		sc.leftOut[kind+" "+id] = "managed by " + kind + " " + sc.ns + "/" + mg.GetName()
	}
	for i := range perKind {
		managed := i < managedEach
		key := must(seed.APIKeyCredentialProvider(ctx, cfg, fmt.Sprintf("key-%02d", i), map[string]string{"team": "agents"}))
		config := must(seed.EndpointConfig(ctx, cfg, fmt.Sprintf("config-%02d", i), nil))
		sub := must(seed.Subscription(ctx, cfg, "orders", i))
		stream := must(seed.DeliveryStream(ctx, cfg, fmt.Sprintf("stream-%02d", i), false, nil))
		ep := must(seed.Endpoint(ctx, cfg, fmt.Sprintf("endpoint-%02d", i)))
		if !managed {
			sc.free["APIKeyCredentialProvider"] = append(sc.free["APIKeyCredentialProvider"], key.Name)
			sc.free["EndpointConfig"] = append(sc.free["EndpointConfig"], config.Name)
			sc.free["Subscription"] = append(sc.free["Subscription"], sub.ARN)
			sc.free["DeliveryStream"] = append(sc.free["DeliveryStream"], stream.Name)
			sc.free["Endpoint"] = append(sc.free["Endpoint"], ep.Name)
			continue
		}
		k := newAPIKeyProvider(sc.ns, key.Name)
		k.Spec.ForProvider.Region = aws.String(region)
		k.SetGroupVersionKind(agentcorev1alpha1.APIKeyCredentialProviderGroupVersionKind)
		paused(k, key.Name)
		c := newEndpointConfig(sc.ns, config.Name, seed.Model)
		c.Spec.ForProvider.Region = aws.String(region)
		c.SetGroupVersionKind(schema.GroupVersionKind{Group: "mlplatform.services.k8s.aws", Version: "v1alpha1", Kind: "EndpointConfig"})
		paused(c, config.Name)
		topicARN := sub.ARN[:strings.LastIndex(sub.ARN, ":")]
		sb := newSubscription(sc.ns, fmt.Sprintf("subscription-%02d", i), topicARN)
		sb.Spec.ForProvider.Region = aws.String(region)
		meta.SetExternalName(sb, sub.ARN)
		sb.SetGroupVersionKind(schema.GroupVersionKind{Group: "notification.services.k8s.aws", Version: "v1alpha1", Kind: "Subscription"})
		paused(sb, sub.ARN)
		st := newStream(t, sc.ns, stream.Name)
		st.Spec.ForProvider.Region = aws.String(region)
		st.SetGroupVersionKind(schema.GroupVersionKind{Group: "streaming.services.k8s.aws", Version: "v1alpha1", Kind: "DeliveryStream"})
		paused(st, stream.Name)
		e := newEndpoint(sc.ns, ep.Name)
		e.Spec.ForProvider.Region = aws.String(region)
		e.SetGroupVersionKind(schema.GroupVersionKind{Group: "eventbus.services.k8s.aws", Version: "v1alpha1", Kind: "Endpoint"})
		paused(e, ep.Name)
	}

	// What the ownership rules keep out: resources whose owner tags name
	// an object of another cluster (of a namespace this cluster has not),
	// and, for the kinds AWS cannot tag, resources a namespace kept when
	// its object let them go: the provider's claim is their record.
	const foreign = "payments"
	must(seed.APIKeyCredentialProvider(ctx, cfg, "key-foreign", ownerTags("apikeycredentialprovider.agentcorecontrol.services.k8s.aws", foreign, "key")))
	must(seed.EndpointConfig(ctx, cfg, "config-foreign", ownerTags("endpointconfig.mlplatform.services.k8s.aws", foreign, "config")))
	must(seed.DeliveryStream(ctx, cfg, "stream-foreign", false, ownerTags("deliverystream.streaming.services.k8s.aws", foreign, "stream")))
	for _, kind := range []string{"APIKeyCredentialProvider", "EndpointConfig", "DeliveryStream"} {
		id := map[string]string{"APIKeyCredentialProvider": "key-foreign", "EndpointConfig": "config-foreign", "DeliveryStream": "stream-foreign"}[kind]
		sc.leftOut[kind+" "+id] = "its owner tags say " + strings.ToLower(kind) + "."
	}
	keptSub := must(seed.Subscription(ctx, cfg, "orders", perKind))
	keptEndpoint := must(seed.Endpoint(ctx, cfg, "endpoint-kept"))
	account := s.aws.Account()
	for _, kept := range []struct {
		kind   schema.GroupKind
		id     string
		fields string
	}{
		{schema.GroupKind{Group: "notification.services.k8s.aws", Kind: "Subscription"}, keptSub.ARN,
			fmt.Sprintf("sqs:arn:aws:sqs:%s:000000000000:queue-%d on %s", region, perKind, keptSub.ARN[:strings.LastIndex(keptSub.ARN, ":")])},
		{schema.GroupKind{Group: "eventbus.services.k8s.aws", Kind: "Endpoint"}, keptEndpoint.Name, keptEndpoint.Name},
	} {
		id := ownership.Identity{Endpoint: s.url, Account: account, Region: region, Kind: kept.kind, Fields: kept.fields}
		create(t, retainedClaim(ownership.ClaimName(id), strings.ToLower(kept.kind.String()), sc.ns))
		sc.leftOut[kept.kind.Kind+" "+kept.id] = "kept by namespace " + sc.ns
	}
	// A stream to S3 is no stream the provider manages: not listed.
	must(seed.DeliveryStream(ctx, cfg, "stream-to-s3", true, nil))
	sc.seeded = len(s.aws.Writes())

	var out, notes bytes.Buffer
	start := time.Now()
	sc.result, sc.err = importer.Run(ctx, importer.Config{
		AWS:      aws.Config{Region: region, BaseEndpoint: aws.String(s.url), Credentials: credentials.NewStaticCredentialsProvider(importerKey, "s", "")},
		Endpoint: s.url, Workers: 4,
		Budgets: budget.New(quotas),
		Kube:    cp.Client, ClaimsNamespace: "default",
		Manifests: importer.Options{Namespace: sc.ns, ProviderConfigKind: v1alpha1.ClusterProviderConfigKind, ProviderConfigName: "emulator", Region: region},
		Out:       &out, Err: &notes,
	})
	sc.took = time.Since(start)
	sc.manifests, sc.notes = out.String(), notes.String()
	t.Logf("import of %s took %s:\n%s", region, sc.took, sc.notes)
	return sc
}

// retainedClaim is the claim the provider keeps when an object of namespace
// let its resource go (deletion policy Orphan): the namespace keeps it.
func retainedClaim(name, kind, namespace string) *coordinationv1.Lease {
	holder := "uid-of-an-object-deleted"
	return &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name,
		Labels:      map[string]string{ownership.LabelClaim: "true", ownership.LabelHolder: holder},
		Annotations: map[string]string{"ownership.services.k8s.aws/holder": kind + " " + namespace + "/gone", "ownership.services.k8s.aws/purpose": string(ownership.Retained)},
	}, Spec: coordinationv1.LeaseSpec{HolderIdentity: &holder}}
}

// documents reads the manifests the import printed.
func documents(t *testing.T, manifests string) []*unstructured.Unstructured {
	t.Helper()
	var out []*unstructured.Unstructured
	for _, doc := range strings.Split(manifests, "---\n") {
		if strings.TrimSpace(doc) == "" {
			continue
		}
		u := &unstructured.Unstructured{}
		if err := yaml.Unmarshal([]byte(doc), &u.Object); err != nil {
			t.Fatalf("manifest %q: %v", doc, err)
		}
		out = append(out, u)
	}
	return out
}

// identifierOf is what a printed object names: its name field, or a
// subscription's ARN in its external name.
func identifierOf(u *unstructured.Unstructured) string {
	for _, field := range []string{"name", "endpointConfigName", "deliveryStreamName"} {
		if v, ok, _ := unstructured.NestedString(u.Object, "spec", "forProvider", field); ok {
			return v
		}
	}
	return meta.GetExternalName(u)
}

// Importing 250 resources that 50 objects of the cluster already manage
// prints the 200 others, each observe-only and naming its resource only; the
// ones whose owner tags or claims say they are another's are left out, and
// stderr says why.
func TestImportPrintsWhatNoObjectManages(t *testing.T) {
	s := provider(t)
	// At the budgets' default share of AWS's published quotas.
	sc := newImportScene(t, s, "ap-southeast-4", budget.Quotas{Share: budget.DefaultShare})
	if sc.err != nil {
		t.Fatalf("import: %v", sc.err)
	}

	got := map[string][]string{}
	for _, u := range documents(t, sc.manifests) {
		got[u.GetKind()] = append(got[u.GetKind()], identifierOf(u))
		if u.GetNamespace() != sc.ns {
			t.Errorf("%s %s: namespace %q, want %q", u.GetKind(), u.GetName(), u.GetNamespace(), sc.ns)
		}
		policies, _, _ := unstructured.NestedStringSlice(u.Object, "spec", "managementPolicies")
		ref, _, _ := unstructured.NestedStringMap(u.Object, "spec", "providerConfigRef")
		forProvider, _, _ := unstructured.NestedMap(u.Object, "spec", "forProvider")
		wantFields := 2 // region and the name field
		if u.GetKind() == "Subscription" {
			wantFields = 1
		}
		if !slices.Equal(policies, []string{"Observe"}) || ref["kind"] != "ClusterProviderConfig" || ref["name"] != "emulator" ||
			forProvider["region"] != sc.region || len(forProvider) != wantFields {
			t.Errorf("%s %s: want observe-only, the emulator config, region %s and the identifier only; got %v", u.GetKind(), u.GetName(), sc.region, u.Object["spec"])
		}
	}
	total := 0
	for kind, ids := range got {
		total += len(ids)
		slices.Sort(ids)
		want := slices.Sorted(slices.Values(sc.free[kind]))
		if diff := cmp.Diff(want, ids); diff != "" {
			t.Errorf("%s: printed (-want +got):\n%s", kind, diff)
		}
	}
	if want := 5 * (perKind - managedEach); total != want {
		t.Errorf("printed %d manifests, want %d", total, want)
	}

	// Every resource left out is told, with its reason.
	told := map[string]string{}
	for _, line := range strings.Split(sc.notes, "\n") {
		rest, ok := strings.CutPrefix(line, "left out: ")
		if !ok {
			continue
		}
		kind, rest, _ := strings.Cut(rest, " ")
		id, why, _ := strings.Cut(rest, ": ")
		told[kind+" "+id] = why
	}
	for key, why := range sc.leftOut {
		if !strings.HasPrefix(told[key], why) {
			t.Errorf("%s: told %q, want a reason that starts %q", key, told[key], why)
		}
	}
	if len(told) != len(sc.leftOut) {
		t.Errorf("told %d left out, want %d:\n%s", len(told), len(sc.leftOut), sc.notes)
	}
	if strings.Contains(sc.manifests, "stream-to-s3") || strings.Contains(sc.notes, "stream-to-s3") {
		t.Error("a stream to S3, which the provider does not manage, was listed")
	}

	// Listing reads only, as few calls as AWS's page sizes allow: one
	// list call per kind, a tag read per resource of a kind AWS tags, a
	// describe per stream.
	for op := range sc.result.Calls {
		if (quota.Operation{Name: strings.SplitN(op, ":", 2)[1]}).Write() {
			t.Errorf("the import called %s, which changes AWS", op)
		}
	}
	streams := perKind + 2 // and the foreign one, and the one to S3
	want := map[string]int{
		"STS:GetCallerIdentity":                                   1,
		"Bedrock AgentCore Control:ListApiKeyCredentialProviders": 1,
		"Bedrock AgentCore Control:ListTagsForResource":           perKind + 1,
		"SageMaker:ListEndpointConfigs":                           1,
		"SageMaker:ListTags":                                      perKind + 1,
		"SNS:ListSubscriptions":                                   1,
		"Firehose:ListDeliveryStreams":                            1,
		"Firehose:DescribeDeliveryStream":                         streams,
		"Firehose:ListTagsForDeliveryStream":                      streams - 1,
		"EventBridge:ListEndpoints":                               1,
	}
	if diff := cmp.Diff(want, sc.result.Calls); diff != "" {
		t.Errorf("AWS calls (-want +got):\n%s", diff)
	}
	if writes := writesIn(s.aws, sc.region, sc.seeded); len(writes) > 0 {
		t.Errorf("AWS was written in %s after the scene was set: %v", sc.region, writes)
	}
}

// writesIn returns the writes to region after the first n of all.
func writesIn(e *emulator.Server, region string, n int) []string {
	var out []string
	for _, w := range e.Writes()[n:] {
		if w.Region == region {
			out = append(out, w.Service+":"+w.Operation+" "+w.Resource)
		}
	}
	return out
}

// The 200 manifests an import printed, applied as they are, become 200
// Ready objects that observe their resources without one write to AWS.
func TestImportedManifestsBecomeReadyWithoutWrites(t *testing.T) {
	s := provider(t)
	// The listing's pace is TestImportPrintsWhatNoObjectManages's
	// business: here the provider's test quotas keep the test short.
	sc := newImportScene(t, s, "ap-southeast-5", testQuotas)
	if sc.err != nil {
		t.Fatalf("import: %v", sc.err)
	}
	docs := documents(t, sc.manifests)
	if len(docs) != 5*(perKind-managedEach) {
		t.Fatalf("printed %d manifests, want %d", len(docs), 5*(perKind-managedEach))
	}
	ctx := context.Background()
	for _, u := range docs {
		if err := cp.Client.Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner("kubectl"), client.ForceOwnership); err != nil {
			t.Fatalf("kubectl apply %s %s: %v", u.GetKind(), u.GetName(), err)
		}
	}
	eventually(t, 45*time.Second, "every imported object Ready", func() error {
		notReady := 0
		var first string
		for _, u := range docs {
			got := &unstructured.Unstructured{}
			got.SetGroupVersionKind(u.GroupVersionKind())
			if err := cp.Client.Get(ctx, client.ObjectKeyFromObject(u), got); err != nil {
				return err
			}
			conditions, _, _ := unstructured.NestedSlice(got.Object, "status", "conditions")
			ready := false
			for _, c := range conditions {
				c, _ := c.(map[string]any)
				if c["type"] == "Ready" && c["status"] == "True" {
					ready = true
				}
			}
			if !ready {
				notReady++
				if first == "" {
					first = fmt.Sprintf("%s %s: %v", u.GetKind(), u.GetName(), conditions)
				}
			}
		}
		if notReady > 0 {
			return fmt.Errorf("%d not Ready, such as %s", notReady, first)
		}
		return nil
	})
	if writes := writesIn(s.aws, sc.region, sc.seeded); len(writes) > 0 {
		t.Errorf("importing wrote to AWS: %v", writes)
	}
}
