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

// Package metrics holds the provider's own Prometheus metrics: the AWS calls
// it makes and how often it manages to observe each resource. They are served
// with controller-runtime's and crossplane-runtime's on the metrics endpoint.
package metrics

import (
	"context"
	"sync"
	"time"

	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/smithy-go/middleware"
	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/apimachinery/pkg/types"
	ctrlmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/cloudkinds/provider-aws-services/internal/aws/awserrors"
)

// The outcomes of an AWS call.
const (
	OutcomeSuccess   = "success"
	OutcomeThrottled = "throttled"
	OutcomeError     = "error"
)

var (
	// AWSCalls counts every AWS call, each retry attempt on its own.
	AWSCalls = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "provider_aws_services_aws_calls_total",
		Help: "AWS calls by service, operation and outcome (success, throttled, error); each retry attempt is a call.",
	}, []string{"service", "operation", "outcome"})

	// PollInterval is the time between two observations of the same resource: the
	// poll interval the provider achieves, which is longer than --poll when
	// --max-reconcile-rate cannot keep up with the number of resources.
	PollInterval = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "provider_aws_services_poll_interval_seconds",
		Help:    "Seconds between two observations of the same managed resource in AWS, by kind.",
		Buckets: []float64{5, 10, 15, 30, 45, 60, 75, 90, 120, 180, 300, 600},
	}, []string{"kind"})

	// Reconciles counts the reconciles that ran: controller-runtime's
	// controller_runtime_reconcile_total also counts those that
	// --max-reconcile-rate deferred.
	Reconciles = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "provider_aws_services_reconciles_total",
		Help: "Reconciles that ran, by controller; reconciles deferred by --max-reconcile-rate are not counted.",
	}, []string{"controller"})

	// BudgetRate is the rate the provider allows itself per operation:
	// its share of AWS's quota.
	BudgetRate = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "provider_aws_services_budget_calls_per_second",
		Help: "Calls per second the provider allows itself, per account and region, by AWS service and operation: its share of AWS's rate quota.",
	}, []string{"service", "operation"})

	// BudgetCalls counts the calls that took a token of their budget; their
	// rate over BudgetRate is how much of the budget is used.
	BudgetCalls = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "provider_aws_services_budget_calls_total",
		Help: "AWS calls that took a token of their operation's budget, by service and operation; rate() of it over provider_aws_services_budget_calls_per_second is the budget's use.",
	}, []string{"service", "operation"})

	// BudgetWait sums the time calls waited for a token.
	BudgetWait = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "provider_aws_services_budget_wait_seconds_total",
		Help: "Seconds AWS calls waited for a token of their operation's budget, by service and operation.",
	}, []string{"service", "operation"})

	// DeferredPolls counts the periodic polls put off until their
	// operations' budgets allow them.
	DeferredPolls = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "provider_aws_services_deferred_polls_total",
		Help: "Periodic polls at a resource put off until the budgets of their AWS operations allow them, by kind.",
	}, []string{"kind"})

	// DeferredChanges counts the reconciles of resources on their way (new,
	// changed, deleted, being created by AWS) put off until their
	// operations' budgets allow them, or until AWS is likely done creating
	// them; none of them is a reconcile run.
	DeferredChanges = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "provider_aws_services_deferred_changes_total",
		Help: "Reconciles of new, changed, deleted or creating resources put off until the budgets of their AWS operations allow them or AWS is likely done, by kind.",
	}, []string{"kind"})

	// NamespaceDeferred counts the reconciles put off for their turn in the
	// budgets of their AWS operations, by namespace: with
	// NamespaceTurnWait, it shows which team's work waits, and how long.
	// Namespaces, not objects, so that the series are as many as the
	// namespaces with work.
	NamespaceDeferred = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "provider_aws_services_namespace_deferred_total",
		Help: "Reconciles put off until their turn in the AWS budgets of their operations, by namespace and class (change, poll); a turn promised anew, later, counts again.",
	}, []string{"namespace", "class"})

	// NamespaceTurnWait is the time reconciles put off waited for their
	// turn, by namespace.
	NamespaceTurnWait = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "provider_aws_services_namespace_turn_wait_seconds",
		Help:    "Seconds a reconcile put off for its turn in the AWS budgets of its operations waited, from its first deferral to its turn, by namespace and class (change, poll).",
		Buckets: []float64{0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600},
	}, []string{"namespace", "class"})

	// STSCalls counts the STS calls that build and refresh sessions: with
	// per-namespace sessions, one AssumeRole per namespace, region and
	// credential lifetime.
	STSCalls = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "provider_aws_services_sts_calls_total",
		Help: "STS calls made to build and refresh AWS sessions (AssumeRole, AssumeRoleWithWebIdentity, GetCallerIdentity), by operation; each retry attempt is a call.",
	}, []string{"operation"})

	// LeftOnAWS counts the deletions that finished with something left on
	// AWS that AWS does not let the provider delete (a subscription pending
	// confirmation, a key grant a forced stream deletion could not retire),
	// each also told in an Event on its object.
	LeftOnAWS = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "provider_aws_services_left_on_aws_total",
		Help: "Deletions that finished with something left on AWS that AWS does not let the provider delete, by kind; an Event on the object says what.",
	}, []string{"kind"})

	// ShardsHeld is how many shards of the work this replica holds
	// (--shards; internal/tenancy/shard).
	ShardsHeld = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "provider_aws_services_shards_held",
		Help: "The shards of the work this replica holds, when the replicas share it (--shards).",
	})

	// ShardCached is how many managed resources this replica caches, by
	// the shard they are labelled with (internal/tenancy/shard):
	// "none" for those not labelled yet, which every replica caches.
	ShardCached = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "provider_aws_services_shard_cached_resources",
		Help: "The managed resources this replica caches, by the shard they are labelled with (--shards); \"none\" for those not labelled yet, which every replica caches until the one that serves them labels them.",
	}, []string{"shard"})

	// UndeclaredObserveCalls counts the AWS calls a kind's Observe made that
	// its declaration of ObserveCalls lacks: the budgets that pace its
	// polls do not know them. The tests require none.
	UndeclaredObserveCalls = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "provider_aws_services_undeclared_observe_calls_total",
		Help: "AWS calls made by an Observe that the kind does not declare among the calls its polls make, by service and operation.",
	}, []string{"service", "operation"})
)

