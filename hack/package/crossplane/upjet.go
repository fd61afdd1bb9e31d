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
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// StandInForUpjet plays provider-upjet-aws for the kinds the example
// Compositions compose besides this provider's (SNS Topic, IAM Role): a
// Topic is created in the emulator, a Role is given its ARN, and both are
// reported Ready, as that provider would once AWS had them. A cluster runs
// that provider; this harness has no need of it beyond those two facts.
func StandInForUpjet(kubectl, kubeconfig, emulator string) error {
	for _, kind := range []string{"topics.sns.aws.m.upbound.io", "roles.iam.aws.m.upbound.io"} {
		out, err := Kubectl(kubectl, kubeconfig, "", "get", kind, "-A", "-o", "json")
		if err != nil {
			return err
		}
		var list struct {
			Items []struct {
				Metadata struct{ Name, Namespace string } `json:"metadata"`
				Status   struct {
					AtProvider struct {
						ARN string `json:"arn"`
					} `json:"atProvider"`
				} `json:"status"`
			} `json:"items"`
		}
		if err := json.Unmarshal([]byte(out), &list); err != nil {
			return fmt.Errorf("%s: %w: %s", kind, err, out)
		}
		for _, it := range list.Items {
			if it.Status.AtProvider.ARN != "" {
				continue
			}
			arn := "arn:aws:iam::000000000000:role/" + it.Metadata.Name
			if strings.HasPrefix(kind, "topics.") {
				if arn, err = createTopic(emulator, it.Metadata.Name); err != nil {
					return err
				}
			}
			now := time.Now().UTC().Format(time.RFC3339)
			patch, err := json.Marshal(map[string]any{"status": map[string]any{
				"atProvider": map[string]any{"arn": arn},
				"conditions": []map[string]any{
					{"type": "Ready", "status": "True", "reason": "Available", "lastTransitionTime": now},
					{"type": "Synced", "status": "True", "reason": "ReconcileSuccess", "lastTransitionTime": now},
				},
			}})
			if err != nil {
				return err
			}
			if _, err := Kubectl(kubectl, kubeconfig, "", "-n", it.Metadata.Namespace, "patch", kind, it.Metadata.Name,
				"--subresource=status", "--type=merge", "-p", string(patch)); err != nil {
				return err
			}
		}
	}
	return nil
}

// SNS calls the emulator with SNS's query protocol; the emulator takes the
// region from the credential scope and does not check the signature.
func SNS(emulator string, form url.Values) (string, error) {
	form.Set("Version", "2010-03-31")
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, emulator+"/", strings.NewReader(form.Encode()))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=AKIDHARNESS/20260101/us-east-1/sns/aws4_request, SignedHeaders=host, Signature=0")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close() //nolint:errcheck // read only
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", err
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("%s: %s", form.Get("Action"), b)
	}
	return html.UnescapeString(string(b)), nil
}

func createTopic(emulator, name string) (string, error) {
	out, err := SNS(emulator, url.Values{"Action": {"CreateTopic"}, "Name": {name}})
	if err != nil {
		return "", err
	}
	_, rest, ok := strings.Cut(out, "<TopicArn>")
	arn, _, ok2 := strings.Cut(rest, "</TopicArn>")
	if !ok || !ok2 {
		return "", fmt.Errorf("no TopicArn in %s", out)
	}
	return arn, nil
}
