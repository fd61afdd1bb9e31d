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

// Package conformance takes a kind's external client through one
// resource's life against the AWS emulator, over HTTP with the real SDK
// client, and checks what every kind must do whatever its fields: an
// Observe of nothing finds nothing; a create makes the resource; Observe
// then finds it, up to date with the spec that made it, Ready (or on its
// way), publishing exactly the kind's declared connection details and
// calling only the operations it declares; Delete removes it, and a
// second Delete of what is gone is no error. Every kind runs it from its
// own test (make kind writes that test for a new kind).
package conformance

import (
	"context"
	"maps"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/cloudkinds/provider-aws-services/apis"
	"github.com/cloudkinds/provider-aws-services/internal/aws/quota"
	"github.com/cloudkinds/provider-aws-services/internal/kube/secretkey"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/awsconfig"
	"github.com/cloudkinds/provider-aws-services/test/emulator"
)

// Account and Region are where the suite's resources are made.
const (
	Account = "000000000000"
	Region  = "us-east-1"
)

// A Case is one kind's part of the suite.
type Case[MR reconciler.Object[MR]] struct {
	// Definition is the kind's definition, as its Kind is defined from.
	Definition reconciler.Definition[MR]
	// Object returns an object of the kind, named name on AWS, in
	// namespace "conformance", with a spec AWS accepts.
	Object func(name string) MR
	// Secrets are the Secrets the object reads, in its namespace.
	Secrets []*corev1.Secret
	// Prepare makes what the object refers to on AWS (a topic, a model),
	// with cfg, which calls the emulator.
	Prepare func(ctx context.Context, cfg aws.Config) error
}

// Run runs the suite for one kind.
func Run[MR reconciler.Object[MR]](t *testing.T, c Case[MR]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	l := newLife(ctx, t, c)
	mg := c.Object("conformance-" + strings.ToLower(c.Definition.GroupVersionKind.Kind))
	if c.Definition.NameField != "" {
		// As the path's initializer sets it.
		meta.SetExternalName(mg, c.Definition.Name(mg))
	}
	l.create(ctx, t, mg)
	l.settle(ctx, t, mg)
	l.delete(ctx, t, mg)
}

// A life is one resource's, against an emulator of its own.
type life[MR reconciler.Object[MR]] struct {
	d       reconciler.Definition[MR]
	em      *emulator.Server
	session *awsconfig.Session
	ext     managed.TypedExternalClient[MR]
}

func newLife[MR reconciler.Object[MR]](ctx context.Context, t *testing.T, c Case[MR]) *life[MR] {
	t.Helper()
	em := emulator.New(emulator.Options{Account: Account, Region: Region})
	hs := httptest.NewServer(em)
	t.Cleanup(hs.Close)
	cfg := aws.Config{
		Region:       Region,
		BaseEndpoint: aws.String(hs.URL),
		Credentials:  credentials.NewStaticCredentialsProvider("AKIDCONFORMANCE", "conformance", ""),
	}
	if c.Prepare != nil {
		if err := c.Prepare(ctx, cfg); err != nil {
			t.Fatalf("prepare: %v", err)
		}
	}
	kube := fakeKube(t, c.Secrets)
	session := &awsconfig.Session{Config: cfg, AccountID: Account, Partition: "aws", Region: Region, Endpoint: hs.URL, ProviderConfig: "ClusterProviderConfig conformance"}
	ext := c.Definition.External(reconciler.Connection{
		Kube: kube, Session: session, Secrets: secretkey.NewReader(kube, secretkey.NewKey([]byte("conformance"))),
		OwnerTags:  func(resource.Managed) map[string]string { return map[string]string{"crossplane-kind": "conformance"} },
		Left:       func(resource.Managed, string) {},
		HoldsClaim: func(context.Context, resource.Managed) bool { return true },
	})
	return &life[MR]{d: c.Definition, em: em, session: session, ext: ext}
}

