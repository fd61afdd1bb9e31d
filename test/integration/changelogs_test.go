//go:build integration

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
package integration

import (
	"context"
	"encoding/base64"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	changelogsv1alpha1 "github.com/crossplane/crossplane-runtime/v2/apis/changelogs/proto/v1alpha1"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	agentcore "github.com/cloudkinds/provider-aws-services/apis/agentcorecontrol/v1alpha1"
	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	eventbus "github.com/cloudkinds/provider-aws-services/apis/eventbus/v1alpha1"
	mlplatform "github.com/cloudkinds/provider-aws-services/apis/mlplatform/v1alpha1"
	notification "github.com/cloudkinds/provider-aws-services/apis/notification/v1alpha1"
	streaming "github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
)

// A changeLogSidecar stands in for crossplane/changelogs-sidecar: a gRPC
// server of crossplane-runtime's ChangeLogService on a Unix socket, which
// keeps the entries it is sent instead of printing them.
type changeLogSidecar struct {
	changelogsv1alpha1.UnimplementedChangeLogServiceServer

	socket string
	server *grpc.Server

	mu      sync.Mutex
	entries []*changelogsv1alpha1.ChangeLogEntry
}

func startChangeLogSidecar() (*changeLogSidecar, error) {
	dir, err := os.MkdirTemp("", "changelogs-")
	if err != nil {
		return nil, err
	}
	s := &changeLogSidecar{socket: filepath.Join(dir, "changelogs.sock"), server: grpc.NewServer()}
	lis, err := (&net.ListenConfig{}).Listen(context.Background(), "unix", s.socket)
	if err != nil {
		return nil, err
	}
	changelogsv1alpha1.RegisterChangeLogServiceServer(s.server, s)
	go func() { _ = s.server.Serve(lis) }()
	return s, nil
}

func (s *changeLogSidecar) stop() {
	s.server.Stop()
	_ = os.RemoveAll(filepath.Dir(s.socket))
}

// SendChangeLog keeps an entry, refusing an empty request as the real
// sidecar does.
func (s *changeLogSidecar) SendChangeLog(_ context.Context, req *changelogsv1alpha1.SendChangeLogRequest) (*changelogsv1alpha1.SendChangeLogResponse, error) {
	if req.GetEntry() == nil {
		return nil, status.Error(codes.Internal, "request and change logs entry must not be nil")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.entries = append(s.entries, proto.CloneOf(req.GetEntry()))
	return &changelogsv1alpha1.SendChangeLogResponse{}, nil
}

// of returns the entries about one object, in the order they came. An entry
// names the kind and the object; the namespace is in its snapshot.
func (s *changeLogSidecar) of(mg resource.Managed, kind string) []*changelogsv1alpha1.ChangeLogEntry {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*changelogsv1alpha1.ChangeLogEntry
	for _, e := range s.entries {
		if e.GetKind() == kind && e.GetName() == mg.GetName() && snapshotNamespace(e) == mg.GetNamespace() {
			out = append(out, e)
		}
	}
	return out
}

// forget drops the entries of namespace: the sidecar's memory is the test's,
// not the provider's, which a test that weighs the provider's heap leaves
// out.
func (s *changeLogSidecar) forget(namespace string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.entries = slices.DeleteFunc(s.entries, func(e *changelogsv1alpha1.ChangeLogEntry) bool { return snapshotNamespace(e) == namespace })
}

func snapshotNamespace(e *changelogsv1alpha1.ChangeLogEntry) string {
	return e.GetSnapshot().GetFields()["metadata"].GetStructValue().GetFields()["namespace"].GetStringValue()
}

func operations(entries []*changelogsv1alpha1.ChangeLogEntry) []string {
	out := make([]string, 0, len(entries))
	for _, e := range entries {
		out = append(out, strings.TrimPrefix(e.GetOperation().String(), "OPERATION_TYPE_"))
	}
	return out
}

// A changeLogKind is one kind's object and a change of it that reaches AWS.
type changeLogKind struct {
	kind       string
	apiVersion string
	// object returns the kind's object in namespace ns, after creating what
	// it needs (its Secret, a topic, a model), and the values of the
	// Secrets it reads.
	object func(t *testing.T, s *stack, ns string) (resource.Managed, []string)
	// update changes what the object asks of AWS and returns any secret
	// value the change brings.
	update func(t *testing.T, mg resource.Managed) []string
	// secretRef is the name of the Secret the object names, if any: the
	// snapshot carries the reference, never the value.
	secretRef string
}

// rotate sets a new value of a Secret's key.
func rotate(t *testing.T, ns, name, key, value string) {
	t.Helper()
	change(t, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}, func(sec *corev1.Secret) {
		sec.Data[key] = []byte(value)
	})
}

