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

// Package connect is the connector every kind's controller uses: it checks
// that the resource's provider config admits its namespace, records the
// resource's use of the config, then hands the kind's external client a
// cached AWS session.
package connect

import (
	"context"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/internal/tenancy/awsconfig"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/usage"
)

const (
	errTrackUsage = "cannot track the use of the provider config"
	errSession    = "cannot connect to AWS"
)

// A Connector connects managed resources of one kind to AWS.
type Connector[MR resource.ModernManaged] struct {
	usage    *resource.ProviderConfigUsageTracker
	sessions *awsconfig.Cache
	region   func(MR) *string
	external func(MR, *awsconfig.Session) managed.TypedExternalClient[MR]
}

// New returns a Connector. region reads the resource's
// spec.forProvider.region; external builds the kind's external client.
func New[MR resource.ModernManaged](kube client.Client, sessions *awsconfig.Cache, region func(MR) *string, external func(MR, *awsconfig.Session) managed.TypedExternalClient[MR]) *Connector[MR] {
	return &Connector[MR]{
		usage:    usage.NewTracker(kube),
		sessions: sessions,
		region:   region,
		external: external,
	}
}

// Connect refuses a resource whose ClusterProviderConfig does not admit its
// namespace, before it records any usage or calls AWS; it tracks the config's
// usage before using it, so that a config in use cannot be deleted, then
// builds the external client on the resource's session. A resource being
// deleted records nothing new: its usage, recorded before, stays until it
// lets go (package usage), and its namespace may be terminating, where the
// API server creates nothing.
func (c *Connector[MR]) Connect(ctx context.Context, mg MR) (managed.TypedExternalClient[MR], error) {
	ec, err := c.connect(ctx, mg)
	if err != nil && meta.WasDeleted(mg) {
		// A deletion that cannot reach AWS says how to let the object go.
		return nil, errors.Wrap(err, WayOut)
	}
	return ec, err
}

// WayOut is what a deletion that cannot reach or change AWS advises: safe
// for anyone to follow, since it deletes nothing.
const WayOut = "cannot delete the AWS resource; to let this object go and keep the resource on AWS, annotate it services.k8s.aws/deletion-policy: retain"

func (c *Connector[MR]) connect(ctx context.Context, mg MR) (managed.TypedExternalClient[MR], error) {
	if err := c.sessions.Admit(ctx, mg); err != nil {
		return nil, err
	}
	if !meta.WasDeleted(mg) {
		if err := c.usage.Track(ctx, mg); err != nil {
			return nil, errors.Wrap(err, errTrackUsage)
		}
	}
	s, err := c.sessions.Session(ctx, mg, c.region(mg))
	if err != nil {
		return nil, errors.Wrap(err, errSession)
	}
	return c.external(mg, s), nil
}
