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

package sidebyside

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/test/workload"
)

// The load: the same objects for both providers, in each one's API.
const (
	perKind = 50
	region  = "us-east-1"
	version = "v1" // the tag "version" and the filter policy's value
)

// Both providers read the same kind of credentials, as a new user gives
// them: a shared-credentials (INI) file in a Secret, with keys the emulator
// accepts because it only checks that a request is signed.
const (
	credsNamespace = "crossplane-system"
	credsName      = "aws-creds"
	credsKey       = "credentials"
	credsINI       = "[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n"
)

// A contender is one provider as the benchmark runs it.
type contender struct {
	name, short string // short names its figures and files
	// binary is the provider's executable; args are the flags it is given,
	// which are only where it serves what the benchmark does not read, so
	// that everything else is its default.
	binary string
	args   []string
	// crds are the CRD files or folders the control plane installs besides
	// this repository's own (controlplane.Start always installs those).
	crds []string
	// providerConfig points the provider at the emulator.
	providerConfig func(endpoint string) client.Object
	// objects are the load: perKind DeliveryStreams and perKind
	// Subscriptions to topicARN.
	objects func(topicARN string) []client.Object
	// namespace holds the objects, or is empty when they are cluster-scoped.
	namespace string
	// prepare creates what the objects need besides the provider config.
	prepare func(ctx context.Context, kube client.Client) error
}

// ours is this repository's provider: namespaced objects of its own API, a
// ClusterProviderConfig whose endpoint is the emulator.
func ours(binary, metricsAddr string) contender {
	const ns = "sidebyside"
	return contender{
		name:   "provider-aws-services",
		short:  "ours",
		binary: binary,
		// Its metrics and health probes on ports nobody else asks for; the
		// benchmark reads neither.
		args:      []string{"--metrics-bind-address=" + metricsAddr, "--health-probe-bind-address=0"},
		namespace: ns,
		providerConfig: func(endpoint string) client.Object {
			return &v1alpha1.ClusterProviderConfig{
				ObjectMeta: metav1.ObjectMeta{Name: "default"},
				Spec: v1alpha1.ClusterProviderConfigSpec{ProviderConfigSpec: v1alpha1.ProviderConfigSpec{
					Credentials: v1alpha1.ProviderCredentials{
						Source: v1alpha1.CredentialsSourceSecret,
						SecretRef: &xpv2.SecretKeySelector{
							SecretReference: xpv2.SecretReference{Namespace: credsNamespace, Name: credsName},
							Key:             credsKey,
						},
					},
					Region:   aws.String(region),
					Endpoint: &v1alpha1.EndpointOverride{URL: endpoint},
				}},
			}
		},
		objects: func(topicARN string) []client.Object {
			set := workload.Set{TopicARN: topicARN}
			out := make([]client.Object, 0, 2*perKind)
			for _, kind := range []string{"DeliveryStream", "Subscription"} {
				for i := range perKind {
					out = append(out, set.Object(kind, ns, objectName(kind, i), version))
				}
			}
			return out
		},
		prepare: func(ctx context.Context, kube client.Client) error {
			if err := create(ctx, kube, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil {
				return err
			}
			// The DeliveryStreams' HTTP endpoint access key.
			return create(ctx, kube, &corev1.Secret{
				ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: workload.AccessKeySecret},
				StringData: map[string]string{workload.AccessKeyKey: "sidebyside-access-key"},
			})
		},
	}
}

// The classic provider's API groups and versions, as in its CRDs.
const (
	classicProviderConfig = "aws.crossplane.io/v1beta1"
	classicFirehose       = "firehose.aws.crossplane.io/v1alpha1"
	classicSNS            = "sns.aws.crossplane.io/v1beta1"
)

// classicCRDFiles are the classic provider's CRDs the load needs: those of
// the two kinds, of its ProviderConfig and of the usages it records. The
// control plane gets every CRD of its package all the same, as a new user's
// cluster does: it runs the controllers of all its kinds, and stops when one
// kind's CRD is missing (its cache cannot sync).
var classicCRDFiles = []string{
	"aws.crossplane.io_providerconfigs.yaml",
	"aws.crossplane.io_providerconfigusages.yaml",
	"firehose.aws.crossplane.io_deliverystreams.yaml",
	"sns.aws.crossplane.io_subscriptions.yaml",
}

