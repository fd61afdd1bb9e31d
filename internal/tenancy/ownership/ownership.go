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
// account: two objects that ask for the same AWS identity must not both
// manage it, and a resource made outside the cluster is managed only when
// its user asks to adopt it.
//
// Ownership is decided by a claim only the provider writes (claims.go): an
// object owns a resource when it holds the claim of the resource's identity
// and either its create made the resource (the owner tags that create
// carried name the object's UID; for a kind AWS cannot tag, AWS made it
// after the claim), or its user adopted it. Nothing a tenant writes to their
// own object (annotations, status) makes it an owner of what another object
// holds, and a create that failed proves nothing.
package ownership

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
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
	// AnnotationAdoptionFields names what an adoption adopts, as a JSON
	// object (ACK's annotation): {"arn": "..."} adopts only the resource
	// of that ARN, in the object's account and region and with its spec's
	// identity.
	AnnotationAdoptionFields = "services.k8s.aws/adoption-fields"
)

const errAdoptionFields = `annotation %s is %q: want a JSON object naming the ARN of the resource to adopt, as {"arn": "arn:aws:..."}`

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

// WantsToAdopt reports whether mg's user asked to adopt an existing resource.
func WantsToAdopt(mg resource.Managed) bool {
	return mg.GetAnnotations()[AnnotationAdoptionPolicy] == AdoptionPolicyAdopt
}

// AdoptionARN returns the ARN mg's adoption asks for, from
// AnnotationAdoptionFields; "" when it names none.
func AdoptionARN(mg resource.Managed) (string, error) {
	v, ok := mg.GetAnnotations()[AnnotationAdoptionFields]
	if !ok || !WantsToAdopt(mg) {
		return "", nil
	}
	var fields struct {
		ARN string `json:"arn"`
	}
	if err := json.Unmarshal([]byte(v), &fields); err != nil || !strings.HasPrefix(fields.ARN, "arn:") {
		return "", errors.Errorf(errAdoptionFields, AnnotationAdoptionFields, v)
	}
	return fields.ARN, nil
}

// MayCreate reports whether mg may create its resource.
func MayCreate(mg resource.Managed, policiesHonoured bool) bool {
	return managed.NewManagementPoliciesResolver(policiesHonoured, mg.GetManagementPolicies()).ShouldCreate()
}

// MayWrite reports whether mg may change AWS: an object whose management
// policies only observe reads without owning, and holds nothing.
func MayWrite(mg resource.Managed, policiesHonoured bool) bool {
	p := managed.NewManagementPoliciesResolver(policiesHonoured, mg.GetManagementPolicies())
	return p.ShouldCreate() || p.ShouldUpdate() || p.ShouldDelete() || p.ShouldLateInitialize()
}

// ShowsConfiguration reports whether mg shows the configuration AWS holds in
// its status (atProvider.forProvider): while its management policies do not
// let it update the resource (an import that only observes) or it adopts
// one, its user fills its spec from what it shows. An object that manages
// its resource holds that configuration in its spec already: the copy would
// only cost memory and status writes. No policies at all are the default,
// all of them, as the CRD's default says.
func ShowsConfiguration(mg resource.Managed) bool {
	p := mg.GetManagementPolicies()
	return WantsToAdopt(mg) || (len(p) > 0 && !managed.NewManagementPoliciesResolver(true, p).ShouldUpdate())
}

// SaysItOwns reports whether mg's own records say it owns its resource: it
// created it (crossplane-runtime's create-succeeded annotation), or an
// earlier reconcile verified it and showed its ARN. Tenants can write these
// records: they count only beside a claim the object holds, or, for an
// object made before the provider kept claims, beside owner tags that name
// it.
func SaysItOwns(mg resource.Managed, md *common.ResourceMetadata) bool {
	return !meta.GetExternalCreateSucceeded(mg).IsZero() || (md != nil && md.ARN != nil)
}

// MakerEvidence is what AWS shows of a resource, for telling who made it.
type MakerEvidence struct {
	// Tagged is true for the kinds AWS can tag; Owner is the object their
	// owner tags name, if any. InCluster is true when another object of
	// this cluster may have made it: the object the owner tags name, or,
	// for a kind AWS cannot tag, another object made before the provider
	// kept claims whose records say it made the same identity.
	Tagged    bool
	Owner     *Owner
	InCluster bool
	// Created is when AWS made the resource; zero when AWS does not say.
	Created time.Time
	// ARN is the resource's ARN.
	ARN string
}

