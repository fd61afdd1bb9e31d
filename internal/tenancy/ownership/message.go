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
	"fmt"
)

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
