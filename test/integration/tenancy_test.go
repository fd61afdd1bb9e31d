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
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/google/go-cmp/cmp"
	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	streamingv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	apisv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/provider/config"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/ackannotations"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/ownership"
	"github.com/cloudkinds/provider-aws-services/test/emulator"
)

// TestAnEndpointIsPartOfTheIdentity: a tenant's ProviderConfig whose endpoint
// answers the shared account's ID holds no name of that account: the team
// entitled to the name creates it on the shared endpoint although the
// tenant's object asked first.
func TestAnEndpointIsPartOfTheIdentity(t *testing.T) {
	s := provider(t)
	// The tenant's own endpoint, answering the same account ID as the
	// shared one.
	fake := emulator.New(emulator.Options{})
	srv := httptest.NewServer(fake)
	defer srv.Close()

	tenant, team := namespace(t), namespace(t)
	create(t, secretWith(tenant, "aws", "credentials", "[default]\naws_access_key_id = AKIDTENANT\naws_secret_access_key = s\n"))
	create(t, &apisv1alpha1.ProviderConfig{ObjectMeta: metav1.ObjectMeta{Namespace: tenant, Name: "own"}, Spec: apisv1alpha1.ProviderConfigSpec{
		Credentials: apisv1alpha1.ProviderCredentials{Source: apisv1alpha1.CredentialsSourceSecret,
			SecretRef: &xpv2.SecretKeySelector{SecretReference: xpv2.SecretReference{Name: "aws", Namespace: tenant}, Key: "credentials"}},
		Region:   aws.String("us-east-1"),
		Endpoint: &apisv1alpha1.EndpointOverride{URL: srv.URL},
	}})
	name := short("orders")
	squatter := newEndpoint(tenant, name)
	squatter.Spec.ProviderConfigReference = &xpv2.ProviderConfigReference{Kind: apisv1alpha1.ProviderConfigKind, Name: "own"}
	create(t, squatter)
	eventually(t, 30*time.Second, "the tenant's endpoint Ready on its own endpoint", func() error { return isReady(t, squatter) })

	entitled := newEndpoint(team, name)
	create(t, entitled)
	eventually(t, 30*time.Second, "the entitled team's endpoint Ready on the shared endpoint", func() error { return isReady(t, entitled) })
	if n := s.aws.CallsFor(name)["events:CreateEndpoint"]; n != 1 {
		t.Errorf("CreateEndpoint on the shared endpoint: %d calls, want 1", n)
	}
	if n := fake.CallsFor(name)["events:CreateEndpoint"]; n != 1 {
		t.Errorf("CreateEndpoint on the tenant's endpoint: %d calls, want 1", n)
	}
	remove(t, entitled)
	remove(t, squatter)
}

