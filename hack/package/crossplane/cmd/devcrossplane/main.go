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

// Command devcrossplane runs Crossplane core for `make dev`: it initializes
// Crossplane on the local control plane, serves the provider's package (built
// from package/ without a runtime image: the External runtime runs none) and
// function-patch-and-transform's from a TLS registry on 127.0.0.1, starts
// Crossplane and the function, installs both packages, and stands in for what
// the local stack lacks (see package crossplane) until it is stopped. It
// writes <state>/crossplane.ready once both packages are Healthy.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/cloudkinds/provider-aws-services/hack/package/crossplane"
)

func main() {
	var (
		kubeconfig = flag.String("kubeconfig", "", "kubeconfig of the control plane")
		state      = flag.String("state", ".cache/dev", "folder for certificates, packages, logs and the ready mark")
		tools      = flag.String("tools", ".cache/package-tools", "folder of crank, Crossplane core and function-patch-and-transform")
		kubectl    = flag.String("kubectl", ".cache/controlplane/kubectl", "kubectl")
		crds       = flag.String("crds", "", "Crossplane's CRDs (cluster/crds of its module)")
		pkgRoot    = flag.String("package-root", "package", "the provider's package folder")
		fnRoot     = flag.String("function-package-root", "", "function-patch-and-transform's package folder")
		emulator   = flag.String("emulator", "http://127.0.0.1:4566", "the AWS emulator, for the stand-in Topics")
	)
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, *kubeconfig, *state, *tools, *kubectl, *crds, *pkgRoot, *fnRoot, *emulator); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context, kubeconfig, state, tools, kubectl, crds, pkgRoot, fnRoot, emulator string) error {
	dir := filepath.Join(state, "crossplane")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	_ = os.Remove(filepath.Join(state, "crossplane.ready"))
	matches, _ := filepath.Glob(filepath.Join(tools, "crossplane-v*"))
	if len(matches) == 0 {
		return fmt.Errorf("no Crossplane core in %s", tools)
	}
	tl := crossplane.Tools{Crossplane: matches[0], Crank: filepath.Join(tools, "crank"), Kubectl: kubectl}
	pkg := filepath.Join(dir, "provider-aws-services.xpkg")
	if err := crossplane.BuildPackage(tl.Crank, pkgRoot, pkg); err != nil {
		return err
	}

	startCtx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	xp, err := crossplane.Start(startCtx, crossplane.Options{
		Tools: tl, Kubeconfig: kubeconfig, Dir: dir, CRDs: crds, ProviderPackage: pkg,
		FunctionPackageRoot: fnRoot, FunctionBinary: filepath.Join(tools, "function-patch-and-transform"),
		CoreArgs: []string{"--poll-interval=15s"},
	})
	cancel()
	if err != nil {
		return err
	}
	defer xp.Stop()
	log.Printf("Crossplane started (log: %s); packages %s and %s applied", xp.CoreLog, xp.ProviderRef, xp.FunctionRef)

	// Each stand-in's error is logged with kubectl's output when it first
	// appears or changes, not every half second.
	last := map[string]string{}
	report := func(what string, err error) {
		msg := ""
		if err != nil {
			msg = err.Error()
		}
		if msg != last[what] {
			if err != nil {
				log.Printf("%s: %v", what, err)
			} else {
				log.Printf("%s: working again", what)
			}
			last[what] = msg
		}
	}
	ready := false
	for i := 0; ; i++ {
		// The packages' revisions change rarely once installed, and
		// garbage appears only when a composite is deleted: both are
		// looked at less often than the stand-in Topics and Roles.
		if !ready || i%10 == 0 {
			_, err := xp.StandIn()
			report("stand-in for the Deployment runtime", err)
		}
		if err := crossplane.StandInForUpjet(kubectl, kubeconfig, emulator); err == nil || !strings.Contains(err.Error(), "the server doesn't have a resource type") {
			report("stand-in for provider-upjet-aws", err)
		}
		if i%5 == 0 {
			report("stand-in garbage collector", crossplane.CollectGarbage(kubectl, kubeconfig, composedKinds...))
		}
		if !ready && healthy(kubectl, kubeconfig) {
			ready = true
			if err := os.WriteFile(filepath.Join(state, "crossplane.ready"), []byte(time.Now().Format(time.RFC3339)), 0o600); err != nil {
				return err
			}
			log.Print("both packages are Healthy")
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// composedKinds are the kinds the example Compositions compose, whose
// orphans the stand-in garbage collector deletes.
var composedKinds = []string{
	"deliverystreams.streaming.services.k8s.aws", "subscriptions.notification.services.k8s.aws", "endpoints.eventbus.services.k8s.aws",
	"apikeycredentialproviders.agentcorecontrol.services.k8s.aws",
}

func healthy(kubectl, kubeconfig string) bool {
	for _, p := range []string{"providers.pkg.crossplane.io/provider-aws-services", "functions.pkg.crossplane.io/function-patch-and-transform"} {
		if _, err := crossplane.Kubectl(kubectl, kubeconfig, "", "wait", "--for=condition=Healthy", "--timeout=1s", p); err != nil {
			return false
		}
	}
	return true
}
