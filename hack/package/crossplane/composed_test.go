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

package crossplane

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cloudkinds/provider-aws-services/hack/package/compositions"
	pkgkinds "github.com/cloudkinds/provider-aws-services/hack/package/kinds"
)

// activate sets the activations of the default
// ManagedResourceActivationPolicy, as a platform team edits it.
func activate(c *composed, activations ...string) {
	c.t.Helper()
	patch, err := json.Marshal(map[string]any{"spec": map[string]any{"activate": activations}})
	if err != nil {
		c.t.Fatal(err)
	}
	c.k("", "patch", "managedresourceactivationpolicies.apiextensions.crossplane.io", "default", "--type=merge", "-p", string(patch))
}

// composed runs the steps of the subtests that compose through Crossplane.
type composed struct {
	t                    *testing.T
	tl                   Tools
	kubeconfig, emulator string
	rep                  *reporter
	// running reports a process the steps need that has ended.
	running func() error
	// beforeDelete checks what must hold before a composite is deleted.
	beforeDelete func(t *testing.T)
}

// within is within, stopping the test at once if a process it needs ended.
func (c *composed) within(since time.Time, limit, patience time.Duration, what string, check func() error) time.Duration {
	c.t.Helper()
	return within(c.t, since, limit, patience, what, func() error {
		if err := c.running(); err != nil {
			c.t.Fatal(err)
		}
		return check()
	})
}

func (c composed) with(t *testing.T) *composed { c.t = t; return &c }

func (c *composed) k(stdin string, args ...string) string {
	c.t.Helper()
	out, err := Kubectl(c.tl.Kubectl, c.kubeconfig, stdin, args...)
	if err != nil {
		c.t.Fatal(err)
	}
	return out
}

// ready reports an object (a composite or a managed resource) Ready, or its
// conditions, and fails the test if a composite's Responsive condition says
// Crossplane's circuit breaker is open for it.
func (c *composed) ready(ns, obj string) error {
	out, err := Kubectl(c.tl.Kubectl, c.kubeconfig, "", "-n", ns, "get", obj, "-o", "json")
	if err != nil {
		return err
	}
	var xr struct {
		Status struct {
			Conditions []struct{ Type, Status, Reason, Message string } `json:"conditions"`
		} `json:"status"`
	}
	if err := json.Unmarshal([]byte(out), &xr); err != nil {
		return fmt.Errorf("%w: %s", err, out)
	}
	ready := false
	var why []string
	for _, cd := range xr.Status.Conditions {
		if cd.Type == "Responsive" && cd.Status == "False" {
			c.t.Errorf("%s: Crossplane's circuit breaker is open for it: %s: %s", obj, cd.Reason, cd.Message)
		}
		if cd.Type == "Ready" && cd.Status == "True" {
			ready = true
		}
		if cd.Status != "True" {
			why = append(why, fmt.Sprintf("%s=%s %s: %s", cd.Type, cd.Status, cd.Reason, cd.Message))
		}
	}
	if !ready {
		return fmt.Errorf("%s not Ready: %s", obj, strings.Join(why, "; "))
	}
	return nil
}

// collectGarbage stands in for the garbage collector, reporting its errors
// at once.
func (c *composed) collectGarbage(kinds ...string) {
	c.rep.report("stand-in garbage collector", CollectGarbage(c.tl.Kubectl, c.kubeconfig, kinds...))
}

// everyKind brings each of the provider's kinds, as its example
// applies it, to Ready, and deletes them: every kind works with the
// permissions the provider is given.
func (c *composed) everyKind() {
	kinds, err := pkgkinds.Examples(root) // example: the resource it applies
	if err != nil {
		c.t.Fatal(err)
	}
	applied := time.Now()
	for ex := range kinds {
		c.k("", "apply", "-f", filepath.Join(root, "examples", ex))
	}
	// Deleted whatever happens: the subtests after this one count what AWS
	// holds.
	defer func() {
		for _, obj := range kinds {
			c.k("", "-n", "default", "delete", obj, "--wait=false", "--ignore-not-found")
		}
		c.within(time.Now(), time.Minute, 3*time.Minute, "every kind: kubectl delete to nothing left on AWS", func() error {
			for _, obj := range kinds {
				if _, err := Kubectl(c.tl.Kubectl, c.kubeconfig, "", "-n", "default", "get", obj); err == nil {
					return fmt.Errorf("%s still exists", obj)
				}
			}
			inv, err := inventory(c.emulator)
			if err != nil {
				return err
			}
			for kind, l := range inv {
				if len(l) != 0 {
					return fmt.Errorf("AWS holds %d %s", len(l), kind)
				}
			}
			return nil
		})
	}()
	for _, obj := range kinds {
		c.within(applied, readyWithin, 3*time.Minute, obj+": kubectl apply to Ready", func() error { return c.ready("default", obj) })
	}
}

