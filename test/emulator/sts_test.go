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

package emulator_test

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	ststypes "github.com/aws/aws-sdk-go-v2/service/sts/types"
	"github.com/google/go-cmp/cmp"
)

// assumed returns the configuration of cfg signed with the credentials of
// out.
func assumed(cfg aws.Config, out *sts.AssumeRoleOutput) aws.Config {
	c := out.Credentials
	cfg.Credentials = credentials.NewStaticCredentialsProvider(aws.ToString(c.AccessKeyId), aws.ToString(c.SecretAccessKey), aws.ToString(c.SessionToken))
	return cfg
}

func tag(k, v string) ststypes.Tag { return ststypes.Tag{Key: aws.String(k), Value: aws.String(v)} }

// TestSTSCallsBySession: every call is linked to the session whose key
// signed it, with the tags that session carries: its own and the transitive
// ones of the session that assumed it, and its source identity.
func TestSTSCallsBySession(t *testing.T) {
	e, cfg, _ := start(t, "AKIDADMIN")
	hub := must(sts.NewFromConfig(cfg).AssumeRole(ctx, &sts.AssumeRoleInput{
		RoleArn: aws.String("arn:aws:iam::000000000000:role/hub"), RoleSessionName: aws.String("provider-aws-services"),
		Tags: []ststypes.Tag{tag("team", "platform"), tag("cost", "1")}, TransitiveTagKeys: []string{"team"},
	}))(t)
	spoke := func(ns string) aws.Config {
		return assumed(cfg, must(sts.NewFromConfig(assumed(cfg, hub)).AssumeRole(ctx, &sts.AssumeRoleInput{
			RoleArn: aws.String("arn:aws:iam::000000000000:role/tenant"), RoleSessionName: aws.String("crossplane-ns-" + ns),
			SourceIdentity: aws.String(ns), DurationSeconds: aws.Int32(3600), Tags: []ststypes.Tag{tag("crossplane-namespace", ns)},
		}))(t))
	}
	a, b := spoke("team-a"), spoke("team-b")
	for _, c := range []aws.Config{a, a, b} {
		must(firehose.NewFromConfig(c).ListDeliveryStreams(ctx, &firehose.ListDeliveryStreamsInput{}))(t)
	}
	// A call AWS answers with an error is linked to its session too.
	_, _ = firehose.NewFromConfig(b).DescribeDeliveryStream(ctx, &firehose.DescribeDeliveryStreamInput{DeliveryStreamName: aws.String("s")})
	must(firehose.NewFromConfig(cfg).ListDeliveryStreams(ctx, &firehose.ListDeliveryStreamsInput{}))(t)

	roles := e.AssumedRoles()
	if len(roles) != 3 {
		t.Fatalf("want 3 sessions, got %d", len(roles))
	}
	if diff := cmp.Diff(map[string]string{"team": "platform", "crossplane-namespace": "team-b"}, roles[2].SessionTags); diff != "" {
		t.Errorf("tags of team-b's session: -want, +got:\n%s", diff)
	}
	if roles[2].SourceIdentity != "team-b" || roles[2].Caller != roles[0].AccessKeyID || roles[2].DurationSeconds != 3600 {
		t.Errorf("team-b's session: %+v", roles[2])
	}

	type call struct {
		Operation, Resource, Role, SourceIdentity, Namespace string
		Count                                                int
	}
	var got []call
	for _, c := range e.CallsBySession() {
		if !strings.HasPrefix(c.Operation, "firehose:") {
			continue
		}
		g := call{Operation: c.Operation, Resource: c.Resource, Count: c.Count}
		if c.Session != nil {
			g.Role, g.SourceIdentity, g.Namespace = c.Session.RoleARN, c.Session.SourceIdentity, c.Session.SessionTags["crossplane-namespace"]
		}
		got = append(got, g)
	}
	tenant := "arn:aws:iam::000000000000:role/tenant"
	want := []call{
		{Operation: "firehose:DescribeDeliveryStream", Resource: "s", Role: tenant, SourceIdentity: "team-b", Namespace: "team-b", Count: 1},
		// CallsBySession orders a key no AssumeRole issued (AKID...)
		// before the issued ones (ASIA...).
		{Operation: "firehose:ListDeliveryStreams", Count: 1},
		{Operation: "firehose:ListDeliveryStreams", Role: tenant, SourceIdentity: "team-a", Namespace: "team-a", Count: 2},
		{Operation: "firehose:ListDeliveryStreams", Role: tenant, SourceIdentity: "team-b", Namespace: "team-b", Count: 1},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("firehose calls by session: -want, +got:\n%s", diff)
	}

	wantTags := []map[string]string{
		{},
		{"team": "platform", "crossplane-namespace": "team-a"},
		{"team": "platform", "crossplane-namespace": "team-a"},
		{"team": "platform", "crossplane-namespace": "team-b"},
	}
	if diff := cmp.Diff(wantTags, e.CallTags("firehose:ListDeliveryStreams")); diff != "" {
		t.Errorf("tags of each ListDeliveryStreams: -want, +got:\n%s", diff)
	}
	if n := len(e.CallTags("firehose:ListDeliveryStreams")); n != e.CallCount("firehose:ListDeliveryStreams") {
		t.Errorf("CallTags has %d calls, Calls counts %d", n, e.CallCount("firehose:ListDeliveryStreams"))
	}

	e.ResetCalls()
	if got := e.CallsBySession(); len(got) != 0 {
		t.Errorf("ResetCalls kept calls by session: %+v", got)
	}
}

