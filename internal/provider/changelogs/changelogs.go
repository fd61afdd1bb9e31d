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

// Package changelogs connects the provider to Crossplane's change logs
// sidecar (crossplane/changelogs-sidecar): crossplane-runtime's managed
// reconciler sends it one entry for every create, update and delete the
// provider makes on AWS, over gRPC on a Unix socket the two containers share,
// and the sidecar prints each entry to its log.
package changelogs

import (
	"fmt"
	"os"
	"strconv"

	"github.com/alecthomas/kingpin/v2"
	changelogsv1alpha1 "github.com/crossplane/crossplane-runtime/v2/apis/changelogs/proto/v1alpha1"
	"github.com/crossplane/crossplane-runtime/v2/pkg/controller"
	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

const (
	// EnableEnvar turns change logs on: the variable the other Crossplane
	// providers read (provider-upjet-aws, provider-kubernetes).
	EnableEnvar = "ENABLE_CHANGE_LOGS"
	// LegacyEnableEnvar is this provider's first name for EnableEnvar,
	// still read when neither EnableEnvar nor the flag is given.
	LegacyEnableEnvar = "ENABLE_CHANGELOGS"
	// SocketPathEnvar is the sidecar's socket, by the name the other
	// Crossplane providers read.
	SocketPathEnvar = "CHANGELOGS_SOCKET_PATH"
	// DefaultSocketPath is where the sidecar listens unless told otherwise.
	DefaultSocketPath = "/var/run/changelogs/changelogs.sock"

	// providerName names the provider in every entry, before its version.
	providerName = "provider-aws-services"

	errConnect = "cannot connect to the change logs sidecar"
)

// Flags defines --enable-changelogs and --changelogs-socket-path on app and
// returns their values, set once app has parsed.
//
// The flag wins, then ENABLE_CHANGE_LOGS, then ENABLE_CHANGELOGS: kingpin
// reads one variable per flag, so the legacy one is read here, as the flag's
// default. A legacy value that is not a boolean fails the parse with an error
// that names the variable.
func Flags(app *kingpin.Application) (enabled *bool, socketPath *string) {
	def := "false"
	if v := os.Getenv(LegacyEnableEnvar); v != "" {
		if _, err := strconv.ParseBool(v); err != nil {
			app.Action(func(*kingpin.ParseContext) error {
				return fmt.Errorf("%s=%q: want true or false (or set %s instead)", LegacyEnableEnvar, v, EnableEnvar)
			})
		} else {
			def = v
		}
	}
	enabled = app.Flag("enable-changelogs", "Send an entry for every create, update and delete on AWS to the change logs sidecar (alpha). Also read from "+LegacyEnableEnvar+", this provider's earlier name for the variable.").
		Default(def).Envar(EnableEnvar).Bool()
	socketPath = app.Flag("changelogs-socket-path", "Unix socket of the change logs sidecar.").
		Default(DefaultSocketPath).Envar(SocketPathEnvar).String()
	return enabled, socketPath
}

// Options returns the change log options of the controllers: entries go to
// the sidecar listening on socketPath, naming the provider at version.
//
// The connection is made when the first entry is sent, so the sidecar may
// start after the provider. crossplane-runtime waits up to 10 s for it to
// take an entry; an entry it does not take is logged as not recorded and the
// reconcile goes on.
func Options(socketPath, version string) (*controller.ChangeLogOptions, error) {
	conn, err := grpc.NewClient("unix:"+socketPath, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, errors.Wrapf(err, "%s at %s", errConnect, socketPath)
	}
	return &controller.ChangeLogOptions{
		ChangeLogger: managed.NewGRPCChangeLogger(changelogsv1alpha1.NewChangeLogServiceClient(conn), managed.WithProviderVersion(providerName+":"+version)),
	}, nil
}
