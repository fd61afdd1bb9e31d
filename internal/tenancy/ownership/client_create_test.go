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

package ownership

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	smithy "github.com/aws/smithy-go"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/controller-runtime/pkg/client"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
)

func TestClientCreate(t *testing.T) {
	teamA := named("team-a", "orders")
	cases := map[string]struct {
		reason    string
		claimedBy *v1alpha1.DeliveryStream
		tagged    bool
		aws       *awsStream
		wantErr   string
		holder    string
		purpose   Purpose
	}{
		"Created": {
			reason: "The create is made under the object's claim, which then records that the create made it.",
			aws:    &awsStream{}, holder: "uid-team-b-orders", purpose: Created,
		},
		"RefusedByAWS": {
			reason: "A create AWS refused for good made nothing and will not succeed as it is: the claim says so, and holds the name no longer.",
			aws:    &awsStream{createErr: answeredWith(http.StatusBadRequest, "ValidationException")}, wantErr: "ValidationException",
			holder: "uid-team-b-orders", purpose: Denied,
		},
		"RefusedByAWSTagged": {
			reason: "A kind AWS tags holds no name after a refusal for good either.",
			tagged: true, aws: &awsStream{createErr: answeredWith(http.StatusForbidden, "AccessDeniedException")}, wantErr: "AccessDeniedException",
			holder: "uid-team-b-orders", purpose: Denied,
		},
		"RefusedByAWSAfterAnEarlierCreate": {
			reason:    "For a kind AWS cannot tag, a create refused for good after an earlier one under the same claim, whose answer was lost and may have made the resource, keeps the claim: only it tells that work from what appears later.",
			claimedBy: named("team-b", "orders"), aws: &awsStream{createErr: answeredWith(http.StatusBadRequest, "ResourceLimitExceededException")}, wantErr: "ResourceLimitExceededException",
			holder: "uid-team-b-orders", purpose: Refused,
		},
		"RefusedByAWSAfterAnEarlierCreateTagged": {
			reason: "For a kind AWS tags, the owner tags tell an earlier create's work: the claim holds nothing after a refusal for good.",
			tagged: true, claimedBy: named("team-b", "orders"), aws: &awsStream{createErr: answeredWith(http.StatusBadRequest, "ResourceLimitExceededException")}, wantErr: "ResourceLimitExceededException",
			holder: "uid-team-b-orders", purpose: Denied,
		},
		"Throttled": {
			reason: "A throttled create made nothing, and keeps its place: the claim says so, so that nothing appearing before the next create is taken for its work.",
			aws:    &awsStream{createErr: answeredWith(http.StatusBadRequest, "ThrottlingException")}, wantErr: "ThrottlingException",
			holder: "uid-team-b-orders", purpose: Refused,
		},
		"ThrottledTagged": {
			reason: "For a kind AWS tags, the owner tags tell its work from anyone's: the claim stays as it was.",
			tagged: true, aws: &awsStream{createErr: answeredWith(http.StatusTooManyRequests, "ThrottlingException")}, wantErr: "ThrottlingException",
			holder: "uid-team-b-orders", purpose: ToCreate,
		},
		"ServerErrorNothingShows": {
			reason: "AWS failed, and the look that follows at once finds nothing: AWS may have made it and not show it yet, as after a lost answer, and the claim is kept.",
			aws:    &awsStream{createErr: answered(http.StatusInternalServerError)}, wantErr: "ServiceUnavailableException",
			holder: "uid-team-b-orders", purpose: ToCreate,
		},
		"AnswerLost": {
			reason: "A create whose answer was lost may have made the resource, which AWS may not show yet: the claim is kept.",
			aws:    &awsStream{createErr: errors.New("connection reset by peer")}, wantErr: "connection reset", holder: "uid-team-b-orders", purpose: ToCreate,
		},
		"HeldByAGoneObject": {
			reason:    "A claim whose holder is gone is released, not inherited by a newcomer of the same name.",
			claimedBy: named("team-b", "orders", func(mg *v1alpha1.DeliveryStream) { mg.UID = "uid-of-a-gone-object" }), aws: &awsStream{}, holder: "uid-team-b-orders", purpose: Created,
		},
		"HeldByAnother": {
			reason:    "Another object holds the identity: no create.",
			claimedBy: teamA, aws: &awsStream{}, wantErr: "belongs to an object of another namespace", holder: "uid-team-a-orders", purpose: ToCreate,
		},
		"AlreadyExistsQuotesAWS": {
			reason: "A name taken says AWS's own code and message beside the provider's reading of them.",
			aws: &awsStream{exists: true, tags: OwnerTags(streamKind, named("team-x", "orders")),
				createErr: streamCreateAnswer("Firehose orders under account 000000000000 already exists")},
			wantErr: "(AWS answered the create: ResourceInUseException: Firehose orders under account 000000000000 already exists)",
		},
		"AlreadyExistsMadeElsewhere": {
			reason: "AWS has it, tagged by another object: refused, and the claim let go.",
			aws: &awsStream{exists: true, tags: OwnerTags(streamKind, named("team-x", "orders")),
				createErr: streamCreateAnswer("already exists")},
			wantErr: "created by an object of another namespace",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			kube, k := cluster(t, teamA)
			k.Tagged = tc.tagged
			if tc.claimedBy != nil {
				claimFor(t, kube, tc.claimedBy, ToCreate)
			}
			c := Wrap(ExternalClient[*v1alpha1.DeliveryStream](tc.aws), k, askerAt)
			_, err := c.Create(context.Background(), named("team-b", "orders"))
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if (tc.wantErr == "") != (gotErr == "") || !strings.Contains(gotErr, tc.wantErr) {
				t.Errorf("%s\nerror %q, want one saying %q", tc.reason, gotErr, tc.wantErr)
			}
			if got := holder(t, kube); got != tc.holder {
				t.Errorf("%s\nclaim held by %q, want %q", tc.reason, got, tc.holder)
			}
			if got := purposeOf(t, kube); got != tc.purpose {
				t.Errorf("%s\nclaim for %q, want %q", tc.reason, got, tc.purpose)
			}
		})
	}
}

