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

// Package secretkey reads the secret values a managed resource names (an API
// key, an access key) from the resource's own namespace, and fingerprints them
// so that a change can be noticed without the value being stored.
//
// Secrets are never cached whole: the provider's cache holds their metadata
// only, and a value is read from the API server when, and only when, its
// Secret's resourceVersion differs from the one recorded when the value was
// last sent to AWS. A cluster's Secrets (Helm releases among them) cost the
// provider no memory, and a steady state reads no Secret.
package secretkey

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
)

// A Reader reads secret keys for managed resources.
type Reader struct {
	kube client.Reader
}

// NewReader returns a Reader. kube reads a Secret's metadata from the cache
// and its value from the API server: the provider's client caches no Secret.
func NewReader(kube client.Reader) *Reader { return &Reader{kube: kube} }

// Sent names the two annotations that record which value of a secret key was
// last sent to AWS: a fingerprint of the value and the resourceVersion of its
// Secret then.
type Sent struct {
	Fingerprint, Version string
}

// A Check is what Changed found.
type Check struct {
	// Value is the value to send, when it differs from the one last sent.
	Value []byte
	// Record are the annotations to record once Value was sent, or at once
	// when Value is nil: the Secret changed, the value did not.
	Record map[string]string
}

// Changed checks whether the value of ref differs from the one last sent,
// as the annotations sent says. The value is read only when the Secret's
// resourceVersion changed since.
func (r *Reader) Changed(ctx context.Context, mg client.Object, field string, ref *common.SecretKeyReference, sent Sent) (Check, error) {
	if name := secretName(ref); name != "" {
		m := &metav1.PartialObjectMetadata{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Secret"}}
		err := r.kube.Get(ctx, types.NamespacedName{Namespace: mg.GetNamespace(), Name: name}, m)
		recorded := mg.GetAnnotations()
		if err == nil && m.ResourceVersion != "" && m.ResourceVersion == recorded[sent.Version] && recorded[sent.Fingerprint] != "" {
			return Check{}, nil
		}
	}
	value, version, err := r.read(ctx, mg, field, ref)
	if err != nil {
		return Check{}, err
	}
	record := map[string]string{sent.Fingerprint: Fingerprint(mg.GetUID(), value), sent.Version: version}
	if record[sent.Fingerprint] == mg.GetAnnotations()[sent.Fingerprint] {
		return Check{Record: record}, nil
	}
	return Check{Value: value, Record: record}, nil
}

// ToSend reads the value of ref, to be sent to AWS, and the annotations that
// record it once sent.
func (r *Reader) ToSend(ctx context.Context, mg client.Object, field string, ref *common.SecretKeyReference, sent Sent) ([]byte, map[string]string, error) {
	value, version, err := r.read(ctx, mg, field, ref)
	if err != nil {
		return nil, nil, err
	}
	return value, map[string]string{sent.Fingerprint: Fingerprint(mg.GetUID(), value), sent.Version: version}, nil
}

func secretName(ref *common.SecretKeyReference) string {
	if ref == nil || ref.Name == nil {
		return ""
	}
	return *ref.Name
}

// Read returns the value of ref, named by field (for example
// "spec.forProvider.apiKey"), from the namespace of mg. A reference to
// another namespace is refused. Errors name the field, the secret and the
// key, never the value.
func (r *Reader) Read(ctx context.Context, mg client.Object, field string, ref *common.SecretKeyReference) ([]byte, error) {
	v, _, err := r.read(ctx, mg, field, ref)
	return v, err
}

// read returns the value of ref and the resourceVersion of its Secret.
func (r *Reader) read(ctx context.Context, mg client.Object, field string, ref *common.SecretKeyReference) ([]byte, string, error) {
	if ref == nil || ref.Name == nil {
		return nil, "", errors.Errorf("%s names no secret", field)
	}
	ns := mg.GetNamespace()
	if ref.Namespace != nil && *ref.Namespace != "" && *ref.Namespace != ns {
		return nil, "", errors.Errorf("%s.namespace %q: a managed resource reads secrets only from its own namespace %q", field, *ref.Namespace, ns)
	}
	s := &corev1.Secret{}
	if err := r.kube.Get(ctx, types.NamespacedName{Namespace: ns, Name: *ref.Name}, s); err != nil {
		if kerrors.IsNotFound(err) {
			return nil, "", errors.Errorf("%s: secret %s/%s does not exist", field, ns, *ref.Name)
		}
		return nil, "", errors.Wrapf(err, "%s: cannot get secret %s/%s", field, ns, *ref.Name)
	}
	v, ok := s.Data[ref.Key]
	if !ok || len(v) == 0 {
		return nil, "", errors.Errorf("%s: secret %s/%s has no key %q", field, ns, *ref.Name, ref.Key)
	}
	return v, s.ResourceVersion, nil
}

// Fingerprint is a keyed hash (HMAC-SHA256) of a secret value, salted with
// the identity of the object that uses it: it changes when the value changes,
// and it neither reveals the value nor matches the fingerprint of the same
// value on another object.
func Fingerprint(uid types.UID, value []byte) string {
	m := hmac.New(sha256.New, []byte("provider-aws-services/secret-fingerprint/"+string(uid)))
	_, _ = m.Write(value)
	return "hmac-sha256:" + hex.EncodeToString(m.Sum(nil))
}
