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

package emulator

import (
	"maps"
	"slices"
	"strings"
	"sync"
)

// A Generic is a kind the emulator serves from one generic store, as make
// kind scaffolds a new kind: a resource of a JSON-protocol service whose
// operations follow AWS's most common naming (Create<Kind>,
// Describe<Kind>, Update<Kind>, Delete<Kind> and List<Kind>s, naming it by
// <Kind>Name and answering its <Kind>Arn). It keeps what a create sends and
// answers it back; it checks nothing of the fields a real service
// validates, which the kind's own emulation adds when it replaces this.
type Generic struct {
	// Service is the service's signing name: "events".
	Service string
	// Kind is the resource's name in its operations: "Archive".
	Kind string
}

// unknownOperation is the code a service's emulation answers an operation
// it does not serve with, which the generic store then may.
const unknownOperation = "UnknownOperationException"

// generics are the kinds served generically, by "service:Operation".
var (
	genericsMu sync.RWMutex
	generics   = map[string]genericOp{}
)

type genericOp struct {
	Generic
	verb string // Create, Describe, Update, Delete or List
}

// RegisterGeneric makes every emulator serve g's operations that its
// service's own emulation does not (the generic store is a fallback, never
// in the way of an emulation written since): a scaffolded kind's
// emulation registers itself from its file's init.
func RegisterGeneric(g Generic) {
	genericsMu.Lock()
	defer genericsMu.Unlock()
	for _, verb := range []string{"Create", "Describe", "Update", "Delete"} {
		generics[g.Service+":"+verb+g.Kind] = genericOp{g, verb}
	}
	generics[g.Service+":List"+g.Kind+"s"] = genericOp{g, "List"}
}

func genericOf(service, operation string) (genericOp, bool) {
	genericsMu.RLock()
	defer genericsMu.RUnlock()
	op, ok := generics[service+":"+operation]
	return op, ok
}

// generic serves one operation of a generic kind. The caller holds the lock.
func (s *Server) generic(req *request, op genericOp) (any, *apiError) {
	var in map[string]any
	if err := decodeJSON(req.body, &in); err != nil {
		return nil, err
	}
	nameField, arnField := op.Kind+"Name", op.Kind+"Arn"
	if op.verb == "List" {
		var items []map[string]any
		for _, k := range slices.Sorted(maps.Keys(s.generics)) {
			if strings.HasPrefix(k, op.Service+"/"+op.Kind+"/"+req.region+"/") {
				r := s.generics[k]
				items = append(items, map[string]any{nameField: r[nameField], arnField: r[arnField]})
			}
		}
		return map[string]any{op.Kind + "s": items}, nil
	}
	name, _ := in[nameField].(string)
	if name == "" {
		return nil, validationError("1 validation error detected: Value null at '%s' failed to satisfy constraint: Member must not be null", lowerFirst(nameField))
	}
	k := op.Service + "/" + op.Kind + "/" + key(req.region, name)
	r, exists := s.generics[k]
	switch {
	case op.verb == "Create" && exists:
		return nil, errorf(400, "ResourceAlreadyExistsException", "%s %s already exists.", op.Kind, name)
	case op.verb == "Create":
		r = maps.Clone(in)
		r[arnField] = s.arn(req.region, op.Service, strings.ToLower(op.Kind)+"/"+name)
		r["CreationTime"] = float64(s.opts.Now().Unix())
		s.generics[k] = r
		s.created(req, Creation{Kind: op.Kind, Name: name, ARN: r[arnField].(string)}) //nolint:forcetypeassert // set above
		return map[string]any{arnField: r[arnField], "CreationTime": r["CreationTime"]}, nil
	case !exists:
		return nil, errorf(400, "ResourceNotFoundException", "%s %s does not exist.", op.Kind, name)
	case op.verb == "Describe":
		return maps.Clone(r), nil
	case op.verb == "Update":
		for f, v := range in {
			r[f] = v
		}
		return map[string]any{arnField: r[arnField]}, nil
	}
	delete(s.generics, k)
	return map[string]any{}, nil
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}