// TestClientCreatesFirst: for a kind whose create AWS refuses when the
// identity exists, a new object claims the identity and creates with no
// look first; anything its records or the claims tell of an existing
// resource makes it look first, as before.
func TestClientCreatesFirst(t *testing.T) {
	refused := func(mg *v1alpha1.DeliveryStream) {
		mg.SetConditions(xpv2.Condition{Type: xpv2.TypeReady, Status: "False", Reason: ReasonNotOwned})
	}
	cases := map[string]struct {
		reason    string
		self      *v1alpha1.DeliveryStream
		claimedBy *v1alpha1.DeliveryStream
		refusedOn bool // the kind's creates are not refused when it exists
		wantCalls []string
		holder    string
	}{
		"NewObjectCreatesWithoutALook": {
			reason: "A new object makes no call before its create, and holds the claim for it.",
			self:   named("team-b", "orders"), holder: "uid-team-b-orders",
		},
		"KindWhoseCreateIsNotRefusedLooks": {
			reason: "A kind AWS lets create twice (as SNS Subscribe) looks first.",
			self:   named("team-b", "orders"), refusedOn: true, wantCalls: []string{"Observe"}, holder: "uid-team-b-orders",
		},
		"ClaimHeldByAnotherLooks": {
			reason: "The cache shows the identity claimed by another object: it looks, and the rules decide.",
			self:   named("team-b", "orders"), claimedBy: named("team-a", "orders"),
			wantCalls: []string{"Observe"}, holder: "uid-team-a-orders",
		},
		"CreateRecordedLooks": {
			reason:    "A create was made or tried (crossplane-runtime's create-pending record): it looks for what it made.",
			self:      named("team-b", "orders", func(mg *v1alpha1.DeliveryStream) { meta.SetExternalCreatePending(mg, t0) }),
			wantCalls: []string{"Observe"}, holder: "uid-team-b-orders",
		},
		"ARNShownLooks": {
			reason: "An object whose status shows an ARN looks at it.",
			self: named("team-b", "orders", func(mg *v1alpha1.DeliveryStream) {
				mg.Status.AtProvider.ACKResourceMetadata = &common.ResourceMetadata{ARN: new("arn:aws:firehose:us-east-1:000000000000:deliverystream/orders")}
			}),
			wantCalls: []string{"Observe"}, holder: "uid-team-b-orders",
		},
		"AdoptionLooks": {
			reason:    "An adoption looks for what it adopts.",
			self:      named("team-b", "orders", adopting),
			wantCalls: []string{"Observe"}, holder: "uid-team-b-orders",
		},
		"RefusedBeforeLooks": {
			reason:    "An object refused before looks again rather than trying a create AWS would refuse.",
			self:      named("team-b", "orders", refused),
			wantCalls: []string{"Observe"}, holder: "uid-team-b-orders",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var objs []client.Object
			if tc.claimedBy != nil {
				objs = append(objs, tc.claimedBy)
			}
			kube, k := cluster(t, objs...)
			k.CreateRefusedIfExists = !tc.refusedOn
			if tc.claimedBy != nil {
				claimFor(t, kube, tc.claimedBy, ToCreate)
			}
			aws := &awsStream{}
			c := Wrap(ExternalClient[*v1alpha1.DeliveryStream](aws), k, askerAt)
			_, _ = c.Observe(context.Background(), tc.self)
			if diff := cmp.Diff(tc.wantCalls, aws.calls); diff != "" {
				t.Errorf("%s\nAWS calls: -want, +got:\n%s", tc.reason, diff)
			}
			if got := holder(t, kube); got != tc.holder {
				t.Errorf("%s\nclaim held by %q, want %q", tc.reason, got, tc.holder)
			}
		})
	}
}