// madeBy reports whether the evidence shows that self's create, made under
// a claim taken at since, made the resource: its owner tags name self's UID,
// or, for a kind AWS cannot tag, AWS made it after the claim (and, once the
// create was recorded as ended at created, succeeded or failed, not after
// that).
func (ev MakerEvidence) madeBy(self Owner, since, created time.Time, attempted bool) bool {
	if ev.Tagged {
		return ev.taggedBy(self)
	}
	if !attempted {
		// Claimed, but no create was made: not its work.
		return false
	}
	return ev.Created.IsZero() || (!ev.Created.Before(since.Add(-ClockSkew)) && (created.IsZero() || !ev.Created.After(created.Add(ClockSkew))))
}

// taggedBy reports whether the owner tags name self, UID included: only
// self's own create puts them.
func (ev MakerEvidence) taggedBy(self Owner) bool {
	return ev.Tagged && ev.Owner != nil && ev.Owner.UID == self.UID && ev.Owner.Names(self)
}

// ClockSkew is how much earlier than its claim AWS may date a resource that
// the claim's holder created: the claim is dated by the API server's clock
// and the creation by AWS's.
const ClockSkew = time.Minute

// A Verdict is whether an object may manage the resource AWS has under its
// identity.
type Verdict int

// Verdicts.
const (
	// Owned: the object holds the claim, and made or adopted the resource.
	Owned Verdict = iota
	// Adopt: the object's user asks to adopt it and nothing else holds it;
	// the object takes the claim.
	Adopt
	// Carry: the object made it under a release without claims (its
	// records and owner tags say so) and nothing holds it; the object
	// takes the claim.
	Carry
	// NotOwned: the object must not touch it.
	NotOwned
)

// A Decision is a verdict with who holds the resource, for the message.
type Decision struct {
	Verdict Verdict
	// HeldBy is the object of the cluster whose claim holds it, if any;
	// AskedFirst an older object of the cluster that asks to create it.
	HeldBy, AskedFirst *Owner
	// Evidence is what AWS showed, when it was read.
	Evidence MakerEvidence
	// Holds is true when the object holds the identity's claim.
	Holds bool
	// AdoptARN is the ARN an adoption asked for, when AWS has another
	// resource under the identity.
	AdoptARN string
	// Retained is true when HeldBy is a deleted object of another
	// namespace that let the resource go. Lease names the identity's
	// claim, which an admin reads to see who holds it, or annotates to
	// hand a retained resource over.
	Retained bool
	Lease    string
	// OtherNamespace is the namespace the resource's owner tags name, when
	// an adoption from another namespace is refused.
	OtherNamespace string
	// Confirm is true when the evidence showed the work of the object's
	// create under a claim still held to create: the claim is to record it
	// (Created).
	Confirm bool
}

// Facts are what a decision is made from.
type Facts struct {
	Self Owner
	// Claim is the identity's claim; nil when none.
	Claim *Claim
	// SaysItOwns is true when the object's own records say it owns the
	// resource (SaysItOwns).
	SaysItOwns bool
	// Adopt is true when the object's user asked to adopt; AdoptARN is
	// the ARN the request names, if it names one.
	Adopt    bool
	AdoptARN string
	// MadeBefore is true when the object was made before the provider
	// kept claims (by the API server's clock, which no tenant sets): only
	// then do its own records carry it over.
	MadeBefore bool
	// CreateSucceeded is when the object recorded its create; Created is
	// when AWS made what the Observe found (zero when AWS does not say): a
	// resource made well after the record was made again by someone else.
	CreateSucceeded, Created time.Time
	// HandedOver is true when an admin handed the resource, kept by
	// another namespace, to the object's namespace (AnnotationHandedTo):
	// its owner tags' namespace does not keep the object from adopting it.
	HandedOver bool
	// CreateAttempted is true when the object recorded that it was about
	// to create (crossplane-runtime's create-pending): beside a claim it
	// holds, what lets a kind AWS cannot tag take what exists for its
	// create's work.
	CreateAttempted bool
	// CreateEnded is when the object's last create ended in failure
	// (LastCreateFailed): one whose answer was lost may have made the
	// resource, but not well after it ended.
	CreateEnded time.Time
}

