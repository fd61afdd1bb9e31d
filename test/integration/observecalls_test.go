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
	"sort"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/cloudkinds/provider-aws-services/internal/metrics"
)

// undeclaredObserveCalls returns the AWS calls that an Observe made without
// its kind declaring them in ObserveCalls (the calls whose budgets pace its
// polls), as "Service:Operation=count", over every test of the package.
func undeclaredObserveCalls() []string {
	ch := make(chan prometheus.Metric, 64)
	go func() {
		metrics.UndeclaredObserveCalls.Collect(ch)
		close(ch)
	}()
	var out []string
	for m := range ch {
		var d dto.Metric
		if err := m.Write(&d); err != nil || d.GetCounter().GetValue() == 0 {
			continue
		}
		labels := map[string]string{}
		for _, l := range d.GetLabel() {
			labels[l.GetName()] = l.GetValue()
		}
		out = append(out, fmt.Sprintf("%s:%s=%.0f", labels["service"], labels["operation"], d.GetCounter().GetValue()))
	}
	sort.Strings(out)
	return out
}

// checkObserveCallsDeclared fails the package when any Observe of any test
// called AWS outside what its kind declares.
func checkObserveCallsDeclared() error {
	if u := undeclaredObserveCalls(); len(u) > 0 {
		return fmt.Errorf("Observe made AWS calls its kind does not declare in ObserveCalls (their budgets do not pace its polls): %s", strings.Join(u, ", "))
	}
	return nil
}