// TestClientCreateFirstRefusedAsExisting: a create made without a look,
// which AWS refuses because the name exists, proves that what exists is not
// its work, even for a kind AWS cannot tag whose resource was made moments
// before the claim: it is refused as the look would have refused it, and the
// claim let go.
func TestClientCreateFirstRefusedAsExisting(t *testing.T) {
	kube, k := cluster(t)
	k.CreateRefusedIfExists = true
	aws := &awsStream{exists: true, untagged: true, created: time.Now(), createErr: streamCreateAnswer("already exists")}
	c := Wrap(ExternalClient[*v1alpha1.DeliveryStream](aws), k, askerAt)
	mg := named("team-b", "orders")
	ctx := context.Background()
	if _, err := c.Observe(ctx, mg); err != nil {
		t.Fatal(err)
	}
	// As crossplane-runtime records before it creates.
	meta.SetExternalCreatePending(mg, time.Now())
	_, err := c.Create(ctx, mg)
	if err == nil || !strings.Contains(err.Error(), "does not manage it") {
		t.Errorf("create refused by AWS as existing: error %v, want a refusal", err)
	}
	if diff := cmp.Diff([]string{"Create", "Observe"}, aws.calls); diff != "" {
		t.Errorf("AWS calls: -want, +got:\n%s", diff)
	}
	if got := holder(t, kube); got != "" {
		t.Errorf("claim held by %q after the refusal, want none", got)
	}
}

// TestClientCreateFirstRefusedThenLookFails: a create made without a look,
// which AWS refuses because the name exists, marks the claim refused before
// it looks at what exists: when that look fails, the next reconcile, which
// sees the create this object recorded, still does not take what exists,
// made moments before the claim by someone else, for its own work.
func TestClientCreateFirstRefusedThenLookFails(t *testing.T) {
	kube, k := cluster(t)
	k.CreateRefusedIfExists = true
	aws := &awsStream{exists: true, untagged: true, created: time.Now(), createErr: streamCreateAnswer("already exists")}
	mg := named("team-b", "orders")
	ctx := context.Background()
	c := Wrap(ExternalClient[*v1alpha1.DeliveryStream](aws), k, askerAt)
	if _, err := c.Observe(ctx, mg); err != nil {
		t.Fatal(err)
	}
	meta.SetExternalCreatePending(mg, time.Now())
	aws.observeErr = &smithy.GenericAPIError{Code: "ThrottlingException", Message: "Rate exceeded"}
	if _, err := c.Create(ctx, mg); err == nil {
		t.Fatal("create refused as existing, then a failed look: no error")
	}
	if got := purposeOf(t, kube); got != Refused {
		t.Errorf("claim purpose after the refused create %q, want %q", got, Refused)
	}

	// The next reconcile, as crossplane-runtime makes it after a failed create.
	aws.observeErr = nil
	meta.SetExternalCreateFailed(mg, time.Now())
	c = Wrap(ExternalClient[*v1alpha1.DeliveryStream](aws), k, askerAt)
	_, err := c.Observe(ctx, mg)
	if err == nil || !strings.Contains(err.Error(), "does not manage it") {
		t.Errorf("next reconcile: error %v, want a refusal", err)
	}
	if got := holder(t, kube); got != "" {
		t.Errorf("claim held by %q after the refusal, want none", got)
	}
}

