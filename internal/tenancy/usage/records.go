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

package usage

import (
	"context"
	"sync"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/apis"
	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/awsconfig"
)

// A Verdict is what a ProviderConfigUsage is to the provider.
type Verdict int

const (
	// NotARecord is a usage the provider did not write, or one that no
	// longer says what its managed resource uses: it counts for nothing.
	NotARecord Verdict = iota
	// ResourceGone is a usage shaped as the provider writes them (named by
	// the UID of its controller, a managed resource of the provider's own
	// kinds) whose managed resource no longer exists: it counts for
	// nothing, and a sweep releases it.
	ResourceGone
	// Genuine is the provider's own record of a managed resource's use of
	// a config: it counts.
	Genuine
)

// A user is what the rule reads of a managed resource.
type user interface {
	metav1.Object
	GetProviderConfigReference() *xpv2.ProviderConfigReference
}

// ConfigOf is the config a usage's labels name, as crossplane-runtime's
// config reconciler selects them: its kind and name.
func ConfigOf(u *v1alpha1.ProviderConfigUsage) (kind, name string) {
	return u.GetLabels()[xpv2.LabelKeyProviderKind], u.GetLabels()[xpv2.LabelKeyProviderName]
}

// Shaped reports whether u is shaped as crossplane-runtime's tracker
// (NewTracker) writes a usage: labelled for a config of one of the two
// kinds, controlled by the object its resourceRef names, and named by that
// object's UID.
func Shaped(u *v1alpha1.ProviderConfigUsage) bool {
	kind, name := ConfigOf(u)
	if (kind != v1alpha1.ProviderConfigKind && kind != v1alpha1.ClusterProviderConfigKind) || name == "" {
		return false
	}
	c := metav1.GetControllerOf(u)
	r := u.ResourceReference
	return c != nil && u.Name != "" && string(c.UID) == u.Name &&
		c.APIVersion == r.APIVersion && c.Kind == r.Kind && c.Name == r.Name && r.Name != ""
}

// Counts is the rule of what counts as a use of a config: a usage Shaped
// as the provider's tracker writes it, whose managed resource mg (the
// object its resourceRef names in its namespace, of one of the provider's
// own kinds; nil if none exists) has the UID the usage is named by and
// names, in spec.providerConfigRef, the config the usage is labelled for.
// Whether a ClusterProviderConfig admits the namespace is checked apart
// (Pass.Check), since it needs the config.
func Counts(u *v1alpha1.ProviderConfigUsage, mg user) bool {
	if !Shaped(u) || mg == nil {
		return false
	}
	if mg.GetNamespace() != u.Namespace || mg.GetName() != u.ResourceReference.Name || string(mg.GetUID()) != u.Name {
		return false
	}
	kind, name := ConfigOf(u)
	ref := mg.GetProviderConfigReference()
	return ref != nil && ref.Kind == kind && ref.Name == name
}

// OtherKind is the kind label of metrics for a kind that is none of the
// provider's own.
const OtherKind = "other"

// KindLabel is the metric label of the kind a usage's resourceRef names:
// one of the provider's kinds, or OtherKind, so that what a tenant writes
// in a usage adds no series.
func KindLabel(r xpv2.TypedReference) string {
	gv, err := schema.ParseGroupVersion(r.APIVersion)
	if err != nil {
		return OtherKind
	}
	if _, ok := ownKinds[gv.WithKind(r.Kind)]; !ok {
		return OtherKind
	}
	return r.Kind
}

// ownKinds are the provider's managed resource kinds, with a constructor
// of an empty object of each.
var ownKinds = func() map[schema.GroupVersionKind]func() resource.ModernManaged {
	s := runtime.NewScheme()
	if err := apis.AddToScheme(s); err != nil {
		panic(err)
	}
	out := map[schema.GroupVersionKind]func() resource.ModernManaged{}
	for gvk := range s.AllKnownTypes() {
		o, err := s.New(gvk)
		if err != nil {
			continue
		}
		if _, ok := o.(resource.ModernManaged); !ok {
			continue
		}
		out[gvk] = func() resource.ModernManaged {
			n, _ := s.New(gvk)
			return n.(resource.ModernManaged) //nolint:forcetypeassert // checked above
		}
	}
	return out
}()

// Records tells the provider's own records of use from the rest, reading
// the managed resources from the cache, and from the API server only those
// the cache does not hold (another replica's shards, or not seen yet).
type Records struct {
	// cached reads managed resources, configs and namespaces' labels from
	// the manager's cache; live reads the API server.
	cached, live client.Reader

	mu sync.Mutex
	// read are the managed resources read from the API server, by UID,
	// kept while a listing of their kind still shows them at the same
	// resourceVersion, so that a replica reads again only those that
	// changed.
	read map[types.UID]readUser
}

