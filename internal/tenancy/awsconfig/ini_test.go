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

package awsconfig

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const iniFile = `
[default]
aws_access_key_id = AKIDDEFAULT
aws_secret_access_key = default-secret

[profile deployer]
aws_access_key_id=AKIDDEPLOYER
aws_secret_access_key=deployer-secret
aws_session_token=token
`

func TestParseSharedCredentials(t *testing.T) {
	cases := map[string]struct {
		ini, profile string
		want         StaticCredentials
		wantErr      string
	}{
		"Default":        {ini: iniFile, want: StaticCredentials{AccessKeyID: "AKIDDEFAULT", SecretAccessKey: "default-secret"}},
		"NamedProfile":   {ini: iniFile, profile: "deployer", want: StaticCredentials{AccessKeyID: "AKIDDEPLOYER", SecretAccessKey: "deployer-secret", SessionToken: "token"}},
		"MissingProfile": {ini: iniFile, profile: "ops", wantErr: "no profile ops"},
		"MissingSecret":  {ini: "[default]\naws_access_key_id = AKIDONLY\n", wantErr: "lacks aws_access_key_id or aws_secret_access_key"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := ParseSharedCredentials([]byte(tc.ini), tc.profile)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("want error %q, got %v", tc.wantErr, err)
				}
				if strings.Contains(err.Error(), "secret") && strings.Contains(err.Error(), "default-secret") {
					t.Fatalf("the error quotes a secret: %v", err)
				}
				return
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("-want, +got:\n%s", diff)
			}
		})
	}
}
