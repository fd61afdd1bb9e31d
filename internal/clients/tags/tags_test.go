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
	"context"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
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

func object(managed string) *metav1.ObjectMeta {
	o := &metav1.ObjectMeta{}
	if managed != "" {
		o.Annotations = map[string]string{AnnotationManagedKeys: managed}
	}
	return o
}

func TestRecord(t *testing.T) {
	cases := map[string]struct {
		reason  string
		obj     *metav1.ObjectMeta
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

func TestPlan(t *testing.T) {
	var calls []string
	svc := func(observed map[string]string) Service {
		return Service{
			List: func(context.Context) (map[string]string, error) { calls = append(calls, "list"); return observed, nil },
			Remove: func(_ context.Context, keys []string) error {
				calls = append(calls, "remove "+strings.Join(keys, ","))
				return nil
			},
			Set: func(_ context.Context, m map[string]string) error {
				calls = append(calls, "set "+strings.Join(slices.Sorted(maps.Keys(m)), ","))
				return nil
			},
		}
	}
	ctx := context.Background()

	p, err := Observe(ctx, object(""), nil, svc(map[string]string{"x": "1"}))
	if err != nil || !p.UpToDate() || calls != nil {
		t.Fatalf("no tags in the spec and none managed: want no call and up to date, got calls %v, up to date %v (%v)", calls, p.UpToDate(), err)
	}

	p, err = Observe(ctx, object(`["a","b"]`), map[string]string{"a": "1", "c": "3"}, svc(map[string]string{"a": "0", "b": "2", "x": "1"}))
	if err != nil {
		t.Fatal(err)
	}
	if p.UpToDate() {
		t.Error("differing tags reported up to date")
	}
	if err := p.Apply(ctx, svc(nil)); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"list", "remove b", "set a,c"}, calls); diff != "" {
		t.Errorf("-want, +got:\n%s", diff)
	}

	boom := errors.New("denied")
	failing := svc(nil)
	failing.Remove = func(context.Context, []string) error { return boom }
	p, _ = Observe(ctx, object(`["a"]`), nil, svc(map[string]string{"a": "1"}))
	if err := p.Apply(ctx, failing); !errors.Is(err, boom) {
		t.Errorf("the remove error was lost: %v", err)
	}
}
