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
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/test"
	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
)

func TestAdmits(t *testing.T) {
	errBoom := errors.New("boom")
	platform := map[string]string{"tenant": "platform", "tier": "gold"}
	type args struct {
		sel    *v1alpha1.NamespaceSelector
		ns     string
		labels map[string]string
		err    error
	}
	type want struct {
		admitted bool
		reads    int
		err      error
	}
	cases := map[string]struct {
		reason string
		args   args
		want   want
	}{
		"NoField": {
			reason: "Without spec.namespaces every namespace is admitted, and no namespace is read.",
			args:   args{ns: "team-b"},
			want:   want{admitted: true},
		},
		"Named": {
			reason: "A namespace among names is admitted without reading its labels.",
			args:   args{sel: &v1alpha1.NamespaceSelector{Names: []string{"team-a", "team-b"}, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"tenant": "x"}}}, ns: "team-b"},
			want:   want{admitted: true},
		},
		"NotNamedNoSelector": {
			reason: "A namespace not among names, with no selector, is refused without a read.",
			args:   args{sel: &v1alpha1.NamespaceSelector{Names: []string{"team-a"}}, ns: "team-b"},
			want:   want{admitted: false},
		},
		"MatchLabels": {
			reason: "A namespace whose labels match matchLabels is admitted.",
			args:   args{sel: &v1alpha1.NamespaceSelector{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"tenant": "platform"}}}, ns: "team-b", labels: platform},
			want:   want{admitted: true, reads: 1},
		},
		"MatchExpressions": {
			reason: "matchExpressions are ANDed with matchLabels.",
			args: args{sel: &v1alpha1.NamespaceSelector{Selector: &metav1.LabelSelector{
				MatchLabels: map[string]string{"tenant": "platform"},
				MatchExpressions: []metav1.LabelSelectorRequirement{
					{Key: "tier", Operator: metav1.LabelSelectorOpIn, Values: []string{"gold", "silver"}},
					{Key: "frozen", Operator: metav1.LabelSelectorOpDoesNotExist},
				},
			}}, ns: "team-b", labels: platform},
			want: want{admitted: true, reads: 1},
		},
		"NoMatch": {
			reason: "A namespace neither named nor matching is refused.",
			args:   args{sel: &v1alpha1.NamespaceSelector{Names: []string{"team-a"}, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"tenant": "platform"}}}, ns: "team-b", labels: map[string]string{"tenant": "team-b"}},
			want:   want{admitted: false, reads: 1},
		},
		"Unlabelled": {
			reason: "A namespace without labels matches no requirement.",
			args:   args{sel: &v1alpha1.NamespaceSelector{Selector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "tenant", Operator: metav1.LabelSelectorOpExists}}}}, ns: "team-b"},
			want:   want{admitted: false, reads: 1},
		},
		"EmptySelector": {
			reason: "An empty selector matches every namespace, as everywhere in Kubernetes; no labels are read.",
			args:   args{sel: &v1alpha1.NamespaceSelector{Selector: &metav1.LabelSelector{}}, ns: "team-b"},
			want:   want{admitted: true},
		},
		"InvalidSelector": {
			reason: "A selector that does not parse decides nothing.",
			args:   args{sel: &v1alpha1.NamespaceSelector{Selector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "tenant", Operator: "Like"}}}}, ns: "team-b"},
			want:   want{err: errors.Wrap(errors.New(`"Like" is not a valid label selector operator`), errSelector)},
		},
		"LabelsUnreadable": {
			reason: "A namespace whose labels cannot be read is not admitted.",
			args:   args{sel: &v1alpha1.NamespaceSelector{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"tenant": "platform"}}}, ns: "team-b", err: errBoom},
			want:   want{reads: 1, err: errBoom},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			reads := 0
			got, err := Admits(tc.args.sel, tc.args.ns, func() (map[string]string, error) {
				reads++
				return tc.args.labels, tc.args.err
			})
			if diff := cmp.Diff(tc.want.err, err, test.EquateErrors()); diff != "" {
				t.Errorf("%s\nAdmits(...): -want error, +got error:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want.admitted, got); diff != "" {
				t.Errorf("%s\nAdmits(...): -want, +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want.reads, reads); diff != "" {
				t.Errorf("%s\nAdmits(...): -want label reads, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestSessionOnlyForAdmittedNamespaces(t *testing.T) {
	restricted := &v1alpha1.NamespaceSelector{
		Names:    []string{"team-a"},
		Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"tenant": "platform"}},
	}
	type want struct {
		err error
		// calls is how many AWS (STS) calls the emulator answered.
		calls int
	}
	cases := map[string]struct {
		reason     string
		namespaces *v1alpha1.NamespaceSelector
		ns         string
		want       want
	}{
		"EveryNamespace": {
			reason: "A config without spec.namespaces serves every namespace, as before the field existed.",
			ns:     "team-b",
			want:   want{calls: 1},
		},
		"AdmittedByName": {
			reason:     "A namespace named by the config gets a session.",
			namespaces: restricted,
			ns:         "team-a",
			want:       want{calls: 1},
		},
		"AdmittedByLabel": {
			reason:     "A namespace whose labels match the config's selector gets a session.",
			namespaces: restricted,
			ns:         "platform-tools",
			want:       want{calls: 1},
		},
		"Refused": {
			reason:     "A namespace the config does not admit gets an error naming the config and the namespace, and AWS is not called, STS included.",
			namespaces: restricted,
			ns:         "team-b",
			want:       want{err: errors.New(`ClusterProviderConfig "restricted" does not admit namespace "team-b" (spec.namespaces): use a provider config that does`)},
		},
		"NamespaceUnreadable": {
			reason:     "A namespace whose labels cannot be read is not admitted, and says why.",
			namespaces: restricted,
			ns:         "gone",
			want: want{err: errors.Wrapf(errors.Wrap(errors.New(`namespaces "gone" not found`), errNamespaceLabels),
				errUndecided, "ClusterProviderConfig", "restricted", "gone")},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t,
				&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "team-a"}},
				&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "team-b", Labels: map[string]string{"tenant": "team-b"}}},
				&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "platform-tools", Labels: map[string]string{"tenant": "platform"}}},
			)
			pc := clusterConfig("restricted", f.url, v1alpha1.ProviderConfigSpec{Region: aws.String("us-east-1"), Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceNone}})
			pc.Spec.Namespaces = tc.namespaces
			if err := f.kube.Create(context.Background(), pc); err != nil {
				t.Fatal(err)
			}
			mg := managed(tc.ns, v1alpha1.ClusterProviderConfigKind, "restricted", nil)
			aerr := f.cache.Admit(context.Background(), mg)
			_, serr := f.cache.Session(context.Background(), mg, nil)
			if diff := cmp.Diff(tc.want.err, aerr, test.EquateErrors()); diff != "" {
				t.Errorf("%s\nAdmit(...): -want error, +got error:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want.err, serr, test.EquateErrors()); diff != "" {
				t.Errorf("%s\nSession(...): -want error, +got error:\n%s", tc.reason, diff)
			}
			calls := 0
			for _, n := range f.aws.Calls() {
				calls += n
			}
			if diff := cmp.Diff(tc.want.calls, calls); diff != "" {
				t.Errorf("%s\nAWS calls: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestANamespacesChangeTakesEffectAtOnce(t *testing.T) {
	f := newFixture(t, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "team-b"}})
	ctx := context.Background()
	pc := clusterConfig("default", f.url, v1alpha1.ProviderConfigSpec{Region: aws.String("us-east-1"), Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceNone}})
	if err := f.kube.Create(ctx, pc); err != nil {
		t.Fatal(err)
	}
	mg := managed("team-b", v1alpha1.ClusterProviderConfigKind, "default", nil)
	if _, err := f.cache.Session(ctx, mg, nil); err != nil {
		t.Fatalf("before the config names namespaces: %v", err)
	}
	// The session is cached; restricting the config refuses the next ask.
	pc.Spec.Namespaces = &v1alpha1.NamespaceSelector{Names: []string{"team-a"}}
	if err := f.kube.Update(ctx, pc); err != nil {
		t.Fatal(err)
	}
	if err := f.cache.Admit(ctx, mg); err == nil {
		t.Error("Admit after the config stopped admitting team-b: no error")
	}
	if _, err := f.cache.Session(ctx, mg, nil); err == nil {
		t.Error("Session after the config stopped admitting team-b: no error")
	}
	// Labelling the namespace admits it again.
	pc.Spec.Namespaces.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"tenant": "b"}}
	if err := f.kube.Update(ctx, pc); err != nil {
		t.Fatal(err)
	}
	ns := &corev1.Namespace{}
	if err := f.kube.Get(ctx, client.ObjectKey{Name: "team-b"}, ns); err != nil {
		t.Fatal(err)
	}
	ns.Labels = map[string]string{"tenant": "b"}
	if err := f.kube.Update(ctx, ns); err != nil {
		t.Fatal(err)
	}
	if _, err := f.cache.Session(ctx, mg, nil); err != nil {
		t.Errorf("Session once team-b carries the selected label: %v", err)
	}
}
