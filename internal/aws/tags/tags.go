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

// Package tags is the one way every kind with tags reconciles them: the
// spec's tags are set on AWS, and the tags the spec no longer has are removed
// when the provider set them itself. Tags that someone else set are never
// touched. The keys the provider set are remembered in an annotation, as
// kubectl remembers what it applied: AWS cannot tell who set a tag.
package tags

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"

	"github.com/cloudkinds/provider-aws-services/internal/aws/awserrors"
)

// AnnotationManagedKeys records, as a JSON list, the tag keys the spec asked
// for when the provider last set tags: the keys it removes from AWS once the
// spec drops them.
const AnnotationManagedKeys = "services.k8s.aws/managed-tag-keys"

// Path is the spec path the tags of every kind are reported under.
const Path = "spec.forProvider.tags"

// ToList turns a tag map into a spec's tag list, sorted by key; nil for
// none.
func ToList(m map[string]string) []common.Tag {
	if len(m) == 0 {
		return nil
	}
	out := make([]common.Tag, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, common.Tag{Key: aws.String(k), Value: aws.String(m[k])})
	}
	return out
}

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

// MaxPerResource is how many tags AWS allows on one resource, in each of
// the three services whose resources are tagged (Firehose, SageMaker,
// AgentCore).
const MaxPerResource = 50

// ownerPrefix begins the keys of the owner tags (ownership.OwnerTags),
// which no spec may use.
const ownerPrefix = "crossplane-"

// A Want is what a resource's tags should be, by where each is asked for.
type Want struct {
	// Defaults are the provider config's spec.defaultTags.
	Defaults map[string]string
	// Init are the object's spec.initProvider.tags: sent at create, then
	// left to whoever changes them.
	Init map[string]string
	// Spec are the object's spec.forProvider.tags.
	Spec map[string]string
	// Shown is true when the object shows the configuration AWS holds in
	// its status (it observes without managing, or adopts): its tags are
	// listed so that they show, whether or not the spec asks for any.
	Shown bool
}

// Desired is the tag set the provider keeps on a resource, the same for
// every kind: the provider config's default tags and the object's own
// forProvider.tags, which win on a key. A default whose key the object's
// initProvider.tags sets is the object's own as well: it was created with
// the object's value and is then left alone.
func (w Want) Desired() map[string]string {
	out := make(map[string]string, len(w.Defaults)+len(w.Spec))
	for k, v := range w.Defaults {
		if _, own := w.Init[k]; !own {
			out[k] = v
		}
	}
	maps.Copy(out, w.Spec)
	return out
}

// AtCreate is the tag set a create sends: the default tags, then
// initProvider's, then forProvider's, each winning over the ones before it
// on a key, and the owner tags. When they are more than AWS allows, it
// returns an error that names them, and the create must not be sent.
func (w Want) AtCreate(owner map[string]string) (map[string]string, error) {
	all := make(map[string]string, len(w.Defaults)+len(w.Init)+len(w.Spec)+len(owner))
	maps.Copy(all, w.Defaults)
	maps.Copy(all, w.Init)
	maps.Copy(all, w.Spec)
	all = WithOwner(all, owner)
	if len(all) <= MaxPerResource {
		return all, nil
	}
	var init, defaults []string
	for k := range w.Init {
		if _, ok := w.Spec[k]; !ok {
			init = append(init, k)
		}
	}
	for k := range w.Defaults {
		_, spec := w.Spec[k]
		if _, own := w.Init[k]; !spec && !own {
			defaults = append(defaults, k)
		}
	}
	parts := []string{fmt.Sprintf("%d of %s", len(w.Spec), Path)}
	if len(init) > 0 {
		parts = append(parts, counted(len(init), "of spec.initProvider.tags", init))
	}
	parts = append(parts, counted(len(defaults), "default tags of the provider config (spec.defaultTags)", defaults),
		fmt.Sprintf("the provider's %d owner tags", len(owner)))
	return nil, errors.Errorf(errTooManyAtCreate, MaxPerResource, len(all), joinParts(parts), len(all)-MaxPerResource)
}

const (
	errTooManyAtCreate = "too many tags: AWS allows %d per resource, and the create would send %d: %s; nothing was created: remove %d of them (from the spec's tags or the provider config's defaultTags)"
	errTooManyToTag    = "too many tags: AWS allows %d per resource, and tagging it as asked would make %d: %s; nothing was tagged: remove %d of them (from the spec's tags, the provider config's defaultTags, or the resource's other tags on AWS)"
)

// counted is "n what (keys)", the keys sorted.
func counted(n int, what string, keys []string) string {
	if len(keys) == 0 {
		return fmt.Sprintf("%d %s", n, what)
	}
	slices.Sort(keys)
	return fmt.Sprintf("%d %s: %s", n, what, strings.Join(keys, ", "))
}

