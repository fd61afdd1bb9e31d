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
	"cmp"
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// What AWS accepts of an AssumeRole: RoleSessionName and SourceIdentity are
// 2 to 64 characters of [\w+=,.@-]; at most 50 session tags, keys of 1 to
// 128 characters and values of at most 256, keys unique ignoring case;
// DurationSeconds from 900 to the role's MaxSessionDuration (an hour here,
// the default) and at most an hour when the caller is itself a role's
// session (role chaining).
var stsName = regexp.MustCompile(`^[\w+=,.@-]*$`)

const (
	maxSessionTags      = 50
	maxSessionDuration  = 3600
	minSessionDuration  = 900
	chainedRoleDuration = 3600
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
			WebIdentityToken: form.Get("WebIdentityToken"), Tags: entriesList(form, "Tags.member"),
			SourceIdentity: form.Get("SourceIdentity"), TransitiveTagKeys: membersList(form, "TransitiveTagKeys.member"),
			DurationSeconds: maxSessionDuration}
		if d := form.Get("DurationSeconds"); d != "" {
			n, err := strconv.Atoi(d)
			if err != nil {
				return nil, errorf(400, "ValidationError", "1 validation error detected: Value '%s' at 'durationSeconds' failed to satisfy constraint: Member must be a number", d)
			}
			call.DurationSeconds = n
		}
		// The caller's session, when AssumeRole issued the key that signs
		// this call: its transitive tags and source identity carry over.
		var parent *AssumedRole
		if i, ok := s.sessionOf[req.accessKey]; ok {
			parent = &s.assumedRoles[i]
		}
		if err := validateAssumeRole(call, parent, tagCount(form, "Tags.member")); err != nil {
			return nil, err
		}
		call.SessionTags, call.TransitiveTags = map[string]string{}, map[string]string{}
		if parent != nil {
			maps.Copy(call.SessionTags, parent.TransitiveTags)
			maps.Copy(call.TransitiveTags, parent.TransitiveTags)
			if call.SourceIdentity == "" {
				call.SourceIdentity = parent.SourceIdentity
			}
		}
		maps.Copy(call.SessionTags, call.Tags)
		for _, k := range call.TransitiveTagKeys {
			if v, ok := call.Tags[k]; ok {
				call.TransitiveTags[k] = v
			}
		}
		s.seq++
		call.AccessKeyID = fmt.Sprintf("ASIAEMULATOR%08d", s.seq)
		s.assumedRoles = append(s.assumedRoles, call)
		s.sessionOf[call.AccessKeyID] = len(s.assumedRoles) - 1
		roleName := role[strings.LastIndex(role, "/")+1:]
		expires := s.opts.Now().Add(time.Duration(call.DurationSeconds) * time.Second).UTC().Format(time.RFC3339)
		s.issued[call.AccessKeyID] = fmt.Sprintf("arn:aws:sts::%s:assumed-role/%s/%s", s.opts.Account, roleName, session)
		return queryResult{Inner: fmt.Sprintf(
			"<Credentials><AccessKeyId>%s</AccessKeyId><SecretAccessKey>emulated-secret</SecretAccessKey><SessionToken>emulated-session-%d</SessionToken><Expiration>%s</Expiration></Credentials>"+
				"<AssumedRoleUser><Arn>arn:aws:sts::%s:assumed-role/%s/%s</Arn><AssumedRoleId>AROAEMULATOR:%s</AssumedRoleId></AssumedRoleUser>",
			call.AccessKeyID, s.seq, expires, s.opts.Account, roleName, session, session)}, nil
	}
	return nil, errorf(400, "InvalidAction", "Could not find operation %s for version 2011-06-15", req.operation)
}

// validateAssumeRole refuses what AWS refuses of an AssumeRole call made by
// the session parent (nil for a caller that is no role's session); tags is
// the number of session tags the call passed.
func validateAssumeRole(call AssumedRole, parent *AssumedRole, tags int) *apiError {
	for _, f := range []struct{ field, value string }{{"roleSessionName", call.SessionName}, {"sourceIdentity", call.SourceIdentity}} {
		field, v := f.field, f.value
		if v == "" && field == "sourceIdentity" {
			continue
		}
		if len(v) < 2 || len(v) > 64 {
			return errorf(400, "ValidationError", "1 validation error detected: Value '%s' at '%s' failed to satisfy constraint: Member must have length between 2 and 64", v, field)
		}
		if !stsName.MatchString(v) {
			return errorf(400, "ValidationError", "1 validation error detected: Value '%s' at '%s' failed to satisfy constraint: Member must satisfy regular expression pattern: [\\w+=,.@-]*", v, field)
		}
	}
	if tags > maxSessionTags {
		return errorf(400, "ValidationError", "1 validation error detected: Value at 'tags' failed to satisfy constraint: Member must have length less than or equal to %d", maxSessionTags)
	}
	if len(call.Tags) < tags {
		return errorf(400, "InvalidParameterValue", "Duplicate tag keys found. Please note that Tag keys are case insensitive.")
	}
	seen := map[string]bool{}
	for k, v := range call.Tags {
		if len(k) > 128 || len(v) > 256 {
			return errorf(400, "ValidationError", "1 validation error detected: Value at 'tags' failed to satisfy constraint: tag keys have at most 128 characters and values at most 256")
		}
		if seen[strings.ToLower(k)] {
			return errorf(400, "InvalidParameterValue", "Duplicate tag keys found. Please note that Tag keys are case insensitive.")
		}
		seen[strings.ToLower(k)] = true
		if parent != nil {
			for t := range parent.TransitiveTags {
				if strings.EqualFold(t, k) {
					return errorf(400, "InvalidParameterValue", "The session tag %s is a transitive tag of the calling session and cannot be set again in the role chain.", k)
				}
			}
		}
	}
	switch {
	case call.DurationSeconds < minSessionDuration:
		return errorf(400, "ValidationError", "1 validation error detected: Value '%d' at 'durationSeconds' failed to satisfy constraint: Member must have value greater than or equal to %d", call.DurationSeconds, minSessionDuration)
	case parent != nil && call.DurationSeconds > chainedRoleDuration:
		return errorf(400, "ValidationError", "The requested DurationSeconds exceeds the 1 hour session limit for roles assumed by role chaining.")
	case call.DurationSeconds > maxSessionDuration:
		return errorf(400, "ValidationError", "The requested DurationSeconds exceeds the MaxSessionDuration set for this role.")
	}
	return nil
}

