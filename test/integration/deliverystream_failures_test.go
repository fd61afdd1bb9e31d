//go:build integration

package integration

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/test/emulator"
)

func encryptionStatus(mg *v1alpha1.DeliveryStream, want string) error {
	if err := cp.Client.Get(context.Background(), client.ObjectKeyFromObject(mg), mg); err != nil {
		return err
	}
	if got := aws.ToString(mg.Status.AtProvider.DeliveryStreamEncryptionConfigurationStatus); got != want {
		return fmt.Errorf("encryption %s", got)
	}
	return nil
}

func TestDeliveryStreamCreationFailureIsNeverRetried(t *testing.T) {
	s := provider(t)
	ns := namespace(t)
	mg := newStream(t, ns, "failing-"+ns[len(ns)-5:])
	name := mg.Spec.ForProvider.DeliveryStreamName
	s.aws.FailStreamCreation(name, emulator.FailureDescription{Type: "INVALID_KMS_KEY", Details: "the key is pending deletion"})
	create(t, mg)

	eventually(t, 30*time.Second, "CREATING_FAILED shown", func() error {
		c, err := conditionOf(t, mg, xpv2.TypeReady)
		if err != nil {
			return err
		}
		if c.Status != corev1.ConditionFalse || !strings.Contains(c.Message, "INVALID_KMS_KEY: the key is pending deletion") {
			return fmt.Errorf("Ready: %s %s %q", c.Status, c.Reason, c.Message)
		}
		return nil
	})
	if n := settle(s, name, 3)["firehose:CreateDeliveryStream"]; n != 0 || s.aws.CallsFor(name)["firehose:CreateDeliveryStream"] != 1 {
		t.Errorf("a failed stream was created again: %v", s.aws.CallsFor(name))
	}
	remove(t, mg)
	if st := s.aws.StreamStatus("us-east-1", name); st != "" {
		t.Errorf("the failed stream is still %s in AWS", st)
	}
}

// TestDeliveryStreamWhoseKeyGrantCannotBeRetired: a stream encrypted with a
// customer managed key that was disabled since cannot be deleted unless
// forced (Firehose cannot retire its grant on the key): the deletion
// finishes, by force, and says that the grant may remain.
func TestDeliveryStreamWhoseKeyGrantCannotBeRetired(t *testing.T) {
	s := provider(t)
	ns := namespace(t)
	mg := newStream(t, ns, "grant-"+ns[len(ns)-5:])
	keyARN := "arn:aws:kms:us-east-1:000000000000:key/" + ns
	mg.Spec.ForProvider.DeliveryStreamEncryptionConfiguration = &v1alpha1.DeliveryStreamEncryptionConfiguration{KeyType: aws.String("CUSTOMER_MANAGED_CMK"), KeyARN: aws.String(keyARN)}
	create(t, mg)
	eventually(t, 30*time.Second, "Ready", func() error { return isReady(t, mg) })
	s.aws.FailKey(keyARN, emulator.FailureDescription{Type: "DISABLED_KMS_KEY", Details: "the key is disabled"})
	name := mg.Spec.ForProvider.DeliveryStreamName
	remove(t, mg)
	if st := s.aws.StreamStatus("us-east-1", name); st != "" {
		t.Errorf("the stream is still %s in AWS", st)
	}
	if n := s.aws.CallsFor(name)["firehose:DeleteDeliveryStream"]; n != 2 {
		t.Errorf("%d deletes, want 2: the one that failed and the forced one", n)
	}
	eventually(t, 30*time.Second, "what the deletion left told", func() error {
		return warned(ns, mg.GetName(), "grant it holds on KMS key "+keyARN+" (RETIRE_KMS_GRANT_FAILED: the key is disabled)")
	})
}

func TestDeliveryStreamBufferingHintsReplacedByAWS(t *testing.T) {
	s := provider(t)
	ns := namespace(t)
	mg := newStream(t, ns, "hints-"+ns[len(ns)-5:])
	name := mg.Spec.ForProvider.DeliveryStreamName
	mg.Spec.ForProvider.HTTPEndpointDestinationConfiguration.BufferingHints = &v1alpha1.BufferingHints{IntervalInSeconds: aws.Int64(30), SizeInMBs: aws.Int64(1)}
	s.aws.ReplaceBufferingHints(name, func(size, interval int64) (int64, int64) { return size, max(interval, 60) })
	create(t, mg)
	eventually(t, 30*time.Second, "Ready", func() error { return isReady(t, mg) })
	if n := settle(s, name, 3)["firehose:UpdateDestination"]; n != 0 {
		t.Errorf("hints AWS replaced with better values were sent again %d times", n)
	}
	remove(t, mg)
}

func TestDeliveryStreamMissingAccessKeySecret(t *testing.T) {
	s := provider(t)
	ns := namespace(t)
	mg := newStream(t, ns, "nokey-"+ns[len(ns)-5:])
	mg.Spec.ForProvider.HTTPEndpointDestinationConfiguration.EndpointConfiguration.AccessKey.Name = aws.String("missing")
	create(t, mg)
	eventually(t, 20*time.Second, "a clear condition", func() error {
		c, err := conditionOf(t, mg, xpv2.TypeSynced)
		if err != nil {
			return err
		}
		if !strings.Contains(c.Message, "accessKey: secret "+ns+"/missing does not exist") {
			return fmt.Errorf("Synced: %s %q", c.Status, c.Message)
		}
		return nil
	})
	if n := s.aws.CallsFor(mg.Spec.ForProvider.DeliveryStreamName)["firehose:CreateDeliveryStream"]; n != 0 {
		t.Errorf("created without its access key: %d calls", n)
	}
	remove(t, mg)
}
