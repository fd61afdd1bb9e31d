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

package v1alpha1

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/internal/reconciler/reference"
)

// ResolveReferences fills the ARN fields of a DeliveryStream from their
// references and selectors.
func (mg *DeliveryStream) ResolveReferences(ctx context.Context, r client.Reader) error {
	p := &mg.Spec.ForProvider
	var fields []reference.Field
	if e := p.DeliveryStreamEncryptionConfiguration; e != nil {
		fields = append(fields, reference.Field{Path: "spec.forProvider.deliveryStreamEncryptionConfiguration.keyARN", Target: reference.KMSKey, ARN: &e.KeyARN, Ref: &e.KeyRef, Selector: e.KeySelector})
	}
	if d := p.HTTPEndpointDestinationConfiguration; d != nil {
		const at = "spec.forProvider.httpEndpointDestinationConfiguration."
		fields = append(fields, reference.Field{Path: at + "roleARN", Target: reference.Role, ARN: &d.RoleARN, Ref: &d.RoleRef, Selector: d.RoleSelector})
		if s := d.StoreConfiguration; s != nil {
			fields = append(fields,
				reference.Field{Path: at + "storeConfiguration.bucketARN", Target: reference.Bucket, ARN: &s.BucketARN, Ref: &s.BucketRef, Selector: s.BucketSelector},
				reference.Field{Path: at + "storeConfiguration.roleARN", Target: reference.Role, ARN: &s.RoleARN, Ref: &s.RoleRef, Selector: s.RoleSelector})
			if e := s.EncryptionConfiguration; e != nil && e.KMSEncryptionConfig != nil {
				k := e.KMSEncryptionConfig
				fields = append(fields, reference.Field{Path: at + "storeConfiguration.encryptionConfiguration.kmsEncryptionConfig.vendorKMSKeyARN", Target: reference.KMSKey, ARN: &k.VendorKMSKeyARN, Ref: &k.VendorKMSKeyRef, Selector: k.VendorKMSKeySelector})
			}
		}
		if s := d.SecretsManagerConfiguration; s != nil {
			fields = append(fields,
				reference.Field{Path: at + "secretsManagerConfiguration.roleARN", Target: reference.Role, ARN: &s.RoleARN, Ref: &s.RoleRef, Selector: s.RoleSelector},
				reference.Field{Path: at + "secretsManagerConfiguration.secretARN", Target: reference.SecretsManagerSecret, ARN: &s.SecretARN, Ref: &s.SecretRef, Selector: s.SecretSelector})
		}
	}
	return reference.Resolve(ctx, r, mg, fields...)
}
