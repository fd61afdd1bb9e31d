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
	"bufio"
	"errors"
	"strings"
)

// StaticCredentials are an access key pair, with a session token when the
// keys are temporary.
type StaticCredentials struct {
	AccessKeyID     string
	SecretAccessKey string
	SessionToken    string
}

// ParseSharedCredentials reads one profile of a shared-credentials (INI)
// file. Errors never quote the file, which holds secrets.
func ParseSharedCredentials(ini []byte, profile string) (StaticCredentials, error) {
	if profile == "" {
		profile = "default"
	}
	var (
		out     StaticCredentials
		current string
		found   bool
	)
	sc := bufio.NewScanner(strings.NewReader(string(ini)))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, ";") {
			continue
		}
		if strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]") {
			current = strings.TrimSpace(strings.TrimPrefix(strings.Trim(line, "[]"), "profile "))
			found = found || current == profile
			continue
		}
		if current != profile {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		switch strings.ToLower(strings.TrimSpace(k)) {
		case "aws_access_key_id":
			out.AccessKeyID = strings.TrimSpace(v)
		case "aws_secret_access_key":
			out.SecretAccessKey = strings.TrimSpace(v)
		case "aws_session_token":
			out.SessionToken = strings.TrimSpace(v)
		}
	}
	switch {
	case !found:
		return StaticCredentials{}, errors.New("the credentials file has no profile " + profile)
	case out.AccessKeyID == "" || out.SecretAccessKey == "":
		return StaticCredentials{}, errors.New("profile " + profile + " of the credentials file lacks aws_access_key_id or aws_secret_access_key")
	}
	return out, nil
}
