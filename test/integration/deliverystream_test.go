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
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	fhtypes "github.com/aws/aws-sdk-go-v2/service/firehose/types"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	apisv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
	fh "github.com/cloudkinds/provider-aws-services/internal/aws/firehose"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/ownership"
)

const accessKey = "first-access-key-value"

// newStream returns a DeliveryStream of the example's shape in namespace ns,
// with its access key Secret.
func newStream(t *testing.T, ns, name string) *v1alpha1.DeliveryStream {
	t.Helper()
	if err := cp.Client.Create(context.Background(), secretWith(ns, "endpoint-key", "accessKey", accessKey)); err != nil && !kerrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
	mg := &v1alpha1.DeliveryStream{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	mg.Spec.ProviderConfigReference = emulatorConfig()
	mg.Spec.ForProvider = v1alpha1.DeliveryStreamParameters{
		DeliveryStreamName: name,
		Tags:               []common.Tag{{Key: aws.String("team"), Value: aws.String("analytics")}},
		HTTPEndpointDestinationConfiguration: &v1alpha1.HTTPEndpointDestinationConfiguration{
			EndpointConfiguration: &v1alpha1.HTTPEndpointConfiguration{
				URL:       aws.String("https://collector.example.com/ingest"),
				AccessKey: &common.SecretKeyReference{Name: aws.String("endpoint-key"), Key: "accessKey"},
			},
			RoleARN: aws.String("arn:aws:iam::000000000000:role/firehose"),
			StoreConfiguration: &v1alpha1.StoreConfiguration{
				BucketARN: aws.String("arn:aws:s3:::backup"),
				RoleARN:   aws.String("arn:aws:iam::000000000000:role/firehose"),
			},
		},
	}
	return mg
}

func create(t *testing.T, obj client.Object) {
	t.Helper()
	if err := cp.Client.Create(context.Background(), obj); err != nil {
		t.Fatal(err)
	}
}

// change re-reads obj, applies fn and updates it, retrying on conflicts with
// the controller's own writes.
func change[T client.Object](t *testing.T, obj T, fn func(T)) {
	t.Helper()
	eventually(t, 10*time.Second, "update "+obj.GetName(), func() error {
		if err := cp.Client.Get(context.Background(), client.ObjectKeyFromObject(obj), obj); err != nil {
			return err
		}
		fn(obj)
		return cp.Client.Update(context.Background(), obj)
	})
}

func remove(t *testing.T, obj client.Object) {
	t.Helper()
	if err := cp.Client.Delete(context.Background(), obj); err != nil {
		t.Fatal(err)
	}
	// Deletion may wait out the creation grace period of a young resource.
	eventually(t, 45*time.Second, "deletion of "+obj.GetName(), func() error { return isGone(obj) })
}

// settle waits for a few polls and returns the calls made for a resource
// meanwhile.
func settle(s *stack, resource string, polls int) map[string]int {
	before := s.aws.CallsFor(resource)
	time.Sleep(time.Duration(polls)*testPoll + testPoll/2)
	after := s.aws.CallsFor(resource)
	for k, v := range before {
		after[k] -= v
		if after[k] == 0 {
			delete(after, k)
		}
	}
	return after
}

func TestDeliveryStreamLifecycle(t *testing.T) {
	s := provider(t)
	ns := namespace(t)
	mg := newStream(t, ns, "clicks-"+ns[len(ns)-5:])
	name := mg.Spec.ForProvider.DeliveryStreamName
	// A destination URL may carry a credential, which the connection
	// Secret must not copy.
	urlPassword := "url-password-" + ns
	mg.Spec.ForProvider.HTTPEndpointDestinationConfiguration.EndpointConfiguration.URL = aws.String("https://ingest:" + urlPassword + "@collector.example.com/ingest")
	mg.Spec.WriteConnectionSecretToReference = &xpv2.LocalSecretReference{Name: "clicks-stream"}
	create(t, mg)

	eventually(t, 30*time.Second, "Ready", func() error { return isReady(t, mg) })
	calls := s.aws.CallsFor(name)
	if calls["firehose:CreateDeliveryStream"] != 1 || calls["firehose:TagDeliveryStream"] != 0 {
		t.Errorf("create: want one CreateDeliveryStream carrying the tags, got %v", calls)
	}
	t.Logf("AWS calls from create to Ready: %v", calls)
	at := mg.Status.AtProvider
	if aws.ToString(at.DeliveryStreamStatus) != "ACTIVE" || aws.ToString(at.VersionID) != "1" || at.DestinationID == nil ||
		at.CreateTimestamp == nil || at.LastUpdateTimestamp == nil || aws.ToString(at.DeliveryStreamEncryptionConfigurationStatus) != "DISABLED" {
		t.Errorf("status: %+v", at)
	}
	md := at.ACKResourceMetadata
	if md == nil || aws.ToString(md.ARN) != "arn:aws:firehose:us-east-1:000000000000:deliverystream/"+name || md.OwnerAccountID != "000000000000" || md.Region != "us-east-1" {
		t.Errorf("ackResourceMetadata: %+v", md)
	}
	if meta.GetExternalName(mg) != name {
		t.Errorf("external name %q", meta.GetExternalName(mg))
	}
	if s.aws.StreamAccessKey("us-east-1", name) != accessKey {
		t.Error("the access key did not reach AWS")
	}
	// What Firehose defaulted is not copied into the spec (a write that
	// would only restate it).
	if h := mg.Spec.ForProvider.HTTPEndpointDestinationConfiguration.BufferingHints; h != nil {
		t.Errorf("buffering hints were late-initialized: %+v", h)
	}
	// The access key never shows in the object.
	if raw := fmt.Sprintf("%+v", mg); strings.Contains(raw, accessKey) {
		t.Error("the access key appears in the object")
	}
	// The name and ARN Firehose answers are the connection details; neither
	// the access key nor the destination's URL.
	d, err := firehose.NewFromConfig(outsiderConfig(s)).DescribeDeliveryStream(context.Background(), &firehose.DescribeDeliveryStreamInput{DeliveryStreamName: aws.String(name)})
	if err != nil {
		t.Fatal(err)
	}
	published := map[string]string{
		"deliveryStreamName": aws.ToString(d.DeliveryStreamDescription.DeliveryStreamName),
		"deliveryStreamARN":  aws.ToString(d.DeliveryStreamDescription.DeliveryStreamARN),
	}
	requireConnectionDetails(t, ns, "clicks-stream", fh.ConnectionKeys, published, accessKey, urlPassword, "collector.example.com")

	// Steady state: one describe and one tag read per poll, no writes, and
	// neither a configuration load nor an STS call.
	loads, identity := s.sessions.Stats(), s.aws.CallCount("sts:GetCallerIdentity")
	steady := settle(s, name, 3)
	if s.sessions.Stats() != loads || s.aws.CallCount("sts:GetCallerIdentity") != identity {
		t.Errorf("steady-state reconciles loaded configuration (%+v then %+v) or called STS (%d then %d)",
			loads, s.sessions.Stats(), identity, s.aws.CallCount("sts:GetCallerIdentity"))
	}
	if len(writes(steady, "firehose")) != 0 || steady["firehose:DescribeDeliveryStream"] == 0 || steady["firehose:ListTagsForDeliveryStream"] > steady["firehose:DescribeDeliveryStream"] {
		t.Errorf("steady state over 3 polls: %v", steady)
	}
	t.Logf("AWS calls over 3 steady-state polls: %v", steady)

	// An update of the destination carries the current version.
	change(t, mg, func(mg *v1alpha1.DeliveryStream) {
		mg.Spec.ForProvider.HTTPEndpointDestinationConfiguration.RetryOptions = &v1alpha1.RetryOptions{DurationInSeconds: aws.Int64(60)}
	})
	eventually(t, 30*time.Second, "version 2", func() error {
		if err := cp.Client.Get(context.Background(), client.ObjectKeyFromObject(mg), mg); err != nil {
			return err
		}
		if v := aws.ToString(mg.Status.AtProvider.VersionID); v != "2" {
			return fmt.Errorf("versionID %s", v)
		}
		return nil
	})
	if n := s.aws.CallsFor(name)["firehose:UpdateDestination"]; n != 1 {
		t.Errorf("UpdateDestination calls: want 1, got %d", n)
	}

	// Tags: one added, one removed.
	change(t, mg, func(mg *v1alpha1.DeliveryStream) {
		mg.Spec.ForProvider.Tags = []common.Tag{{Key: aws.String("env"), Value: aws.String("dev")}}
	})
	eventually(t, 30*time.Second, "tags in AWS", func() error {
		c := s.aws.CallsFor(name)
		if c["firehose:TagDeliveryStream"] != 1 || c["firehose:UntagDeliveryStream"] != 1 {
			return fmt.Errorf("calls %v", c)
		}
		return nil
	})

	// Rotating the access key in place updates the destination once.
	change(t, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "endpoint-key"}}, func(sec *corev1.Secret) {
		sec.Data["accessKey"] = []byte("rotated-access-key")
	})
	eventually(t, 15*time.Second, "rotated key in AWS", func() error {
		if k := s.aws.StreamAccessKey("us-east-1", name); k != "rotated-access-key" {
			return fmt.Errorf("AWS holds another key")
		}
		return nil
	})
	if n := settle(s, name, 2)["firehose:UpdateDestination"]; n != 0 {
		t.Errorf("after the rotation, %d more UpdateDestination calls", n)
	}
	// The updates left the connection details as they were, the rotated
	// key out of them.
	requireConnectionDetails(t, ns, "clicks-stream", fh.ConnectionKeys, published, accessKey, "rotated-access-key", urlPassword, "collector.example.com")

	// Encryption on, then off.
	change(t, mg, func(mg *v1alpha1.DeliveryStream) {
		mg.Spec.ForProvider.DeliveryStreamEncryptionConfiguration = &v1alpha1.DeliveryStreamEncryptionConfiguration{KeyType: aws.String("AWS_OWNED_CMK")}
	})
	eventually(t, 30*time.Second, "encryption ENABLED", func() error { return encryptionStatus(mg, "ENABLED") })
	change(t, mg, func(mg *v1alpha1.DeliveryStream) { mg.Spec.ForProvider.DeliveryStreamEncryptionConfiguration = nil })
	eventually(t, 30*time.Second, "encryption DISABLED", func() error { return encryptionStatus(mg, "DISABLED") })
	c := s.aws.CallsFor(name)
	if c["firehose:StartDeliveryStreamEncryption"] != 1 || c["firehose:StopDeliveryStreamEncryption"] != 1 {
		t.Errorf("encryption calls: %v", c)
	}

	remove(t, mg)
	if n := s.aws.CallsFor(name)["firehose:DeleteDeliveryStream"]; n != 1 {
		t.Errorf("DeleteDeliveryStream calls: want 1, got %d", n)
	}
	if st := s.aws.StreamStatus("us-east-1", name); st != "" {
		t.Errorf("the stream is still %s in AWS", st)
	}
	t.Logf("AWS calls over the whole life: %v", s.aws.CallsFor(name))
}