// LastCreateFailed returns when mg's last create failed, by
// crossplane-runtime's records: its create-failed, unless a create recorded
// since (create-pending) may be under way; zero when none failed.
func LastCreateFailed(mg resource.Managed) time.Time {
	failed := meta.GetExternalCreateFailed(mg)
	if failed.IsZero() || meta.GetExternalCreatePending(mg).After(failed) {
		return time.Time{}
	}
	return failed
}

// createEnded is when the object's last create ended, by its records: AWS
// made that create's work no later (give or take ClockSkew). Zero when no
// record says.
func (f Facts) createEnded() time.Time {
	if f.CreateEnded.After(f.CreateSucceeded) {
		return f.CreateEnded
	}
	return f.CreateSucceeded
}

// remade reports whether AWS made the resource well after the object
// recorded its own create: someone made it again since.
func (f Facts) remade() bool {
	return !f.Created.IsZero() && !f.CreateSucceeded.IsZero() && f.Created.After(f.CreateSucceeded.Add(ClockSkew))
}

// Decide says whether the object of f may manage the resource AWS has under
// its identity; evidence reads what AWS shows of it, only when needed.
func Decide(f Facts, evidence func() (MakerEvidence, error)) (Decision, error) {
	if f.Claim != nil && f.Claim.Holder != f.Self.UID {
		return Decision{Verdict: NotOwned, HeldBy: &f.Claim.Owner, Retained: f.Claim.Purpose == Retained}, nil
	}
	holds := f.Claim != nil
	if holds && f.ownedByClaim() {
		return Decision{Verdict: Owned, Holds: true}, nil
	}
	ev, err := evidence()
	if err != nil {
		return Decision{}, err
	}
	if v, ok := f.ownWork(ev); ok {
		return Decision{Verdict: v, Evidence: ev, Holds: holds, Confirm: v == Owned && (f.Claim.Purpose == ToCreate || f.Claim.Purpose == Denied)}, nil
	}
	switch {
	case f.Adopt && !ev.InCluster && ev.Owner != nil && ev.Owner.Namespace != f.Self.Namespace && !f.HandedOver:
		// Tagged for another namespace, whose object is gone: a
		// namespace never takes what another made or kept.
		return Decision{Verdict: NotOwned, Evidence: ev, Holds: holds, OtherNamespace: ev.Owner.Namespace}, nil
	case f.Adopt && !ev.InCluster && f.AdoptARN != "" && f.AdoptARN != ev.ARN:
		return Decision{Verdict: NotOwned, Evidence: ev, Holds: holds, AdoptARN: f.AdoptARN}, nil
	case f.Adopt && !ev.InCluster:
		return Decision{Verdict: Adopt, Evidence: ev, Holds: holds}, nil
	}
	return Decision{Verdict: NotOwned, Evidence: ev, Holds: holds}, nil
}

// ownedByClaim reports whether the claim the object holds says, with no
// Observe of AWS, that the resource is its own: it adopted it or carried it
// over, or its create made it (Created) and AWS did not make the resource
// again since. A claim held to create, beside an ARN or a create record in
// the object, is not enough: the namespace may write those, and a create
// that never succeeded made nothing; the evidence decides.
func (f Facts) ownedByClaim() bool {
	switch f.Claim.Purpose {
	case Adopted, Carried:
		return true
	case Created:
		return !f.remade()
	case ToCreate, Refused, Denied, Retained:
	}
	return false
}

// ownWork says whether the evidence shows the resource is the work of the
// object's own create: Owned under its claim, or Carry when it holds no
// claim (its owner tags name its UID, or it is carried over from the
// release without claims).
func (f Facts) ownWork(ev MakerEvidence) (Verdict, bool) {
	if f.Claim != nil {
		attempted := f.CreateAttempted || !f.CreateSucceeded.IsZero()
		// Its own create's work, whose answer was lost. After a create
		// AWS refused for good, only the owner tags, which name its UID,
		// tell an earlier create's work from what appeared since.
		ownCreate := f.Claim.Purpose == ToCreate || (f.Claim.Purpose == Denied && ev.Tagged)
		return Owned, ownCreate && ev.madeBy(f.Self, f.Claim.Since, f.createEnded(), attempted)
	}
	switch {
	case ev.taggedBy(f.Self):
		// Tagged with its UID by its own create, whose claim is gone.
		return Carry, true
	case f.SaysItOwns && f.MadeBefore && !ev.InCluster && ev.carriedBy(f.Self):
		return Carry, true
	}
	return NotOwned, false
}