// TestANameIsHeldOnlyByAnObjectThatReachesAWS: objects that ask first for a
// name through a config that does not exist, or does not admit their
// namespace, never reach AWS and hold nothing against the team entitled to
// the name.
func TestANameIsHeldOnlyByAnObjectThatReachesAWS(t *testing.T) {
	s := provider(t)
	squatters, team := namespace(t), namespace(t)
	restricted := &apisv1alpha1.ClusterProviderConfig{ObjectMeta: metav1.ObjectMeta{Name: short("restricted")}, Spec: apisv1alpha1.ClusterProviderConfigSpec{
		ProviderConfigSpec: apisv1alpha1.ProviderConfigSpec{
			Credentials: apisv1alpha1.ProviderCredentials{Source: apisv1alpha1.CredentialsSourceNone},
			Region:      aws.String("us-east-1"), Endpoint: &apisv1alpha1.EndpointOverride{URL: s.url},
		},
		Namespaces: &apisv1alpha1.NamespaceSelector{Names: []string{team}},
	}}
	create(t, restricted)

	name := short("orders")
	missing := newEndpoint(squatters, name)
	missing.Name = "through-a-missing-config"
	missing.Spec.ProviderConfigReference = &xpv2.ProviderConfigReference{Kind: apisv1alpha1.ProviderConfigKind, Name: "does-not-exist"}
	unadmitted := newEndpoint(squatters, name)
	unadmitted.Name = "through-a-config-that-does-not-admit-it"
	unadmitted.Spec.ProviderConfigReference = &xpv2.ProviderConfigReference{Kind: apisv1alpha1.ClusterProviderConfigKind, Name: restricted.Name}
	create(t, missing)
	create(t, unadmitted)
	// Both asked first, by a second at least.
	time.Sleep(1100 * time.Millisecond)

	entitled := newEndpoint(team, name)
	entitled.Spec.ProviderConfigReference = &xpv2.ProviderConfigReference{Kind: apisv1alpha1.ClusterProviderConfigKind, Name: restricted.Name}
	create(t, entitled)
	eventually(t, 30*time.Second, "the entitled team's endpoint Ready", func() error { return isReady(t, entitled) })
	remove(t, entitled)
	remove(t, missing)
	remove(t, unadmitted)

	// A ClusterProviderConfig says on its status whether it is open to
	// every namespace.
	for cfg, want := range map[string]xpv2.ConditionReason{"emulator": config.ReasonOpenToEveryNamespace, restricted.Name: config.ReasonNamespacesSelected} {
		pc := &apisv1alpha1.ClusterProviderConfig{ObjectMeta: metav1.ObjectMeta{Name: cfg}}
		eventually(t, 20*time.Second, cfg+" says whether it is open", func() error {
			if err := cp.Client.Get(context.Background(), client.ObjectKeyFromObject(pc), pc); err != nil {
				return err
			}
			if c := pc.GetCondition(config.TypeNamespacesLimited); c.Reason != want {
				return fmt.Errorf("%s: %s %s %q", config.TypeNamespacesLimited, c.Status, c.Reason, c.Message)
			}
			return nil
		})
	}
}

// TestWhatANamespaceRetainedStaysItsOwn: a stream team A deleted with
// deletion policy retain is not adopted, changed or read by team B, while an
// object of team A may adopt it again.
func TestWhatANamespaceRetainedStaysItsOwn(t *testing.T) {
	s := provider(t)
	ctx := context.Background()
	teamA, teamB := namespace(t), namespace(t)
	name := short("retained")
	kept := newStream(t, teamA, name)
	create(t, kept)
	eventually(t, 30*time.Second, "team A's stream Ready", func() error { return isReady(t, kept) })
	change(t, kept, func(mg *streamingv1alpha1.DeliveryStream) {
		meta.AddAnnotations(mg, map[string]string{ackannotations.AnnotationDeletionPolicy: ackannotations.DeletionPolicyRetain})
	})
	remove(t, kept)
	look := firehose.NewFromConfig(aws.Config{Region: "us-east-1", BaseEndpoint: aws.String(s.url), Credentials: credentials.NewStaticCredentialsProvider("AKIDLOOK", "s", "")})
	s.aws.Uncounted("AKIDLOOK")
	tagsBefore, err := look.ListTagsForDeliveryStream(ctx, &firehose.ListTagsForDeliveryStreamInput{DeliveryStreamName: aws.String(name)})
	if err != nil {
		t.Fatalf("the retained stream is gone: %v", err)
	}
	writesBefore := writes(s.aws.CallsFor(name), "firehose")

	adopter := newStream(t, teamB, name)
	meta.AddAnnotations(adopter, map[string]string{ownership.AnnotationAdoptionPolicy: ownership.AdoptionPolicyAdopt})
	create(t, adopter)
	refused(t, adopter, "was kept on AWS for its namespace by an object of another namespace", "annotating the claim, the Lease")
	tellsNothingOf(t, adopter, teamA)

	reader := newStream(t, teamB, name+"-reader")
	reader.Spec.ForProvider.DeliveryStreamName = name
	reader.SetManagementPolicies(xpv2.ManagementPolicies{xpv2.ManagementActionObserve})
	create(t, reader)
	refused(t, reader, "was kept on AWS for its namespace")
	if md := reader.Status.AtProvider.ACKResourceMetadata; md != nil && md.ARN != nil {
		t.Errorf("a refused observe-only object shows the stream's ARN: %s", *md.ARN)
	}
	if diff := cmp.Diff(writesBefore, writes(s.aws.CallsFor(name), "firehose")); diff != "" {
		t.Errorf("team B wrote to team A's retained stream: -before, +after:\n%s", diff)
	}
	tagsAfter, err := look.ListTagsForDeliveryStream(ctx, &firehose.ListTagsForDeliveryStreamInput{DeliveryStreamName: aws.String(name)})
	if err != nil || len(tagsAfter.Tags) != len(tagsBefore.Tags) {
		t.Errorf("the retained stream's tags changed: %v -> %v (%v)", tagsBefore.Tags, tagsAfter.Tags, err)
	}
	remove(t, adopter)
	remove(t, reader)
	if _, err := look.DescribeDeliveryStream(ctx, &firehose.DescribeDeliveryStreamInput{DeliveryStreamName: aws.String(name)}); err != nil {
		t.Errorf("deleting team B's refused objects deleted the stream: %v", err)
	}

	// Its own namespace takes it back.
	back := newStream(t, teamA, name+"-back")
	back.Spec.ForProvider.DeliveryStreamName = name
	meta.AddAnnotations(back, map[string]string{ownership.AnnotationAdoptionPolicy: ownership.AdoptionPolicyAdopt})
	create(t, back)
	eventually(t, 30*time.Second, "team A's adoption Ready", func() error { return isReady(t, back) })
	remove(t, back)
}