type readUser struct {
	gvk schema.GroupVersionKind
	rv  string
	u   *slimUser
}

// slimUser is what the rule needs of a managed resource read from the API
// server.
type slimUser struct {
	metav1.ObjectMeta
	ref *xpv2.ProviderConfigReference
}

func (s *slimUser) GetProviderConfigReference() *xpv2.ProviderConfigReference { return s.ref }

// NewRecords returns Records reading cached, then live.
func NewRecords(cached, live client.Reader) *Records {
	return &Records{cached: cached, live: live, read: map[types.UID]readUser{}}
}

// Pass returns a pass over usages: it reads each kind's listing, config
// and namespace at most once. Make one for each listing of usages.
func (r *Records) Pass() *Pass {
	return &Pass{r: r, listed: map[listing]map[types.NamespacedName]metav1.ObjectMeta{}, admits: map[[2]string]bool{}}
}

// A Pass checks usages against one reading of the managed resources.
type Pass struct {
	r      *Records
	listed map[listing]map[types.NamespacedName]metav1.ObjectMeta
	// admits caches whether a ClusterProviderConfig admits a namespace.
	admits map[[2]string]bool
	// unreadable is the error of a namespace's labels that could not be
	// read: the pass reads no other, since each would wait as long.
	unreadable error
}

// Check returns what u is: Genuine (it counts), ResourceGone or
// NotARecord. An error is the cache's or the API server's; a caller that
// cannot tell should count the usage, which keeps a config rather than
// let it go while in use.
func (p *Pass) Check(ctx context.Context, u *v1alpha1.ProviderConfigUsage) (Verdict, error) {
	if !Shaped(u) {
		return NotARecord, nil
	}
	gv, err := schema.ParseGroupVersion(u.ResourceReference.APIVersion)
	if err != nil {
		return NotARecord, nil //nolint:nilerr // a reference that names no kind names nothing of the provider's
	}
	gvk := gv.WithKind(u.ResourceReference.Kind)
	if _, ok := ownKinds[gvk]; !ok {
		return NotARecord, nil
	}
	mg, err := p.managed(ctx, gvk, types.NamespacedName{Namespace: u.Namespace, Name: u.ResourceReference.Name}, types.UID(u.Name))
	if err != nil {
		return NotARecord, err
	}
	if mg == nil {
		return ResourceGone, nil
	}
	if !Counts(u, mg) {
		return NotARecord, nil
	}
	kind, name := ConfigOf(u)
	if kind == v1alpha1.ClusterProviderConfigKind {
		// A config that cannot tell whether it admits the namespace (its
		// labels unreadable) keeps the usage: better a config kept than one
		// let go while in use.
		if ok, err := p.admitted(ctx, name, u.Namespace); err == nil && !ok {
			return NotARecord, nil
		}
	}
	return Genuine, nil
}

// Filter keeps the usages that are Genuine; on an error it keeps them all.
func (p *Pass) Filter(ctx context.Context, l []v1alpha1.ProviderConfigUsage) ([]v1alpha1.ProviderConfigUsage, error) {
	out := make([]v1alpha1.ProviderConfigUsage, 0, len(l))
	for i := range l {
		v, err := p.Check(ctx, &l[i])
		if err != nil {
			return l, err
		}
		if v == Genuine {
			out = append(out, l[i])
		}
	}
	return out, nil
}

