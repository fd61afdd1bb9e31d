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
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/kube/secretkey"
)

// A config is a ProviderConfig or ClusterProviderConfig, read.
type config struct {
	kind, namespace, name string
	generation            int64
	spec                  v1alpha1.ProviderConfigSpec
	// namespaceSessions is a ClusterProviderConfig's
	// spec.namespaceSessions.
	namespaceSessions *v1alpha1.NamespaceSessions
	// shares are a ClusterProviderConfig's spec.namespaceShares.
	shares map[string]Share
}

// sessionKey is the key of mg's session through the config in region; it
// names mg's namespace only with namespace sessions.
func (cfg *config) sessionKey(mg resource.ModernManaged, secretVersion, region string) sessionKey {
	k := sessionKey{kind: cfg.kind, namespace: cfg.namespace, name: cfg.name, generation: cfg.generation, secretVersion: secretVersion, region: region}
	if cfg.namespaceSessions != nil {
		k.tenant = mg.GetNamespace()
	}
	return k
}

func (c *Cache) config(ctx context.Context, mg resource.ModernManaged) (*config, error) {
	ref := mg.GetProviderConfigReference()
	if ref == nil || ref.Name == "" {
		return nil, errors.New(errNoConfigRef)
	}
	switch ref.Kind {
	case v1alpha1.ProviderConfigKind:
		pc := &v1alpha1.ProviderConfig{}
		if err := c.kube.Get(ctx, types.NamespacedName{Namespace: mg.GetNamespace(), Name: ref.Name}, pc); err != nil {
			return nil, errors.Wrapf(err, errGetConfig, ref.Kind, mg.GetNamespace()+"/"+ref.Name)
		}
		// Refused before anything of the config is read or called.
		if err := namespacedCredentials(pc.Namespace, pc.Name, pc.Spec.Credentials); err != nil {
			return nil, err
		}
		return &config{kind: ref.Kind, namespace: pc.Namespace, name: pc.Name, generation: pc.Generation, spec: pc.Spec}, nil
	case v1alpha1.ClusterProviderConfigKind, "":
		pc := &v1alpha1.ClusterProviderConfig{}
		if err := c.kube.Get(ctx, types.NamespacedName{Name: ref.Name}, pc); err != nil {
			return nil, errors.Wrapf(err, errGetConfig, v1alpha1.ClusterProviderConfigKind, ref.Name)
		}
		// A namespace the config does not admit learns nothing of it but
		// its name, and AWS is never called for it.
		if err := c.admit(ctx, pc.Name, pc.Spec.Namespaces, mg.GetNamespace()); err != nil {
			return nil, err
		}
		cfg := &config{kind: v1alpha1.ClusterProviderConfigKind, name: pc.Name, generation: pc.Generation, spec: pc.Spec.ProviderConfigSpec, namespaceSessions: pc.Spec.NamespaceSessions}
		if len(pc.Spec.NamespaceShares) > 0 {
			cfg.shares = make(map[string]Share, len(pc.Spec.NamespaceShares))
			for _, sh := range pc.Spec.NamespaceShares {
				cfg.shares[sh.Namespace] = Share{Weight: int(aws.ToInt32(sh.Weight)), Cap: float64(aws.ToInt32(sh.MaxPercent)) / 100}
			}
		}
		return cfg, nil
	default:
		return nil, errors.Errorf(errConfigKind, ref.Kind)
	}
}

// String names the config: "ProviderConfig namespace/name" or
// "ClusterProviderConfig name".
func (cfg *config) String() string {
	if cfg.namespace == "" {
		return cfg.kind + " " + cfg.name
	}
	return cfg.kind + " " + cfg.namespace + "/" + cfg.name
}

// A secretRef is a Secret key a config's credentials read, and the config
// field that names it.
type secretRef struct{ field, namespace, name, key string }

// credentialSecrets returns the Secret keys the config's credentials read,
// and a version string that changes when any of their Secrets changes. The
// versions come from the metadata cache: no Secret value is read here.
func (c *Cache) credentialSecrets(ctx context.Context, cfg *config) ([]secretRef, string, error) {
	creds := cfg.spec.Credentials
	var refs []secretRef
	if creds.Source == v1alpha1.CredentialsSourceSecret && creds.SecretRef != nil {
		refs = append(refs, secretRef{"spec.credentials.secretRef", creds.SecretRef.Namespace, creds.SecretRef.Name, creds.SecretRef.Key})
	}
	if creds.Source == v1alpha1.CredentialsSourceWebIdentity && creds.WebIdentity != nil && creds.WebIdentity.TokenSecretRef != nil {
		r := creds.WebIdentity.TokenSecretRef
		refs = append(refs, secretRef{"spec.credentials.webIdentity.tokenSecretRef", r.Namespace, r.Name, r.Key})
	}
	versions := make([]string, 0, len(refs))
	for i, r := range refs {
		if cfg.namespace != "" {
			// A namespaced config reads only from its own namespace,
			// whatever its reference says.
			refs[i].namespace, r.namespace = cfg.namespace, cfg.namespace
		}
		if r.namespace == "" {
			return nil, "", errors.Errorf(errClusterSecret, r.field+".namespace")
		}
		v, err := secretkey.Version(ctx, c.kube, r.namespace, r.name)
		if err != nil {
			return nil, "", errors.Wrapf(err, errGetSecret, r.namespace, r.name, r.field)
		}
		versions = append(versions, r.field+"="+v)
	}
	return refs, strings.Join(versions, ","), nil
}

// readSecrets reads the values of refs from the API server, by field.
func (c *Cache) readSecrets(ctx context.Context, refs []secretRef) (map[string][]byte, error) {
	values := map[string][]byte{}
	for _, r := range refs {
		s := &corev1.Secret{}
		if err := c.kube.Get(ctx, types.NamespacedName{Namespace: r.namespace, Name: r.name}, s); err != nil {
			return nil, errors.Wrapf(err, errGetSecret, r.namespace, r.name, r.field)
		}
		v, ok := s.Data[r.key]
		if !ok {
			return nil, errors.Errorf(errSecretKey, r.namespace, r.name, r.key, r.field)
		}
		values[r.field] = v
	}
	return values, nil
}