// TestClientCreateAnswerLost: a new object creates without a look first, and
// its create's outcome is unknown: AWS failed (a server error, which it can
// send after the work) or no answer came. The create is sent once, so no
// retry of it is answered "already exists" inside the call: the create looks
// at once, and takes what its own create made as created, for a kind AWS
// tags and one it cannot tag. When the look finds nothing after a server
// error, nothing was made: what appears later is not the object's. When it
// finds nothing after no answer, AWS may still be at work: the next
// reconcile, which crossplane-runtime makes with the create recorded as
// pending and failed, takes what shows then. A create AWS refused
// (throttled) made nothing, and is not looked after.
func TestClientCreateAnswerLost(t *testing.T) {
	reset := errors.New("read tcp 127.0.0.1:4566: connection reset by peer")
	type want struct {
		createErr string
		calls     []string // of the create
		sentOnce  []bool
		purpose   Purpose // of the claim after the create
		err       string  // of the next reconcile's Observe; "" for none
		exists    bool
		holder    string
	}
	cases := map[string]struct {
		reason    string
		tagged    bool
		createErr error
		// made is true when the create made the resource; shows when AWS
		// shows it only to the next reconcile.
		made, shows bool
		want        want
	}{
		"ServerErrorAfterTheWorkUntagged": {
			reason:    "A kind AWS cannot tag: made after the claim, with its create pending: taken as created at once.",
			createErr: answered(http.StatusInternalServerError), made: true,
			want: want{calls: []string{"Create", "Observe"}, sentOnce: []bool{true}, purpose: ToCreate, exists: true, holder: "uid-team-b-orders"},
		},
		"ConnectionResetAfterTheWorkUntagged": {
			reason:    "No answer at all: the same.",
			createErr: reset, made: true,
			want: want{calls: []string{"Create", "Observe"}, sentOnce: []bool{true}, purpose: ToCreate, exists: true, holder: "uid-team-b-orders"},
		},
		"ServerErrorAfterTheWorkTagged": {
			reason:    "A kind AWS tags: the owner tags its create put name its UID.",
			tagged:    true,
			createErr: answered(http.StatusInternalServerError), made: true,
			want: want{calls: []string{"Create", "Observe", "ListTags"}, sentOnce: []bool{true}, purpose: ToCreate, exists: true, holder: "uid-team-b-orders"},
		},
		"ServerErrorNotShownYetUntagged": {
			reason:    "AWS failed, which it can after the work, and does not show the work yet (its reads lag a write): a server error proves nothing, and the next reconcile, with the create recorded, takes what shows.",
			createErr: answered(http.StatusInternalServerError), shows: true,
			want: want{
				createErr: "ServiceUnavailableException", calls: []string{"Create", "Observe"}, sentOnce: []bool{true}, purpose: ToCreate,
				exists: true, holder: "uid-team-b-orders",
			},
		},
		"ConnectionResetNotShownYetUntagged": {
			reason:    "No answer, and AWS does not show the create's work yet: the next reconcile, with the create recorded, takes it.",
			createErr: reset, shows: true,
			want: want{
				createErr: "connection reset", calls: []string{"Create", "Observe"}, sentOnce: []bool{true}, purpose: ToCreate,
				exists: true, holder: "uid-team-b-orders",
			},
		},
		"ThrottledUntagged": {
			reason:    "AWS refused the create and made nothing: no look; what appeared after it is not the object's, and the claim is let go.",
			createErr: answered(http.StatusTooManyRequests), shows: true,
			want: want{
				createErr: "ServiceUnavailableException", calls: []string{"Create"}, sentOnce: []bool{true}, purpose: Refused,
				err: "made outside this cluster",
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			kube, k := cluster(t)
			k.CreateRefusedIfExists, k.Tagged = true, tc.tagged
			aws := &awsStream{untagged: !tc.tagged, tags: map[string]string{}, createErr: tc.createErr}
			ctx := context.Background()
			mg := named("team-b", "orders")
			if tc.made {
				aws.makes = mg
			}
			c := Wrap(ExternalClient[*v1alpha1.DeliveryStream](aws), k, askerAt)
			if _, err := c.Observe(ctx, mg); err != nil {
				t.Fatal(err)
			}
			// As crossplane-runtime records before a create.
			meta.SetExternalCreatePending(mg, time.Now())
			_, err := c.Create(ctx, mg)
			got := want{calls: aws.calls, sentOnce: aws.sentOnce, purpose: purposeOf(t, kube)}
			if err != nil {
				got.createErr = tc.want.createErr
				if !strings.Contains(err.Error(), tc.want.createErr) || tc.want.createErr == "" {
					got.createErr = err.Error()
				}
				// As crossplane-runtime records after a create that failed.
				meta.SetExternalCreateFailed(mg, time.Now())
			}
			if tc.shows {
				// What AWS shows now: the create's work, or, after a
				// create that made nothing, what someone else made since.
				aws.exists, aws.created = true, time.Now()
			}
			c = Wrap(ExternalClient[*v1alpha1.DeliveryStream](aws), k, askerAt)
			o, err := c.Observe(ctx, mg)
			got.exists, got.holder = o.ResourceExists, holder(t, kube)
			if err != nil {
				got.err = tc.want.err
				if !strings.Contains(err.Error(), tc.want.err) || tc.want.err == "" {
					got.err = err.Error()
				}
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("%s\n-want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
