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

package controlplane

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// StartKubeControllers starts kube-controller-manager's namespace controller
// and garbage collector (hack/controlplane/controllers, built beside the API
// server) against cp, so that a deleted namespace is emptied and goes and
// ownerReferences are collected, as in a real cluster. Its log goes to a file
// whose name is printed. stop stops it, and fails if it had stopped by itself.
func (cp *ControlPlane) StartKubeControllers() (stop func() error, err error) {
	assets := os.Getenv("KUBEBUILDER_ASSETS")
	if assets == "" {
		assets = filepath.Join(RepoRoot(), ".cache", "controlplane")
	}
	bin := filepath.Join(assets, "kube-controllers")
	if _, err := os.Stat(bin); err != nil {
		return nil, errors.New("no kube-controllers in " + assets + ": run 'make controlplane'")
	}
	dir, err := os.MkdirTemp("", "kube-controllers-")
	if err != nil {
		return nil, err
	}
	kubeconfig := filepath.Join(dir, "kubeconfig")
	if err := os.WriteFile(kubeconfig, cp.KubeConfig, 0o600); err != nil {
		return nil, err
	}
	logFile, err := os.Create(filepath.Join(dir, "kube-controllers.log"))
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(context.Background(), bin, "--kubeconfig", kubeconfig)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		_ = logFile.Close()
		return nil, err
	}
	fmt.Fprintln(os.Stderr, "kube-controllers log:", logFile.Name())
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	return func() error {
		defer os.Remove(kubeconfig)
		defer logFile.Close()
		select {
		case err := <-exited:
			return fmt.Errorf("kube-controllers stopped during the tests (%w); its log: %s", err, logFile.Name())
		default:
		}
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
		return nil
	}, nil
}

// NamespaceGone returns nil once the namespace is gone, and until then what
// its deletion waits for: the conditions the namespace controller sets.
func NamespaceGone(ctx context.Context, kube client.Reader, name string) error {
	n := &corev1.Namespace{}
	err := kube.Get(ctx, client.ObjectKey{Name: name}, n)
	if kerrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	waits := []string{}
	for _, c := range n.Status.Conditions {
		if c.Status == corev1.ConditionTrue {
			waits = append(waits, string(c.Type)+": "+c.Message)
		}
	}
	return fmt.Errorf("still %s %v", n.Status.Phase, waits)
}
