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

// Package crowd fills a control plane with what a busy cluster holds that a
// provider has nothing to do with: CRDs of other providers and applications,
// with large schemas, and Helm's release Secrets. The benchmarks run
// providers on such a cluster, since what a provider caches or lists there
// shows in its memory.
package crowd

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	extv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

const (
	// Namespaces are how many namespaces the Secrets are spread over.
	Namespaces = 20
	workers    = 4
)

// Parallel runs do(i) for i in [0, n) on workers goroutines and returns the
// first error.
func Parallel(n, workers int, do func(i int) error) error {
	next := make(chan int)
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if err := do(i); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	for i := range n {
		mu.Lock()
		failed := first != nil
		mu.Unlock()
		if failed {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	return first
}

// lorem is the text descriptions are cut from.
const lorem = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. " +
	"Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat. " +
	"Duis aute irure dolor in reprehenderit in voluptate velit esse cillum dolore eu fugiat nulla pariatur."

func description(crd, field, sub int) string {
	n := 80 + (crd*7+field*13+sub*17)%(len(lorem)-80)
	return fmt.Sprintf("Setting %d.%d of Crowd%d. %s", field, sub, crd, lorem[:n])
}

// crowdField is one property of a crowd CRD's spec: an object with string,
// integer and boolean leaves and a nested object, each described.
func crowdField(crd, field int) extv1.JSONSchemaProps {
	leaves := map[string]extv1.JSONSchemaProps{}
	for sub := range 6 {
		t := []string{"string", "integer", "boolean"}[sub%3]
		leaves["setting"+strconv.Itoa(sub)] = extv1.JSONSchemaProps{Type: t, Description: description(crd, field, sub)}
	}
	nested := map[string]extv1.JSONSchemaProps{}
	for sub := range 3 {
		nested["option"+strconv.Itoa(sub)] = extv1.JSONSchemaProps{Type: "string", Description: description(crd, field, 10+sub)}
	}
	leaves["nested"] = extv1.JSONSchemaProps{Type: "object", Description: description(crd, field, 9), Properties: nested}
	return extv1.JSONSchemaProps{Type: "object", Description: description(crd, field, 99), Properties: leaves}
}

// crowdCRD returns the i-th crowd CRD, whose openAPIV3Schema is about kib KiB
// of JSON.
func crowdCRD(i, kib int) (*extv1.CustomResourceDefinition, error) {
	kind := "Crowd" + strconv.Itoa(i)
	plural := strings.ToLower(kind) + "s"
	group := fmt.Sprintf("crowd%d.example.org", i)
	spec := extv1.JSONSchemaProps{Type: "object", Description: "The desired state of a " + kind + ".", Properties: map[string]extv1.JSONSchemaProps{}}
	size := 0
	for f := 0; size < kib*1024; f++ {
		name := "field" + strconv.Itoa(f)
		p := crowdField(i, f)
		b, err := json.Marshal(p)
		if err != nil {
			return nil, err
		}
		size += len(b) + len(name) + 4 // "name":{...},
		spec.Properties[name] = p
	}
	schema := &extv1.JSONSchemaProps{Type: "object", Properties: map[string]extv1.JSONSchemaProps{
		"apiVersion": {Type: "string"},
		"kind":       {Type: "string"},
		"metadata":   {Type: "object"},
		"spec":       spec,
		"status":     {Type: "object", XPreserveUnknownFields: ptr(true)},
	}}
	return &extv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: plural + "." + group, Labels: map[string]string{"bench": "crowd"}},
		Spec: extv1.CustomResourceDefinitionSpec{
			Group: group,
			Names: extv1.CustomResourceDefinitionNames{Kind: kind, ListKind: kind + "List", Plural: plural, Singular: strings.ToLower(kind)},
			Scope: extv1.NamespaceScoped,
			Versions: []extv1.CustomResourceDefinitionVersion{{
				Name: "v1", Served: true, Storage: true,
				Schema: &extv1.CustomResourceValidation{OpenAPIV3Schema: schema},
			}},
		},
	}, nil
}

func ptr[T any](v T) *T { return &v }

// CRDs creates n crowd CRDs of about kib KiB of schema each and waits until
// they are all established. kube's scheme must know apiextensions.k8s.io/v1.
func CRDs(ctx context.Context, kube client.Client, n, kib int, timeout time.Duration) error {
	names := make([]string, n)
	err := Parallel(n, workers, func(i int) error {
		crd, err := crowdCRD(i, kib)
		if err != nil {
			return err
		}
		names[i] = crd.Name
		if err := kube.Create(ctx, crd); err != nil && !kerrors.IsAlreadyExists(err) {
			return fmt.Errorf("cannot create CRD %s: %w", crd.Name, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	// Read only the CRDs not known to be established: a list would carry
	// every schema, every time.
	deadline := time.Now().Add(timeout)
	pending := names
	for {
		var still []string
		for _, name := range pending {
			crd := &extv1.CustomResourceDefinition{}
			if err := kube.Get(ctx, client.ObjectKey{Name: name}, crd); err != nil {
				return err
			}
			if !established(crd) {
				still = append(still, name)
			}
		}
		pending = still
		if len(pending) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%d of %d crowd CRDs not established after %s, %s among them", len(pending), n, timeout, pending[0])
		}
		time.Sleep(time.Second)
	}
}

func established(crd *extv1.CustomResourceDefinition) bool {
	for _, c := range crd.Status.Conditions {
		if c.Type == extv1.Established && c.Status == extv1.ConditionTrue {
			return true
		}
	}
	return false
}

// Secrets creates n Secrets of kib KiB of random data across the crowd
// namespaces, as Helm stores its releases.
func Secrets(ctx context.Context, kube client.Client, n, kib int) error {
	for i := range Namespaces {
		if err := kube.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "crowd-" + strconv.Itoa(i)}}); err != nil && !kerrors.IsAlreadyExists(err) {
			return err
		}
	}
	return Parallel(n, workers, func(i int) error {
		release, revision := fmt.Sprintf("release-%d", i/Namespaces), "1"
		data := make([]byte, kib*1024)
		seed := [32]byte{byte(i), byte(i >> 8), byte(i >> 16)}
		_, _ = rand.NewChaCha8(seed).Read(data)
		s := &corev1.Secret{
			ObjectMeta: metav1.ObjectMeta{
				Namespace: "crowd-" + strconv.Itoa(i%Namespaces),
				Name:      "sh.helm.release.v1." + release + ".v" + revision,
				Labels:    map[string]string{"owner": "helm", "name": release, "status": "deployed", "version": revision},
			},
			Type: "helm.sh/release.v1",
			Data: map[string][]byte{"release": data},
		}
		if err := kube.Create(ctx, s); err != nil && !kerrors.IsAlreadyExists(err) {
			return fmt.Errorf("cannot create Secret %s/%s: %w", s.Namespace, s.Name, err)
		}
		return nil
	})
}