// joinParts joins "a, b and c".
func joinParts(parts []string) string {
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// WithOwner returns the spec's tags and the owner tags a create carries; the
// owner tags win, since they say whose the resource is.
func WithOwner(spec, owner map[string]string) map[string]string {
	out := make(map[string]string, len(spec)+len(owner))
	maps.Copy(out, spec)
	maps.Copy(out, owner)
	return out
}

// Sorted turns tags into an SDK's list, in key order; each SDK has a tag
// type of its own, which newTag makes.
func Sorted[T any](m map[string]string, newTag func(key, value string) T) []T {
	out := make([]T, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, newTag(k, m[k]))
	}
	return out
}

// Map turns an SDK's tag list into a map; keyValue reads one tag.
func Map[T any](list []T, keyValue func(T) (key, value *string)) map[string]string {
	out := make(map[string]string, len(list))
	for _, t := range list {
		k, v := keyValue(t)
		out[aws.ToString(k)] = aws.ToString(v)
	}
	return out
}

// Diff returns the tags to set (new keys and changed values) and the keys to
// remove so that observed holds desired: a key is removed only when the
// provider manages it (managed) and desired no longer has it.
func Diff(desired, observed map[string]string, managed []string) (set map[string]string, remove []string) {
	set = map[string]string{}
	for k, v := range desired {
		if ov, ok := observed[k]; !ok || ov != v {
			set[k] = v
		}
	}
	for _, k := range managed {
		if _, kept := desired[k]; kept {
			continue
		}
		if _, ok := observed[k]; ok {
			remove = append(remove, k)
		}
	}
	slices.Sort(remove)
	return set, slices.Compact(remove)
}

// ManagedKeys returns the tag keys recorded on obj as set by the provider.
func ManagedKeys(obj metav1.Object) []string {
	var keys []string
	if v := obj.GetAnnotations()[AnnotationManagedKeys]; v != "" {
		// A value that does not parse (edited by hand) manages nothing:
		// removing too little is safe, removing too much is not.
		_ = json.Unmarshal([]byte(v), &keys)
	}
	return keys
}

// Record returns the annotation that records desired's keys as managed, or
// nil when obj records them already (or manages none, and never did).
func Record(obj metav1.Object, desired map[string]string) map[string]string {
	keys := slices.Sorted(maps.Keys(desired))
	recorded, ok := obj.GetAnnotations()[AnnotationManagedKeys]
	if len(keys) == 0 && !ok {
		// Nothing managed now or before: nothing to record.
		return nil
	}
	if keys == nil {
		keys = []string{}
	}
	if recorded != "" && slices.Equal(keys, ManagedKeys(obj)) {
		return nil
	}
	b, _ := json.Marshal(keys) // a list of strings always marshals
	return map[string]string{AnnotationManagedKeys: string(b)}
}

// A Service is how one AWS service lists, removes and sets the tags of one
// resource: the three calls of its tagging API, whose errors Observe and
// Apply word the same way for every kind.
type Service struct {
	// Of names the resource in errors: "delivery stream".
	Of     string
	List   func(ctx context.Context) (map[string]string, error)
	Remove func(ctx context.Context, keys []string) error
	Set    func(ctx context.Context, tags map[string]string) error
}

// Err is the error of an AWS call whose output a Service does not need: the
// calls that remove and set tags answer nothing else.
func Err[O any](_ O, err error) error { return err }

// A Plan is what makes a resource's tags on AWS match the spec.
type Plan struct {
	// observed are the tags listed; nil when none were.
	observed map[string]string
	set      map[string]string
	remove   []string
	// tooMany is why the plan cannot be applied: AWS would refuse it.
	tooMany error
}

// Observe lists the resource's tags when Listed says so (there is anything
// to compare: the desired tags of w, or tags the provider set before) and
// plans the change; otherwise it makes no call and plans none. A plan that
// would leave the resource with more tags than AWS allows is not applied:
// Apply returns why. obj is the object as the Observe read it: call Observe
// before setting the Ready condition, which tells whether the tags the
// create sent still stand.
func Observe(ctx context.Context, obj Tagged, w Want, s Service) (Plan, error) {
	desired := w.Desired()
	if !Listed(obj, w) {
		return Plan{}, nil
	}
	managed := ManagedKeys(obj)
	observed, err := s.List(ctx)
	if err != nil {
		return Plan{}, awserrors.Wrap(err, "cannot list the tags of "+s.Of)
	}
	set, remove := Diff(desired, observed, managed)
	return Plan{observed: observed, set: set, remove: remove, tooMany: w.tooMany(observed, set, remove)}, nil
}

