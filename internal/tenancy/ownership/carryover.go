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

// The carry-over of the previous release, which kept no ownership claims:
// an object it made a resource for, and that says so in its own records
// (SaysItOwns), keeps that resource under a claim of purpose Carried
// (verdict Carry, Facts.MadeBefore) when nothing on AWS or in the cluster
// says otherwise. All of it is here but the purpose and the verdict, which
// their enumerations name. It is deleted once no object made before the era
// can remain: when the release that introduced claims is the oldest a user
// may upgrade from, every object has been reconciled since (a claim taken or
// refused), and the era Lease (EraLease) can go with it.

import (
	"context"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	coordinationv1 "k8s.io/api/coordination/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// MarkEra records, once, that the provider keeps claims from now on.
func MarkEra(ctx context.Context, kube client.Client, namespace string) error {
	l := &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{
		Namespace: namespace, Name: EraLease,
		Labels:      map[string]string{LabelClaim: "true"},
		Annotations: map[string]string{AnnotationClaimsSince: time.Now().UTC().Format(time.RFC3339Nano)},
	}}
	if err := kube.Create(ctx, l); err != nil && !kerrors.IsAlreadyExists(err) {
		return errors.Wrap(err, errCreateClaim)
	}
	return nil
}

// Era returns since when the provider keeps claims; zero when it does not
// know, which carries nothing over.
func (c *Claims) Era(ctx context.Context) time.Time {
	l := &coordinationv1.Lease{}
	key := types.NamespacedName{Namespace: c.namespace, Name: EraLease}
	if err := c.cached.Get(ctx, key, l); err != nil {
		if err := c.live.Get(ctx, key, l); err != nil {
			return time.Time{}
		}
	}
	t, err := time.Parse(time.RFC3339Nano, l.Annotations[AnnotationClaimsSince])
	if err != nil {
		return time.Time{}
	}
	return t
}

// madeBeforeClaims reports whether mg was made before the provider kept
// claims: an object of the previous release.
func (c *Client[MR]) madeBeforeClaims(ctx context.Context, mg MR) bool {
	era := c.kind.Claims.Era(ctx)
	return !era.IsZero() && mg.GetCreationTimestamp().Time.Before(era)
}

// madeBeforeClaimsByAnother reports whether another object of the kind,
// made before the provider kept claims, asks for mg's identity and its
// records say it made it: an object of the previous release not looked at
// since the upgrade, which neither an adoption nor a record takes from it.
func (c *Client[MR]) madeBeforeClaimsByAnother(ctx context.Context, mg MR) (bool, error) {
	era := c.kind.Claims.Era(ctx)
	if era.IsZero() {
		return false, nil
	}
	others, err := c.othersAskingFor(ctx, mg)
	if err != nil {
		return false, err
	}
	for _, other := range others {
		if other.GetCreationTimestamp().Time.Before(era) && SaysItOwns(other, c.kind.Metadata(other)) {
			return true, nil
		}
	}
	return false, nil
}

// carriedBy reports whether the evidence agrees with the records of self,
// an object made before the provider kept claims: its owner tags name self
// (without a UID, as that release tagged).
func (ev MakerEvidence) carriedBy(self Owner) bool {
	if ev.Tagged {
		return ev.Owner != nil && ev.Owner.Names(self) && (ev.Owner.UID == "" || ev.Owner.UID == self.UID)
	}
	return true
}
