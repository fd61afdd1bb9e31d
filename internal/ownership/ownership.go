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

// Package ownership decides whether an AWS resource is a managed resource's
// own to change and delete. Many teams share one cluster and one AWS
// account: two objects that ask for the same AWS name must not both manage
// it, and a resource made outside the cluster is managed only when its user
// asks to adopt it.
//
// An object owns a resource when it created it (crossplane-runtime's
// create-succeeded record, or, after a create whose answer was lost, the
// owner tags the create carried or a creation after its create-pending
// record), or when it adopted it on its user's explicit request
// (AnnotationAdoptionPolicy). Once owned, the resource's ARN in the object's
// status is the record. No two objects of a kind in the cluster own the same
// AWS identity: an index over the objects the provider watches tells who
// else asks for it, without a call to the API server.
package ownership

import (
	"fmt"
	"strings"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
)

const (
	// AnnotationAdoptionPolicy set to AdoptionPolicyAdopt asks the provider
	// to manage an AWS resource that exists already and that no other
	// object of the cluster manages (ACK's annotation).
	AnnotationAdoptionPolicy = "services.k8s.aws/adoption-policy"
	// AdoptionPolicyAdopt is the value of AnnotationAdoptionPolicy that
	// adopts.
	AdoptionPolicyAdopt = "adopt"

	// IndexField indexes the objects of a kind by the AWS identity they ask
	// for.
	IndexField = "ownership.services.k8s.aws/identity"

	// CreationMargin is how long before an object's create-pending record
	// a resource of a kind without tags may have been created and still be
	// taken for the work of that object's create: the record is written by
	// the provider's clock and the creation time by AWS's, and a create
	// repeated after a lost answer moves the record past the first call.
	CreationMargin = 5 * time.Minute
)

// The owner tags are crossplane-runtime's external tags; these three say
// which object they name.
var ownerKeys = []string{resource.ExternalResourceTagKeyKind, resource.ExternalResourceTagKeyNamespace, resource.ExternalResourceTagKeyName}

// OwnerTags returns the tags that mark an AWS resource as mg's, an object of
// kind gk: crossplane-runtime's external tags (kind, namespace, name,
// provider config).
func OwnerTags(gk schema.GroupKind, mg resource.Managed) map[string]string {
	// The object read from a cache may not carry its kind.
	typed, ok := mg.DeepCopyObject().(resource.Managed)
	if !ok {
		return nil
	}
	typed.GetObjectKind().SetGroupVersionKind(gk.WithVersion(""))
	return resource.GetExternalTags(typed)
}

// IsOwnerTag reports whether a tag key is one of the owner tags, which are
// no user's tags: tag drift never removes or reports them.
func IsOwnerTag(key string) bool {
	return strings.HasPrefix(key, "crossplane-")
}

// An Owner is the object that owner tags name.
type Owner struct {
	Kind, Namespace, Name string
}

func (o Owner) String() string { return o.Namespace + "/" + o.Name }

// OwnerOf returns the object an AWS resource's tags name, if they name one.
func OwnerOf(tags map[string]string) (Owner, bool) {
	for _, k := range ownerKeys {
		if tags[k] == "" {
			return Owner{}, false
		}
	}
	return Owner{Kind: tags[resource.ExternalResourceTagKeyKind], Namespace: tags[resource.ExternalResourceTagKeyNamespace], Name: tags[resource.ExternalResourceTagKeyName]}, true
}

// Is reports whether o names mg, an object of kind gk.
func (o Owner) Is(gk schema.GroupKind, mg resource.Managed) bool {
	return strings.EqualFold(o.Kind, gk.String()) && o.Namespace == mg.GetNamespace() && o.Name == mg.GetName()
}

// WantsToAdopt reports whether mg's user asked to adopt an existing resource.
func WantsToAdopt(mg resource.Managed) bool {
	return mg.GetAnnotations()[AnnotationAdoptionPolicy] == AdoptionPolicyAdopt
}

// Writes reports whether mg may change AWS: an object whose management
// policies only observe reads without owning, and holds nothing.
func Writes(mg resource.Managed, policiesHonoured bool) bool {
	p := managed.NewManagementPoliciesResolver(policiesHonoured, mg.GetManagementPolicies())
	return p.ShouldCreate() || p.ShouldUpdate() || p.ShouldDelete() || p.ShouldLateInitialize()
}

// Recorded reports whether mg's own records say it owns its resource: it
// created it (crossplane-runtime's create-succeeded annotation), or an
// earlier reconcile verified it and showed its ARN.
func Recorded(mg resource.Managed, md *common.ResourceMetadata) bool {
	return !meta.GetExternalCreateSucceeded(mg).IsZero() || (md != nil && md.ARN != nil)
}

// A Claimant is another object of the kind that asks for the same AWS
// identity.
type Claimant struct {
	UID       types.UID
	Namespace string
	Name      string
	Created   time.Time
	// Recorded is true when its records say it owns the resource.
	Recorded bool
	// Refused is true when it was told it does not own the resource;
	// Deleting when it is being deleted.
	Refused, Deleting bool
}

func (c Claimant) String() string { return c.Namespace + "/" + c.Name }

// olderThan orders claimants by age, then by name, so that two objects agree
// on which came first.
func (c Claimant) olderThan(o Claimant) bool {
	if !c.Created.Equal(o.Created) {
		return c.Created.Before(o.Created)
	}
	return c.String() < o.String()
}