// managed returns the managed resource of gvk at key if it exists with
// uid, or nil: from the cache, and for what the cache does not hold from
// one listing of the kind's metadata per pass and a read of those objects
// that the listing shows with uid (at most one per usage the provider
// wrote, since a usage's name is its resource's UID) and that changed
// since they were last read.
func (p *Pass) managed(ctx context.Context, gvk schema.GroupVersionKind, key types.NamespacedName, uid types.UID) (user, error) {
	obj := ownKinds[gvk]()
	err := p.r.cached.Get(ctx, key, obj)
	switch {
	case err == nil && obj.GetUID() == uid:
		return obj, nil
	case meta.IsNoMatchError(err):
		return nil, nil // the kind is not active: none exists
	case err != nil && !kerrors.IsNotFound(err):
		return nil, err
	}
	listed, err := p.list(ctx, listing{gvk: gvk, namespace: key.Namespace})
	if meta.IsNoMatchError(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	m, ok := listed[key]
	if !ok || m.UID != uid {
		return nil, nil
	}
	p.r.mu.Lock()
	was, ok := p.r.read[uid]
	p.r.mu.Unlock()
	if ok && was.rv == m.ResourceVersion {
		return was.u, nil
	}
	obj = ownKinds[gvk]()
	if err := p.r.live.Get(ctx, key, obj); err != nil {
		return nil, client.IgnoreNotFound(err)
	}
	if obj.GetUID() != uid {
		return nil, nil
	}
	s := &slimUser{ObjectMeta: metav1.ObjectMeta{Namespace: obj.GetNamespace(), Name: obj.GetName(), UID: obj.GetUID()}, ref: obj.GetProviderConfigReference()}
	p.r.mu.Lock()
	p.r.read[uid] = readUser{gvk: gvk, rv: obj.GetResourceVersion(), u: s}
	p.r.mu.Unlock()
	return s, nil
}

// namespaceTimeout bounds the read of a namespace's labels, as
// awsconfig's: the first read waits for the cache of namespaces to fill,
// which never happens if the provider may not list namespaces.
const namespaceTimeout = 10 * time.Second

// listPage is how many objects' metadata one request of a listing reads.
const listPage = 500

// A listing is the objects of one kind in one namespace.
type listing struct {
	gvk       schema.GroupVersionKind
	namespace string
}

// list lists the metadata of the objects of a kind in a namespace at the API
// server, once per pass, and forgets the objects read before that it no
// longer shows. A usage names an object of its own namespace: what a
// namespace's usages cost is a listing of that namespace, whatever else the
// cluster holds.
func (p *Pass) list(ctx context.Context, in listing) (map[types.NamespacedName]metav1.ObjectMeta, error) {
	if l, ok := p.listed[in]; ok {
		return l, nil
	}
	gvk := in.gvk
	out := map[types.NamespacedName]metav1.ObjectMeta{}
	l := &metav1.PartialObjectMetadataList{}
	l.SetGroupVersionKind(gvk.GroupVersion().WithKind(gvk.Kind + "List"))
	for {
		if err := p.r.live.List(ctx, l, client.InNamespace(in.namespace), client.Limit(listPage), client.Continue(l.GetContinue())); err != nil {
			return nil, err
		}
		for i := range l.Items {
			m := l.Items[i].ObjectMeta
			out[types.NamespacedName{Namespace: m.Namespace, Name: m.Name}] = metav1.ObjectMeta{UID: m.UID, ResourceVersion: m.ResourceVersion}
		}
		if l.GetContinue() == "" {
			break
		}
	}
	p.listed[in] = out
	uids := make(map[types.UID]bool, len(out))
	for _, m := range out {
		uids[m.UID] = true
	}
	p.r.mu.Lock()
	for uid, was := range p.r.read {
		if was.gvk == gvk && was.u.Namespace == in.namespace && !uids[uid] {
			delete(p.r.read, uid)
		}
	}
	p.r.mu.Unlock()
	return out, nil
}

// admitted reports whether ClusterProviderConfig name admits namespace ns
// (awsconfig.Admits), reading the config and the namespace's labels from
// the cache. A config that is gone admits nothing.
func (p *Pass) admitted(ctx context.Context, name, ns string) (bool, error) {
	k := [2]string{name, ns}
	if ok, seen := p.admits[k]; seen {
		return ok, nil
	}
	pc := &v1alpha1.ClusterProviderConfig{}
	if err := p.r.cached.Get(ctx, types.NamespacedName{Name: name}, pc); err != nil {
		if kerrors.IsNotFound(err) {
			p.admits[k] = false
			return false, nil
		}
		return false, err
	}
	ok, err := awsconfig.Admits(pc.Spec.Namespaces, ns, func() (map[string]string, error) {
		if p.unreadable != nil {
			return nil, p.unreadable
		}
		m := &metav1.PartialObjectMetadata{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Namespace"}}
		rctx, cancel := context.WithTimeout(ctx, namespaceTimeout)
		defer cancel()
		if err := p.r.cached.Get(rctx, types.NamespacedName{Name: ns}, m); err != nil {
			if !kerrors.IsNotFound(err) {
				p.unreadable = err
			}
			return nil, err
		}
		return m.Labels, nil
	})
	if err != nil {
		return false, err
	}
	p.admits[k] = ok
	return ok, nil
}

// CountedOnly returns c, except that its lists of ProviderConfigUsages hold
// only the Genuine ones: what crossplane-runtime's config reconciler counts
// as users, and what blocks a config's deletion. A list that cannot be
// checked fails, and is tried again: the config stays meanwhile.
func CountedOnly(c client.Client, r *Records) client.Client {
	return countedOnly{Client: c, r: r}
}

type countedOnly struct {
	client.Client
	r *Records
}

func (c countedOnly) List(ctx context.Context, l client.ObjectList, o ...client.ListOption) error {
	if err := c.Client.List(ctx, l, o...); err != nil {
		return err
	}
	ul, ok := l.(*v1alpha1.ProviderConfigUsageList)
	if !ok {
		return nil
	}
	items, err := c.r.Pass().Filter(ctx, ul.Items)
	if err != nil {
		return err
	}
	ul.Items = items
	return nil
}
