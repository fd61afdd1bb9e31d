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

// Command aws-emulator serves the AWS emulator on a local address, for the
// local stack and for people trying the provider without an AWS account.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"maps"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/cloudkinds/provider-aws-services/test/emulator"
)

// pairs collects repeated NAME=VALUE flags.
type pairs map[string]string

func (p pairs) String() string { return fmt.Sprint(map[string]string(p)) }

func (p pairs) Set(v string) error {
	k, val, ok := strings.Cut(v, "=")
	if !ok || k == "" {
		return fmt.Errorf("%q is not NAME=VALUE", v)
	}
	p[k] = val
	return nil
}

// rates collects repeated RATE or SCOPE=RATE flags; a bare RATE is scope "*".
type rates map[string]float64

func (r rates) String() string { return fmt.Sprint(map[string]float64(r)) }

func (r rates) Set(v string) error {
	scope, val, ok := strings.Cut(v, "=")
	if !ok {
		scope, val = "*", v
	}
	if scope == "" {
		return fmt.Errorf("%q names no scope", v)
	}
	f, err := strconv.ParseFloat(val, 64)
	if err != nil || !(f >= 0 && f <= 1) {
		return fmt.Errorf("%q is not a probability in [0, 1]", val)
	}
	r[scope] = f
	return nil
}

// list collects repeated flags.
type list []string

func (l *list) String() string { return strings.Join(*l, ",") }

func (l *list) Set(v string) error {
	*l = append(*l, v)
	return nil
}

const usage = `Usage: aws-emulator [flags]

Serves an emulated AWS (Firehose, SageMaker, EventBridge, SNS, STS, AgentCore
Control) on one address. Point the AWS SDK or CLI at it as the endpoint.

Faults apply to a SCOPE: * (every call), a service (firehose, sagemaker, sns,
events, bedrock-agentcore, sts) or service:Operation (firehose:DescribeDeliveryStream).
A call meets the faults of its most specific scope only: its operation's, else
its service's, else *'s.

Examples:
  aws-emulator --throttle-rate 0.1 --error-rate sns=0.05 --latency '*=20ms' --latency-jitter '*=200ms' --seed 42
  aws-emulator --throttle firehose:CreateDeliveryStream=2 --eventual-consistency firehose=2s
  aws-emulator --drop-answer events:CreateEndpoint=1   # the first create is made, and its caller told it failed

While it serves, GET, PUT or DELETE /_emulator/faults reads, replaces or clears
the faults and eventual consistency; GET /_emulator/calls, /_emulator/outcomes
and /_emulator/resources count calls and list resources; GET
/_emulator/creations and /_emulator/writes list every create and every write
AWS accepted, in order; POST /_emulator/reset forgets the counts. POST
/_emulator/answers answers an operation's calls with any AWS error, for a count
of calls or a window:
  curl -d '{"operation": "sns:Subscribe", "code": "AuthorizationError", "status": 403, "count": 2}' \
    http://127.0.0.1:4566/_emulator/answers
GET lists the answers in force, DELETE removes them.

Flags:
`