// TestWhatAnotherNamespaceTaggedIsNotAdopted: a stream whose owner tags name
// another namespace, and which no claim keeps (made by another cluster, or
// its claim removed), is not adopted from this one; its owner tags stay.
func TestWhatAnotherNamespaceTaggedIsNotAdopted(t *testing.T) {
	s := provider(t)
	ctx := context.Background()
	teamA, teamB := namespace(t), namespace(t)
	name := short("tagged")
	made := newStream(t, teamA, name)
	create(t, made)
	eventually(t, 30*time.Second, "team A's stream Ready", func() error { return isReady(t, made) })
	change(t, made, func(mg *streamingv1alpha1.DeliveryStream) {
		meta.AddAnnotations(mg, map[string]string{ackannotations.AnnotationDeletionPolicy: ackannotations.DeletionPolicyRetain})
	})
	remove(t, made)
	// No claim: as if another cluster had made it.
	lease := claims(made).Lease(identityOf(made))
	ns, leaseName, _ := strings.Cut(lease, "/")
	if err := cp.Client.Delete(ctx, &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: leaseName}}); err != nil {
		t.Fatalf("cannot remove the claim %s: %v", lease, err)
	}
	writesBefore := writes(s.aws.CallsFor(name), "firehose")

	adopter := newStream(t, teamB, name)
	meta.AddAnnotations(adopter, map[string]string{ownership.AnnotationAdoptionPolicy: ownership.AdoptionPolicyAdopt})
	create(t, adopter)
	refused(t, adopter, "tagged for another namespace", "setting that tag to this object's namespace")
	tellsNothingOf(t, adopter, teamA)
	if diff := cmp.Diff(writesBefore, writes(s.aws.CallsFor(name), "firehose")); diff != "" {
		t.Errorf("team B wrote to team A's stream: -before, +after:\n%s", diff)
	}
	remove(t, adopter)
}

// TestObserveOnlyReadsOnlyWhatItCouldOwn: an observe-only object of team B
// naming team A's stream shows nothing of it.
func TestObserveOnlyReadsOnlyWhatItCouldOwn(t *testing.T) {
	provider(t)
	teamA, teamB := namespace(t), namespace(t)
	name := short("watched")
	owned := newStream(t, teamA, name)
	create(t, owned)
	eventually(t, 30*time.Second, "team A's stream Ready", func() error { return isReady(t, owned) })

	reader := newStream(t, teamB, name)
	reader.SetManagementPolicies(xpv2.ManagementPolicies{xpv2.ManagementActionObserve})
	create(t, reader)
	refused(t, reader, "belongs to an object of another namespace")
	tellsNothingOf(t, reader, teamA)
	if md := reader.Status.AtProvider.ACKResourceMetadata; md != nil && md.ARN != nil {
		t.Errorf("a refused observe-only object shows the stream's ARN: %s", *md.ARN)
	}
	remove(t, reader)
	remove(t, owned)
}