func changeLogKinds() map[string]changeLogKind {
	return map[string]changeLogKind{
		// The API key's Secret is rotated in place: the update the
		// entry records is the new key sent to AWS.
		"APIKeyCredentialProvider": {
			kind: agentcore.APIKeyCredentialProviderKind, apiVersion: agentcore.SchemeGroupVersion.String(), secretRef: "search-key",
			object: func(t *testing.T, _ *stack, ns string) (resource.Managed, []string) {
				create(t, secretWith(ns, "search-key", "apiKey", firstKey))
				return newAPIKeyProvider(ns, "cl-"+ns[len(ns)-5:]), []string{firstKey}
			},
			update: func(t *testing.T, mg resource.Managed) []string {
				rotate(t, mg.GetNamespace(), "search-key", "apiKey", rotatedKey)
				return []string{rotatedKey}
			},
		},
		// So is the delivery stream's access key.
		"DeliveryStream": {
			kind: streaming.DeliveryStreamKind, apiVersion: streaming.SchemeGroupVersion.String(), secretRef: "endpoint-key",
			object: func(t *testing.T, _ *stack, ns string) (resource.Managed, []string) {
				return newStream(t, ns, "cl-"+ns[len(ns)-5:]), []string{accessKey}
			},
			update: func(t *testing.T, mg resource.Managed) []string {
				const rotated = "access-key-rotated-for-the-change-log"
				rotate(t, mg.GetNamespace(), "endpoint-key", "accessKey", rotated)
				return []string{rotated}
			},
		},
		"Subscription": {
			kind: notification.SubscriptionKind, apiVersion: notification.SchemeGroupVersion.String(),
			object: func(t *testing.T, s *stack, ns string) (resource.Managed, []string) {
				return newSubscription(ns, "orders-queue", topic(t, s, "cl-orders-"+ns[len(ns)-5:])), nil
			},
			update: func(t *testing.T, mg resource.Managed) []string {
				change(t, mg.(*notification.Subscription), func(mg *notification.Subscription) {
					mg.Spec.ForProvider.FilterPolicy = aws.String(`{"type": ["order_shipped"]}`)
				})
				return nil
			},
		},
		"Endpoint": {
			kind: eventbus.EndpointKind, apiVersion: eventbus.SchemeGroupVersion.String(),
			object: func(_ *testing.T, _ *stack, ns string) (resource.Managed, []string) {
				return newEndpoint(ns, "cl-"+ns[len(ns)-5:]), nil
			},
			update: func(t *testing.T, mg resource.Managed) []string {
				change(t, mg.(*eventbus.Endpoint), func(mg *eventbus.Endpoint) {
					mg.Spec.ForProvider.Description = aws.String("orders, failing over to eu-west-1")
				})
				return nil
			},
		},
		"EndpointConfig": {
			kind: mlplatform.EndpointConfigKind, apiVersion: mlplatform.SchemeGroupVersion.String(),
			object: func(t *testing.T, s *stack, ns string) (resource.Managed, []string) {
				name := "cl-" + ns[len(ns)-5:]
				model(t, s, name+"-model")
				return newEndpointConfig(ns, name, name+"-model"), nil
			},
			update: func(t *testing.T, mg resource.Managed) []string {
				change(t, mg.(*mlplatform.EndpointConfig), func(mg *mlplatform.EndpointConfig) {
					mg.Spec.ForProvider.Tags = []common.Tag{{Key: aws.String("env"), Value: aws.String("prod")}}
				})
				return nil
			},
		},
	}
}

