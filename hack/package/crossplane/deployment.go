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
	"os"
	"strings"
)

// standInForDeployment makes, for a provider revision, the two objects of
// the Deployment runtime (crossplane internal/controller/pkg/runtime,
// runtime.go and runtime_provider.go) that other controllers read: the
// ServiceAccount, named as the serviceAccountTemplate of the Provider's
// DeploymentRuntimeConfig says or else after the revision, and the
// Deployment, named after the revision, that runs as that ServiceAccount,
// both controlled by the revision. The RBAC manager binds the revision's
// system ClusterRole to the ServiceAccounts of the Deployments the revision
// controls (internal/controller/rbac/provider/binding). A bare API server
// runs no Deployment: the harness runs the provider itself, with a token of
// this ServiceAccount (ServiceAccountKubeconfig). Of the runtime config only
// the ServiceAccount's name is honoured.
func standInForDeployment(kubectl, kubeconfig string, r revision) error {
	if r.Spec.Image == "" {
		return fmt.Errorf("provider revision %s names no image yet", r.Metadata.Name)
	}
	// The runtime config is the Provider's: Crossplane copies it to the
	// revision for its Deployment runtime only, not for the External one.
	parent := r.Metadata.Labels["pkg.crossplane.io/package"]
	out, err := Kubectl(kubectl, kubeconfig, "", "get", "providers.pkg.crossplane.io", parent, "--ignore-not-found",
		"-o", "jsonpath={.metadata.name} {.spec.runtimeConfigRef.name}")
	if err != nil {
		return fmt.Errorf("the runtime config of %s: %w", r.Metadata.Name, err)
	}
	if strings.TrimSpace(out) == "" {
		// The Provider is gone: the revision awaits the garbage
		// collector, and no runtime runs it.
		return nil
	}
	_, config, _ := strings.Cut(out, " ")
	name := r.Metadata.Name
	if config != "" {
		out, err := Kubectl(kubectl, kubeconfig, "", "get", "deploymentruntimeconfigs.pkg.crossplane.io", config,
			"-o", "jsonpath={.spec.serviceAccountTemplate.metadata.name}")
		if err != nil {
			return fmt.Errorf("the runtime config of %s: %w", r.Metadata.Name, err)
		}
		if out != "" {
			name = out
		}
	}
	owner := []map[string]any{{
		"apiVersion": "pkg.crossplane.io/v1", "kind": "ProviderRevision", "name": r.Metadata.Name, "uid": r.Metadata.UID,
		"controller": true, "blockOwnerDeletion": true,
	}}
	labels := map[string]string{
		"pkg.crossplane.io/revision": r.Metadata.Name,
		"pkg.crossplane.io/provider": parent,
	}
	sa := map[string]any{
		"apiVersion": "v1", "kind": "ServiceAccount",
		"metadata": map[string]any{"name": name, "namespace": Namespace, "ownerReferences": owner},
	}
	deployment := map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": r.Metadata.Name, "namespace": Namespace, "ownerReferences": owner},
		"spec": map[string]any{
			"replicas": 1,
			"selector": map[string]any{"matchLabels": labels},
			"template": map[string]any{
				"metadata": map[string]any{"labels": labels},
				"spec": map[string]any{
					"serviceAccountName": name,
					"containers":         []map[string]any{{"name": "package-runtime", "image": r.Spec.Image}},
				},
			},
		},
	}
	for _, obj := range []map[string]any{sa, deployment} {
		b, err := json.Marshal(obj)
		if err != nil {
			return err
		}
		if _, err := Kubectl(kubectl, kubeconfig, string(b), "apply", "-f", "-"); err != nil {
			return fmt.Errorf("standing in for the Deployment runtime of %s: %w", r.Metadata.Name, err)
		}
	}
	return nil
}

// ServiceAccountKubeconfig writes to file a kubeconfig of the API server that
// kubeconfig names, whose identity is the ServiceAccount namespace/name: a
// token the API server issues through the TokenRequest API (envtest's API
// server signs service account tokens), as the kubelet mounts one in a pod.
// Its requests are authorized as that ServiceAccount's, by RBAC alone.
func ServiceAccountKubeconfig(kubectl, kubeconfig, namespace, name, file string) error {
	token, err := Kubectl(kubectl, kubeconfig, "", "-n", namespace, "create", "token", name, "--duration=2h")
	if err != nil {
		return err
	}
	raw, err := Kubectl(kubectl, kubeconfig, "", "config", "view", "--raw", "--minify", "-o", "json")
	if err != nil {
		return err
	}
	var cfg struct {
		Clusters []struct {
			Cluster map[string]any `json:"cluster"`
		} `json:"clusters"`
	}
	if err := json.Unmarshal([]byte(raw), &cfg); err != nil || len(cfg.Clusters) != 1 {
		return fmt.Errorf("the cluster of %s: %v: %s", kubeconfig, err, raw)
	}
	user := "system:serviceaccount:" + namespace + ":" + name
	b, err := json.Marshal(map[string]any{
		"apiVersion": "v1", "kind": "Config", "current-context": "provider",
		"clusters": []map[string]any{{"name": "envtest", "cluster": cfg.Clusters[0].Cluster}},
		"users":    []map[string]any{{"name": user, "user": map[string]any{"token": strings.TrimSpace(token)}}},
		"contexts": []map[string]any{{"name": "provider", "context": map[string]any{"cluster": "envtest", "user": user, "namespace": namespace}}},
	})
	if err != nil {
		return err
	}
	return os.WriteFile(file, b, 0o600)
}
