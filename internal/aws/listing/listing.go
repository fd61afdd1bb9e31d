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

// Package listing holds what the import command's list of each kind's
// resources (reconciler.Import) makes of them, and the reads they share.
// Each list asks for AWS's largest page, so that a region's resources cost
// as few list calls as they can; the reads each resource needs (its tags; a
// stream's destination) are made by workers at once, each call waiting for
// its operation's budget (cmd/provider sets the budgets' middleware on the
// configuration).
package listing

import (
	"context"
	"sync"
)

// ErrTags is the reason a resource whose tags cannot be read is left out:
// its ownership cannot be told. It wraps the read's error.
const ErrTags = "cannot read its tags, which say whether an object owns it: %w"

// A Found is one resource AWS listed.
type Found struct {
	// ID identifies the resource: its name, or a subscription's ARN.
	ID string
	// Identity is what the provider's ownership claims key the resource
	// by (ownership.Identity.Fields): its name, or a subscription's
	// protocol, endpoint and topic.
	Identity string
	// Account and Region are where AWS keeps the identity unique, when
	// not where it was listed: a subscription's topic's.
	Account, Region string
	// Tags are the resource's tags, for a kind AWS can tag.
	Tags map[string]string
	// Unreadable says why the resource's ownership cannot be told (its
	// tags could not be read); "" when it can.
	Unreadable string
}

// ReadTags reads the tags of each found resource with workers at once; a
// resource whose tags cannot be read says why (the error read returns), for
// its ownership cannot be told.
func ReadTags(ctx context.Context, found []Found, workers int, read func(i int) (map[string]string, error)) {
	next := make(chan int)
	var wg sync.WaitGroup
	for range max(1, workers) {
		wg.Go(func() {
			for i := range next {
				tags, err := read(i)
				if err != nil {
					found[i].Unreadable = err.Error()
					continue
				}
				found[i].Tags = tags
			}
		})
	}
	for i := range found {
		select {
		case next <- i:
		case <-ctx.Done():
			// Stopped: what was not read is not told.
			found[i].Unreadable = ctx.Err().Error()
		}
	}
	close(next)
	wg.Wait()
}