// MessageTerms are what a refusal says of a kind.
type MessageTerms struct {
	// Noun is what the kind is called: "delivery stream".
	Noun string
	// Field names the spec fields that make the identity.
	Field string
	// Another is what to choose instead: "another name".
	Another string
}

// Message explains a refusal to an object of namespace reader: what AWS has,
// whether another object of the cluster holds it, and advice that is safe for
// someone who does not own it. It names another object only when it is of
// reader's namespace: of another namespace it tells neither the namespace
// nor the object, only that an admin can see who (in the claim, Lease, which
// only admins read, when d names it).
func (d Decision) Message(w MessageTerms, identity, reader string) string {
	// The named parts every message is made of.
	named := fmt.Sprintf("%s %q (%s)", w.Noun, identity, w.Field)
	found := "AWS already has " + named
	choose := "choose " + w.Another
	who := func(o *Owner) string {
		if o.Namespace == reader {
			return o.String()
		}
		return "an object of another namespace"
	}
	admin := ""
	if d.Lease != "" {
		admin = fmt.Sprintf(". An admin sees which object in the ownership claim, the Lease %s", d.Lease)
	}
	by := d.Evidence.Owner
	switch {
	case d.AdoptARN != "":
		return fmt.Sprintf("the adoption asks for %s (annotation %s), but the %s in this object's account and region is %s; this object does not manage it: set the ARN of that resource, or choose the %s of the resource it names",
			d.AdoptARN, AnnotationAdoptionFields, named, d.Evidence.ARN, w.Field)
	case d.Retained:
		return fmt.Sprintf("%s was kept on AWS for its namespace by %s of this cluster, which let it go when it was removed; this object does not manage it and cannot adopt it: %s. An admin hands it over to another namespace by annotating the claim, the Lease %s, with %s: <namespace>",
			named, who(d.HeldBy), choose, d.Lease, AnnotationHandedTo)
	case d.OtherNamespace != "" && d.OtherNamespace != reader:
		return fmt.Sprintf("%s, tagged for another namespace (its crossplane-namespace tag); this object does not manage it, and an object of another namespace cannot adopt it: %s. An admin of the AWS account hands it over by setting that tag to this object's namespace",
			found, choose)
	case d.AskedFirst != nil:
		return fmt.Sprintf("%s was asked for first by %s of this cluster, older than this one; this object does not manage it and cannot adopt it while that object asks for it: %s",
			named, who(d.AskedFirst), choose)
	case d.HeldBy != nil:
		return fmt.Sprintf("%s belongs to %s of this cluster; this object does not manage it and cannot adopt it while that object holds it: %s%s",
			named, who(d.HeldBy), choose, admin)
	case by == nil && d.Evidence.InCluster:
		return fmt.Sprintf("%s, which another object of this cluster made before the provider kept ownership claims, and asks for; this object does not manage it and cannot adopt it while that object exists: %s",
			found, choose)
	case by != nil && d.Evidence.InCluster:
		return fmt.Sprintf("%s, created by %s (its crossplane-namespace and crossplane-name tags), which exists in this cluster; this object does not manage it and cannot adopt it while that object exists: %s",
			found, who(by), choose)
	}
	adopt := fmt.Sprintf("adopt it (annotation %s=%s)", AnnotationAdoptionPolicy, AdoptionPolicyAdopt)
	if by != nil {
		return fmt.Sprintf("%s, created by %s of another cluster or by an earlier object of that name (its crossplane-namespace, crossplane-name and crossplane-uid tags); this object does not manage it: %s. Whoever runs that cluster, or an admin of the AWS account, can tell whether it is still managed; only then %s",
			found, who(by), choose, adopt)
	}
	return fmt.Sprintf("%s, made outside this cluster or by an object that is gone; this object does not manage it: %s. An admin of the AWS account can tell whose it is; only once they hand it over, %s",
		found, choose, adopt)
}
