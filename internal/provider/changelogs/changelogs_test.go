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

package changelogs

import (
	"context"
	"net"
	"path/filepath"
	"testing"

	"github.com/alecthomas/kingpin/v2"
	changelogsv1alpha1 "github.com/crossplane/crossplane-runtime/v2/apis/changelogs/proto/v1alpha1"
	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/cloudkinds/provider-aws-services/apis/notification/v1alpha1"
)

func TestFlags(t *testing.T) {
	type want struct {
		enabled    bool
		socketPath string
		err        string
	}
	cases := map[string]struct {
		reason string
		env    map[string]string
		args   []string
		want   want
	}{
		"Off": {
			reason: "Change logs are off unless asked for, and the socket is the sidecar's default.",
			want:   want{socketPath: DefaultSocketPath},
		},
		"EnvarOfOtherProviders": {
			reason: "ENABLE_CHANGE_LOGS, the variable the other Crossplane providers read, turns them on.",
			env:    map[string]string{EnableEnvar: "true"},
			want:   want{enabled: true, socketPath: DefaultSocketPath},
		},
		"LegacyEnvar": {
			reason: "ENABLE_CHANGELOGS, this provider's earlier name, still turns them on.",
			env:    map[string]string{LegacyEnableEnvar: "true"},
			want:   want{enabled: true, socketPath: DefaultSocketPath},
		},
		"EnvarWinsOverLegacy": {
			reason: "When both variables are set, ENABLE_CHANGE_LOGS decides.",
			env:    map[string]string{EnableEnvar: "false", LegacyEnableEnvar: "true"},
			want:   want{socketPath: DefaultSocketPath},
		},
		"FlagWinsOverEnvars": {
			reason: "The flag decides over both variables.",
			env:    map[string]string{EnableEnvar: "true", LegacyEnableEnvar: "true"},
			args:   []string{"--no-enable-changelogs"},
			want:   want{socketPath: DefaultSocketPath},
		},
		"Flag": {
			reason: "The flag alone turns them on.",
			args:   []string{"--enable-changelogs"},
			want:   want{enabled: true, socketPath: DefaultSocketPath},
		},
		"LegacyEnvarNotABoolean": {
			reason: "A legacy value that is not a boolean is refused with the variable's name.",
			env:    map[string]string{LegacyEnableEnvar: "yes please"},
			want:   want{socketPath: DefaultSocketPath, err: `ENABLE_CHANGELOGS="yes please": want true or false (or set ENABLE_CHANGE_LOGS instead)`},
		},
		"SocketPathEnvar": {
			reason: "CHANGELOGS_SOCKET_PATH, as the other providers name it, moves the socket.",
			env:    map[string]string{SocketPathEnvar: "/run/shared/changelogs.sock"},
			want:   want{socketPath: "/run/shared/changelogs.sock"},
		},
		"SocketPathFlag": {
			reason: "The flag moves the socket too, and wins over the variable.",
			env:    map[string]string{SocketPathEnvar: "/run/shared/changelogs.sock"},
			args:   []string{"--changelogs-socket-path=/tmp/cl.sock"},
			want:   want{socketPath: "/tmp/cl.sock"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			for _, k := range []string{EnableEnvar, LegacyEnableEnvar, SocketPathEnvar} {
				t.Setenv(k, tc.env[k])
			}
			app := kingpin.New("provider", "").DefaultEnvars()
			enabled, socketPath := Flags(app)
			_, err := app.Parse(tc.args)
			got := want{enabled: *enabled, socketPath: *socketPath}
			if err != nil {
				got.err = err.Error()
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("\n%s\nFlags(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// sidecar records what it is sent, as the real sidecar prints it.
type sidecar struct {
	changelogsv1alpha1.UnimplementedChangeLogServiceServer
	got chan *changelogsv1alpha1.ChangeLogEntry
}

func (s *sidecar) SendChangeLog(_ context.Context, req *changelogsv1alpha1.SendChangeLogRequest) (*changelogsv1alpha1.SendChangeLogResponse, error) {
	s.got <- req.GetEntry()
	return &changelogsv1alpha1.SendChangeLogResponse{}, nil
}

func TestOptions(t *testing.T) {
	socket := filepath.Join(t.TempDir(), "changelogs.sock")
	o, err := Options(socket, "v0.3.0")
	if err != nil {
		t.Fatal(err)
	}
	// The sidecar starts after the provider, as it may in a pod.
	lis, err := (&net.ListenConfig{}).Listen(context.Background(), "unix", socket)
	if err != nil {
		t.Fatal(err)
	}
	s := &sidecar{got: make(chan *changelogsv1alpha1.ChangeLogEntry, 1)}
	srv := grpc.NewServer()
	changelogsv1alpha1.RegisterChangeLogServiceServer(srv, s)
	go func() { _ = srv.Serve(lis) }()
	defer srv.Stop()

	mg := &v1alpha1.Subscription{
		TypeMeta:   metav1.TypeMeta{APIVersion: v1alpha1.SchemeGroupVersion.String(), Kind: "Subscription"},
		ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "orders"},
	}
	if err := o.ChangeLogger.Log(context.Background(), mg, changelogsv1alpha1.OperationType_OPERATION_TYPE_CREATE, nil, nil); err != nil {
		t.Fatal(err)
	}
	e := <-s.got
	type entry struct{ Provider, APIVersion, Kind, Name, Namespace, Operation string }
	want := entry{"provider-aws-services:v0.3.0", "notification.services.k8s.aws/v1alpha1", "Subscription", "orders", "team-a", "OPERATION_TYPE_CREATE"}
	got := entry{e.GetProvider(), e.GetApiVersion(), e.GetKind(), e.GetName(), e.GetSnapshot().GetFields()["metadata"].GetStructValue().GetFields()["namespace"].GetStringValue(), e.GetOperation().String()}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the entry the sidecar got: -want, +got:\n%s", diff)
	}
}
