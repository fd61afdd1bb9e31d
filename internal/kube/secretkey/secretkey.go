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
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"slices"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/kube/persist"
)

// A Reader reads secret keys for managed resources.
type Reader struct {
	kube client.Client
	key  Key
}

// NewReader returns a Reader. kube reads a Secret's metadata from the cache
// and its value from the API server (the provider's client caches no
// Secret), and records on the managed resource which value was sent; key
// fingerprints the values.
func NewReader(kube client.Client, key Key) *Reader { return &Reader{kube: kube, key: key} }

// Sent names the two annotations that record which value of a secret key was
// last sent to AWS: a fingerprint of the value and the resourceVersion of its
// Secret then.
type Sent struct {
	Fingerprint, Version string
}

// Changed returns the value of ref when it differs from the one last sent,
// as the annotations sent say, with the annotations that record it once it
// is sent; nil when it did not change. The value is read only when the
// Secret's resourceVersion changed since; when the Secret changed but the
// value did not, its new version is recorded at once.
//
// A nil ref has not changed: a spec that names no secret (an object that
// only observes) leaves the value AWS holds as it is.
func (r *Reader) Changed(ctx context.Context, mg client.Object, field string, ref *common.SecretKeyReference, sent Sent) ([]byte, map[string]string, error) {
	if ref == nil {
		return nil, nil, nil
	}
	recorded := mg.GetAnnotations()
	if v, err := Version(ctx, r.kube, mg.GetNamespace(), secretName(ref)); err == nil && v != "" && v == recorded[sent.Version] && recorded[sent.Fingerprint] != "" {
		return nil, nil, nil
	}
	value, record, err := r.ToSend(ctx, mg, field, ref, sent)
	if err != nil {
		return nil, nil, err
	}
	if record[sent.Fingerprint] == recorded[sent.Fingerprint] {
		return nil, nil, persist.Annotations(ctx, r.kube, mg, record)
	}
	return value, record, nil
}

// ToSend reads the value of ref, named by field (for example
// "spec.forProvider.apiKey"), from the namespace of mg, to be sent to AWS,
// and returns the annotations that record it once sent. A reference to
// another namespace is refused. Errors name the field, the secret and the
// key, never the value.
func (r *Reader) ToSend(ctx context.Context, mg client.Object, field string, ref *common.SecretKeyReference, sent Sent) ([]byte, map[string]string, error) {
	value, version, err := r.read(ctx, mg, field, ref)
	if err != nil {
		return nil, nil, err
	}
	return value, map[string]string{sent.Fingerprint: r.key.Fingerprint(mg.GetUID(), value), sent.Version: version}, nil
}

// Version returns the resourceVersion of a Secret from the cache of Secret
// metadata, without reading its data.
func Version(ctx context.Context, kube client.Reader, namespace, name string) (string, error) {
	m := &metav1.PartialObjectMetadata{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Secret"}}
	if err := kube.Get(ctx, types.NamespacedName{Namespace: namespace, Name: name}, m); err != nil {
		return "", err
	}
	return m.ResourceVersion, nil
}

func secretName(ref *common.SecretKeyReference) string {
	if ref == nil || ref.Name == nil {
		return ""
	}
	return *ref.Name
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

// A Key is the provider's own secret that keys the fingerprints of the
// values it sends. Only the provider holds it: a fingerprint in an object's
// annotations lets no reader of the object check a guess of the value, as a
// hash keyed by anything in the object (its UID) would.
type Key struct{ secret []byte }

// NewKey returns a Key of the given secret bytes.
func NewKey(secret []byte) Key { return Key{secret: slices.Clone(secret)} }

// Fingerprint is a keyed hash (HMAC-SHA256) of a secret value, salted with
// the identity of the object that uses it: it changes when the value changes,
// and it neither reveals the value nor matches the fingerprint of the same
// value on another object.
func (k Key) Fingerprint(uid types.UID, value []byte) string {
	m := hmac.New(sha256.New, k.secret)
	_, _ = m.Write([]byte(uid))
	_, _ = m.Write([]byte{0})
	_, _ = m.Write(value)
	return "hmac-sha256:" + hex.EncodeToString(m.Sum(nil))
}

// The Secret that holds the fingerprint key, in the provider's namespace.
const (
	KeySecretName = "provider-aws-services-fingerprint-key"
	keySecretKey  = "key"
	keyBytes      = 32
)

// LoadKey returns the fingerprint key kept in the Secret KeySecretName of
// namespace, and creates that Secret with a random key on the provider's
// first start. The key outlives restarts and upgrades, so that fingerprints
// recorded before stay valid and a restart writes nothing. Two providers
// starting at once agree on the Secret that was created first.
func LoadKey(ctx context.Context, kube client.Client, namespace string) (Key, error) {
	nn := types.NamespacedName{Namespace: namespace, Name: KeySecretName}
	s := &corev1.Secret{}
	err := kube.Get(ctx, nn, s)
	if kerrors.IsNotFound(err) {
		secret := make([]byte, keyBytes)
		if _, err := rand.Read(secret); err != nil {
			return Key{}, errors.Wrap(err, "cannot make a fingerprint key")
		}
		s = &corev1.Secret{
			ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: KeySecretName, Labels: map[string]string{"app.kubernetes.io/managed-by": "provider-aws-services"}},
			Type:       corev1.SecretTypeOpaque,
			Data:       map[string][]byte{keySecretKey: secret},
		}
		err = kube.Create(ctx, s)
		if kerrors.IsAlreadyExists(err) {
			err = kube.Get(ctx, nn, s)
		}
	}
	if err != nil {
		return Key{}, errors.Wrapf(err, "cannot load the fingerprint key from secret %s/%s", namespace, KeySecretName)
	}
	if len(s.Data[keySecretKey]) < keyBytes {
		return Key{}, errors.Errorf("secret %s/%s holds no fingerprint key of %d bytes in %q: delete it to have a new one made (every recorded secret value is then sent to AWS once more)", namespace, KeySecretName, keyBytes, keySecretKey)
	}
	return NewKey(s.Data[keySecretKey]), nil
}