func init() {
	ctrlmetrics.Registry.MustRegister(AWSCalls, PollInterval, Reconciles, BudgetRate, BudgetCalls, BudgetWait, DeferredPolls, DeferredChanges,
		NamespaceDeferred, NamespaceTurnWait, STSCalls, LeftOnAWS, ShardsHeld, ShardCached, UndeclaredObserveCalls)
}

// CountReconciles counts the reconciles of r, named controller, in
// Reconciles.
func CountReconciles(controller string, r reconcile.Reconciler) reconcile.Reconciler {
	c := Reconciles.WithLabelValues(controller)
	return reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
		c.Inc()
		return r.Reconcile(ctx, req)
	})
}

// CountCalls adds to an SDK client's stack the middleware that counts its
// calls in AWSCalls. It runs inside the retry loop, so that every attempt
// counts.
func CountCalls(stack *middleware.Stack) error {
	return stack.Finalize.Add(middleware.FinalizeMiddlewareFunc("CountAWSCalls",
		func(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
			out, md, err := next.HandleFinalize(ctx, in)
			service, operation := awsmiddleware.GetServiceID(ctx), awsmiddleware.GetOperationName(ctx)
			AWSCalls.WithLabelValues(service, operation, Outcome(err)).Inc()
			if declared, ok := ctx.Value(declaredKey{}).(map[string]bool); ok && !declared[service+":"+operation] {
				UndeclaredObserveCalls.WithLabelValues(service, operation).Inc()
			}
			return out, md, err
		}), middleware.After)
}

// declaredKey marks the context of a kind's Observe with the calls the
// kind declares it makes.
type declaredKey struct{}

// DeclareObserveCalls marks ctx as the context of an Observe that declares
// it calls operations ("Service:Operation"): CountCalls counts any other
// call made with it in UndeclaredObserveCalls.
func DeclareObserveCalls(ctx context.Context, operations []string) context.Context {
	declared := make(map[string]bool, len(operations))
	for _, op := range operations {
		declared[op] = true
	}
	return context.WithValue(ctx, declaredKey{}, declared)
}

// Outcome names the outcome of a call that returned err.
func Outcome(err error) string {
	switch {
	case err == nil:
		return OutcomeSuccess
	case awserrors.Classify(err) == awserrors.Throttled:
		return OutcomeThrottled
	default:
		return OutcomeError
	}
}

// An Observations remembers when each resource of a kind was last observed,
// and records the time between two observations in PollInterval.
type Observations struct {
	kind string
	now  func() time.Time

	mu   sync.Mutex
	last map[types.UID]time.Time
}

// NewObservations returns the Observations of a kind.
func NewObservations(kind string) *Observations {
	o := &Observations{kind: kind, now: time.Now, last: map[types.UID]time.Time{}}
	register(o)
	return o
}

// Observed records that the resource uid was observed now.
func (o *Observations) Observed(uid types.UID) {
	now := o.now()
	o.mu.Lock()
	previous, ok := o.last[uid]
	o.last[uid] = now
	o.mu.Unlock()
	if ok {
		PollInterval.WithLabelValues(o.kind).Observe(now.Sub(previous).Seconds())
	}
}

// Forget drops a resource that is gone.
func (o *Observations) Forget(uid types.UID) {
	o.mu.Lock()
	defer o.mu.Unlock()
	delete(o.last, uid)
}