// agentCredential brings the AgentCredential example to Ready through
// Crossplane, changes its cost center and deletes it.
func (c *composed) agentCredential() {
	t := c.t
	ex := filepath.Join(root, "examples", "compositions", "agentcredential")
	c.k("", "create", "namespace", "team-a")
	c.k("", "-n", "team-a", "create", "secret", "generic", "search-api-key", "--from-literal=apiKey=sk-test-0123456789")
	obj := "agentcredentials.platform.example.org/search"
	applied := applyExample(t, c.tl, c.kubeconfig, ex, "agentcredentials.platform.example.org")
	c.within(applied, readyWithin, 3*time.Minute, "AgentCredential: kubectl apply to Ready", func() error { return c.ready("team-a", obj) })
	t.Logf("crossplane beta trace:\n%s", traceReady(t, c.tl, c.kubeconfig, "team-a", obj, 2))

	arn := "arn:aws:bedrock-agentcore:us-east-1:000000000000:token-vault/default/apikeycredentialprovider/" + compositions.AWSName("team-a", "search")
	eventually(t, 30*time.Second, "tags on AWS", func() error { return awsTag(c.emulator, arn, "cost-center", "42") })
	// The credential provider's connection Secret, in the composite's
	// namespace: its name and ARNs, never the key.
	eventually(t, 30*time.Second, "the AgentCredential's connection Secret", func() error {
		return c.connectionSecret("team-a", "search-agent-credential", map[string]func(string) bool{
			"credentialProviderName": equals(compositions.AWSName("team-a", "search")),
			"credentialProviderARN":  equals(arn),
			"apiKeySecretARN": func(v string) bool {
				return strings.HasPrefix(v, "arn:aws:secretsmanager:us-east-1:000000000000:secret:")
			},
		}, "sk-test-0123456789")
	})
	patched := time.Now()
	c.k("", "-n", "team-a", "patch", obj, "--type=merge", "-p", `{"spec":{"costCenter":"43"}}`)
	c.within(patched, changeWithin, 3*time.Minute, "AgentCredential: kubectl patch to the changed cost center on AWS", func() error {
		return awsTag(c.emulator, arn, "cost-center", "43")
	})
	if err := c.ready("team-a", obj); err != nil {
		t.Errorf("after the change: %v", err)
	}

	c.beforeDelete(c.t)
	c.k("", "-n", "team-a", "delete", obj, "--wait=false")
	c.within(time.Now(), time.Minute, 3*time.Minute, "AgentCredential: kubectl delete to nothing left on AWS", func() error {
		c.collectGarbage("apikeycredentialproviders.agentcorecontrol.services.k8s.aws")
		inv, err := inventory(c.emulator)
		if err != nil {
			return err
		}
		if n := len(inv["apiKeyCredentialProviders"]); n != 0 {
			return fmt.Errorf("%d credential providers left", n)
		}
		if _, err := Kubectl(c.tl.Kubectl, c.kubeconfig, "", "-n", "team-a", "get", obj); err == nil {
			return fmt.Errorf("the composite still exists")
		}
		return nil
	})
}

