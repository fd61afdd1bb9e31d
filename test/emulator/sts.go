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
		return queryResult{Inner: fmt.Sprintf("<Arn>%s</Arn><UserId>%s</UserId><Account>%s</Account>", s.caller(req.accessKey), req.accessKey, s.opts.Account)}, nil
	case "AssumeRole", "AssumeRoleWithWebIdentity":
		role, session := form.Get("RoleArn"), form.Get("RoleSessionName")
		if role == "" || session == "" {
			return nil, errorf(400, "ValidationError", "1 validation error detected: RoleArn and RoleSessionName are required")
		}
		if req.operation == "AssumeRoleWithWebIdentity" && form.Get("WebIdentityToken") == "" {
			return nil, errorf(400, "ValidationError", "1 validation error detected: WebIdentityToken is required")
		}
		call := AssumedRole{RoleARN: role, SessionName: session, ExternalID: form.Get("ExternalId"), Caller: req.accessKey,
			WebIdentityToken: form.Get("WebIdentityToken"), Tags: entriesList(form, "Tags.member")}
		s.assumedRoles = append(s.assumedRoles, call)
		s.seq++
		roleName := role[strings.LastIndex(role, "/")+1:]
		expires := s.opts.Now().Add(time.Hour).UTC().Format(time.RFC3339)
		s.issued[fmt.Sprintf("ASIAEMULATOR%08d", s.seq)] = fmt.Sprintf("arn:aws:sts::%s:assumed-role/%s/%s", s.opts.Account, roleName, session)
		return queryResult{Inner: fmt.Sprintf(
			"<Credentials><AccessKeyId>ASIAEMULATOR%08d</AccessKeyId><SecretAccessKey>emulated-secret</SecretAccessKey><SessionToken>emulated-session-%d</SessionToken><Expiration>%s</Expiration></Credentials>"+
				"<AssumedRoleUser><Arn>arn:aws:sts::%s:assumed-role/%s/%s</Arn><AssumedRoleId>AROAEMULATOR:%s</AssumedRoleId></AssumedRoleUser>",
			s.seq, s.seq, expires, s.opts.Account, roleName, session, session)}, nil
	}
	return nil, errorf(400, "InvalidAction", "Could not find operation %s for version 2011-06-15", req.operation)
}

// An AssumedRole records one AssumeRole or AssumeRoleWithWebIdentity call.
type AssumedRole struct {
	RoleARN, SessionName, ExternalID string
	// Caller is the access key that signed the call; empty for a web
	// identity.
	Caller           string
	WebIdentityToken string
	Tags             map[string]string
}

// AssumedRoles returns the roles assumed so far, in order.
func (s *Server) AssumedRoles() []AssumedRole {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]AssumedRole(nil), s.assumedRoles...)
}

// entriesList reads a query list of Key/Value structures such as
// Tags.member.N.Key and Tags.member.N.Value.
func entriesList(form url.Values, name string) map[string]string {
	out := map[string]string{}
	for i := 1; ; i++ {
		k := form.Get(fmt.Sprintf("%s.%d.Key", name, i))
		if k == "" {
			return out
		}
		out[k] = form.Get(fmt.Sprintf("%s.%d.Value", name, i))
	}
}