// TestDeliveryStreamThroughNamespacedConfigWithoutTagPermission reconciles
// through a namespaced ProviderConfig whose principal may not tag: creation
// fails with AWS's AccessDenied, shown on the resource. Every create carries
// the owner tags, so tagging is a permission the provider needs.
func TestDeliveryStreamThroughNamespacedConfigWithoutTagPermission(t *testing.T) {
	s := provider(t)
	ns := namespace(t)
	create(t, secretWith(ns, "aws", "credentials", "[default]\naws_access_key_id = AKIDNOTAGGING\naws_secret_access_key = s\n"))
	create(t, &apisv1alpha1.ProviderConfig{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "team"}, Spec: apisv1alpha1.ProviderConfigSpec{
		Credentials: apisv1alpha1.ProviderCredentials{Source: apisv1alpha1.CredentialsSourceSecret,
			SecretRef: &xpv2.SecretKeySelector{SecretReference: xpv2.SecretReference{Name: "aws", Namespace: ns}, Key: "credentials"}},
		Region:   aws.String("us-east-1"),
		Endpoint: &apisv1alpha1.EndpointOverride{URL: s.url},
	}})
	s.aws.Deny("AKIDNOTAGGING", "firehose:TagDeliveryStream")

	mg := newStream(t, ns, "denied-"+ns[len(ns)-5:])
	mg.Spec.ProviderConfigReference = &xpv2.ProviderConfigReference{Kind: apisv1alpha1.ProviderConfigKind, Name: "team"}
	create(t, mg)
	eventually(t, 20*time.Second, "AccessDenied shown", func() error {
		c, err := conditionOf(t, mg, xpv2.TypeSynced)
		if err != nil {
			return err
		}
		if !strings.Contains(c.Message, "AccessDeniedException") || !strings.Contains(c.Message, "firehose:TagDeliveryStream") {
			return fmt.Errorf("Synced: %s %q", c.Status, c.Message)
		}
		return nil
	})

	// The usage of the namespaced config is tracked, and the config cannot
	// go while it is in use.
	usages := &apisv1alpha1.ProviderConfigUsageList{}
	if err := cp.Client.List(context.Background(), usages, client.InNamespace(ns)); err != nil || len(usages.Items) != 1 ||
		usages.Items[0].ProviderConfigReference.Kind != apisv1alpha1.ProviderConfigKind {
		t.Fatalf("usages: %+v %v", usages.Items, err)
	}
	pc := &apisv1alpha1.ProviderConfig{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "team"}}
	eventually(t, 10*time.Second, "users counted", func() error {
		if err := cp.Client.Get(context.Background(), client.ObjectKeyFromObject(pc), pc); err != nil {
			return err
		}
		if pc.Status.Users != 1 {
			return fmt.Errorf("users %d", pc.Status.Users)
		}
		return nil
	})
	if err := cp.Client.Delete(context.Background(), pc); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * testPoll)
	if err := cp.Client.Get(context.Background(), client.ObjectKeyFromObject(pc), pc); err != nil {
		t.Fatalf("a config in use was deleted: %v", err)
	}

	// Without tags in the spec the create still carries the owner tags:
	// the principal needs the permission the message names.
	change(t, mg, func(mg *v1alpha1.DeliveryStream) { mg.Spec.ForProvider.Tags = nil })
	time.Sleep(2 * testPoll)
	if n := s.aws.CallsFor(mg.Spec.ForProvider.DeliveryStreamName)["firehose:CreateDeliveryStream"]; n == 0 || len(s.aws.Inventory().DeliveryStreams) > 0 && named(s.aws.Inventory().DeliveryStreams, mg.Spec.ForProvider.DeliveryStreamName) != 0 {
		t.Errorf("a stream was created without its owner tags: %d create calls", n)
	}
	s.aws.Allow("AKIDNOTAGGING", "firehose:TagDeliveryStream")
	eventually(t, 60*time.Second, "Ready once the permission is granted", func() error { return isReady(t, mg) })
	remove(t, mg)
	// The usage goes with its resource by garbage collection, which the
	// test control plane does not run; remove it as the collector would.
	if err := cp.Client.DeleteAllOf(context.Background(), &apisv1alpha1.ProviderConfigUsage{}, client.InNamespace(ns)); err != nil {
		t.Fatal(err)
	}
	eventually(t, 20*time.Second, "the unused config goes", func() error { return isGone(pc) })
}