// Listed are the tags listed, all of them; nil when none were.
func (p Plan) Listed() map[string]string { return p.observed }

// Shown are the tags listed that a spec can hold: all but the provider's
// owner tags. Nil when none were listed.
func (p Plan) Shown() map[string]string {
	if p.observed == nil {
		return nil
	}
	out := make(map[string]string, len(p.observed))
	for k, v := range p.observed {
		if !strings.HasPrefix(k, ownerPrefix) {
			out[k] = v
		}
	}
	return out
}

// tooMany says which tags make too many when the plan (set, remove) is
// applied to observed, or nil when they fit.
func (w Want) tooMany(observed, set map[string]string, remove []string) error {
	after := maps.Clone(observed)
	for _, k := range remove {
		delete(after, k)
	}
	maps.Copy(after, set)
	if len(set) == 0 || len(after) <= MaxPerResource {
		return nil
	}
	var spec, defaults, owner int
	var defaultKeys, others []string
	desired := w.Desired()
	for k := range after {
		_, inSpec := w.Spec[k]
		_, inDesired := desired[k]
		switch {
		case inSpec:
			spec++
		case inDesired:
			defaults++
			defaultKeys = append(defaultKeys, k)
		case strings.HasPrefix(k, ownerPrefix):
			owner++
		default:
			others = append(others, k)
		}
	}
	parts := []string{fmt.Sprintf("%d of %s", spec, Path), counted(defaults, "default tags of the provider config (spec.defaultTags)", defaultKeys),
		fmt.Sprintf("the provider's %d owner tags", owner)}
	if len(others) > 0 {
		parts = append(parts, counted(len(others), "other tags on AWS, which the provider leaves alone", others))
	}
	return errors.Errorf(errTooManyToTag, MaxPerResource, len(after), joinParts(parts), len(after)-MaxPerResource)
}

// A Tagged is a managed object as the tags package reads it: its
// annotations, generation and conditions.
type Tagged interface {
	metav1.Object
	GetCondition(ct xpv2.ConditionType) xpv2.Condition
}

// Listed reports whether an Observe of obj lists its tags: only when the spec
// asks for some, the provider set some before, or obj shows them (w.Shown),
// and neither while obj is
// being deleted (nothing will be changed) nor while the tags its create sent
// still stand (AsCreated). obj is the object as the Observe read it: its
// Ready condition must not have been changed by that Observe yet.
func Listed(obj Tagged, w Want) bool {
	if meta.WasDeleted(obj) || AsCreated(obj) {
		return false
	}
	return w.Shown || len(w.Desired()) > 0 || len(ManagedKeys(obj)) > 0
}

// AsCreated reports whether the tags on AWS are those obj's create sent: the last create of obj succeeded (crossplane-runtime's
// create-succeeded annotation, with no failed or unfinished create after
// it), no Observe has seen the resource Ready since (crossplane-runtime sets
// Ready to Creating after every create, and only an Observe that finds the
// resource usable changes it), and the spec is the one the create sent (that
// Ready condition speaks of the current generation: crossplane-runtime marks
// it with the generation it created, and an Observe that finds the resource
// still creating leaves it as it is). Such a create sent exactly the desired
// tags (default, initProvider and forProvider tags, and the owner tags), so
// a list would find nothing to change. Once Ready, the tags are listed again
// at every poll, so that a change made on AWS, or the rare tags of a create
// whose answer was lost and which an earlier create of obj had made, are
// still found, a poll later.
func AsCreated(obj Tagged) bool {
	succeeded := meta.GetExternalCreateSucceeded(obj)
	if succeeded.IsZero() || meta.GetExternalCreateFailed(obj).After(succeeded) || meta.ExternalCreateIncomplete(obj) {
		return false
	}
	ready := obj.GetCondition(xpv2.TypeReady)
	return ready.Reason == xpv2.ReasonCreating && ready.ObservedGeneration == obj.GetGeneration()
}

// UpToDate reports whether the tags on AWS match the spec.
func (p Plan) UpToDate() bool { return len(p.set) == 0 && len(p.remove) == 0 }

// Apply removes the keys to drop, then sets new and changed tags; each call
// is made only when it has something to do.
func (p Plan) Apply(ctx context.Context, s Service) error {
	if p.tooMany != nil {
		// AWS would refuse the tags: no call is made.
		return p.tooMany
	}
	if len(p.remove) > 0 {
		if err := s.Remove(ctx, p.remove); err != nil {
			return awserrors.Wrap(err, "cannot untag "+s.Of)
		}
	}
	if len(p.set) > 0 {
		return awserrors.Wrap(s.Set(ctx, p.set), "cannot tag "+s.Of)
	}
	return nil
}
