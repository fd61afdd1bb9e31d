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

package secretkey

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
)

func TestRead(t *testing.T) {
	const value = "super-secret-value"
	kube := fake.NewClientBuilder().WithObjects(
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "key"}, Data: map[string][]byte{"apiKey": []byte(value)}},
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "team-b", Name: "key"}, Data: map[string][]byte{"apiKey": []byte("team-b-value")}},
	).Build()
	mg := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "mr"}}
	cases := map[string]struct {
		ref     *common.SecretKeyReference
		want    string
		wantErr string
	}{
		"OwnNamespace":      {ref: &common.SecretKeyReference{Name: aws.String("key"), Key: "apiKey"}, want: value},
		"NamedOwnNamespace": {ref: &common.SecretKeyReference{Name: aws.String("key"), Namespace: aws.String("team-a"), Key: "apiKey"}, want: value},
		"OtherNamespace":    {ref: &common.SecretKeyReference{Name: aws.String("key"), Namespace: aws.String("team-b"), Key: "apiKey"}, wantErr: `spec.forProvider.apiKey.namespace "team-b": a managed resource reads secrets only from its own namespace "team-a"`},
		"MissingSecret":     {ref: &common.SecretKeyReference{Name: aws.String("nope"), Key: "apiKey"}, wantErr: "spec.forProvider.apiKey: secret team-a/nope does not exist"},
		"MissingKey":        {ref: &common.SecretKeyReference{Name: aws.String("key"), Key: "other"}, wantErr: `spec.forProvider.apiKey: secret team-a/key has no key "other"`},
		"NoSecretName":      {ref: &common.SecretKeyReference{Key: "apiKey"}, wantErr: "spec.forProvider.apiKey names no secret"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, _, err := NewReader(kube, testKey).ToSend(context.Background(), mg, "spec.forProvider.apiKey", tc.ref, Sent{Fingerprint: "f", Version: "v"})
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("want error %q, got %v", tc.wantErr, err)
				}
				return
			}
			if err != nil || string(got) != tc.want {
				t.Fatalf("want %q, got %q (%v)", tc.want, got, err)
			}
		})
	}
}

var testKey = NewKey([]byte("0123456789abcdef0123456789abcdef"))

func TestFingerprint(t *testing.T) {
	a := testKey.Fingerprint("uid-1", []byte("key-1"))
	if strings.Contains(a, "key-1") || !strings.HasPrefix(a, "hmac-sha256:") {
		t.Errorf("fingerprint %q", a)
	}
	if a != testKey.Fingerprint("uid-1", []byte("key-1")) {
		t.Error("the fingerprint is not stable")
	}
	if a == testKey.Fingerprint("uid-1", []byte("key-2")) {
		t.Error("a new value has the same fingerprint")
	}
	if a == testKey.Fingerprint("uid-2", []byte("key-1")) {
		t.Error("two objects share a fingerprint")
	}
}

// TestAReaderCannotCheckAGuess plays someone who can read the object (its
// UID and its annotations) and guesses a short key: with everything the
// object shows, no way of hashing the right guess gives the recorded
// fingerprint. Only the provider's key does.
func TestAReaderCannotCheckAGuess(t *testing.T) {
	const uid, short = "3f0c2a4e-uid", "abc1"
	recorded := testKey.Fingerprint(uid, []byte(short))

	// What a reader can key an HMAC with: the UID, with or without the
	// scheme's label, or nothing at all.
	visible := [][]byte{[]byte(uid), []byte("provider-aws-services/secret-fingerprint/" + uid), nil}
	for _, k := range visible {
		if NewKey(k).Fingerprint(uid, []byte(short)) == recorded {
			t.Fatalf("a reader keyed with %q checks the right guess", k)
		}
		m := hmac.New(sha256.New, k)
		m.Write([]byte(short))
		if "hmac-sha256:"+hex.EncodeToString(m.Sum(nil)) == recorded {
			t.Fatalf("an HMAC keyed with %q of the guess alone matches", k)
		}
	}
	if NewKey(testKey.secret).Fingerprint(uid, []byte(short)) != recorded {
		t.Error("the provider's own key does not check its own fingerprint")
	}
}

