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
)

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