// TestSTSAssumeRoleRefusesWhatAWSRefuses: session names and source
// identities outside AWS's pattern and length, more than 50 session tags,
// tag keys that differ only in case, a transitive tag set again down the
// chain, and a chained session longer than an hour.
func TestSTSAssumeRoleRefusesWhatAWSRefuses(t *testing.T) {
	tags := func(n int) []ststypes.Tag {
		out := make([]ststypes.Tag, n)
		for i := range out {
			out[i] = tag(strings.Repeat("k", i+1), "v")
		}
		return out
	}
	cases := map[string]struct {
		in       sts.AssumeRoleInput
		chained  bool
		code     string
		contains string
	}{
		"LongSessionName": {in: sts.AssumeRoleInput{RoleSessionName: aws.String(strings.Repeat("n", 65))},
			code: "ValidationError", contains: "'roleSessionName' failed to satisfy constraint: Member must have length between 2 and 64"},
		"SessionNameOutsidePattern": {in: sts.AssumeRoleInput{RoleSessionName: aws.String("team a")},
			code: "ValidationError", contains: `Member must satisfy regular expression pattern: [\w+=,.@-]*`},
		"SourceIdentityTooShort": {in: sts.AssumeRoleInput{SourceIdentity: aws.String("a")},
			code: "ValidationError", contains: "'sourceIdentity'"},
		"FiftyOneTags": {in: sts.AssumeRoleInput{Tags: tags(51)},
			code: "ValidationError", contains: "Member must have length less than or equal to 50"},
		"KeysDifferingInCase": {in: sts.AssumeRoleInput{Tags: []ststypes.Tag{tag("Team", "a"), tag("team", "b")}},
			code: "InvalidParameterValue", contains: "Tag keys are case insensitive"},
		"TransitiveTagSetAgain": {in: sts.AssumeRoleInput{Tags: []ststypes.Tag{tag("TEAM", "other")}}, chained: true,
			code: "InvalidParameterValue", contains: "transitive tag"},
		"ChainedLongerThanAnHour": {in: sts.AssumeRoleInput{DurationSeconds: aws.Int32(7200)}, chained: true,
			code: "ValidationError", contains: "exceeds the 1 hour session limit for roles assumed by role chaining"},
		"FiftyTagsForAnHourChained": {in: sts.AssumeRoleInput{Tags: tags(50), DurationSeconds: aws.Int32(3600)}, chained: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, cfg, _ := start(t, "AKIDADMIN")
			caller := cfg
			if tc.chained {
				hub := must(sts.NewFromConfig(cfg).AssumeRole(ctx, &sts.AssumeRoleInput{
					RoleArn: aws.String("arn:aws:iam::000000000000:role/hub"), RoleSessionName: aws.String("hub"),
					Tags: []ststypes.Tag{tag("team", "platform")}, TransitiveTagKeys: []string{"team"},
				}))(t)
				caller = assumed(cfg, hub)
			}
			in := tc.in
			in.RoleArn = aws.String("arn:aws:iam::000000000000:role/tenant")
			if in.RoleSessionName == nil {
				in.RoleSessionName = aws.String("session")
			}
			_, err := sts.NewFromConfig(caller).AssumeRole(ctx, &in)
			if tc.code == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			wantCode(t, err, tc.code, tc.contains)
		})
	}
}
