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
package secretkey

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
)

// A Reader reads secret keys for managed resources.
type Reader struct {
	kube client.Reader
}

// NewReader returns a Reader.
func NewReader(kube client.Reader) *Reader { return &Reader{kube: kube} }

// Read returns the value of ref, named by field (for example
// "spec.forProvider.apiKey"), from the namespace of mg. A reference to
// another namespace is refused. Errors name the field, the secret and the
// key, never the value.
func (r *Reader) Read(ctx context.Context, mg client.Object, field string, ref *common.SecretKeyReference) ([]byte, error) {
	if ref == nil || ref.Name == nil {
		return nil, errors.Errorf("%s names no secret", field)
	}
	ns := mg.GetNamespace()
	if ref.Namespace != nil && *ref.Namespace != "" && *ref.Namespace != ns {
		return nil, errors.Errorf("%s.namespace %q: a managed resource reads secrets only from its own namespace %q", field, *ref.Namespace, ns)
	}
	s := &corev1.Secret{}
	if err := r.kube.Get(ctx, types.NamespacedName{Namespace: ns, Name: *ref.Name}, s); err != nil {
		if kerrors.IsNotFound(err) {
			return nil, errors.Errorf("%s: secret %s/%s does not exist", field, ns, *ref.Name)
		}
		return nil, errors.Wrapf(err, "%s: cannot get secret %s/%s", field, ns, *ref.Name)
	}
	v, ok := s.Data[ref.Key]
	if !ok || len(v) == 0 {
		return nil, errors.Errorf("%s: secret %s/%s has no key %q", field, ns, *ref.Name, ref.Key)
	}
	return v, nil
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
