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
	"slices"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"

	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
)

// namespaceTimeout bounds the read of a namespace's labels: the first read
// waits for the cache of namespaces to fill, which never happens if the
// provider may not list namespaces.
const namespaceTimeout = 10 * time.Second

const (
	errNotAdmitted     = "%s %q does not admit namespace %q (spec.namespaces): use a provider config that does"
	errUndecided       = "%s %q cannot tell whether it admits namespace %q"
	errSelector        = "invalid spec.namespaces.selector"
	errNamespaceLabels = "cannot read the namespace's labels (the provider needs get, list and watch on namespaces: cluster/rbac/namespaces.yaml)"
)

// Admit returns an error that names the config and the namespace if the
// managed resource's provider config does not admit its namespace. It reads
// the config and, only if the config selects namespaces by label and does
// not name the resource's, the namespace's labels; it calls no AWS API.
func (c *Cache) Admit(ctx context.Context, mg resource.ModernManaged) error {
	_, err := c.config(ctx, mg)
	return err
}

// admit returns an error if the ClusterProviderConfig name, whose
// spec.namespaces is sel, does not admit namespace ns.
func (c *Cache) admit(ctx context.Context, name string, sel *v1alpha1.NamespaceSelector, ns string) error {
	ok, err := Admits(sel, ns, func() (map[string]string, error) {
		m := &metav1.PartialObjectMetadata{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Namespace"}}
		rctx, cancel := context.WithTimeout(ctx, namespaceTimeout)
		defer cancel()
		if err := c.kube.Get(rctx, types.NamespacedName{Name: ns}, m); err != nil {
			return nil, errors.Wrap(err, errNamespaceLabels)
		}
		return m.Labels, nil
	})
	if err != nil {
		return errors.Wrapf(err, errUndecided, v1alpha1.ClusterProviderConfigKind, name, ns)
	}
	if !ok {
		return errors.Errorf(errNotAdmitted, v1alpha1.ClusterProviderConfigKind, name, ns)
	}
	return nil
}

// Admits says whether spec.namespaces sel admits namespace ns: every
// namespace if sel is nil, else ns if it is one of sel's names or its
// labels match sel's selector. It reads the labels, with nsLabels, only
// when they decide.
func Admits(sel *v1alpha1.NamespaceSelector, ns string, nsLabels func() (map[string]string, error)) (bool, error) {
	if sel == nil || slices.Contains(sel.Names, ns) {
		return true, nil
	}
	if sel.Selector == nil {
		return false, nil
	}
	s, err := metav1.LabelSelectorAsSelector(sel.Selector)
	if err != nil {
		return false, errors.Wrap(err, errSelector)
	}
	if s.Empty() {
		return true, nil
	}
	l, err := nsLabels()
	if err != nil {
		return false, err
	}
	return s.Matches(labels.Set(l)), nil
}
