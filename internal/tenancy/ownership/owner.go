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

package ownership

import (
	"strings"

	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// TagKeyUID is the owner tag that names the object's UID: kind, namespace
// and name are shared by an object of another cluster and by an earlier
// object of the same name; the UID is not.
const TagKeyUID = "crossplane-uid"

// OwnerTagCount is how many tags the owner tags take of AWS's 50.
const OwnerTagCount = 6

// The owner tags are crossplane-runtime's external tags and the UID; these
// three say which object they name.
var ownerKeys = []string{resource.ExternalResourceTagKeyKind, resource.ExternalResourceTagKeyNamespace, resource.ExternalResourceTagKeyName}

// OwnerTags returns the tags that mark an AWS resource as mg's, an object of
// kind gk: crossplane-runtime's external tags (kind, namespace, name,
// provider config) and its UID.
func OwnerTags(gk schema.GroupKind, mg resource.Managed) map[string]string {
	// The object read from a cache may not carry its kind.
	typed, ok := mg.DeepCopyObject().(resource.Managed)
	if !ok {
		return nil
	}
	typed.GetObjectKind().SetGroupVersionKind(gk.WithVersion(""))
	t := resource.GetExternalTags(typed)
	if uid := mg.GetUID(); uid != "" {
		t[TagKeyUID] = string(uid)
	}
	return t
}

// IsOwnerTag reports whether a tag key is one of the owner tags, which are
// no user's tags: tag drift never removes or reports them.
func IsOwnerTag(key string) bool {
	return strings.HasPrefix(key, "crossplane-")
}

// An Owner is the object that owner tags or a claim name; UID is empty in
// the tags of a release that did not tag it.
type Owner struct {
	Kind, Namespace, Name string
	UID                   types.UID
}

func (o Owner) String() string { return o.Namespace + "/" + o.Name }

// OwnerOf returns the object an AWS resource's tags name, if they name one.
func OwnerOf(tags map[string]string) (Owner, bool) {
	for _, k := range ownerKeys {
		if tags[k] == "" {
			return Owner{}, false
		}
	}
	return Owner{Kind: tags[resource.ExternalResourceTagKeyKind], Namespace: tags[resource.ExternalResourceTagKeyNamespace], Name: tags[resource.ExternalResourceTagKeyName], UID: types.UID(tags[TagKeyUID])}, true
}

// OwnerFor returns mg, an object of kind gk, as an Owner.
func OwnerFor(gk schema.GroupKind, mg resource.Managed) Owner {
	return Owner{Kind: strings.ToLower(gk.String()), Namespace: mg.GetNamespace(), Name: mg.GetName(), UID: mg.GetUID()}
}

// Names reports whether o names the object self by kind, namespace and
// name.
func (o Owner) Names(self Owner) bool {
	return strings.EqualFold(o.Kind, self.Kind) && o.Namespace == self.Namespace && o.Name == self.Name
}
