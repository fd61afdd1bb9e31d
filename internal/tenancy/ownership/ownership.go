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
	"strings"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

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
