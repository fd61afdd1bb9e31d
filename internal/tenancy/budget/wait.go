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

package budget

import (
	"context"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/cloudkinds/provider-aws-services/internal/aws/quota"
	"github.com/cloudkinds/provider-aws-services/internal/metrics"
)

// urgentKey marks a context whose calls go before periodic polls.
type urgentKey struct{}

// Urgent marks ctx as the context of a reconcile whose calls go before those
// of periodic polls not yet given their slot: one that acts on a change, or
// one whose reserved slot has come. Writes always go first.
func Urgent(ctx context.Context) context.Context {
	return context.WithValue(ctx, urgentKey{}, true)
}

// IsUrgent reports whether ctx was marked Urgent.
func IsUrgent(ctx context.Context) bool {
	v, _ := ctx.Value(urgentKey{}).(bool)
	return v
}

// Wait takes a token of op's budget in account and region, waiting until
// there is one or ctx ends. Writes and urgent calls wait before the others.
func (b *Budgets) Wait(ctx context.Context, account, region string, op quota.Operation) error {
	bk := b.bucket(account, region, op)
	urgent := op.Write() || IsUrgent(ctx)
	start := b.clock.Now()
	err := bk.wait(ctx, b.clock, urgent)
	if waited := b.clock.Since(start); waited > 0 {
		metrics.BudgetWait.WithLabelValues(op.Service, op.Name).Add(waited.Seconds())
	}
	if err != nil {
		return errors.Wrapf(err, "gave up waiting for the budget of %s", op)
	}
	metrics.BudgetCalls.WithLabelValues(op.Service, op.Name).Inc()
	return nil
}
