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

package awsconfig

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/test/emulator"
)

// TestDestination: what another object learns of where a resource's calls
// go, without a build or a call: nowhere through a missing config or
// credentials AWS refused; the config's endpoint and region, account not
// known, before a build or after one that failed for another reason; the
// session once built.
func TestDestination(t *testing.T) {
	e := emulator.New(emulator.Options{})
	// AWS refuses the key AKIDREVOKED; the emulator answers the others.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.Header.Get("Authorization"), "Credential=AKIDREVOKED/") {
			w.Header().Set("Content-Type", "text/xml")
			w.WriteHeader(http.StatusForbidden)
			_, _ = w.Write([]byte(`<ErrorResponse><Error><Type>Sender</Type><Code>InvalidClientTokenId</Code><Message>The security token included in the request is invalid.</Message></Error><RequestId>r</RequestId></ErrorResponse>`))
			return
		}
		e.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	f := newFixture(t, secret("crossplane-system", "aws", "credentials", "[default]\naws_access_key_id=AKIDREVOKED\naws_secret_access_key=x\n"))
	ctx := context.Background()
	spec := v1alpha1.ProviderConfigSpec{Region: aws.String("us-east-1"), Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceSecret,
		SecretRef: &xpv2.SecretKeySelector{SecretReference: xpv2.SecretReference{Name: "aws", Namespace: "crossplane-system"}, Key: "credentials"}}}
	_ = f.kube.Create(ctx, clusterConfig("default", srv.URL, spec))
	mg := managed("ns", v1alpha1.ClusterProviderConfigKind, "default", nil)
	notBuilt := Destination{Calls: true, Endpoint: srv.URL, Region: "us-east-1", ProviderConfig: "ClusterProviderConfig default"}

	if diff := cmp.Diff(Destination{}, f.cache.Destination(ctx, managed("ns", v1alpha1.ClusterProviderConfigKind, "absent", nil), nil)); diff != "" {
		t.Errorf("missing config: -want, +got:\n%s", diff)
	}
	if diff := cmp.Diff(notBuilt, f.cache.Destination(ctx, mg, nil)); diff != "" {
		t.Errorf("before any build: -want, +got:\n%s", diff)
	}
	if _, err := f.cache.Session(ctx, mg, nil); err == nil {
		t.Fatal("a refused key built a session")
	}
	if diff := cmp.Diff(Destination{}, f.cache.Destination(ctx, mg, nil)); diff != "" {
		t.Errorf("after AWS refused the key: -want, +got:\n%s", diff)
	}

	// A new key is a new version: nothing is known of it until it is
	// tried, and a throttled try proves nothing.
	s := &corev1.Secret{}
	_ = f.kube.Get(ctx, client.ObjectKey{Namespace: "crossplane-system", Name: "aws"}, s)
	s.Data["credentials"] = []byte("[default]\naws_access_key_id=AKIDNEW\naws_secret_access_key=x\n")
	_ = f.kube.Update(ctx, s)
	if diff := cmp.Diff(notBuilt, f.cache.Destination(ctx, mg, nil)); diff != "" {
		t.Errorf("a new key, not tried: -want, +got:\n%s", diff)
	}
	e.InjectFault("sts:GetCallerIdentity", emulator.Fault{Throttle: 10})
	if _, err := f.cache.Session(ctx, mg, nil); err == nil {
		t.Fatal("a throttled identity call built a session")
	}
	if diff := cmp.Diff(notBuilt, f.cache.Destination(ctx, mg, nil)); diff != "" {
		t.Errorf("after a throttled build: -want, +got:\n%s", diff)
	}
	e.ClearFaults()
	if _, err := f.cache.Session(ctx, mg, nil); err == nil {
		t.Error("a build failed just now was tried again at once")
	}
	f.cache.failed = map[sessionKey]failure{} // failedFor later
	built, err := f.cache.Session(ctx, mg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := f.cache.Destination(ctx, mg, nil); !d.Calls || d.Session != built {
		t.Errorf("after a build: %+v, want its session", d)
	}

	// A server error heals by itself: the objects keep their place.
	_ = f.kube.Get(ctx, client.ObjectKey{Namespace: "crossplane-system", Name: "aws"}, s)
	s.Data["credentials"] = []byte("[default]\naws_access_key_id=AKIDFAILING\naws_secret_access_key=x\n")
	_ = f.kube.Update(ctx, s)
	e.InjectFault("sts:GetCallerIdentity", emulator.Fault{ServerError: 10})
	if _, err := f.cache.Session(ctx, mg, nil); err == nil {
		t.Fatal("a failing identity call built a session")
	}
	e.ClearFaults()
	// The config's last session acted in the emulator's account: a newer
	// version not built yet is taken to act there too.
	lastKnown := notBuilt
	lastKnown.Account = built.AccountID
	if diff := cmp.Diff(lastKnown, f.cache.Destination(ctx, mg, nil)); diff != "" {
		t.Errorf("after a server error: -want, +got:\n%s", diff)
	}

	// A config that cannot be built, for any reason that does not heal by
	// itself, calls nowhere: its objects hold no names.
	broken := map[string]func(){
		"a key the Secret lacks": func() {
			_ = f.kube.Get(ctx, client.ObjectKey{Namespace: "crossplane-system", Name: "aws"}, s)
			s.Data = map[string][]byte{"other": []byte("x")}
			_ = f.kube.Update(ctx, s)
		},
		"an endpoint that refuses connections": func() {
			_ = f.kube.Get(ctx, client.ObjectKey{Namespace: "crossplane-system", Name: "aws"}, s)
			s.Data = map[string][]byte{"credentials": []byte("[default]\naws_access_key_id=AKIDCLOSED\naws_secret_access_key=x\n")}
			_ = f.kube.Update(ctx, s)
			closed := httptest.NewServer(http.NotFoundHandler())
			closed.Close()
			pc := &v1alpha1.ClusterProviderConfig{}
			_ = f.kube.Get(ctx, client.ObjectKey{Name: "default"}, pc)
			pc.Spec.Endpoint.URL = closed.URL
			pc.Generation++
			_ = f.kube.Update(ctx, pc)
		},
	}
	for _, what := range []string{"a key the Secret lacks", "an endpoint that refuses connections"} {
		broken[what]()
		if d := f.cache.Destination(ctx, mg, nil); !d.Calls {
			t.Errorf("%s, not tried yet: %+v, want its place kept", what, d)
		}
		if _, err := f.cache.Session(ctx, mg, nil); err == nil {
			t.Fatalf("%s built a session", what)
		}
		if diff := cmp.Diff(Destination{}, f.cache.Destination(ctx, mg, nil)); diff != "" {
			t.Errorf("after %s: -want, +got:\n%s", what, diff)
		}
	}
}