func main() {
	var (
		addr          = flag.String("address", "127.0.0.1:4566", "address to listen on")
		region        = flag.String("region", "us-east-1", "region of requests whose signature names none")
		account       = flag.String("account", "000000000000", "account that owns every resource")
		createDelay   = flag.Duration("create-delay", 2*time.Second, "how long resources stay CREATING (and encryption ENABLING)")
		updateDelay   = flag.Duration("update-delay", 2*time.Second, "how long resources stay UPDATING (and encryption DISABLING)")
		deleteDelay   = flag.Duration("delete-delay", 2*time.Second, "how long resources stay DELETING")
		seed          = flag.Uint64("seed", 0, "seed of the random faults (rates, jitter); 0 picks one from the time and logs it")
		quotas        = flag.Bool("quotas", false, "enforce AWS's published per-operation rate quotas per region, answering a call over its quota with the service's throttling error")
		throttle      = pairs{}
		serverError   = pairs{}
		dropAnswer    = pairs{}
		dropConn      = pairs{}
		throttleRate  = rates{}
		errorRate     = rates{}
		latency       = pairs{}
		latencyJitter = pairs{}
		consistency   = pairs{}
		deny          = pairs{}
		topics        = list{}
		models        = list{}
	)
	flag.Var(throttle, "throttle", "SCOPE=N: answer the next N calls of the scope with a throttling error (repeatable)")
	flag.Var(serverError, "server-error", "SCOPE=N: answer the next N calls of the scope with HTTP 500 (repeatable)")
	flag.Var(dropAnswer, "drop-answer", "SCOPE=N: run the next N calls of the scope, then answer HTTP 500 instead of their answers (repeatable)")
	flag.Var(dropConn, "drop-connection", "SCOPE=N: run the next N calls of the scope, then reset the connection instead of answering (repeatable)")
	flag.Var(throttleRate, "throttle-rate", "RATE or SCOPE=RATE: answer calls with a throttling error with probability RATE in [0, 1]; a bare RATE is scope * (repeatable)")
	flag.Var(errorRate, "error-rate", "RATE or SCOPE=RATE: answer calls with HTTP 500 with probability RATE in [0, 1]; a bare RATE is scope * (repeatable)")
	flag.Var(latency, "latency", "SCOPE=duration: delay every call of the scope (repeatable)")
	flag.Var(latencyJitter, "latency-jitter", "SCOPE=duration: delay every call of the scope by a further random duration below this (repeatable)")
	flag.Var(consistency, "eventual-consistency", "service=duration: new resources stay invisible to reads this long (repeatable)")
	flag.Var(deny, "deny", "accessKeyID=service:Operation: refuse the action to that principal (repeatable)")
	flag.Var(&topics, "topic", "create an SNS topic of this name at start, for subscriptions to name (repeatable)")
	flag.Var(&models, "model", "create a SageMaker model of this name at start, for endpoint configurations to name (repeatable)")
	flag.Usage = func() {
		fmt.Fprint(flag.CommandLine.Output(), usage)
		flag.PrintDefaults()
	}
	flag.Parse()

	if *seed == 0 {
		*seed = uint64(time.Now().UnixNano())
	}
	e := emulator.New(emulator.Options{Account: *account, Region: *region, CreateDelay: *createDelay, UpdateDelay: *updateDelay, DeleteDelay: *deleteDelay, Seed: *seed})
	faults := map[string]emulator.Fault{}
	set := func(scope string, change func(*emulator.Fault)) {
		f := faults[scope]
		change(&f)
		faults[scope] = f
	}
	for scope, n := range throttle {
		set(scope, func(f *emulator.Fault) { f.Throttle = mustInt(n) })
	}
	for scope, n := range serverError {
		set(scope, func(f *emulator.Fault) { f.ServerError = mustInt(n) })
	}
	for scope, n := range dropAnswer {
		set(scope, func(f *emulator.Fault) { f.DropAnswer = mustInt(n) })
	}
	for scope, n := range dropConn {
		set(scope, func(f *emulator.Fault) { f.DropConnection = mustInt(n) })
	}
	for scope, r := range throttleRate {
		set(scope, func(f *emulator.Fault) { f.ThrottleRate = r })
	}
	for scope, r := range errorRate {
		set(scope, func(f *emulator.Fault) { f.ErrorRate = r })
	}
	for scope, d := range latency {
		set(scope, func(f *emulator.Fault) { f.Latency = mustDuration(d) })
	}
	for scope, d := range latencyJitter {
		set(scope, func(f *emulator.Fault) { f.LatencyJitter = mustDuration(d) })
	}
	if err := emulator.ValidateFaults(faults); err != nil {
		log.Fatal(err)
	}
	e.SetFaults(faults)
	if *quotas {
		e.SetQuotas(emulator.PublishedQuotas)
		for _, op := range slices.Sorted(maps.Keys(emulator.PublishedQuotas)) {
			log.Printf("quota %s: %v calls per second", op, emulator.PublishedQuotas[op])
		}
	}
	for _, scope := range slices.Sorted(maps.Keys(faults)) {
		log.Printf("fault %s: %+v", scope, faults[scope])
	}
	for svc, d := range consistency {
		e.SetEventualConsistency(svc, mustDuration(d))
	}
	for ak, action := range deny {
		e.Deny(ak, action)
	}
	log.Printf("random faults seeded with %d", *seed)

	for _, t := range topics {
		log.Printf("topic %s", e.CreateTopic(*region, t))
	}
	for _, m := range models {
		e.CreateModel(*region, m)
		log.Printf("model %s", m)
	}

	srv := &http.Server{Addr: *addr, Handler: e, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		stop := make(chan os.Signal, 1)
		signal.Notify(stop, syscall.SIGINT, syscall.SIGTERM)
		<-stop
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	}()
	log.Printf("AWS emulator for account %s serving on http://%s", *account, *addr)
	if err := srv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Fatal(err)
	}
}

func mustInt(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		log.Fatalf("%q is not a number", s)
	}
	return n
}

func mustDuration(s string) time.Duration {
	d, err := time.ParseDuration(s)
	if err != nil {
		log.Fatalf("%q is not a duration", s)
	}
	return d
}