// eventDelivery brings the EventDelivery example to Ready through
// Crossplane, changes its filter policy and deletes it.
func (c *composed) eventDelivery() {
	t := c.t
	ex := filepath.Join(root, "examples", "compositions", "eventdelivery")
	// Stand-ins of provider-upjet-aws's Topic and Role kinds (same group,
	// version, kind and scope), which the Composition composes.
	c.k("", "apply", "-f", filepath.Join(root, "test", "testdata", "crds", "reference-targets.yaml"))
	c.k("", "-n", "team-a", "create", "secret", "generic", "collector-access-key", "--from-literal=accessKey=collector-key-0123")
	obj := "eventdeliveries.platform.example.org/orders"
	applied := applyExample(t, c.tl, c.kubeconfig, ex, "eventdeliveries.platform.example.org")
	c.within(applied, readyWithin, 3*time.Minute, "EventDelivery: kubectl apply to Ready", func() error {
		// provider-upjet-aws's part, played by the harness; its errors
		// are reported at once.
		if err := StandInForUpjet(c.tl.Kubectl, c.kubeconfig, c.emulator); err != nil {
			c.rep.report("stand-in for provider-upjet-aws", err)
			return err
		}
		c.rep.report("stand-in for provider-upjet-aws", nil)
		return c.ready("team-a", obj)
	})
	t.Logf("crossplane beta trace:\n%s", traceReady(t, c.tl, c.kubeconfig, "team-a", obj, 6))

	inv, err := inventory(c.emulator)
	if err != nil {
		t.Fatal(err)
	}
	if len(inv["deliveryStreams"]) != 1 || len(inv["subscriptions"]) != 1 || len(inv["endpoints"]) != 1 {
		t.Fatalf("AWS holds %v", inv)
	}
	var sub struct {
		ARN      string `json:"arn"`
		TopicARN string `json:"topicArn"`
	}
	if err := json.Unmarshal(inv["subscriptions"][0], &sub); err != nil {
		t.Fatal(err)
	}
	// The connection Secrets the stream, the subscription and the global
	// endpoint write into the composite's namespace, for the team's
	// applications: AWS's names, ARNs and URL, the same the composite's
	// status shows, and neither the access key nor the delivery URL.
	var streamName, endpointName string
	if json.Unmarshal(inv["deliveryStreams"][0], &streamName) != nil || json.Unmarshal(inv["endpoints"][0], &endpointName) != nil {
		t.Fatalf("AWS holds %s", inv)
	}
	endpoint, err := describeEndpoint(c.emulator, endpointName)
	if err != nil {
		t.Fatal(err)
	}
	xr := map[string]string{}
	for _, f := range []string{"streamARN", "endpointURL"} {
		xr[f] = c.k("", "-n", "team-a", "get", obj, "-o", "jsonpath={.status."+f+"}")
	}
	if xr["streamARN"] != "arn:aws:firehose:us-east-1:000000000000:deliverystream/"+streamName || xr["endpointURL"] != endpoint.EndpointURL {
		t.Errorf("the composite's status: %v; AWS holds stream %s and endpoint URL %s", xr, streamName, endpoint.EndpointURL)
	}
	secrets := []string{"collector-key-0123", "collector.team-a.example.com"}
	eventually(t, 30*time.Second, "the EventDelivery's connection Secrets", func() error {
		for name, want := range map[string]map[string]func(string) bool{
			"orders-stream":       {"deliveryStreamName": equals(streamName), "deliveryStreamARN": equals(xr["streamARN"])},
			"orders-subscription": {"subscriptionARN": equals(sub.ARN), "topicARN": equals(sub.TopicARN)},
			"orders-endpoint": {
				"endpointName": equals(endpointName), "endpointARN": equals(endpoint.ARN),
				"endpointID": equals(endpoint.EndpointID), "endpointURL": equals(xr["endpointURL"]),
			},
		} {
			if err := c.connectionSecret("team-a", name, want, secrets...); err != nil {
				return err
			}
		}
		return nil
	})
	time.Sleep(changeAfterReady)
	patched := time.Now()
	c.k("", "-n", "team-a", "patch", obj, "--type=merge", "-p", `{"spec":{"filterPolicy":"{\"type\": [\"order_cancelled\"]}"}}`)
	c.within(patched, changeWithin, 3*time.Minute, "EventDelivery: kubectl patch to the changed filter policy on AWS", func() error {
		out, err := SNS(c.emulator, url.Values{"Action": {"GetSubscriptionAttributes"}, "SubscriptionArn": {sub.ARN}})
		if err != nil {
			return err
		}
		if !strings.Contains(out, "order_cancelled") {
			return fmt.Errorf("attributes: %s", out)
		}
		return nil
	})
	if err := c.ready("team-a", obj); err != nil {
		t.Errorf("after the change: %v", err)
	}

	c.beforeDelete(c.t)
	c.k("", "-n", "team-a", "delete", obj, "--wait=false")
	c.within(time.Now(), time.Minute, 3*time.Minute, "EventDelivery: kubectl delete to nothing left on AWS", func() error {
		c.collectGarbage("deliverystreams.streaming.services.k8s.aws", "subscriptions.notification.services.k8s.aws",
			"endpoints.eventbus.services.k8s.aws", "topics.sns.aws.m.upbound.io", "roles.iam.aws.m.upbound.io")
		inv, err := inventory(c.emulator)
		if err != nil {
			return err
		}
		for _, kind := range []string{"deliveryStreams", "subscriptions", "endpoints"} {
			if n := len(inv[kind]); n != 0 {
				return fmt.Errorf("%d %s left", n, kind)
			}
		}
		if _, err := Kubectl(c.tl.Kubectl, c.kubeconfig, "", "-n", "team-a", "get", obj); err == nil {
			return fmt.Errorf("the composite still exists")
		}
		return nil
	})
}

// connectionSecret checks the connection Secret ns/name: it holds exactly
// the keys of want, each value as want's check of it says, and no value holds
// any of secrets.
func (c *composed) connectionSecret(ns, name string, want map[string]func(string) bool, secrets ...string) error {
	out, err := Kubectl(c.tl.Kubectl, c.kubeconfig, "", "-n", ns, "get", "secret", name, "-o", "json")
	if err != nil {
		return err
	}
	var sec struct {
		Data map[string][]byte `json:"data"`
	}
	if err := json.Unmarshal([]byte(out), &sec); err != nil {
		return err
	}
	if len(sec.Data) != len(want) {
		return fmt.Errorf("secret %s/%s holds %d keys, want %d: %s", ns, name, len(sec.Data), len(want), keysOf(sec.Data))
	}
	for k, ok := range want {
		v, found := sec.Data[k]
		if !found || !ok(string(v)) {
			return fmt.Errorf("secret %s/%s: %s is %q", ns, name, k, v)
		}
	}
	for k, v := range sec.Data {
		for _, s := range secrets {
			if strings.Contains(string(v), s) {
				c.t.Errorf("secret %s/%s: %s holds a secret the composite was given", ns, name, k)
			}
		}
	}
	return nil
}

func equals(want string) func(string) bool { return func(v string) bool { return v == want } }

func keysOf(m map[string][]byte) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	return strings.Join(keys, ", ")
}
