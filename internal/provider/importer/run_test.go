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

package importer

import (
	"bytes"
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/google/go-cmp/cmp"
	coordinationv1 "k8s.io/api/coordination/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/cloudkinds/provider-aws-services/apis"
	"github.com/cloudkinds/provider-aws-services/test/emulator"
	"github.com/cloudkinds/provider-aws-services/test/emulator/seed"
)

const key = "AKIDIMPORT"

// seeded serves an emulator with one resource of each kind in us-east-1 and
// returns the configuration that reaches it.
func seeded(t *testing.T) (*emulator.Server, aws.Config) {
	t.Helper()
	e := emulator.New(emulator.Options{})
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	cfg := aws.Config{Region: "us-east-1", BaseEndpoint: aws.String(srv.URL), Credentials: credentials.NewStaticCredentialsProvider(key, "s", ""), RetryMaxAttempts: 1}
	ctx := context.Background()
	for _, err := range []error{
		second(seed.APIKeyCredentialProvider(ctx, cfg, "key", nil)),
		second(seed.EndpointConfig(ctx, cfg, "config", nil)),
		second(seed.Subscription(ctx, cfg, "orders", 1)),
		second(seed.DeliveryStream(ctx, cfg, "stream", false, nil)),
		second(seed.Endpoint(ctx, cfg, "endpoint")),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return e, cfg
}

func second[T any](_ T, err error) error { return err }

func kube(t *testing.T, funcs interceptor.Funcs) client.Reader {
	t.Helper()
	scheme := runtime.NewScheme()
	_ = clientgoscheme.AddToScheme(scheme)
	_ = apis.AddToScheme(scheme)
	return interceptor.NewClient(fake.NewClientBuilder().WithScheme(scheme).Build(), funcs)
}

func TestRun(t *testing.T) {
	forbidLeases := interceptor.Funcs{List: func(ctx context.Context, c client.WithWatch, l client.ObjectList, o ...client.ListOption) error {
		if _, ok := l.(*coordinationv1.LeaseList); ok {
			return kerrors.NewForbidden(coordinationv1.Resource("leases"), "", nil)
		}
		return c.List(ctx, l, o...)
	}}
	cases := map[string]struct {
		kube    interceptor.Funcs
		deny    string
		printed map[string]int
		err     string
	}{
		"EveryKindIsPrinted": {
			printed: map[string]int{"APIKeyCredentialProvider": 1, "EndpointConfig": 1, "Subscription": 1, "DeliveryStream": 1, "Endpoint": 1},
		},
		"ClaimsThatCannotBeReadPrintNothing": {
			kube: forbidLeases,
			err:  "cannot read the provider's ownership claims (Leases of namespace crossplane-system)",
		},
		"AKindThatCannotBeListedIsNamedAndTheOthersPrinted": {
			deny:    "firehose:ListDeliveryStreams",
			printed: map[string]int{"APIKeyCredentialProvider": 1, "EndpointConfig": 1, "Subscription": 1, "Endpoint": 1},
			err:     "cannot list every kind; nothing of these is written: DeliveryStream:",
		},
		"TagsThatCannotBeReadLeaveTheResourceOut": {
			deny:    "sagemaker:ListTags",
			printed: map[string]int{"APIKeyCredentialProvider": 1, "Subscription": 1, "DeliveryStream": 1, "Endpoint": 1},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e, cfg := seeded(t)
			if tc.deny != "" {
				e.Deny(key, tc.deny)
			}
			var out, notes bytes.Buffer
			res, err := Run(context.Background(), Config{
				AWS: cfg, Workers: 2, Kube: kube(t, tc.kube), ClaimsNamespace: "crossplane-system",
				Manifests: Options{Namespace: "ns", ProviderConfigKind: "ClusterProviderConfig", ProviderConfigName: "default", Region: "us-east-1"},
				Out:       &out, Err: &notes,
			})
			if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
				t.Fatalf("Run(): error %v, want one containing %q", err, tc.err)
			}
			printed := map[string]int{}
			if res != nil {
				printed = res.Printed
			}
			if len(tc.printed) == 0 {
				tc.printed = map[string]int{}
			}
			if diff := cmp.Diff(tc.printed, printed); diff != "" {
				t.Errorf("printed (-want +got):\n%s", diff)
			}
			if got, want := strings.Count(out.String(), "---\n"), len(tc.printed); got != want {
				t.Errorf("%d manifests written, want %d:\n%s", got, want, out.String())
			}
			if tc.deny == "sagemaker:ListTags" && !strings.Contains(notes.String(), "left out: EndpointConfig config: cannot read its tags") {
				t.Errorf("stderr does not say why the endpoint configuration was left out:\n%s", notes.String())
			}
		})
	}
}
