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
	"strings"
)

// CollectGarbage stands in for kube-controller-manager's garbage collector,
// which a bare API server lacks: it deletes the objects of kinds whose
// controlling owner no longer exists. Crossplane deletes a composite's
// resources through that collector (the composite owns them).
func CollectGarbage(kubectl, kubeconfig string, kinds ...string) error {
	for _, kind := range kinds {
		out, err := Kubectl(kubectl, kubeconfig, "", "get", kind, "-A", "-o", "json")
		if err != nil {
			return err
		}
		var list struct {
			Items []struct {
				Metadata struct {
					Name            string `json:"name"`
					Namespace       string `json:"namespace"`
					OwnerReferences []struct {
						APIVersion string `json:"apiVersion"`
						Kind       string `json:"kind"`
						Name       string `json:"name"`
						UID        string `json:"uid"`
						Controller bool   `json:"controller"`
					} `json:"ownerReferences"`
				} `json:"metadata"`
			} `json:"items"`
		}
		if err := json.Unmarshal([]byte(out), &list); err != nil {
			return fmt.Errorf("%s: %w: %s", kind, err, out)
		}
		for _, it := range list.Items {
			for _, o := range it.Metadata.OwnerReferences {
				if !o.Controller {
					continue
				}
				group := ""
				if g, _, ok := strings.Cut(o.APIVersion, "/"); ok {
					group = "." + g
				}
				uid, err := Kubectl(kubectl, kubeconfig, "", "-n", it.Metadata.Namespace, "get", strings.ToLower(o.Kind)+group, o.Name,
					"-o", "jsonpath={.metadata.uid}", "--ignore-not-found")
				if err != nil {
					return err
				}
				if uid == o.UID {
					continue
				}
				if _, err := Kubectl(kubectl, kubeconfig, "", "-n", it.Metadata.Namespace, "delete", kind, it.Metadata.Name, "--wait=false", "--ignore-not-found"); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
