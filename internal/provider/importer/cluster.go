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

package importer

import (
	"context"
	"fmt"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/aws/listing"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/ownership"
)

const (
	errObjects = "cannot read the %s objects of the cluster, which say which resources are managed; nothing is imported"
	errConfigs = "cannot read the %s objects of the cluster, whose regions say where the objects without a region of their own are; nothing is imported"
	errClaims  = "cannot read the provider's ownership claims (Leases of namespace %s), which say which resources are managed; nothing is imported"
)

// A Cluster is what the cluster says of AWS resources: which its objects
// name, and which the provider's ownership claims hold.
type Cluster struct {
	// named is the object (namespace/name) that names each identifier
	// of a kind in a region; the region is "" for an object whose region
	// cannot be told, which names the identifier in every region.
	named map[namedKey]string
	// claims are the provider's ownership claims, by Lease name.
	claims map[string]*ownership.Claim
	// ClaimsNamespace is where the claims are kept.
	ClaimsNamespace string
	// Notes are what the reader should know of how the cluster was read.
	Notes []string
}

type namedKey struct {
	kind, region, id string
}

// ReadCluster reads every object of Kinds in all namespaces, the provider
// configs their regions may come from, and the ownership claims the
// provider keeps in namespace. Anything it cannot read is an error: a
// resource it cannot tell is managed is not to be imported.
func ReadCluster(ctx context.Context, r client.Reader, namespace string) (*Cluster, error) {
	c := &Cluster{named: map[namedKey]string{}, ClaimsNamespace: namespace}
	regions := map[string]string{} // of configs, by kind, namespace and name
	for _, gvk := range []schema.GroupVersionKind{v1alpha1.ProviderConfigGroupVersionKind, v1alpha1.ClusterProviderConfigGroupVersionKind} {
		items, err := listAll(ctx, r, gvk)
		if meta.IsNoMatchError(err) {
			continue
		}
		if err != nil {
			return nil, errors.Wrapf(err, errConfigs, gvk.Kind)
		}
		for _, u := range items {
			region, _, _ := unstructured.NestedString(u.Object, "spec", "region")
			regions[gvk.Kind+"/"+u.GetNamespace()+"/"+u.GetName()] = region
		}
	}
	for _, k := range Kinds {
		items, err := listAll(ctx, r, k.GroupVersionKind)
		if meta.IsNoMatchError(err) {
			// Without its CRD, the kind has no objects.
			c.Notes = append(c.Notes, fmt.Sprintf("the cluster serves no %s: no object of it manages anything", k.GroupKind()))
			continue
		}
		if err != nil {
			return nil, errors.Wrapf(err, errObjects, k.Kind)
		}
		for i := range items {
			u := &items[i]
			region := objectRegion(u, regions)
			if k.NameField == "" {
				// An ARN, and a topic's ARN, say their region
				// themselves, whatever the object's config says.
				region = ""
			}
			for _, id := range k.names(u) {
				c.named[namedKey{kind: k.Kind, region: region, id: id}] = u.GetNamespace() + "/" + u.GetName()
			}
		}
	}
	claims, err := ownership.ListClaims(ctx, r, namespace)
	if err != nil {
		return nil, errors.Wrapf(err, errClaims, namespace)
	}
	c.claims = claims
	return c, nil
}

// listPage is how many objects one list call to the API server asks for.
const listPage = 500

// listAll lists every object of kind gvk, a page at a time.
func listAll(ctx context.Context, r client.Reader, gvk schema.GroupVersionKind) ([]unstructured.Unstructured, error) {
	var out []unstructured.Unstructured
	next := ""
	for {
		l := &unstructured.UnstructuredList{}
		l.SetGroupVersionKind(gvk.GroupVersion().WithKind(gvk.Kind + "List"))
		if err := r.List(ctx, l, client.Limit(listPage), client.Continue(next)); err != nil {
			return nil, err
		}
		out = append(out, l.Items...)
		if next = l.GetContinue(); next == "" {
			return out, nil
		}
	}
}

// objectRegion is the region an object's resource is in: its
// forProvider.region, else its provider config's; "" when neither says.
func objectRegion(u *unstructured.Unstructured, configs map[string]string) string {
	if region, _, _ := unstructured.NestedString(u.Object, "spec", "forProvider", "region"); region != "" {
		return region
	}
	kind, _, _ := unstructured.NestedString(u.Object, "spec", "providerConfigRef", "kind")
	name, _, _ := unstructured.NestedString(u.Object, "spec", "providerConfigRef", "name")
	switch kind {
	case v1alpha1.ProviderConfigKind:
		return configs[kind+"/"+u.GetNamespace()+"/"+name]
	default:
		// Crossplane defaults a reference without a kind to a
		// ClusterProviderConfig, and one without a name to "default".
		if name == "" {
			name = "default"
		}
		return configs[v1alpha1.ClusterProviderConfigKind+"//"+name]
	}
}

// A Place is where resources were listed: the endpoint override ("" for
// AWS's own, else exactly the URL the provider configs name), the account
// and the region.
type Place struct {
	Endpoint, Account, Region string
}

// Decide says why the resource f of kind k, listed at at, is not to be
// imported; "" when it is free to import: no object of the cluster names
// it, no ownership claim of the provider holds it, and its owner tags name
// no object.
func (c *Cluster) Decide(k Kind, at Place, f listing.Found) string {
	for _, region := range []string{at.Region, ""} {
		if obj, ok := c.named[namedKey{kind: k.Kind, region: region, id: f.ID}]; ok {
			return fmt.Sprintf("managed by %s %s", k.Kind, obj)
		}
		if obj, ok := c.named[namedKey{kind: k.Kind, region: region, id: f.Identity}]; ok && f.Identity != "" {
			return fmt.Sprintf("managed by %s %s", k.Kind, obj)
		}
	}
	id := ownership.Identity{Endpoint: at.Endpoint, Account: at.Account, Region: at.Region, Kind: k.GroupKind(), Fields: f.Identity}
	if f.Account != "" && f.Region != "" {
		id.Account, id.Region = f.Account, f.Region
	}
	if cl, ok := c.claims[ownership.ClaimName(id)]; ok {
		if cl.Purpose == ownership.Retained {
			return fmt.Sprintf("kept by namespace %s, whose object let it go when it was deleted (ownership claim %s/%s); an admin hands it over by deleting the claim", cl.Owner.Namespace, c.ClaimsNamespace, ownership.ClaimName(id))
		}
		return fmt.Sprintf("held by %s %s (ownership claim %s/%s, %s)", cl.Owner.Kind, cl.Owner, c.ClaimsNamespace, ownership.ClaimName(id), cl.Purpose)
	}
	if f.Unreadable != "" {
		return f.Unreadable
	}
	if owner, ok := ownership.OwnerOf(f.Tags); ok {
		return fmt.Sprintf("its owner tags say %s %s (UID %q) made it, an object of another cluster or one deleted that left it; remove its crossplane-* tags to import it here", owner.Kind, owner, owner.UID)
	}
	return ""
}
