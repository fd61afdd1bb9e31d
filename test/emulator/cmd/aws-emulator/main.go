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
	"net/http"
	"os"
	"os/signal"
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

// list collects repeated flags.
type list []string

func (l *list) String() string { return strings.Join(*l, ",") }

func (l *list) Set(v string) error {
	*l = append(*l, v)
	return nil
}

func main() {
	var (
		addr        = flag.String("address", "127.0.0.1:4566", "address to listen on")
		region      = flag.String("region", "us-east-1", "region of requests whose signature names none")
		account     = flag.String("account", "000000000000", "account that owns every resource")
		createDelay = flag.Duration("create-delay", 2*time.Second, "how long resources stay CREATING (and encryption ENABLING)")
		updateDelay = flag.Duration("update-delay", 2*time.Second, "how long resources stay UPDATING (and encryption DISABLING)")
		deleteDelay = flag.Duration("delete-delay", 2*time.Second, "how long resources stay DELETING")
		throttle    = pairs{}
		serverError = pairs{}
		latency     = pairs{}
		consistency = pairs{}
		deny        = pairs{}
		topics      = list{}
		models      = list{}
	)
	flag.Var(throttle, "throttle", "service:Operation=N: answer the next N calls with a throttling error (repeatable)")
	flag.Var(serverError, "server-error", "service:Operation=N: answer the next N calls with HTTP 500 (repeatable)")
	flag.Var(latency, "latency", "service:Operation=duration: delay every call (repeatable)")
	flag.Var(consistency, "eventual-consistency", "service=duration: new resources stay invisible to reads this long (repeatable)")
	flag.Var(deny, "deny", "accessKeyID=service:Operation: refuse the action to that principal (repeatable)")
	flag.Var(&topics, "topic", "create an SNS topic of this name at start, for subscriptions to name (repeatable)")
	flag.Var(&models, "model", "create a SageMaker model of this name at start, for endpoint configurations to name (repeatable)")
	flag.Parse()

	e := emulator.New(emulator.Options{Account: *account, Region: *region, CreateDelay: *createDelay, UpdateDelay: *updateDelay, DeleteDelay: *deleteDelay})
	faults := map[string]emulator.Fault{}
	for op, n := range throttle {
		f := faults[op]
		f.Throttle = mustInt(n)
		faults[op] = f
	}
	for op, n := range serverError {
		f := faults[op]
		f.ServerError = mustInt(n)
		faults[op] = f
	}
	for op, d := range latency {
		f := faults[op]
		f.Latency = mustDuration(d)
		faults[op] = f
	}
	for op, f := range faults {
		e.InjectFault(op, f)
	}
	for svc, d := range consistency {
		e.SetEventualConsistency(svc, mustDuration(d))
	}
	for ak, action := range deny {
		e.Deny(ak, action)
	}

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
