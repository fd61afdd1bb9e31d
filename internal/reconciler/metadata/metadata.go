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

// Package metadata fills the ackResourceMetadata every kind's status carries.
package metadata

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/awsconfig"
)

// For returns the metadata of a resource in the session's account and
// region. verifiedARN is the resource's ARN once the controller created it,
// or found it and verified that it matches the spec; until then pass "" and
// the metadata carries no ARN.
func For(s *awsconfig.Session, verifiedARN string) *common.ResourceMetadata {
	m := &common.ResourceMetadata{OwnerAccountID: s.AccountID, Region: s.Region}
	if verifiedARN != "" {
		m.ARN = aws.String(verifiedARN)
	}
	return m
}

// WithPartition returns For's metadata with the partition, for the kinds
// whose status has one.
func WithPartition(s *awsconfig.Session, verifiedARN string) *common.PartitionedResourceMetadata {
	return &common.PartitionedResourceMetadata{ResourceMetadata: *For(s, verifiedARN), Partition: aws.String(s.Partition)}
}

// VerifiedARN returns arn when the resource is known to be the managed
// resource's own: the controller created it, an earlier reconcile verified
// it, or it matches the spec now. Otherwise (an adopted resource that still
// differs) it returns "", and the metadata carries no ARN yet.
func VerifiedARN(mg resource.Managed, previous *common.ResourceMetadata, arn string, matchesSpec bool) string {
	if matchesSpec || !meta.GetExternalCreateSucceeded(mg).IsZero() || (previous != nil && previous.ARN != nil) {
		return arn
	}
	return ""
}

// Plain returns the partition-less part of partitioned metadata, or nil.
func Plain(m *common.PartitionedResourceMetadata) *common.ResourceMetadata {
	if m == nil {
		return nil
	}
	return &m.ResourceMetadata
}
