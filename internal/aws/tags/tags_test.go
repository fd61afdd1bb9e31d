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

package tags

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
)

func TestFromList(t *testing.T) {
	got := FromList([]common.Tag{{Key: aws.String("a"), Value: aws.String("1")}, {Key: aws.String("b")}, {Value: aws.String("keyless")}})
	if diff := cmp.Diff(map[string]string{"a": "1", "b": ""}, got); diff != "" {
		t.Errorf("-want, +got:\n%s", diff)
	}
}

func TestDiff(t *testing.T) {
	type want struct {
		set    map[string]string
		remove []string
	}
	cases := map[string]struct {
		reason            string
		desired, observed map[string]string
		managed           []string
		want              want
	}{
		"Same":   {reason: "Equal tags need nothing.", desired: map[string]string{"a": "1"}, observed: map[string]string{"a": "1"}, managed: []string{"a"}, want: want{set: map[string]string{}}},
		"Add":    {reason: "A new key is set.", desired: map[string]string{"a": "1", "b": "2"}, observed: map[string]string{"a": "1"}, want: want{set: map[string]string{"b": "2"}}},
		"Change": {reason: "A changed value is set.", desired: map[string]string{"a": "2"}, observed: map[string]string{"a": "1"}, want: want{set: map[string]string{"a": "2"}}},
		"RemoveManaged": {
			reason:  "Keys the provider set and the spec dropped are removed.",
			desired: map[string]string{}, observed: map[string]string{"b": "1", "a": "1"}, managed: []string{"b", "a"},
			want: want{set: map[string]string{}, remove: []string{"a", "b"}},
		},
		"KeepOthers": {
			reason:  "Tags someone else set are never removed.",
			desired: map[string]string{"a": "1"}, observed: map[string]string{"a": "1", "owner": "billing", "aws:cloudformation:stack-name": "s"}, managed: []string{"a"},
			want: want{set: map[string]string{}},
		},
		"ManagedGoneFromAWS": {
			reason:  "A managed key that AWS no longer has is not removed again.",
			desired: map[string]string{}, observed: map[string]string{}, managed: []string{"a"},
			want: want{set: map[string]string{}},
		},
		"NilBoth": {reason: "Nothing needs nothing.", want: want{set: map[string]string{}}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			set, remove := Diff(tc.desired, tc.observed, tc.managed)
			if diff := cmp.Diff(tc.want, want{set: set, remove: remove}, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("%s\n-want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// managedObject is the least a managed object is to this package: its
// metadata and conditions.
type managedObject struct {
	metav1.ObjectMeta
	xpv2.ConditionedStatus
}

func object(managed string) *managedObject {
	o := &managedObject{}
	if managed != "" {
		o.Annotations = map[string]string{AnnotationManagedKeys: managed}
	}
	return o
}

// The times of crossplane-runtime's create records, in their annotations'
// format (seconds).
var (
	before = time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC)
	at     = before.Add(time.Second)
	after  = at.Add(time.Second)
)

// created is an object at generation gen whose create crossplane-runtime
// recorded: its create-pending and create-succeeded records, and the Ready
// and Synced conditions it writes after a create.
func created(gen int64) *managedObject {
	o := object("")
	o.Generation = gen
	meta.SetExternalCreatePending(o, at)
	meta.SetExternalCreateSucceeded(o, at)
	o.SetConditions(xpv2.Creating().WithObservedGeneration(gen), xpv2.ReconcileSuccess().WithObservedGeneration(gen))
	return o
}

// with changes o and returns it.
func with(o *managedObject, change func(o *managedObject)) *managedObject {
	change(o)
	return o
}

func TestAsCreated(t *testing.T) {
	cases := map[string]struct {
		reason string
		obj    *managedObject
		want   bool
	}{
		"JustCreated": {
			reason: "After a create, until an Observe finds the resource Ready, AWS has the tags the create sent.",
			obj:    created(1), want: true,
		},
		"StillCreating": {
			reason: "An Observe that finds the resource still creating leaves the create's Ready condition, and its generation, as they are.",
			obj:    with(created(1), func(o *managedObject) { o.SetConditions(xpv2.Creating()) }), want: true,
		},
		"CreatedOnAnEarlierTry": {
			reason: "A create that succeeded after one that failed sent the tags.",
			obj:    with(created(1), func(o *managedObject) { meta.SetExternalCreateFailed(o, before) }), want: true,
		},
		"NeverCreated": {
			reason: "A resource this object did not create (adopted, imported) may have any tags.",
			obj:    with(object(""), func(o *managedObject) { o.Generation = 1; o.SetConditions(xpv2.Creating().WithObservedGeneration(1)) }),
		},
		"CreateFailedSince": {
			reason: "When the last create failed, what AWS has was not made by it.",
			obj:    with(created(1), func(o *managedObject) { meta.SetExternalCreateFailed(o, after) }),
		},
		"CreateUnfinished": {
			reason: "A create whose outcome was not recorded may not have sent the tags of this spec.",
			obj:    with(created(1), func(o *managedObject) { meta.SetExternalCreatePending(o, after) }),
		},
		"SeenReady": {
			reason: "Once an Observe found the resource Ready, its tags are listed: anyone may have changed them since.",
			obj:    with(created(1), func(o *managedObject) { o.SetConditions(xpv2.Available()) }),
		},
		"Failed": {
			reason: "A resource in any other state than creating is listed.",
			obj:    with(created(1), func(o *managedObject) { o.SetConditions(xpv2.Unavailable()) }),
		},
		"SpecChangedSince": {
			reason: "A spec changed since the create may ask for other tags.",
			obj:    with(created(1), func(o *managedObject) { o.Generation = 2 }),
		},
		"SpecChangedAndSyncedSince": {
			reason: "A reconcile of the changed spec while AWS was still creating marks Synced with the new generation, but the create sent the old spec's tags.",
			obj: with(created(1), func(o *managedObject) {
				o.Generation = 2
				o.SetConditions(xpv2.Creating(), xpv2.ReconcileSuccess().WithObservedGeneration(2))
			}),
		},
		"NoGeneration": {
			reason: "A Ready condition that does not say which spec it speaks of proves nothing.",
			obj:    with(created(1), func(o *managedObject) { o.Conditions = nil; o.SetConditions(xpv2.Creating()) }),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, AsCreated(tc.obj)); diff != "" {
				t.Errorf("%s\nAsCreated(): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestListed(t *testing.T) {
	deleted := metav1.NewTime(after)
	cases := map[string]struct {
		reason  string
		obj     *managedObject
		desired map[string]string
		shown   bool
		want    bool
	}{
		"Nothing": {reason: "No tags asked for and none set before: nothing to compare.", obj: object("")},
		"Shown":   {reason: "An object that shows AWS's configuration lists the tags to show them.", obj: object(""), shown: true, want: true},
		"ShownDeleted": {
			reason: "A resource being deleted shows nothing more.",
			obj:    with(object(""), func(o *managedObject) { o.DeletionTimestamp = &deleted }), shown: true,
		},
		"Desired": {reason: "Tags asked for are compared.", obj: object(""), desired: map[string]string{"a": "1"}, want: true},
		"SetBefore": {
			reason: "Tags the provider set before are compared, to remove those the spec dropped.",
			obj:    object(`["a"]`), want: true,
		},
		"AsCreated": {
			reason:  "The create sent the desired tags and the resource was not seen Ready since: listing would find them.",
			obj:     created(1),
			desired: map[string]string{"a": "1"},
		},
		"ReadyAfterCreate": {
			reason:  "Once seen Ready, the tags are compared at every poll.",
			obj:     with(created(1), func(o *managedObject) { o.SetConditions(xpv2.Available()) }),
			desired: map[string]string{"a": "1"}, want: true,
		},
		"Deleted": {
			reason:  "A resource being deleted is not changed: nothing to compare.",
			obj:     with(object(`["a"]`), func(o *managedObject) { o.DeletionTimestamp = &deleted }),
			desired: map[string]string{"a": "1"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Listed(tc.obj, Want{Spec: tc.desired, Shown: tc.shown})); diff != "" {
				t.Errorf("%s\nListed(): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestRecord(t *testing.T) {
	cases := map[string]struct {
		reason  string
		obj     *managedObject
		desired map[string]string
		want    map[string]string
	}{
		"First":     {reason: "Keys are recorded sorted.", obj: object(""), desired: map[string]string{"b": "", "a": ""}, want: map[string]string{AnnotationManagedKeys: `["a","b"]`}},
		"Unchanged": {reason: "Keys recorded already are not recorded again.", obj: object(`["a","b"]`), desired: map[string]string{"b": "", "a": ""}},
		"None":      {reason: "A spec without tags records that it manages none.", obj: object(`["a"]`), want: map[string]string{AnnotationManagedKeys: `[]`}},
		"NoneAgain": {reason: "...once.", obj: object(`[]`)},
		"NeverAny":  {reason: "An object that never had tags records nothing.", obj: object("")},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Record(tc.obj, tc.desired)); diff != "" {
				t.Errorf("%s\n-want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestManagedKeysIgnoresGarbage(t *testing.T) {
	if got := ManagedKeys(object("a,b")); got != nil {
		t.Errorf("an annotation that does not parse manages %v; want nothing", got)
	}
}

func TestToList(t *testing.T) {
	cases := map[string]struct {
		in   map[string]string
		want []common.Tag
	}{
		"None":   {},
		"Sorted": {in: map[string]string{"b": "2", "a": ""}, want: []common.Tag{{Key: aws.String("a"), Value: aws.String("")}, {Key: aws.String("b"), Value: aws.String("2")}}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, ToList(tc.in)); diff != "" {
				t.Errorf("ToList(): -want, +got:\n%s", diff)
			}
		})
	}
}
