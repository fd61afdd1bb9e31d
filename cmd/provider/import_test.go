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

package main

import (
	"testing"

	"github.com/alecthomas/kingpin/v2"
	"github.com/google/go-cmp/cmp"
)

func TestImportFlags(t *testing.T) {
	type flags struct {
		Command, Namespace, ConfigKind, Config, ClaimsNamespace, Endpoint string
	}
	cases := map[string]struct {
		args    []string
		want    flags
		wantErr bool
	}{
		"NoCommandRunsTheProvider": {args: []string{"--debug"}, want: flags{Command: "run"}},
		"Defaults": {
			args: []string{"import", "--target-namespace", "team-a"},
			want: flags{Command: "import", Namespace: "team-a", ConfigKind: "ClusterProviderConfig", Config: "default", ClaimsNamespace: "crossplane-system"},
		},
		"ANamespacedConfigAndAnEndpoint": {
			args: []string{"import", "--target-namespace", "team-a", "--provider-config-kind", "ProviderConfig", "--provider-config", "aws", "--endpoint", "http://127.0.0.1:4566", "--provider-namespace", "crossplane"},
			want: flags{Command: "import", Namespace: "team-a", ConfigKind: "ProviderConfig", Config: "aws", ClaimsNamespace: "crossplane", Endpoint: "http://127.0.0.1:4566"},
		},
		"ATargetNamespaceIsRequired":  {args: []string{"import"}, wantErr: true},
		"OnlyTheProvidersConfigKinds": {args: []string{"import", "--target-namespace", "a", "--provider-config-kind", "Secret"}, wantErr: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			app := kingpin.New("provider", "")
			app.Flag("debug", "").Bool()
			quotas := app.Flag("aws-quota", "").Strings()
			share := app.Flag("aws-quota-share", "").Default("0.8").Float64()
			app.Command("run", "").Default()
			c := newImportCommand(app, quotas, share)
			cmd, err := app.Parse(tc.args)
			if tc.wantErr {
				if err == nil {
					t.Fatalf("Parse(%v): want an error", tc.args)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := flags{Command: cmd, Namespace: *c.namespace, ConfigKind: *c.configKind, Config: *c.configName, ClaimsNamespace: *c.claimsNamespace, Endpoint: *c.endpoint}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}
