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
	"errors"
	"fmt"
	"time"
)

// A revision is the part of a package revision the harness reads.
type revision struct {
	Metadata struct {
		Name   string            `json:"name"`
		UID    string            `json:"uid"`
		Labels map[string]string `json:"labels"`
	} `json:"metadata"`
	Spec struct {
		DesiredState string `json:"desiredState"`
		Image        string `json:"image"`
	} `json:"spec"`
	Status struct {
		Endpoint            string           `json:"endpoint"`
		TLSServerSecretName string           `json:"tlsServerSecretName"`
		Conditions          []map[string]any `json:"conditions"`
	} `json:"status"`
}

// StandInForRuntime writes to every revision of kind (providerrevisions,
// functionrevisions) what the Deployment runtime would: the TLS Secret name,
// the function's endpoint (if any) and RuntimeHealthy. For an active provider
// revision it first makes the ServiceAccount and the Deployment the
// Deployment runtime makes (standInForDeployment): the RBAC manager binds
// the provider's roles to the ServiceAccount the Deployment names. It
// reports whether every revision had it all already; every error carries
// kubectl's output.
func StandInForRuntime(kubectl, kubeconfig, kind, endpoint string) (bool, error) {
	out, err := Kubectl(kubectl, kubeconfig, "", "get", kind+".pkg.crossplane.io", "-o", "json")
	if err != nil {
		return false, err
	}
	var list struct {
		Items []revision `json:"items"`
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		return false, fmt.Errorf("%s: %w: %s", kind, err, out)
	}
	done := true
	var errs []error
	for _, r := range list.Items {
		status := map[string]any{}
		if r.Status.TLSServerSecretName == "" {
			status["tlsServerSecretName"] = runtimeTLSSecret
		}
		if endpoint != "" && r.Status.Endpoint != endpoint {
			status["endpoint"] = endpoint
		}
		healthy := false
		for _, c := range r.Status.Conditions {
			if c["type"] == "RuntimeHealthy" && c["status"] == "True" {
				healthy = true
			}
		}
		if !healthy {
			if kind == "providerrevisions" && r.Spec.DesiredState == "Active" {
				if err := standInForDeployment(kubectl, kubeconfig, r); err != nil {
					errs = append(errs, err)
					done = false
					continue
				}
			}
			conditions := append([]map[string]any{}, r.Status.Conditions...)
			conditions = append(conditions, map[string]any{
				"type": "RuntimeHealthy", "status": "True", "reason": "HealthyPackageRevision",
				"lastTransitionTime": time.Now().UTC().Format(time.RFC3339),
				"message":            "the harness runs the package as a local process",
			})
			status["conditions"] = conditions
		}
		if len(status) == 0 {
			continue
		}
		done = false
		patch, err := json.Marshal(map[string]any{"status": status})
		if err != nil {
			return false, err
		}
		if _, err := Kubectl(kubectl, kubeconfig, "", "patch", kind+".pkg.crossplane.io", r.Metadata.Name,
			"--subresource=status", "--type=merge", "-p", string(patch)); err != nil {
			errs = append(errs, err)
		}
	}
	return done && len(list.Items) > 0 && len(errs) == 0, errors.Join(errs...)
}