func TestLoadKey(t *testing.T) {
	kube := fake.NewClientBuilder().Build()
	ctx := context.Background()

	first, err := LoadKey(ctx, kube, "crossplane-system")
	if err != nil {
		t.Fatal(err)
	}
	if len(first.secret) != keyBytes {
		t.Fatalf("a key of %d bytes", len(first.secret))
	}
	again, err := LoadKey(ctx, kube, "crossplane-system")
	if err != nil {
		t.Fatal(err)
	}
	if first.Fingerprint("u", []byte("v")) != again.Fingerprint("u", []byte("v")) {
		t.Error("a restart made a new key: every fingerprint would turn stale")
	}

	broken := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "other", Name: KeySecretName}, Data: map[string][]byte{"key": []byte("short")}}
	if err := kube.Create(ctx, broken); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadKey(ctx, kube, "other"); err == nil || !strings.Contains(err.Error(), "holds no fingerprint key") {
		t.Errorf("a Secret without a usable key: %v", err)
	}
}

// countingReader counts the reads of Secret values, which go to the API
// server; metadata comes from the cache.
type countingReader struct {
	client.Client
	values int
}

func (c *countingReader) Get(ctx context.Context, key client.ObjectKey, obj client.Object, o ...client.GetOption) error {
	if _, ok := obj.(*corev1.Secret); ok {
		c.values++
	}
	return c.Client.Get(ctx, key, obj, o...)
}

func TestChanged(t *testing.T) {
	sent := Sent{Fingerprint: "example.org/key-fingerprint", Version: "example.org/key-secret-version"}
	ref := &common.SecretKeyReference{Name: aws.String("key"), Key: "apiKey"}
	secret := func(value string) *corev1.Secret {
		return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "key"}, Data: map[string][]byte{"apiKey": []byte(value)}}
	}
	type want struct {
		value  string
		record bool // annotations returned, to record once the value is sent
		reads  int
		// noted: the object records the Secret's current version now;
		// written: in the API server too, by this call.
		noted, written bool
	}
	cases := map[string]struct {
		// recorded says what the object recorded: the value last sent and
		// whether the Secret's version then is the current one.
		sentValue      string
		currentVersion bool
		now            string
		want           want
	}{
		"NothingSentYet":                       {now: "v1", want: want{value: "v1", record: true, reads: 1}},
		"SteadyStateReadsNoSecret":             {sentValue: "v1", currentVersion: true, now: "v1", want: want{reads: 0, noted: true}},
		"ARotatedSecretIsReadAndSent":          {sentValue: "v0", now: "v1", want: want{value: "v1", record: true, reads: 1}},
		"ASecretChangedElsewhereIsOnlyNoticed": {sentValue: "v1", now: "v1", want: want{reads: 1, noted: true, written: true}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := secret(tc.now)
			mg := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "mr", UID: "uid-1"}}
			kube := fake.NewClientBuilder().WithObjects(s, mg).Build()
			current := &corev1.Secret{}
			_ = kube.Get(context.Background(), client.ObjectKeyFromObject(s), current)
			if tc.sentValue != "" {
				version := "an-older-version"
				if tc.currentVersion {
					version = current.ResourceVersion
				}
				mg.Annotations = map[string]string{sent.Fingerprint: testKey.Fingerprint("uid-1", []byte(tc.sentValue)), sent.Version: version}
			}
			counting := &countingReader{Client: kube}
			value, record, err := NewReader(counting, testKey).Changed(context.Background(), mg, "spec.forProvider.apiKey", ref, sent)
			if err != nil {
				t.Fatal(err)
			}
			stored := &corev1.ConfigMap{}
			_ = kube.Get(context.Background(), client.ObjectKeyFromObject(mg), stored)
			got := want{value: string(value), record: record != nil, reads: counting.values,
				noted: mg.Annotations[sent.Version] == current.ResourceVersion, written: stored.Annotations[sent.Version] == current.ResourceVersion}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("-want, +got:\n%s", diff)
			}
			if record != nil && record[sent.Fingerprint] != testKey.Fingerprint("uid-1", []byte(tc.now)) {
				t.Errorf("the record does not fingerprint the current value")
			}
		})
	}
}
