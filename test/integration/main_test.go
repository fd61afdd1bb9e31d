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
	"fmt"
	"os"
	"testing"

	"github.com/cloudkinds/provider-aws-services/test/controlplane"
)

// cp is the control plane every test of this package shares.
var cp *controlplane.ControlPlane

func TestMain(m *testing.M) {
	var err error
	cp, err = controlplane.Start(controlplane.ReferenceTargetCRDs())
	if err != nil {
		fmt.Fprintln(os.Stderr, "cannot start the control plane:", err)
		os.Exit(1)
	}
	stopKubeControllers, err := cp.StartKubeControllers()
	if err != nil {
		fmt.Fprintln(os.Stderr, "cannot start kube-controllers:", err)
		_ = cp.Stop()
		os.Exit(1)
	}
	code := m.Run()
	stopStack()
	if err := stopKubeControllers(); err != nil {
		fmt.Fprintln(os.Stderr, "FAIL:", err)
		code = 1
	}
	if err := checkObserveCallsDeclared(); err != nil {
		fmt.Fprintln(os.Stderr, "FAIL:", err)
		code = 1
	}
	if err := cp.Stop(); err != nil {
		fmt.Fprintln(os.Stderr, "cannot stop the control plane:", err)
	}
	os.Exit(code)
}