// With change logs on, the sidecar gets one entry for each create, update and
// delete the provider makes on AWS, naming the operation and the object, and
// no entry holds a secret value: the snapshot of the object carries the
// reference to its Secret, not what the Secret holds.
func TestChangeLogs(t *testing.T) {
	s := provider(t)
	for name, k := range changeLogKinds() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ns := namespace(t)
			mg, secrets := k.object(t, s, ns)
			create(t, mg)
			eventually(t, 30*time.Second, "Ready", func() error { return isReady(t, mg) })
			externalName := meta.GetExternalName(mg)

			// Each operation's entry comes once: none more over a few
			// polls.
			expect := func(what string, want ...string) {
				t.Helper()
				eventually(t, 30*time.Second, what, func() error {
					if got := operations(s.changeLogs.of(mg, k.kind)); !slices.Equal(got, want) {
						return fmt.Errorf("entries %v, want %v", got, want)
					}
					return nil
				})
			}
			expect("the create's entry", "CREATE")
			time.Sleep(3 * testPoll)
			expect("no entry from the polls after Ready", "CREATE")

			secrets = append(secrets, k.update(t, mg)...)
			expect("the update's entry", "CREATE", "UPDATE")
			eventually(t, 20*time.Second, "Ready after the update", func() error { return isReady(t, mg) })
			time.Sleep(3 * testPoll)
			expect("no entry from the polls after the update", "CREATE", "UPDATE")

			remove(t, mg)
			expect("the delete's entry", "CREATE", "UPDATE", "DELETE")

			entries := s.changeLogs.of(mg, k.kind)
			for i, e := range entries {
				op := operations(entries[i : i+1])[0]
				snapshot := e.GetSnapshot().AsMap()
				metadata, _ := snapshot["metadata"].(map[string]any)
				spec, _ := snapshot["spec"].(map[string]any)
				if e.GetApiVersion() != k.apiVersion || e.GetKind() != k.kind || e.GetName() != mg.GetName() ||
					metadata["name"] != mg.GetName() || metadata["namespace"] != ns || spec["forProvider"] == nil {
					t.Errorf("%s entry: %s %s %s, a snapshot of %v/%v with forProvider %v; want %s %s %s/%s",
						op, e.GetApiVersion(), e.GetKind(), e.GetName(), metadata["namespace"], metadata["name"], spec["forProvider"] != nil,
						k.apiVersion, k.kind, ns, mg.GetName())
				}
				if e.GetProvider() != "provider-aws-services:test" || e.GetTimestamp() == nil || e.ErrorMessage != nil {
					t.Errorf("%s entry: provider %q, timestamp %v, error %q", op, e.GetProvider(), e.GetTimestamp(), e.GetErrorMessage())
				}
				// The name of the AWS resource is known before the create,
				// but for a subscription, whose ARN AWS gives.
				if e.GetExternalName() != externalName && (op != "CREATE" || k.kind != notification.SubscriptionKind) {
					t.Errorf("%s entry: external name %q, want %q", op, e.GetExternalName(), externalName)
				}

				// What the sidecar prints: no secret value, plain or
				// base64 as a Secret's data holds it.
				printed, err := protojson.Marshal(e)
				if err != nil {
					t.Fatal(err)
				}
				for _, v := range secrets {
					for _, form := range []string{v, base64.StdEncoding.EncodeToString([]byte(v))} {
						if strings.Contains(string(printed), form) {
							t.Errorf("the %s entry holds a secret value", op)
						}
					}
				}
				if k.secretRef != "" && !strings.Contains(string(printed), `"name":"`+k.secretRef+`"`) {
					t.Errorf("the %s entry does not name the Secret %s: the snapshot is not the object's", op, k.secretRef)
				}
			}
			if len(secrets) > 0 && len(secrets) != 2 {
				t.Errorf("searched for %d secret values, want the first and the rotated", len(secrets))
			}
			t.Logf("entries: %v; the create's: %s", operations(entries), summary(entries[0]))
		})
	}
}

// summary is an entry as a user's jq would show it, without the snapshot.
func summary(e *changelogsv1alpha1.ChangeLogEntry) string {
	return fmt.Sprintf("%s %s %s/%s %s (external name %q)", e.GetProvider(), e.GetApiVersion(), snapshotNamespace(e), e.GetName(), e.GetOperation(), e.GetExternalName())
}