// create: an Observe of nothing finds nothing, and Create makes one
// resource.
func (l *life[MR]) create(ctx context.Context, t *testing.T, mg MR) {
	t.Helper()
	if o, err := l.observe(ctx, t, mg); err != nil || o.ResourceExists {
		t.Fatalf("Observe before the create: exists %v, error %v; want nothing and no error", o.ResourceExists, err)
	}
	if _, err := l.ext.Create(ctx, mg); err != nil {
		t.Fatalf("Create: %v", err)
	}
	if n := len(l.em.Creations()); n != 1 {
		t.Errorf("Create made %d resources on AWS, want 1", n)
	}
}

// settle: within a few Observes (an asynchronous create is done at once in
// the emulator) the resource is found, up to date and Ready, named, with
// exactly the declared connection details, and each Observe calls only
// what the kind declares.
func (l *life[MR]) settle(ctx context.Context, t *testing.T, mg MR) {
	t.Helper()
	var exists, upToDate, ready bool
	var details map[string][]byte
	for range 5 {
		o, err := l.observe(ctx, t, mg)
		if err != nil {
			t.Fatalf("Observe after the create: %v", err)
		}
		exists, upToDate, details = o.ResourceExists, o.ResourceUpToDate, o.ConnectionDetails
		ready = mg.GetCondition(xpv2.TypeReady).Reason == xpv2.ReasonAvailable
		if exists && ready {
			break
		}
	}
	if !exists || !upToDate || !ready {
		t.Errorf("Observe after the create: exists %v, up to date %v, Ready %v; want all", exists, upToDate, ready)
	}
	if meta.GetExternalName(mg) == "" {
		t.Errorf("no external name after the create and Observe")
	}
	got, want := slices.Sorted(maps.Keys(details)), slices.Sorted(slices.Values(l.d.ConnectionKeys.Names()))
	if !slices.Equal(got, want) {
		t.Errorf("connection details %v, want exactly the declared %v", got, want)
	}
	for k, v := range details {
		if len(v) == 0 {
			t.Errorf("connection detail %s is empty", k)
		}
	}
}

// delete: Delete removes the resource, and a second Delete of what is
// gone is no error.
func (l *life[MR]) delete(ctx context.Context, t *testing.T, mg MR) {
	t.Helper()
	if _, err := l.ext.Delete(ctx, mg); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	gone := false
	for range 5 {
		o, err := l.observe(ctx, t, mg)
		if err != nil {
			t.Fatalf("Observe after the delete: %v", err)
		}
		if gone = !o.ResourceExists; gone {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if !gone {
		t.Errorf("the resource still exists after Delete")
	}
	if _, err := l.ext.Delete(ctx, mg); err != nil {
		t.Errorf("a second Delete of what is gone: %v, want no error", err)
	}
}

// observe observes mg, and fails on a call the Observe made that the kind
// does not declare (reconciler.Definition.ObserveCalls) for mg as it was
// before, as the path decides them.
func (l *life[MR]) observe(ctx context.Context, t *testing.T, mg MR) (managed.ExternalObservation, error) {
	t.Helper()
	if l.d.ObserveCalls == nil {
		t.Fatal("the kind declares no ObserveCalls")
	}
	declared := map[string]bool{}
	for _, op := range l.d.ObserveCalls(mg, l.session) {
		declared[quota.SigningName(op.Service)+":"+op.Name] = true
	}
	before := l.em.Calls()
	o, err := l.ext.Observe(ctx, mg)
	for call, n := range l.em.Calls() {
		if n > before[call] && !declared[call] {
			t.Errorf("Observe called %s, which the kind does not declare", call)
		}
	}
	return o, err
}

func fakeKube(t *testing.T, secrets []*corev1.Secret) client.Client {
	t.Helper()
	scheme := runtime.NewScheme()
	if err := apis.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	if err := corev1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	b := fake.NewClientBuilder().WithScheme(scheme)
	for _, s := range secrets {
		b = b.WithObjects(s)
	}
	return b.Build()
}
