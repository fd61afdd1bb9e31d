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

package config

import (
	"context"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
)

// SecretFinalizer keeps a Secret that a provider config in use reads its
// credentials from: a namespace's deletion deletes the Secret with
// everything else, while the deletions of the namespace's managed resources
// still need the credentials to delete their AWS resources.
const SecretFinalizer = "aws.services.k8s.aws/credentials-in-use"

const (
	errListUsages  = "cannot count the config's usages"
	errListConfigs = "cannot list the provider configs that read the Secret"
	errProtect     = "cannot keep the credentials Secret %s while the config is in use"
)

// A configRef is a provider config as the protection of its Secrets needs it.
type configRef struct {
	kind, namespace, name string
	spec                  v1alpha1.ProviderConfigSpec
	users                 int64
	// deleting is true once the config's deletion was asked for.
	deleting bool
}

// secretsOf are the Secrets a config's credentials read. A namespaced config
// reads them from its own namespace, whatever its references say.
func secretsOf(c configRef) []types.NamespacedName {
	var refs []*xpv2.SecretKeySelector
	creds := c.spec.Credentials
	if creds.Source == v1alpha1.CredentialsSourceSecret {
		refs = append(refs, creds.SecretRef)
	}
	if creds.Source == v1alpha1.CredentialsSourceWebIdentity && creds.WebIdentity != nil {
		refs = append(refs, creds.WebIdentity.TokenSecretRef)
	}
	out := make([]types.NamespacedName, 0, len(refs))
	for _, r := range refs {
		if r == nil {
			continue
		}
		ns := r.Namespace
		if c.namespace != "" {
			ns = c.namespace
		}
		if ns != "" && r.Name != "" {
			out = append(out, types.NamespacedName{Namespace: ns, Name: r.Name})
		}
	}
	return out
}

// secretProtection keeps the credentials Secrets of a config while
// managed resources use it, and lets them go once none does. It runs before
// the usage count of the reconciler it wraps, which lets a config that
// nothing uses go: the Secrets are let go first, while the config still says
// which they are.
type secretProtection struct {
	reconcile.Reconciler
	kube client.Client
	// live reads a Secret's finalizers, which the metadata cache drops.
	live client.Reader
	kind string
}

func (r secretProtection) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	cfg, err := r.read(ctx, r.kind, req.NamespacedName)
	if err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	for _, s := range secretsOf(*cfg) {
		if cfg.users > 0 {
			err = r.keep(ctx, s)
		} else {
			err = r.letGoUnlessUsed(ctx, s, *cfg)
		}
		if err != nil {
			return reconcile.Result{}, errors.Wrapf(err, errProtect, s)
		}
	}
	res, err := r.Reconciler.Reconcile(ctx, req)
	if cfg.deleting && cfg.users > 0 && r.gone(ctx, req.NamespacedName) {
		// Its last users went between the count above and the count
		// that let the config go: nothing reconciles it again, and its
		// Secrets are let go now.
		for _, s := range secretsOf(*cfg) {
			if err := r.letGoUnlessUsed(ctx, s, *cfg); err != nil {
				return reconcile.Result{}, errors.Wrapf(err, errProtect, s)
			}
		}
	}
	return res, err
}

// gone reports whether the config of nn is gone, at the API server.
func (r secretProtection) gone(ctx context.Context, nn types.NamespacedName) bool {
	var o client.Object = &v1alpha1.ClusterProviderConfig{}
	if r.kind == v1alpha1.ProviderConfigKind {
		o = &v1alpha1.ProviderConfig{}
	}
	return kerrors.IsNotFound(r.live.Get(ctx, nn, o))
}

