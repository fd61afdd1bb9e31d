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

// Command devcluster starts the control plane for development (kube-apiserver,
// etcd, and kube-controller-manager's namespace and garbage-collector
// controllers), writes a kubeconfig and runs until it is interrupted.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/cloudkinds/provider-aws-services/test/controlplane"
)

func main() {
	kubeconfig := flag.String("write-kubeconfig", ".cache/dev/kubeconfig", "where to write the kubeconfig of the control plane")
	flag.Parse()
	if err := run(*kubeconfig); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// run starts the control plane, writes its kubeconfig and serves until
// interrupted; the control plane stops on every way out.
func run(kubeconfig string) error {
	cp, err := controlplane.Start()
	if err != nil {
		return fmt.Errorf("cannot start the control plane: %w", err)
	}
	defer func() { _ = cp.Stop() }()
	// A deleted namespace is emptied and goes, and ownerReferences are
	// collected, as in a real cluster.
	stopControllers, err := cp.StartKubeControllers()
	if err != nil {
		return fmt.Errorf("cannot start the namespace and garbage-collector controllers: %w", err)
	}
	defer func() { _ = stopControllers() }()

	if err := os.WriteFile(kubeconfig, cp.KubeConfig, 0o600); err != nil {
		return fmt.Errorf("cannot write the kubeconfig: %w", err)
	}
	fmt.Printf("control plane ready at %s\nexport KUBECONFIG=%s\n", cp.Config.Host, kubeconfig)

	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGINT, syscall.SIGTERM)
	<-stop
	return nil
}