func TestDeliveryStreamAdoptionAndObserveOnly(t *testing.T) {
	s := provider(t)
	ns := namespace(t)
	name := "adopted-" + ns[len(ns)-5:]
	c := firehose.NewFromConfig(aws.Config{Region: "us-east-1", BaseEndpoint: aws.String(s.url), Credentials: credentials.NewStaticCredentialsProvider("AKIDSETUP", "s", "")})
	if _, err := c.CreateDeliveryStream(context.Background(), &firehose.CreateDeliveryStreamInput{
		DeliveryStreamName: aws.String(name),
		HttpEndpointDestinationConfiguration: &fhtypes.HttpEndpointDestinationConfiguration{
			EndpointConfiguration: &fhtypes.HttpEndpointConfiguration{Url: aws.String("https://collector.example.com/ingest"), AccessKey: aws.String(accessKey)},
			RoleARN:               aws.String("arn:aws:iam::000000000000:role/firehose"),
			S3Configuration:       &fhtypes.S3DestinationConfiguration{BucketARN: aws.String("arn:aws:s3:::backup"), RoleARN: aws.String("arn:aws:iam::000000000000:role/firehose")},
		},
	}); err != nil {
		t.Fatal(err)
	}

	// Observe-only: the status is filled, nothing is written.
	observer := newStream(t, ns, name)
	observer.Name = "observer"
	observer.Spec.ManagementPolicies = xpv2.ManagementPolicies{xpv2.ManagementActionObserve}
	observer.Spec.ForProvider.Tags = nil
	meta.SetExternalName(observer, name)
	create(t, observer)
	eventually(t, 30*time.Second, "observed", func() error {
		if err := cp.Client.Get(context.Background(), client.ObjectKeyFromObject(observer), observer); err != nil {
			return err
		}
		if aws.ToString(observer.Status.AtProvider.DeliveryStreamStatus) != "ACTIVE" {
			return fmt.Errorf("status %+v", observer.Status.AtProvider)
		}
		return nil
	})
	if w := writes(s.aws.CallsFor(name), "firehose"); len(w) != 1 || w["firehose:CreateDeliveryStream"] != 1 {
		t.Errorf("observe-only wrote to AWS: %v", w)
	}
	remove(t, observer)
	if st := s.aws.StreamStatus("us-east-1", name); st != "ACTIVE" {
		t.Fatalf("deleting an observe-only resource touched AWS: %s", st)
	}

	// Adoption: the annotation names the stream; the spec matches it except
	// for one member, which the provider updates before it sets the ARN.
	adopter := newStream(t, ns, name)
	adopter.Name = "adopter"
	adopter.Spec.ForProvider.Tags = nil
	adopter.Spec.ForProvider.HTTPEndpointDestinationConfiguration.RetryOptions = &v1alpha1.RetryOptions{DurationInSeconds: aws.Int64(120)}
	adopter.SetAnnotations(map[string]string{ownership.AnnotationAdoptionPolicy: ownership.AdoptionPolicyAdopt})
	if err := cp.Client.Create(context.Background(), adopter); err != nil {
		t.Fatal(err)
	}
	eventually(t, 30*time.Second, "adopted and Ready", func() error { return isReady(t, adopter) })
	if n := s.aws.CallsFor(name)["firehose:CreateDeliveryStream"]; n != 1 {
		t.Errorf("adoption created a stream: %d creates", n)
	}
	if md := adopter.Status.AtProvider.ACKResourceMetadata; md == nil || md.ARN == nil {
		t.Errorf("the adopted stream has no verified ARN: %+v", md)
	}
	if n := s.aws.CallsFor(name)["firehose:UpdateDestination"]; n != 1 {
		t.Errorf("the adopted stream's differing member: want 1 UpdateDestination, got %d", n)
	}
	remove(t, adopter)
}

func TestDeliveryStreamExternalNameConflict(t *testing.T) {
	provider(t)
	ns := namespace(t)
	mg := newStream(t, ns, "named")
	meta.SetExternalName(mg, "another-stream")
	create(t, mg)
	eventually(t, 20*time.Second, "a clear conflict", func() error {
		c, err := conditionOf(t, mg, xpv2.TypeSynced)
		if err != nil {
			return err
		}
		if !strings.Contains(c.Message, `crossplane.io/external-name="another-stream" does not match spec.forProvider.deliveryStreamName="named"`) {
			return fmt.Errorf("Synced: %q", c.Message)
		}
		return nil
	})
	remove(t, mg)
}