// read reads a config of kind and counts its usages, as crossplane-runtime's
// reconciler does.
func (r secretProtection) read(ctx context.Context, kind string, nn types.NamespacedName) (*configRef, error) {
	c := &configRef{kind: kind, namespace: nn.Namespace, name: nn.Name}
	switch kind {
	case v1alpha1.ProviderConfigKind:
		pc := &v1alpha1.ProviderConfig{}
		if err := r.kube.Get(ctx, nn, pc); err != nil {
			return nil, err
		}
		c.spec, c.deleting = pc.Spec, meta.WasDeleted(pc)
	default:
		pc := &v1alpha1.ClusterProviderConfig{}
		if err := r.kube.Get(ctx, nn, pc); err != nil {
			return nil, err
		}
		c.spec, c.deleting = pc.Spec.ProviderConfigSpec, meta.WasDeleted(pc)
	}
	usages := &v1alpha1.ProviderConfigUsageList{}
	// Only counted: the cache's own objects serve, uncopied.
	opts := []client.ListOption{client.MatchingLabels{xpv2.LabelKeyProviderName: nn.Name, xpv2.LabelKeyProviderKind: kind}, client.UnsafeDisableDeepCopy}
	if nn.Namespace != "" {
		opts = append(opts, client.InNamespace(nn.Namespace))
	}
	if err := r.kube.List(ctx, usages, opts...); err != nil {
		return nil, errors.Wrap(err, errListUsages)
	}
	c.users = int64(len(usages.Items))
	return c, nil
}

// keep puts SecretFinalizer on the Secret, if it exists.
func (r secretProtection) keep(ctx context.Context, s types.NamespacedName) error {
	return r.patchFinalizer(ctx, s, true)
}

// letGoUnlessUsed removes SecretFinalizer from the Secret unless another
// config in use reads it too.
func (r secretProtection) letGoUnlessUsed(ctx context.Context, s types.NamespacedName, self configRef) error {
	configs, err := r.readersOf(ctx, s)
	if err != nil {
		return err
	}
	for _, c := range configs {
		if (c.kind != self.kind || c.namespace != self.namespace || c.name != self.name) && c.users > 0 {
			return nil
		}
	}
	return r.patchFinalizer(ctx, s, false)
}

// readersOf are the configs that read Secret s: the namespaced configs of
// its namespace and the ClusterProviderConfigs, from the cache.
func (r secretProtection) readersOf(ctx context.Context, s types.NamespacedName) ([]configRef, error) {
	pcs := &v1alpha1.ProviderConfigList{}
	if err := r.kube.List(ctx, pcs, client.InNamespace(s.Namespace)); err != nil {
		return nil, errors.Wrap(err, errListConfigs)
	}
	out := make([]configRef, 0, len(pcs.Items))
	for _, pc := range pcs.Items {
		out = append(out, configRef{kind: v1alpha1.ProviderConfigKind, namespace: pc.Namespace, name: pc.Name, spec: pc.Spec, users: pc.Status.Users})
	}
	cpcs := &v1alpha1.ClusterProviderConfigList{}
	if err := r.kube.List(ctx, cpcs); err != nil {
		return nil, errors.Wrap(err, errListConfigs)
	}
	for _, pc := range cpcs.Items {
		out = append(out, configRef{kind: v1alpha1.ClusterProviderConfigKind, name: pc.Name, spec: pc.Spec.ProviderConfigSpec, users: pc.Status.Users})
	}
	readers := out[:0]
	for _, c := range out {
		for _, read := range secretsOf(c) {
			if read == s {
				readers = append(readers, c)
				break
			}
		}
	}
	return readers, nil
}

// patchFinalizer adds or removes SecretFinalizer on a Secret's metadata,
// read from the API server (the provider caches neither Secrets' values nor
// their finalizers), with a patch that fails if the metadata changed since.
func (r secretProtection) patchFinalizer(ctx context.Context, s types.NamespacedName, add bool) error {
	m := &metav1.PartialObjectMetadata{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Secret"}}
	if err := r.live.Get(ctx, s, m); err != nil {
		return client.IgnoreNotFound(err)
	}
	if meta.FinalizerExists(m, SecretFinalizer) == add {
		return nil
	}
	before := m.DeepCopy()
	if add {
		meta.AddFinalizer(m, SecretFinalizer)
	} else {
		meta.RemoveFinalizer(m, SecretFinalizer)
	}
	return client.IgnoreNotFound(r.kube.Patch(ctx, m, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{})))
}