// An AssumedRole records one AssumeRole or AssumeRoleWithWebIdentity call,
// and the session it issued.
type AssumedRole struct {
	RoleARN, SessionName, ExternalID string
	// Caller is the access key that signed the call; empty for a web
	// identity.
	Caller           string
	WebIdentityToken string
	// Tags are the session tags the call passed.
	Tags map[string]string
	// TransitiveTagKeys are the keys of Tags the call made transitive.
	TransitiveTagKeys []string
	// SourceIdentity the call set, or the one of the caller's session it
	// inherits.
	SourceIdentity  string
	DurationSeconds int

	// AccessKeyID is the key issued to the session.
	AccessKeyID string
	// SessionTags are the tags the session carries, which policies read as
	// aws:PrincipalTag: Tags and the transitive tags of the caller's
	// session.
	SessionTags map[string]string
	// TransitiveTags are the session tags a role assumed with this session
	// inherits: the caller's transitive tags and those of TransitiveTagKeys.
	TransitiveTags map[string]string
}

// clone copies r's maps and slices.
func (r AssumedRole) clone() AssumedRole {
	r.Tags, r.SessionTags, r.TransitiveTags = maps.Clone(r.Tags), maps.Clone(r.SessionTags), maps.Clone(r.TransitiveTags)
	r.TransitiveTagKeys = slices.Clone(r.TransitiveTagKeys)
	return r
}

// AssumedRoles returns the roles assumed so far, in order.
func (s *Server) AssumedRoles() []AssumedRole {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]AssumedRole, 0, len(s.assumedRoles))
	for _, r := range s.assumedRoles {
		out = append(out, r.clone())
	}
	return out
}

// A signedCall is what CallsBySession counts by: an operation, the resource
// it names and the key that signed it.
type signedCall struct{ operation, resource, accessKey string }

// A SessionCall counts the calls of one operation, on one resource, that one
// access key signed.
type SessionCall struct {
	// Operation is "service:Operation", as Calls names it.
	Operation string
	// Resource is the resource the calls name, as CallsFor names it; ""
	// for calls that name none.
	Resource  string
	AccessKey string
	// Session is the session AssumeRole issued AccessKey to; nil for a key
	// it did not issue (a user's key, or a Pod Identity's).
	Session *AssumedRole
	Count   int
}

// CallsBySession returns the calls counted since the last ResetCalls (those
// Calls counts) by the access key that signed them and the session behind
// it, ordered by operation, resource and key.
func (s *Server) CallsBySession() []SessionCall {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]SessionCall, 0, len(s.bySession))
	for c, n := range s.bySession {
		sc := SessionCall{Operation: c.operation, Resource: c.resource, AccessKey: c.accessKey, Count: n}
		if i, ok := s.sessionOf[c.accessKey]; ok {
			r := s.assumedRoles[i].clone()
			sc.Session = &r
		}
		out = append(out, sc)
	}
	slices.SortFunc(out, func(a, b SessionCall) int {
		return cmp.Or(cmp.Compare(a.Operation, b.Operation), cmp.Compare(a.Resource, b.Resource), cmp.Compare(a.AccessKey, b.AccessKey))
	})
	return out
}

// CallTags returns the session tags each call of operation
// ("firehose:CreateDeliveryStream") carried, one map per call, in the order
// of CallsBySession: the tags of the session whose key signed the call, an
// empty map for a key no AssumeRole issued.
func (s *Server) CallTags(operation string) []map[string]string {
	var out []map[string]string
	for _, c := range s.CallsBySession() {
		if c.Operation != operation {
			continue
		}
		tags := map[string]string{}
		if c.Session != nil {
			tags = c.Session.SessionTags
		}
		for range c.Count {
			out = append(out, maps.Clone(tags))
		}
	}
	return out
}

// membersList reads a query list of strings such as
// TransitiveTagKeys.member.N.
func membersList(form url.Values, name string) []string {
	var out []string
	for i := 1; ; i++ {
		v := form.Get(fmt.Sprintf("%s.%d", name, i))
		if v == "" {
			return out
		}
		out = append(out, v)
	}
}

// tagCount counts the entries of a query list of Key/Value structures.
func tagCount(form url.Values, name string) int {
	n := 0
	for form.Get(fmt.Sprintf("%s.%d.Key", name, n+1)) != "" {
		n++
	}
	return n
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
