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
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/internal/aws/connection"
)

// requireConnectionDetails waits until the connection Secret ns/name holds
// exactly want, AWS's values of every key the kind declares (keys, its
// service's ConnectionKeys, which the API reference lists), and nothing
// else; then it requires that no value holds, or embeds, any of secrets.
func requireConnectionDetails(t *testing.T, ns, name string, keys connection.Keys, want map[string]string, secrets ...string) {
	t.Helper()
	declared, wanted := keys.Names(), make([]string, 0, len(want))
	for k, v := range want {
		if v == "" {
			t.Fatalf("AWS's own view has no value for %s", k)
		}
		wanted = append(wanted, k)
	}
	slices.Sort(declared)
	slices.Sort(wanted)
	if !slices.Equal(declared, wanted) {
		t.Fatalf("the test wants keys %v, the kind declares %v", wanted, declared)
	}
	sec := &corev1.Secret{}
	eventually(t, 20*time.Second, "connection details", func() error {
		if err := cp.Client.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: name}, sec); err != nil {
			return err
		}
		got := map[string]string{}
		for k, v := range sec.Data {
			got[k] = string(v)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			return fmt.Errorf("connection details: -want (AWS's view), +got:\n%s", diff)
		}
		return nil
	})
	for k, v := range sec.Data {
		for _, s := range secrets {
			if strings.Contains(string(v), s) {
				t.Errorf("connection detail %s holds a secret the object was given", k)
			}
		}
	}
}
