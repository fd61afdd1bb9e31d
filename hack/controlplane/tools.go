//go:build tools

// Package controlplane pins the commands that hack/controlplane/build.sh builds.
package controlplane

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kubectl"
)
