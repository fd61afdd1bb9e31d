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
	"os"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	"github.com/cloudkinds/provider-aws-services/apis/agentcorecontrol/v1alpha1"
	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	ac "github.com/cloudkinds/provider-aws-services/internal/aws/agentcore"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/ownership"
)

const (
	firstKey   = "sk-first-0123456789abcdef"
	rotatedKey = "sk-rotated-fedcba9876543210"
)

func newAPIKeyProvider(ns, name string) *v1alpha1.APIKeyCredentialProvider {
	mg := &v1alpha1.APIKeyCredentialProvider{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	mg.Spec.ProviderConfigReference = emulatorConfig()
	mg.Spec.ForProvider = v1alpha1.APIKeyCredentialProviderParameters{
		Name:   name,
		APIKey: &common.SecretKeyReference{Name: aws.String("search-key"), Key: "apiKey"},
		Tags:   map[string]string{"team": "agents"},
	}
	return mg
}

func TestAPIKeyCredentialProviderLifecycleAndRotation(t *testing.T) {
	s := provider(t)
	ns := namespace(t)
	name := "search-" + ns[len(ns)-5:]
	create(t, secretWith(ns, "search-key", "apiKey", firstKey))
	mg := newAPIKeyProvider(ns, name)
	mg.Spec.WriteConnectionSecretToReference = &xpv2.LocalSecretReference{Name: "search-credentials"}
	create(t, mg)

	eventually(t, 30*time.Second, "Ready", func() error { return isReady(t, mg) })
	arn := "arn:aws:bedrock-agentcore:us-east-1:000000000000:token-vault/default/apikeycredentialprovider/" + name
	t.Logf("AWS calls from create to Ready: %v, and on its ARN %v", s.aws.CallsFor(name), s.aws.CallsFor(arn))
	if key, updates, _ := s.aws.APIKey("us-east-1", name); key != firstKey || updates != 0 {
		t.Errorf("AWS holds %d updates and another key", updates)
	}
	at := mg.Status.AtProvider
	if at.APIKeySecretARN == nil || !strings.Contains(aws.ToString(at.APIKeySecretARN.SecretARN), ":secretsmanager:") ||
		at.ACKResourceMetadata == nil || aws.ToString(at.ACKResourceMetadata.ARN) != arn || aws.ToString(at.ACKResourceMetadata.Partition) != "aws" {
		t.Errorf("status: %+v %+v", at.APIKeySecretARN, at.ACKResourceMetadata)
	}
	// The name and ARNs AgentCore answers, never the key.
	got, err := bedrockagentcorecontrol.NewFromConfig(outsiderConfig(s)).GetApiKeyCredentialProvider(context.Background(), &bedrockagentcorecontrol.GetApiKeyCredentialProviderInput{Name: aws.String(name)})
	if err != nil || got.ApiKeySecretArn == nil {
		t.Fatalf("AgentCore's view: %+v, %v", got, err)
	}
	published := map[string]string{
		"credentialProviderName": aws.ToString(got.Name), "credentialProviderARN": aws.ToString(got.CredentialProviderArn),
		"apiKeySecretARN": aws.ToString(got.ApiKeySecretArn.SecretArn),
	}
	requireConnectionDetails(t, ns, "search-credentials", ac.ConnectionKeys, published, firstKey)

	steady := settle(s, name, 3)
	if len(writes(steady, "bedrock-agentcore")) != 0 || steady["bedrock-agentcore:GetApiKeyCredentialProvider"] == 0 {
		t.Errorf("steady state over 3 polls: %v", steady)
	}
	t.Logf("AWS calls over 3 steady-state polls: %v", steady)

	// Tags.
	before := s.aws.CallsFor(arn)
	change(t, mg, func(mg *v1alpha1.APIKeyCredentialProvider) {
		mg.Spec.ForProvider.Tags = map[string]string{"cost-center": "42"}
	})
	eventually(t, 20*time.Second, "tags in AWS", func() error {
		c := s.aws.CallsFor(arn)
		if c["bedrock-agentcore:TagResource"]-before["bedrock-agentcore:TagResource"] != 1 || c["bedrock-agentcore:UntagResource"]-before["bedrock-agentcore:UntagResource"] != 1 {
			return fmt.Errorf("calls %v", c)
		}
		return nil
	})

	// Rotation in place: the Secret's value changes, its name does not. With
	// a poll interval of an hour, only the Secret watch can bring the new key
	// to AWS in time.
	change(t, mg, func(mg *v1alpha1.APIKeyCredentialProvider) {
		meta.AddAnnotations(mg, map[string]string{meta.AnnotationKeyPollInterval: "1h"})
	})
	time.Sleep(2 * testPoll)
	rotatedAt := time.Now()
	change(t, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "search-key"}}, func(sec *corev1.Secret) {
		sec.Data["apiKey"] = []byte(rotatedKey)
	})
	eventually(t, 15*time.Second, "rotated key in AWS", func() error {
		if key, _, _ := s.aws.APIKey("us-east-1", name); key != rotatedKey {
			return fmt.Errorf("AWS holds another key")
		}
		return nil
	})
	t.Logf("the rotated key reached AWS after %v", time.Since(rotatedAt).Round(10*time.Millisecond))
	change(t, mg, func(mg *v1alpha1.APIKeyCredentialProvider) {
		delete(mg.Annotations, meta.AnnotationKeyPollInterval)
	})
	after := settle(s, name, 3)
	if _, updates, _ := s.aws.APIKey("us-east-1", name); updates != 1 || after["bedrock-agentcore:UpdateApiKeyCredentialProvider"] != 0 {
		t.Errorf("rotation: want exactly one update, got %d in all and %d after it", updates, after["bedrock-agentcore:UpdateApiKeyCredentialProvider"])
	}

	// The key never appears in the object, its events or the provider's log,
	// nor in the connection Secret, which the rotation left as it was.
	requireNoLeak(t, ns, mg, firstKey, rotatedKey)
	requireConnectionDetails(t, ns, "search-credentials", ac.ConnectionKeys, published, firstKey, rotatedKey)

	remove(t, mg)
	if _, _, ok := s.aws.APIKey("us-east-1", name); ok {
		t.Error("the credential provider still exists in AWS")
	}
	t.Logf("AWS calls over the whole life: %v, and on its ARN %v", s.aws.CallsFor(name), s.aws.CallsFor(arn))
}

