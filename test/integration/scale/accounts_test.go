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
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/test/emulator"
)

// The AWS the benchmark runs against: one account (a Server), or several
// at one endpoint (emulator.Accounts), each with its own quotas.
type awsUnderTest interface {
	http.Handler
	SetFaults(map[string]emulator.Fault)
	SetQuotas(map[string]float64)
	ResetCalls()
	Calls() map[string]int
	Outcomes() map[string]map[string]int
}

// A benchAccount is one AWS account of the benchmark: its ClusterProviderConfig
// (the one account's "default", with the emulator's fixed key; or one of its
// own per account, signing with the account's key from a Secret), and the
// SNS topic its Subscriptions subscribe to.
type benchAccount struct {
	config, key, topicARN string
}

// newAWS returns the AWS of n accounts, each with its topic and model.
func newAWS(n int) (awsUnderTest, []benchAccount) {
	o := emulator.Options{Seed: 1, CreateDelay: 2 * time.Second, UpdateDelay: 2 * time.Second, DeleteDelay: 2 * time.Second}
	if n == 1 {
		em := emulator.New(o)
		em.CreateModel("us-east-1", model)
		return em, []benchAccount{{config: "default", topicARN: em.CreateTopic("us-east-1", "scale")}}
	}
	a := emulator.NewAccounts(n, o)
	out := make([]benchAccount, 0, n)
	for i, key := range a.Keys {
		em := a.Account(i)
		em.CreateModel("us-east-1", model)
		out = append(out, benchAccount{config: fmt.Sprintf("account-%02d", i+1), key: key, topicARN: em.CreateTopic("us-east-1", "scale")})
	}
	return a, out
}

// configure creates the account's ClusterProviderConfig, and the Secret of
// its key in ns.
func (a benchAccount) configure(ctx context.Context, kube client.Client, ns, url string) error {
	spec := v1alpha1.ProviderConfigSpec{
		Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceNone},
		Region:      aws.String("us-east-1"),
		Endpoint:    &v1alpha1.EndpointOverride{URL: url},
	}
	if a.key != "" {
		secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: a.config}, StringData: map[string]string{
			"credentials": fmt.Sprintf("[default]\naws_access_key_id = %s\naws_secret_access_key = s\n", a.key)}}
		if err := kube.Create(ctx, secret); err != nil {
			return err
		}
		spec.Credentials = v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceSecret,
			SecretRef: &xpv2.SecretKeySelector{SecretReference: xpv2.SecretReference{Name: a.config, Namespace: ns}, Key: "credentials"}}
	}
	return kube.Create(ctx, &v1alpha1.ClusterProviderConfig{ObjectMeta: metav1.ObjectMeta{Name: a.config}, Spec: v1alpha1.ClusterProviderConfigSpec{ProviderConfigSpec: spec}})
}

// object returns the i-th object of a kind, in this account.
func (a benchAccount) object(kind, ns string, i int) resource.Managed {
	mg := object(kind, ns, i, a.topicARN)
	mg.(resource.ModernManaged).SetProviderConfigReference(&xpv2.ProviderConfigReference{Kind: v1alpha1.ClusterProviderConfigKind, Name: a.config}) //nolint:forcetypeassert // every kind is one
	return mg
}

// perAccount is one account's share of counts spread over n accounts: the
// most any account has.
func perAccount(counts map[string]int, n int) map[string]int {
	out := make(map[string]int, len(counts))
	for k, c := range counts {
		out[k] = (c + n - 1) / n
	}
	return out
}

// servedAWS is the AWS of the settings' accounts, with their latency and
// quotas, served over HTTP; with BENCH_RESET, behind a proxy that loses
// that share of its answers, whose URL is then the endpoint's.
func servedAWS(s settings) (awsUnderTest, []benchAccount, *endpoint) {
	em, accounts := newAWS(s.accounts)
	if s.latency > 0 || s.jitter > 0 {
		em.SetFaults(map[string]emulator.Fault{"*": {Latency: s.latency, LatencyJitter: s.jitter}})
	}
	if s.quotas {
		em.SetQuotas(emulator.PublishedQuotas)
	}
	e := &endpoint{emulator: httptest.NewServer(em)}
	e.URL = e.emulator.URL
	if s.reset > 0 {
		e.proxy = newResetProxy(e.emulator.URL, s.reset)
		e.URL = e.proxy.URL
	}
	return em, accounts, e
}

// kubeconfigIn writes the control plane's kubeconfig into a folder of the
// benchmark's, and returns both.
func kubeconfigIn(b *testing.B) (dir, kubeconfig string) {
	b.Helper()
	dir = b.TempDir()
	kubeconfig = filepath.Join(dir, "kubeconfig")
	if err := os.WriteFile(kubeconfig, env.ControlPlane.KubeConfig, 0o600); err != nil {
		b.Fatal(err)
	}
	return dir, kubeconfig
}

// prepare makes what the load's resources need: their namespace, the
// Secrets they send, and each account's ClusterProviderConfig.
func prepare(ctx context.Context, kube client.Client, ns string, accounts []benchAccount, url string) error {
	if err := kube.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil && !kerrors.IsAlreadyExists(err) {
		return err
	}
	for name, key := range map[string]string{"endpoint-key": "accessKey", "api-key": "apiKey"} {
		if err := kube.Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, StringData: map[string]string{key: "scale-" + name}}); err != nil {
			return err
		}
	}
	for _, a := range accounts {
		if err := a.configure(ctx, kube, ns, url); err != nil {
			return err
		}
	}
	return nil
}
