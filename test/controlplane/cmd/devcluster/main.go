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

// Command devcluster starts the control plane for development, writes a
// kubeconfig and runs until it is interrupted.
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

	cp, err := controlplane.Start()
	if err != nil {
		fmt.Fprintln(os.Stderr, "cannot start the control plane:", err)
		os.Exit(1)
	}
	defer func() { _ = cp.Stop() }()

	if err := os.WriteFile(*kubeconfig, cp.KubeConfig, 0o600); err != nil {
		fmt.Fprintln(os.Stderr, "cannot write the kubeconfig:", err)
		_ = cp.Stop()
		os.Exit(1)
	}
	fmt.Printf("control plane ready at %s\nexport KUBECONFIG=%s\n", cp.Config.Host, *kubeconfig)

	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGINT, syscall.SIGTERM)
	<-stop
}
