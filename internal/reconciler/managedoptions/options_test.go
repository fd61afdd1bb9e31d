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

package managedoptions

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource/fake"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kfake "sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

func TestDesiredStateChanged(t *testing.T) {
	const recorded = "example.org/key-fingerprint"
	obj := func(generation int64, labels, annotations map[string]string) *corev1.ConfigMap {
		return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Generation: generation, Labels: labels, Annotations: annotations}}
	}
	cases := map[string]struct {
		old, new *corev1.ConfigMap
		want     bool
	}{
		"SpecChanged":         {old: obj(1, nil, nil), new: obj(2, nil, nil), want: true},
		"LabelChanged":        {old: obj(1, nil, nil), new: obj(1, map[string]string{"team": "a"}, nil), want: true},
		"UserAnnotation":      {old: obj(1, nil, nil), new: obj(1, nil, map[string]string{"example.org/note": "x"}), want: true},
		"RecordedByKind":      {old: obj(1, nil, nil), new: obj(1, nil, map[string]string{recorded: "h"}), want: false},
		"CreateSucceeded":     {old: obj(1, nil, map[string]string{"crossplane.io/external-create-pending": "t"}), new: obj(1, nil, map[string]string{"crossplane.io/external-create-pending": "t", "crossplane.io/external-create-succeeded": "t"}), want: false},
		"ExternalNameSet":     {old: obj(1, nil, nil), new: obj(1, nil, map[string]string{"crossplane.io/external-name": "x"}), want: false},
		"ExternalNameChanged": {old: obj(1, nil, map[string]string{"crossplane.io/external-name": "y"}), new: obj(1, nil, map[string]string{"crossplane.io/external-name": "x"}), want: true},
		"ExternalNameRemoved": {old: obj(1, nil, map[string]string{"crossplane.io/external-name": "y"}), new: obj(1, nil, nil), want: true},
		"StatusOnly":          {old: obj(1, nil, nil), new: obj(1, nil, nil), want: false},
		"RecordedAndLabel":    {old: obj(1, nil, nil), new: obj(1, map[string]string{"team": "a"}, map[string]string{recorded: "h"}), want: true},
	}
	p := DesiredStateChanged(recorded)
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := p.Update(event.UpdateEvent{ObjectOld: tc.old, ObjectNew: tc.new}); got != tc.want {
				t.Errorf("want %v, got %v", tc.want, got)
			}
		})
	}
}

// recordingLog keeps what was logged at Info.
type recordingLog struct {
	logging.Logger
	said []string
}

func (l *recordingLog) Info(msg string, _ ...any) { l.said = append(l.said, msg) }

func TestSecretReaders(t *testing.T) {
	readers := func(cm *corev1.ConfigMap) []string { return []string{cm.Data["secret"]} }
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "key"}}
	objs := []client.Object{
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "reads"}, Data: map[string]string{"secret": "key"}},
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "other"}, Data: map[string]string{"secret": "other"}},
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "team-b", Name: "elsewhere"}, Data: map[string]string{"secret": "key"}},
	}
	cases := map[string]struct {
		listErr error
		want    []reconcile.Request
		logged  int
	}{
		"TheReadersOfItsNamespace": {want: []reconcile.Request{{NamespacedName: types.NamespacedName{Namespace: "team-a", Name: "reads"}}}},
		"AListThatFailsIsLogged":   {listErr: errors.New("cache not synced"), logged: 1},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			kube := kfake.NewClientBuilder().WithObjects(objs...).WithInterceptorFuncs(interceptor.Funcs{
				List: func(ctx context.Context, c client.WithWatch, l client.ObjectList, o ...client.ListOption) error {
					if tc.listErr != nil {
						return tc.listErr
					}
					return c.List(ctx, l, o...)
				},
			}).Build()
			log := &recordingLog{Logger: logging.NewNopLogger()}
			got := SecretReaders(context.Background(), kube, log, &corev1.ConfigMapList{}, readers, secret)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("-want, +got:\n%s", diff)
			}
			if len(log.said) != tc.logged {
				t.Errorf("logged %q, want %d lines", log.said, tc.logged)
			}
		})
	}
}

func TestPollingHook(t *testing.T) {
	poll := time.Minute
	t.Run("WaitingOnAWSIsLookedAtSoonWithoutJitter", func(t *testing.T) {
		mg := &fake.Managed{}
		creating := xpv2.Creating()
		creating.LastTransitionTime = metav1.NewTime(time.Now().Add(-time.Minute))
		mg.SetConditions(creating)
		if got := (Polling{Jitter: 0.1}).Hook(10*time.Second)(mg, poll); got != 10*time.Second {
			t.Errorf("got %s, want 10s", got)
		}
	})
	t.Run("WithoutJitterThePollIsKept", func(t *testing.T) {
		if got := (Polling{}).Hook(10*time.Second)(&fake.Managed{}, poll); got != poll {
			t.Errorf("got %s, want %s", got, poll)
		}
	})
	t.Run("JitterSpreadsWithinItsFraction", func(t *testing.T) {
		hook := (Polling{Jitter: 0.1}).Hook(10 * time.Second)
		lo, hi := poll, poll
		for range 1000 {
			d := hook(&fake.Managed{}, poll)
			lo, hi = min(lo, d), max(hi, d)
		}
		if lo < 54*time.Second || hi > 66*time.Second {
			t.Errorf("polls between %s and %s, want within 10 %% of %s", lo, hi, poll)
		}
		if hi-lo < 6*time.Second {
			t.Errorf("1000 polls spread over only %s: they would poll in lockstep", hi-lo)
		}
	})
}
