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

package importer

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/aws/smithy-go/middleware"
	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/internal/aws/listing"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/budget"
)

// Config is what an import needs.
type Config struct {
	// AWS calls the account and region to import from.
	AWS aws.Config
	// Endpoint is AWS.BaseEndpoint as the provider configs name it ("" for
	// AWS's own): the ownership claims of resources reached through an
	// endpoint override are that endpoint's.
	Endpoint string
	// Budgets pace the calls within AWS's quotas.
	Budgets *budget.Budgets
	// Workers read resources' tags and destinations at once, each call
	// waiting for its operation's budget.
	Workers int
	// Kube reads the cluster's objects and the provider's claims, kept in
	// ClaimsNamespace (the provider's namespace).
	Kube            client.Reader
	ClaimsNamespace string
	// Manifests say where the imported objects go.
	Manifests Options
	// Out gets the manifests; Err what was left out, and why.
	Out, Err io.Writer
}

// A Result is what an import found.
type Result struct {
	Account string
	// Listed, Printed and LeftOut count resources by kind.
	Listed, Printed, LeftOut map[string]int
	// Calls counts the AWS calls made, by "Service:Operation".
	Calls map[string]int
}

// Run lists the resources of cfg's account and region, kind by kind, and
// writes an observe-only manifest for each one that nothing of the cluster
// manages; each one left out is told on Err with its kind, identifier and
// why. It writes nothing when it cannot read the cluster, and returns an
// error naming every kind it could not list (the others are written).
func Run(ctx context.Context, cfg Config) (*Result, error) {
	cluster, err := ReadCluster(ctx, cfg.Kube, cfg.ClaimsNamespace)
	if err != nil {
		return nil, err
	}
	for _, n := range cluster.Notes {
		fmt.Fprintln(cfg.Err, "note:", n)
	}
	res := &Result{Listed: map[string]int{}, Printed: map[string]int{}, LeftOut: map[string]int{}, Calls: map[string]int{}}
	var mu sync.Mutex
	counted := count(&mu, res.Calls)
	id, err := sts.NewFromConfig(cfg.AWS, func(o *sts.Options) { o.APIOptions = append(o.APIOptions, counted) }).GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{})
	if err != nil {
		return nil, errors.Wrap(err, "cannot tell which AWS account the credentials are of")
	}
	res.Account = aws.ToString(id.Account)
	awsCfg := cfg.AWS.Copy()
	awsCfg.APIOptions = slices.Clone(awsCfg.APIOptions)
	if cfg.Budgets != nil {
		// Each call waits for its operation's budget, then is counted.
		awsCfg.APIOptions = append(awsCfg.APIOptions, cfg.Budgets.Middleware(res.Account))
	}
	awsCfg.APIOptions = append(awsCfg.APIOptions, counted)
	at := Place{Endpoint: cfg.Endpoint, Account: res.Account, Region: awsCfg.Region}

	found := make([][]listing.Found, len(Kinds))
	failed := make([]error, len(Kinds))
	var wg sync.WaitGroup
	for i, k := range Kinds {
		wg.Go(func() { found[i], failed[i] = k.List(ctx, awsCfg, cfg.Workers) })
	}
	wg.Wait()

	var manifests []map[string]any
	var failures []string
	for i, k := range Kinds {
		if failed[i] != nil {
			failures = append(failures, fmt.Sprintf("%s: %v", k.Kind, failed[i]))
			continue
		}
		sort.Slice(found[i], func(a, b int) bool { return found[i][a].ID < found[i][b].ID })
		for _, f := range found[i] {
			res.Listed[k.Kind]++
			if why := cluster.Decide(k, at, f); why != "" {
				res.LeftOut[k.Kind]++
				fmt.Fprintf(cfg.Err, "left out: %s %s: %s\n", k.Kind, f.ID, why)
				continue
			}
			res.Printed[k.Kind]++
			manifests = append(manifests, Manifest(k, f.ID, cfg.Manifests))
		}
	}
	out, err := Render(manifests)
	if err != nil {
		return nil, err
	}
	if _, err := cfg.Out.Write(out); err != nil {
		return nil, err
	}
	for _, k := range Kinds {
		fmt.Fprintf(cfg.Err, "%s: %d listed, %d to import, %d left out\n", k.Kind, res.Listed[k.Kind], res.Printed[k.Kind], res.LeftOut[k.Kind])
	}
	fmt.Fprintf(cfg.Err, "AWS calls: %d (%s)\n", total(res.Calls), callList(res.Calls))
	if len(failures) > 0 {
		return res, errors.Errorf("cannot list every kind; nothing of these is written: %s", strings.Join(failures, "; "))
	}
	return res, nil
}

// count counts each call sent, every attempt as AWS's quotas do.
func count(mu *sync.Mutex, calls map[string]int) func(*middleware.Stack) error {
	return func(stack *middleware.Stack) error {
		return stack.Finalize.Add(middleware.FinalizeMiddlewareFunc("ImportCallCount",
			func(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
				mu.Lock()
				calls[awsmiddleware.GetServiceID(ctx)+":"+awsmiddleware.GetOperationName(ctx)]++
				mu.Unlock()
				return next.HandleFinalize(ctx, in)
			}), middleware.After)
	}
}

func total(calls map[string]int) int {
	n := 0
	for _, c := range calls {
		n += c
	}
	return n
}

func callList(calls map[string]int) string {
	parts := make([]string, 0, len(calls))
	for _, op := range slices.Sorted(maps.Keys(calls)) {
		parts = append(parts, fmt.Sprintf("%s %d", op, calls[op]))
	}
	return strings.Join(parts, ", ")
}
