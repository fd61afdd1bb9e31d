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

// Package tags converts the provider's tag shapes to one form and computes
// what to add and remove to make AWS's tags match the spec.
package tags

import (
	"sort"

	"github.com/aws/aws-sdk-go-v2/aws"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
)

// FromList turns the tag list of a spec into a map; a tag without a key is
// skipped, a tag without a value has the empty value.
func FromList(list []common.Tag) map[string]string {
	out := make(map[string]string, len(list))
	for _, t := range list {
		if t.Key == nil {
			continue
		}
		out[*t.Key] = aws.ToString(t.Value)
	}
	return out
}

// Diff returns the tags to set (new keys and changed values) and the keys to
// remove so that observed becomes desired.
func Diff(desired, observed map[string]string) (set map[string]string, remove []string) {
	set = map[string]string{}
	for k, v := range desired {
		if ov, ok := observed[k]; !ok || ov != v {
			set[k] = v
		}
	}
	for k := range observed {
		if _, ok := desired[k]; !ok {
			remove = append(remove, k)
		}
	}
	sort.Strings(remove)
	return set, remove
}

// Equal reports whether two tag maps hold the same tags.
func Equal(a, b map[string]string) bool {
	set, remove := Diff(a, b)
	return len(set) == 0 && len(remove) == 0
}

// Apply makes observed tags match desired ones with the service's own calls:
// remove for the keys to drop, then set for new and changed tags. Each is
// called only when it has something to do.
func Apply(desired, observed map[string]string, remove func([]string) error, set func(map[string]string) error) error {
	toSet, toRemove := Diff(desired, observed)
	if len(toRemove) > 0 {
		if err := remove(toRemove); err != nil {
			return err
		}
	}
	if len(toSet) > 0 {
		return set(toSet)
	}
	return nil
}
