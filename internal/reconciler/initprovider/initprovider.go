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

// Package initprovider merges a managed resource's spec.initProvider into
// its spec.forProvider for the create, and only for the create: what
// initProvider holds is sent once and then left to whoever changes it on
// AWS. Observe and the drift never see it, and nothing of it is written
// into forProvider.
//
// crossplane-runtime has no such merge for typed providers (upjet's
// resources merge their Terraform parameters), so this one serves every
// kind: each kind's initProvider type holds a subset of its forProvider
// fields, with the same JSON names.
package initprovider

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
)

var tagList = reflect.TypeFor[[]common.Tag]()

// Merge returns a copy of forProvider completed from initProvider: a field
// forProvider does not set (a nil pointer, list or map, or a zero value) is
// taken from initProvider; a field set in both is taken from forProvider,
// and an object set in both is merged member by member the same way. Lists
// are taken whole, except tags, which merge by key as maps do: a key in both
// takes forProvider's value. initProvider is a pointer to the kind's
// initProvider type and may be nil. forProvider is not changed.
func Merge[P interface{ DeepCopy() P }](forProvider P, initProvider any) P {
	out := forProvider.DeepCopy()
	src := reflect.ValueOf(initProvider)
	if !src.IsValid() || (src.Kind() == reflect.Pointer && src.IsNil()) {
		return out
	}
	mergeStruct(reflect.ValueOf(out).Elem(), reflect.Indirect(src))
	return out
}

// mergeStruct merges the fields of src into the fields of the same JSON name
// of dst. A field dst lacks is a programming error of the API types, which
// the tests of every kind catch.
func mergeStruct(dst, src reflect.Value) {
	for i := range src.NumField() {
		name := jsonName(src.Type().Field(i))
		d, ok := fieldByJSON(dst, name)
		if !ok {
			panic(fmt.Sprintf("initProvider field %s of %s has no forProvider field in %s", name, src.Type(), dst.Type()))
		}
		mergeValue(d, src.Field(i))
	}
}

func mergeValue(dst, src reflect.Value) {
	if src.IsZero() {
		return
	}
	switch dst.Kind() {
	case reflect.Pointer:
		switch {
		case dst.IsNil():
			set(dst, src)
		case dst.Elem().Kind() == reflect.Struct:
			mergeStruct(dst.Elem(), src.Elem())
		}
	case reflect.Map:
		if dst.IsNil() {
			set(dst, src)
			return
		}
		for _, k := range src.MapKeys() {
			if !dst.MapIndex(k).IsValid() {
				dst.SetMapIndex(k, src.MapIndex(k))
			}
		}
	case reflect.Slice:
		switch {
		case dst.IsNil():
			set(dst, src)
		case dst.Type() == tagList && src.Type() == tagList:
			dst.Set(reflect.ValueOf(mergeTags(dst.Interface().([]common.Tag), src.Interface().([]common.Tag)))) //nolint:forcetypeassert // both are tag lists
		}
	case reflect.Struct:
		mergeStruct(dst, src)
	default:
		if dst.IsZero() {
			set(dst, src)
		}
	}
}

// mergeTags adds to dst the tags of src whose keys dst does not have.
func mergeTags(dst, src []common.Tag) []common.Tag {
	has := map[string]bool{}
	for _, t := range dst {
		if t.Key != nil {
			has[*t.Key] = true
		}
	}
	out := append([]common.Tag{}, dst...)
	for _, t := range src {
		if t.Key != nil && !has[*t.Key] {
			out = append(out, *t.DeepCopy())
		}
	}
	return out
}

// set copies src into dst through JSON, which both types share: the
// initProvider types are forProvider's without the members an initProvider
// cannot hold (references, required members), so the copy is also deep.
func set(dst, src reflect.Value) {
	b, err := json.Marshal(src.Interface())
	if err != nil {
		panic(fmt.Sprintf("cannot copy initProvider %s: %v", src.Type(), err))
	}
	v := reflect.New(dst.Type())
	if err := json.Unmarshal(b, v.Interface()); err != nil {
		panic(fmt.Sprintf("cannot copy initProvider %s into %s: %v", src.Type(), dst.Type(), err))
	}
	dst.Set(v.Elem())
}

func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "" {
		return f.Name
	}
	return name
}

func fieldByJSON(v reflect.Value, name string) (reflect.Value, bool) {
	for i := range v.NumField() {
		if jsonName(v.Type().Field(i)) == name {
			return v.Field(i), true
		}
	}
	return reflect.Value{}, false
}