// classic is crossplane-contrib/provider-aws: cluster-scoped objects (it is
// built on crossplane-runtime v1), a ProviderConfig whose endpoint is the
// emulator. It has no flag for its metrics address and serves them on :8080.
func classic(binary, crdDir string) contender {
	return contender{
		name:   "classic provider-aws",
		short:  "classic",
		binary: binary,
		crds:   []string{crdDir},
		providerConfig: func(endpoint string) client.Object {
			return classicObject(classicProviderConfig, "ProviderConfig", "default", map[string]any{
				"credentials": map[string]any{
					"source":    "Secret",
					"secretRef": map[string]any{"namespace": credsNamespace, "name": credsName, "key": credsKey},
				},
				"endpoint": map[string]any{
					"hostnameImmutable": true,
					"url":               map[string]any{"type": "Static", "static": endpoint},
				},
			})
		},
		objects: func(topicARN string) []client.Object {
			out := make([]client.Object, 0, 2*perKind)
			for i := range perKind {
				out = append(out, classicDeliveryStream(objectName("DeliveryStream", i)))
			}
			for i := range perKind {
				out = append(out, classicSubscription(objectName("Subscription", i), topicARN))
			}
			return out
		},
		prepare: func(context.Context, client.Client) error { return nil },
	}
}

// classicDeliveryStream is the classic DeliveryStream that matches ours: an
// HTTP endpoint destination with an S3 backup, the tag "version".
func classicDeliveryStream(name string) client.Object {
	role := "arn:aws:iam::" + workload.Account + ":role/firehose"
	return classicObject(classicFirehose, "DeliveryStream", name, map[string]any{
		"forProvider": map[string]any{
			"region":             region,
			"deliveryStreamName": name,
			"deliveryStreamType": "DirectPut",
			"tags":               []any{map[string]any{"key": "version", "value": version}},
			"httpEndpointDestinationConfiguration": map[string]any{
				"endpointConfiguration": map[string]any{
					"url":       "https://collector.example.com/" + name,
					"accessKey": "sidebyside-access-key",
				},
				"roleARN":         role,
				"s3Configuration": map[string]any{"bucketARN": "arn:aws:s3:::backup", "roleARN": role},
			},
		},
	})
}

// classicSubscription is the classic Subscription that matches ours: an SQS
// queue subscribed to topicARN with the same filter policy.
func classicSubscription(name, topicARN string) client.Object {
	return classicObject(classicSNS, "Subscription", name, map[string]any{
		"forProvider": map[string]any{
			"region":       region,
			"topicArn":     topicARN,
			"protocol":     "sqs",
			"endpoint":     "arn:aws:sqs:" + region + ":" + workload.Account + ":" + name,
			"filterPolicy": workload.FilterPolicy(version),
		},
	})
}

func classicObject(apiVersion, kind, name string, spec map[string]any) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": apiVersion,
		"kind":       kind,
		"metadata":   map[string]any{"name": name},
		"spec":       spec,
	}}
}

// objectName names the i-th object of a kind, alike for both providers.
func objectName(kind string, i int) string {
	return map[string]string{"DeliveryStream": "side-stream-", "Subscription": "side-sub-"}[kind] + strconv.Itoa(i)
}

// credentials creates the Secret both providers read their credentials
// from.
func credentials(ctx context.Context, kube client.Client) error {
	if err := create(ctx, kube, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: credsNamespace}}); err != nil {
		return err
	}
	return create(ctx, kube, &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: credsNamespace, Name: credsName},
		StringData: map[string]string{credsKey: credsINI},
	})
}

// create creates o unless it exists.
func create(ctx context.Context, kube client.Client, o client.Object) error {
	if err := kube.Create(ctx, o); err != nil && !kerrors.IsAlreadyExists(err) {
		return fmt.Errorf("cannot create %T %s: %w", o, o.GetName(), err)
	}
	return nil
}

// classicFromEnv returns the classic provider's binary and CRD folder from
// CLASSIC_PROVIDER and CLASSIC_CRDS, or why they are not usable.
func classicFromEnv() (binary, crdDir string, err error) {
	binary, crdDir = os.Getenv("CLASSIC_PROVIDER"), os.Getenv("CLASSIC_CRDS")
	if binary == "" || crdDir == "" {
		return "", "", fmt.Errorf("CLASSIC_PROVIDER and CLASSIC_CRDS are not both set: build the classic provider from its own " +
			"repository and run make bench.classic CLASSIC_PROVIDER=<its binary> CLASSIC_CRDS=<its package/crds>")
	}
	if _, err := os.Stat(binary); err != nil {
		return "", "", fmt.Errorf("CLASSIC_PROVIDER: %w", err)
	}
	for _, f := range classicCRDFiles {
		if _, err := os.Stat(filepath.Join(crdDir, f)); err != nil {
			return "", "", fmt.Errorf("CLASSIC_CRDS: %w", err)
		}
	}
	return binary, crdDir, nil
}
