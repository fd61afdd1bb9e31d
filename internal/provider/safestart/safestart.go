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

// Package safestart opens the gate of each managed resource kind once the
// API server serves it: its CRD is established and its version served.
//
// It reads only this provider's CRDs, by name, and only until each is
// established. crossplane-runtime's CRD gate watches every CRD of the
// cluster instead, and a cluster that runs other providers holds hundreds of
// them, with schemas of hundreds of kilobytes each: the provider's memory
// would grow with what else is installed.
package safestart

import (
	"context"
	"strings"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	extv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A CRDGate is opened per kind; crossplane-runtime's gate.Gate is one.
type CRDGate interface {
	Set(gvk schema.GroupVersionKind, ready bool) bool
}

// CRDName is the name of the CRD of a kind whose plural is its lower-case
// kind with an s, as for every kind of this provider.
func CRDName(gvk schema.GroupVersionKind) string {
	return strings.ToLower(gvk.Kind) + "s." + gvk.Group
}

// A Waiter polls the CRDs of some kinds until each is established, and opens
// their gates.
type Waiter struct {
	kube client.Reader
	gate CRDGate
	log  logging.Logger
	// pending are the kinds whose gates are not open yet.
	pending []schema.GroupVersionKind

	// First and Max bound the interval between two looks: it starts at
	// First and doubles up to Max. A kind may be activated hours after the
	// provider started, or never: Max bounds how long its activation waits
	// for the provider, at the cost of one GET (a NotFound, while it is not
	// activated) per pending kind per Max.
	First, Max time.Duration
}

// New returns a Waiter that reads CRDs with kube, which should read from the
// API server rather than from a cache, so that no CRD informer is started.
func New(kube client.Reader, g CRDGate, log logging.Logger, kinds ...schema.GroupVersionKind) *Waiter {
	return &Waiter{kube: kube, gate: g, log: log, pending: kinds, First: 500 * time.Millisecond, Max: 10 * time.Second}
}

// Setup adds a Waiter for kinds to the manager; it reads through the
// manager's API reader. It looks once before it returns, so that the gates
// of the kinds whose CRDs are established when the provider starts are open
// before the manager starts: the readiness check expects those kinds (see
// package readiness) from its first answer.
func Setup(mgr ctrl.Manager, g CRDGate, log logging.Logger, kinds ...schema.GroupVersionKind) error {
	w := New(mgr.GetAPIReader(), g, log, kinds...)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	w.Look(ctx)
	return mgr.Add(w)
}

// Look opens the gate of each pending kind whose CRD serves it.
func (w *Waiter) Look(ctx context.Context) {
	w.pending = w.open(ctx, w.pending)
}

// NeedLeaderElection is false: every replica needs its controllers set up to
// take over as leader.
func (w *Waiter) NeedLeaderElection() bool { return false }

// Start looks at the CRDs until every kind's gate is open or ctx ends.
func (w *Waiter) Start(ctx context.Context) error {
	wait := w.First
	for {
		w.Look(ctx)
		if len(w.pending) == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
		wait = min(2*wait, w.Max)
	}
}

// open opens the gate of each kind whose CRD serves it and returns the
// others.
func (w *Waiter) open(ctx context.Context, kinds []schema.GroupVersionKind) []schema.GroupVersionKind {
	var pending []schema.GroupVersionKind
	for _, gvk := range kinds {
		crd := &extv1.CustomResourceDefinition{}
		if err := w.kube.Get(ctx, types.NamespacedName{Name: CRDName(gvk)}, crd); err != nil {
			w.log.Debug("Waiting for the CRD of a kind", "gvk", gvk.String(), "error", err)
			pending = append(pending, gvk)
			continue
		}
		if !serves(crd, gvk.Version) {
			w.log.Debug("Waiting for the CRD of a kind to be established", "gvk", gvk.String())
			pending = append(pending, gvk)
			continue
		}
		w.log.Info("The CRD of a kind is established: its controller starts", "gvk", gvk.String())
		w.gate.Set(gvk, true)
	}
	return pending
}

// serves reports whether crd is established and serves version.
func serves(crd *extv1.CustomResourceDefinition, version string) bool {
	if !crd.DeletionTimestamp.IsZero() {
		return false
	}
	established := false
	for _, c := range crd.Status.Conditions {
		if c.Type == extv1.Established && c.Status == extv1.ConditionTrue {
			established = true
		}
	}
	if !established {
		return false
	}
	for _, v := range crd.Spec.Versions {
		if v.Name == version {
			return v.Served
		}
	}
	return false
}
