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
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
)

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