// Holder returns the claimant that holds the identity against self: one
// whose records say it owns it (unless self's do too and self is older), or,
// while self has no record, an older one that asks for it and was not
// refused: the first to ask creates, whichever create reaches AWS first.
func Holder(self Claimant, others []Claimant) (Claimant, bool) {
	for _, o := range others {
		if o.UID == self.UID {
			continue
		}
		switch {
		case o.Recorded && (!self.Recorded || !self.olderThan(o)):
			return o, true
		case !o.Recorded && !self.Recorded && !o.Refused && !o.Deleting && o.olderThan(self):
			return o, true
		}
	}
	return Claimant{}, false
}

// Evidence is what AWS shows of a resource this object has no record of.
type Evidence struct {
	// Tagged is true for the kinds AWS can tag; Owner is the object their
	// owner tags name, if any.
	Tagged bool
	Owner  *Owner
	// Created is when AWS made the resource; zero when AWS does not say.
	Created time.Time
}

// A Verdict is whether an object may manage the resource AWS has under its
// identity.
type Verdict int

// Verdicts.
const (
	// Owned: the object made it, or adopted it before.
	Owned Verdict = iota
	// Adopt: the object's user asks to adopt it and nothing else holds it.
	Adopt
	// NotOwned: the object must not touch it.
	NotOwned
)

// A Decision is a verdict with who holds the resource, for the message.
type Decision struct {
	Verdict Verdict
	// HeldBy is the claimant of the cluster that holds it, if any.
	HeldBy *Claimant
	// TaggedBy is the object the owner tags name, if any; InCluster is
	// true when that object asks for the same identity in this cluster.
	TaggedBy  *Owner
	InCluster bool
}

// Decide says whether self, an object of kind gk, may manage the resource AWS
// has under its identity. others are the other objects of the kind that ask
// for the same identity (in the same account and region, or not known to be
// elsewhere); evidence is what AWS shows, read only when self has no record.
func Decide(gk schema.GroupKind, mg resource.Managed, self Claimant, others []Claimant, evidence func() (Evidence, error)) (Decision, error) {
	if h, ok := Holder(self, others); ok {
		return Decision{Verdict: NotOwned, HeldBy: &h}, nil
	}
	if self.Recorded {
		return Decision{Verdict: Owned}, nil
	}
	ev, err := evidence()
	if err != nil {
		return Decision{}, err
	}
	pending := meta.GetExternalCreatePending(mg)
	switch {
	case ev.Owner != nil && ev.Owner.Is(gk, mg):
		// Its own create's tags: that create's answer was lost.
		return Decision{Verdict: Owned}, nil
	case !ev.Tagged && !pending.IsZero() && (ev.Created.IsZero() || !ev.Created.Before(pending.Add(-CreationMargin))):
		// A kind without tags: the resource appeared once this object
		// had begun to create it (the first look, before the create,
		// did not find it, or the create would not have been made).
		return Decision{Verdict: Owned}, nil
	}
	d := Decision{Verdict: NotOwned, TaggedBy: ev.Owner}
	if ev.Owner != nil {
		for _, o := range others {
			if o.Namespace == ev.Owner.Namespace && o.Name == ev.Owner.Name {
				d.InCluster = true
			}
		}
	}
	if WantsToAdopt(mg) && !d.InCluster {
		d.Verdict = Adopt
	}
	return d, nil
}

// Words are what a refusal says of a kind.
type Words struct {
	// Noun is what the kind is called: "delivery stream".
	Noun string
	// Field names the spec fields that make the identity.
	Field string
	// Another is what to choose instead: "another name".
	Another string
}

// Message explains a refusal: what AWS has, who holds it, and advice that is
// safe for someone who does not own it.
func (d Decision) Message(w Words, identity string) string {
	found := fmt.Sprintf("AWS already has %s %q (%s)", w.Noun, identity, w.Field)
	switch {
	case d.HeldBy != nil && d.HeldBy.Recorded:
		return fmt.Sprintf("%s, managed by %s of this cluster; this object does not manage it and cannot adopt it while that object does: choose %s",
			found, d.HeldBy, w.Another)
	case d.HeldBy != nil:
		return fmt.Sprintf("%s, asked for first by %s of this cluster; this object does not manage it and cannot adopt it while that object asks for it: choose %s",
			found, d.HeldBy, w.Another)
	case d.TaggedBy != nil && d.InCluster:
		return fmt.Sprintf("%s, created by %s (its crossplane-namespace and crossplane-name tags), which asks for it in this cluster; this object does not manage it and cannot adopt it while that object exists: choose %s",
			found, d.TaggedBy, w.Another)
	case d.TaggedBy != nil:
		return fmt.Sprintf("%s, created by %s (its crossplane-namespace and crossplane-name tags); this object does not manage it: choose %s, or adopt it with the annotation %s=%s if no other object manages it",
			found, d.TaggedBy, w.Another, AnnotationAdoptionPolicy, AdoptionPolicyAdopt)
	default:
		return fmt.Sprintf("%s, made outside this cluster or by an object that is gone; this object does not manage it: choose %s, or adopt it with the annotation %s=%s if no other object manages it",
			found, w.Another, AnnotationAdoptionPolicy, AdoptionPolicyAdopt)
	}
}
