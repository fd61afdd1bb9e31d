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

package emulator

import (
	"fmt"
	"net/url"
	"strings"
	"time"
)

func (s *Server) sts(req *request) (any, *apiError) {
	form, _ := url.ParseQuery(string(req.body))
	switch req.operation {
	case "GetCallerIdentity":
		return queryResult{Inner: fmt.Sprintf("<Arn>arn:aws:iam::%[1]s:user/%[2]s</Arn><UserId>%[2]s</UserId><Account>%[1]s</Account>", s.opts.Account, req.accessKey)}, nil
	case "AssumeRole", "AssumeRoleWithWebIdentity":
		role, session := form.Get("RoleArn"), form.Get("RoleSessionName")
		if role == "" || session == "" {
			return nil, errorf(400, "ValidationError", "1 validation error detected: RoleArn and RoleSessionName are required")
		}
		if req.operation == "AssumeRoleWithWebIdentity" && form.Get("WebIdentityToken") == "" {
			return nil, errorf(400, "ValidationError", "1 validation error detected: WebIdentityToken is required")
		}
		s.seq++
		roleName := role[strings.LastIndex(role, "/")+1:]
		expires := s.opts.Now().Add(time.Hour).UTC().Format(time.RFC3339)
		return queryResult{Inner: fmt.Sprintf(
			"<Credentials><AccessKeyId>ASIAEMULATOR%08d</AccessKeyId><SecretAccessKey>emulated-secret</SecretAccessKey><SessionToken>emulated-session-%d</SessionToken><Expiration>%s</Expiration></Credentials>"+
				"<AssumedRoleUser><Arn>arn:aws:sts::%s:assumed-role/%s/%s</Arn><AssumedRoleId>AROAEMULATOR:%s</AssumedRoleId></AssumedRoleUser>",
			s.seq, s.seq, expires, s.opts.Account, roleName, session, session)}, nil
	}
	return nil, errorf(400, "InvalidAction", "Could not find operation %s for version 2011-06-15", req.operation)
}