// requireNoLeak fails if any key appears in the object, the events of its
// namespace or the provider's log.
func requireNoLeak(t *testing.T, ns string, mg client.Object, keys ...string) {
	t.Helper()
	if err := cp.Client.Get(context.Background(), client.ObjectKeyFromObject(mg), mg); err != nil {
		t.Fatal(err)
	}
	obj, _ := yaml.Marshal(mg)
	events := &corev1.EventList{}
	if err := cp.Client.List(context.Background(), events, client.InNamespace(ns)); err != nil {
		t.Fatal(err)
	}
	ev, _ := yaml.Marshal(events)
	logs, err := os.ReadFile(providerLog)
	if err != nil {
		t.Fatal(err)
	}
	if len(events.Items) == 0 || len(logs) == 0 {
		t.Fatalf("nothing to search: %d events, %d bytes of log", len(events.Items), len(logs))
	}
	for _, k := range keys {
		for where, text := range map[string][]byte{"the object": obj, "the events": ev, "the provider's log": logs} {
			if strings.Contains(string(text), k) {
				t.Errorf("a key appears in %s", where)
			}
		}
	}
}

func TestAPIKeyCredentialProviderMissingSecret(t *testing.T) {
	s := provider(t)
	ns := namespace(t)
	name := "nokey-" + ns[len(ns)-5:]
	mg := newAPIKeyProvider(ns, name)
	create(t, mg)
	eventually(t, 20*time.Second, "a clear condition", func() error {
		return syncedMessage(t, mg, "spec.forProvider.apiKey: secret "+ns+"/search-key does not exist")
	})
	if n := s.aws.CallsFor(name)["bedrock-agentcore:CreateApiKeyCredentialProvider"]; n != 0 {
		t.Errorf("created without a key: %d", n)
	}
	// A key in another namespace is refused, whatever the reference says.
	other := namespace(t)
	create(t, secretWith(other, "search-key", "apiKey", firstKey))
	change(t, mg, func(mg *v1alpha1.APIKeyCredentialProvider) { mg.Spec.ForProvider.APIKey.Namespace = aws.String(other) })
	eventually(t, 20*time.Second, "cross-namespace refusal", func() error {
		return syncedMessage(t, mg, "a managed resource reads secrets only from its own namespace")
	})
	remove(t, mg)
}

func TestAPIKeyCredentialProviderAdoption(t *testing.T) {
	s := provider(t)
	ns := namespace(t)
	name := "adopted-" + ns[len(ns)-5:]
	c := bedrockagentcorecontrol.NewFromConfig(aws.Config{Region: "us-east-1", BaseEndpoint: aws.String(s.url), Credentials: credentials.NewStaticCredentialsProvider("AKIDSETUP", "s", "")})
	if _, err := c.CreateApiKeyCredentialProvider(context.Background(), &bedrockagentcorecontrol.CreateApiKeyCredentialProviderInput{
		Name: aws.String(name), ApiKey: aws.String("a-key-set-by-hand")}); err != nil {
		t.Fatal(err)
	}
	create(t, secretWith(ns, "search-key", "apiKey", firstKey))

	observer := newAPIKeyProvider(ns, name)
	observer.Name = "observer"
	observer.Spec.ForProvider.Tags = nil
	observer.Spec.ManagementPolicies = xpv2.ManagementPolicies{xpv2.ManagementActionObserve}
	create(t, observer)
	eventually(t, 20*time.Second, "observed", func() error {
		if err := cp.Client.Get(context.Background(), client.ObjectKeyFromObject(observer), observer); err != nil {
			return err
		}
		if observer.Status.AtProvider.APIKeySecretARN == nil {
			return fmt.Errorf("no status yet")
		}
		return nil
	})
	if key, updates, _ := s.aws.APIKey("us-east-1", name); key != "a-key-set-by-hand" || updates != 0 {
		t.Error("observe-only changed the key")
	}
	remove(t, observer)

	// Adopting makes AWS hold the spec's key: the one the Secret names.
	adopter := newAPIKeyProvider(ns, name)
	adopter.Name = "adopter"
	adopter.SetAnnotations(map[string]string{ownership.AnnotationAdoptionPolicy: ownership.AdoptionPolicyAdopt})
	create(t, adopter)
	eventually(t, 20*time.Second, "adopted and Ready", func() error { return isReady(t, adopter) })
	if key, updates, _ := s.aws.APIKey("us-east-1", name); key != firstKey || updates != 1 {
		t.Errorf("adoption: %d updates", updates)
	}
	if c := s.aws.CallsFor(name); c["bedrock-agentcore:CreateApiKeyCredentialProvider"] != 1 {
		t.Errorf("adoption created: %v", c)
	}
	remove(t, adopter)
}
