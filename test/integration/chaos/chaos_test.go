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

// Package chaos storms the provider: it creates, updates and deletes
// resources of all five kinds while AWS throttles and fails calls and the
// provider process is killed with SIGKILL at random moments, some of them
// right after a create call left the provider. Then it heals AWS and checks,
// from the emulator's state, that nothing is stuck, leaked, lost or
// duplicated, and that no secret reached a log.
//
// The package's test runs small in `make test`; `make chaos` runs it at 100
// resources and 10 kills (CHAOS_PER_KIND, CHAOS_KILLS, CHAOS_THROTTLE_RATE,
// CHAOS_ERROR_RATE, CHAOS_SEED set it).
package chaos

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	agentcorev1alpha1 "github.com/cloudkinds/provider-aws-services/apis/agentcorecontrol/v1alpha1"
	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	eventbusv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/eventbus/v1alpha1"
	mlplatformv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/mlplatform/v1alpha1"
	notificationv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/notification/v1alpha1"
	streamingv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/diff"
	"github.com/cloudkinds/provider-aws-services/test/emulator"
	"github.com/cloudkinds/provider-aws-services/test/workload"
)

// env is the control plane and the provider's binary the tests share.
var env workload.Env

func TestMain(m *testing.M) { workload.Main(m, &env) }

// A storm is how hard the test is.
type storm struct {
	perKind, kills         int
	throttleRate, errorRat float64
	seed                   uint64
	// length is how long resources are created, updated and deleted under
	// faults and kills; converge is how long they then have to settle.
	length, converge time.Duration
}

func stormFromEnv(t *testing.T) storm {
	s := storm{perKind: 2, kills: 3, throttleRate: 0.2, errorRat: 0.05, seed: uint64(time.Now().UnixNano())}
	num := func(name string, dst any) {
		v := os.Getenv(name)
		if v == "" {
			return
		}
		var err error
		switch d := dst.(type) {
		case *int:
			*d, err = strconv.Atoi(v)
		case *float64:
			*d, err = strconv.ParseFloat(v, 64)
		case *uint64:
			*d, err = strconv.ParseUint(v, 10, 64)
		}
		if err != nil {
			t.Fatalf("%s=%q: %v", name, v, err)
		}
	}
	num("CHAOS_PER_KIND", &s.perKind)
	num("CHAOS_KILLS", &s.kills)
	num("CHAOS_THROTTLE_RATE", &s.throttleRate)
	num("CHAOS_ERROR_RATE", &s.errorRat)
	num("CHAOS_SEED", &s.seed)
	s.length = time.Duration(6*s.kills) * time.Second
	s.converge = 3*time.Minute + time.Duration(s.perKind)*6*time.Second
	return s
}

// A process is the provider, run as its binary, killed and started again.
type process struct {
	t          *testing.T
	kubeconfig string
	logDir     string
	metrics    string // the address of the metrics endpoint

	mu   sync.Mutex
	cmd  *exec.Cmd
	runs int
	logs []string
}

func (p *process) start() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd != nil {
		return
	}
	p.runs++
	log := filepath.Join(p.logDir, fmt.Sprintf("provider-%02d.log", p.runs))
	f, err := os.Create(log)
	if err != nil {
		p.t.Error(err)
		return
	}
	cmd := exec.Command(env.Binary, "--debug", "--poll=20s", "--metrics-bind-address="+p.metrics, "--health-probe-bind-address=0", "--poll-state-metric=1s")
	cmd.Env = append(os.Environ(), "KUBECONFIG="+p.kubeconfig)
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		p.t.Error(err)
		return
	}
	p.cmd = cmd
	p.logs = append(p.logs, log)
	go func() { _ = cmd.Wait(); _ = f.Close() }()
}

// kill stops the provider with SIGKILL, as an eviction or the OOM killer
// does, and returns once it is gone.
func (p *process) kill() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil {
		return false
	}
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	for p.cmd.ProcessState == nil {
		// Wait runs in start's goroutine; ProcessState is set when it
		// returns.
		time.Sleep(5 * time.Millisecond)
	}
	p.cmd = nil
	return true
}

// The objects of the storm, by kind, and what their last update set.
const (
	before = "v0"
	after  = "v1"
	model  = "chaos-model"
)

// object returns the i-th object of a kind, at version v of its updatable
// field.
func object(kind, ns string, i int, topicARN, v string) resource.Managed {
	return workload.Set{TopicARN: topicARN, Model: model}.Object(kind, ns, fmt.Sprintf("chaos-%s-%d", strings.ToLower(kind), i), v)
}

var kinds = workload.Kinds

// awsClients reach the emulator directly, to read what AWS holds.
type awsClients struct {
	firehose  *firehose.Client
	sns       *sns.Client
	events    *eventbridge.Client
	sagemaker *sagemaker.Client
	agentcore *bedrockagentcorecontrol.Client
}

func clientsFor(url string) awsClients {
	cfg := aws.Config{Region: "us-east-1", BaseEndpoint: aws.String(url), Credentials: credentials.NewStaticCredentialsProvider("AKIDCHECK", "s", "")}
	return awsClients{firehose.NewFromConfig(cfg), sns.NewFromConfig(cfg), eventbridge.NewFromConfig(cfg), sagemaker.NewFromConfig(cfg), bedrockagentcorecontrol.NewFromConfig(cfg)}
}

// version reads the version of an object's updatable field from AWS.
func (c awsClients) version(ctx context.Context, mg resource.Managed) (string, error) {
	name := meta.GetExternalName(mg)
	switch o := mg.(type) {
	case *streamingv1alpha1.DeliveryStream:
		out, err := c.firehose.ListTagsForDeliveryStream(ctx, &firehose.ListTagsForDeliveryStreamInput{DeliveryStreamName: aws.String(name)})
		if err != nil {
			return "", err
		}
		for _, t := range out.Tags {
			if aws.ToString(t.Key) == "version" {
				return aws.ToString(t.Value), nil
			}
		}
	case *notificationv1alpha1.Subscription:
		out, err := c.sns.GetSubscriptionAttributes(ctx, &sns.GetSubscriptionAttributesInput{SubscriptionArn: aws.String(name)})
		if err != nil {
			return "", err
		}
		for _, v := range []string{before, after} {
			if diff.JSONEqual(out.Attributes["FilterPolicy"], workload.FilterPolicy(v)) {
				return v, nil
			}
		}
	case *eventbusv1alpha1.Endpoint:
		out, err := c.events.DescribeEndpoint(ctx, &eventbridge.DescribeEndpointInput{Name: aws.String(name)})
		if err != nil {
			return "", err
		}
		return aws.ToString(out.Description), nil
	case *mlplatformv1alpha1.EndpointConfig:
		d, err := c.sagemaker.DescribeEndpointConfig(ctx, &sagemaker.DescribeEndpointConfigInput{EndpointConfigName: aws.String(name)})
		if err != nil {
			return "", err
		}
		out, err := c.sagemaker.ListTags(ctx, &sagemaker.ListTagsInput{ResourceArn: d.EndpointConfigArn})
		if err != nil {
			return "", err
		}
		for _, t := range out.Tags {
			if aws.ToString(t.Key) == "version" {
				return aws.ToString(t.Value), nil
			}
		}
	case *agentcorev1alpha1.APIKeyCredentialProvider:
		g, err := c.agentcore.GetApiKeyCredentialProvider(ctx, &bedrockagentcorecontrol.GetApiKeyCredentialProviderInput{Name: aws.String(name)})
		if err != nil {
			return "", err
		}
		out, err := c.agentcore.ListTagsForResource(ctx, &bedrockagentcorecontrol.ListTagsForResourceInput{ResourceArn: g.CredentialProviderArn})
		if err != nil {
			return "", err
		}
		return out.Tags["version"], nil
	default:
		return "", fmt.Errorf("unknown kind %T", o)
	}
	return "", nil
}

// awsCount counts the AWS resources an object of kind named name (or, for a
// Subscription, with that endpoint) has in inv.
func awsCount(inv emulator.Inventory, kind, name string) int {
	var in []string
	switch kind {
	case "DeliveryStream":
		in = inv.DeliveryStreams
	case "Endpoint":
		in = inv.Endpoints
	case "EndpointConfig":
		in = inv.EndpointConfigs
	case "APIKeyCredentialProvider":
		in = inv.APIKeyCredentialProviders
	case "Subscription":
		n := 0
		for _, s := range inv.Subscriptions {
			if strings.HasSuffix(s.Endpoint, ":"+name) {
				n++
			}
		}
		return n
	}
	n := 0
	for _, x := range in {
		if x == name {
			n++
		}
	}
	return n
}

func isCreate(service, operation string) bool {
	return strings.HasPrefix(operation, "Create") && operation != "CreateTopic" && operation != "CreateModel" || operation == "Subscribe"
}

func TestCrashStorm(t *testing.T) {
	if env.BuildErr != nil {
		t.Fatal(env.BuildErr)
	}
	st := stormFromEnv(t)
	rng := rand.New(rand.NewPCG(st.seed, st.seed^0x9e3779b97f4a7c15))
	t.Logf("storm: %d per kind, %d kills, throttle %.2f, errors %.2f, seed %d", st.perKind, st.kills, st.throttleRate, st.errorRat, st.seed)
	ctx := context.Background()
	kube := env.ControlPlane.Client

	em := emulator.New(emulator.Options{Seed: st.seed, CreateDelay: time.Second, UpdateDelay: time.Second, DeleteDelay: time.Second})
	srv := httptest.NewServer(em)
	defer srv.Close()
	topicARN := em.CreateTopic("us-east-1", "chaos")
	em.CreateModel("us-east-1", model)

	dir := t.TempDir()
	kubeconfig := filepath.Join(dir, "kubeconfig")
	if err := os.WriteFile(kubeconfig, env.ControlPlane.KubeConfig, 0o600); err != nil {
		t.Fatal(err)
	}
	p := &process{t: t, kubeconfig: kubeconfig, logDir: dir, metrics: freeAddress(t)}
	defer p.kill()

	const ns = "chaos"
	if err := kube.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil && !kerrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
	secrets := map[string]string{"endpoint-key": "chaos-access-key-" + strconv.FormatUint(rng.Uint64(), 36), "api-key": "sk-chaos-" + strconv.FormatUint(rng.Uint64(), 36)}
	for name, value := range secrets {
		key := map[string]string{"endpoint-key": "accessKey", "api-key": "apiKey"}[name]
		if err := kube.Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, StringData: map[string]string{key: value}}); err != nil {
			t.Fatal(err)
		}
	}
	pc := &v1alpha1.ClusterProviderConfig{ObjectMeta: metav1.ObjectMeta{Name: "default"}, Spec: v1alpha1.ProviderConfigSpec{
		Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceNone},
		Region:      aws.String("us-east-1"),
		Endpoint:    &v1alpha1.EndpointOverride{URL: srv.URL},
	}}
	if err := kube.Create(ctx, pc); err != nil {
		t.Fatal(err)
	}

	// Which objects are updated and which deleted during the storm.
	var all, updated, deleted []resource.Managed
	nDelete := (st.perKind + 4) / 5
	for _, kind := range kinds {
		for i := range st.perKind {
			mg := object(kind, ns, i, topicARN, before)
			all = append(all, mg)
			switch {
			case i >= st.perKind-nDelete:
				deleted = append(deleted, mg)
			case i%2 == 0:
				updated = append(updated, mg)
			}
		}
	}

	// The storm: faults on every call, the provider killed at random
	// moments, every other kill right after a create call reached AWS.
	em.SetFaults(map[string]emulator.Fault{"*": {ThrottleRate: st.throttleRate, ErrorRate: st.errorRat}})
	p.start()
	var (
		hookMu      sync.Mutex
		armed       chan struct{}
		afterCreate int
	)
	em.SetCallHook(func(service, operation string) {
		if !isCreate(service, operation) {
			return
		}
		hookMu.Lock()
		a := armed
		armed = nil
		hookMu.Unlock()
		if a != nil && p.kill() {
			hookMu.Lock()
			afterCreate++
			hookMu.Unlock()
			close(a)
		}
	})
	stormStart := time.Now()
	killsDone := make(chan int)
	go func() {
		kills := 0
		for i := range st.kills {
			// Kill i falls around (i+½)/kills of the storm.
			at := time.Duration(float64(st.length) * (float64(i) + 0.25 + 0.5*rng.Float64()) / float64(st.kills))
			time.Sleep(time.Until(stormStart.Add(at)))
			if i%2 == 0 {
				a := make(chan struct{})
				hookMu.Lock()
				armed = a
				hookMu.Unlock()
				select {
				case <-a:
					kills++
				case <-time.After(5 * time.Second):
					hookMu.Lock()
					armed = nil
					hookMu.Unlock()
					if p.kill() {
						kills++
					}
				}
			} else if p.kill() {
				kills++
			}
			time.Sleep(time.Duration(200+rng.IntN(800)) * time.Millisecond)
			p.start()
		}
		killsDone <- kills
	}()

	// Objects arrive over the first half of the storm, so that kills land
	// among creates; updates come at half time, deletions at two thirds.
	for _, i := range rng.Perm(len(all)) {
		if err := kube.Create(ctx, all[i]); err != nil {
			t.Fatal(err)
		}
		time.Sleep(st.length / 2 / time.Duration(len(all)))
	}
	for _, mg := range updated {
		bump(t, kube, mg)
	}
	time.Sleep(time.Until(stormStart.Add(st.length * 2 / 3)))
	for _, mg := range deleted {
		if err := kube.Delete(ctx, mg); err != nil {
			t.Fatal(err)
		}
	}
	kills := <-killsDone
	stormTime := time.Since(stormStart)

	// Healed: no faults, the provider running, time to converge.
	em.SetCallHook(nil)
	em.ClearFaults()
	p.start()
	healed := time.Now()
	var stuck []string
	deadline := healed.Add(st.converge)
	for {
		stuck = stuck[:0]
		for _, mg := range all {
			if why := notSettled(ctx, kube, mg, slices.Contains(deleted, mg)); why != "" {
				stuck = append(stuck, fmt.Sprintf("%s/%s: %s", kindOf(mg), mg.GetName(), why))
			}
		}
		if len(stuck) == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Second)
	}
	convergeTime := time.Since(healed)

	// What AWS holds.
	inv := em.Inventory()
	leaked, duplicated, lost := 0, 0, 0
	for _, mg := range all {
		kind := kindOf(mg)
		n := awsCount(inv, kind, mg.GetName())
		switch {
		case slices.Contains(deleted, mg) && n > 0:
			leaked += n
			t.Errorf("%s %s was deleted, and %d AWS resources are left", kind, mg.GetName(), n)
		case !slices.Contains(deleted, mg) && n > 1:
			duplicated += n - 1
			t.Errorf("%s %s has %d AWS resources", kind, mg.GetName(), n)
		}
	}
	c := clientsFor(srv.URL)
	for _, mg := range updated {
		if err := kube.Get(ctx, client.ObjectKeyFromObject(mg), mg); err != nil {
			t.Error(err)
			continue
		}
		if v, err := c.version(ctx, mg); err != nil || v != after {
			lost++
			t.Errorf("the last update of %s %s did not reach AWS: %q (%v)", kindOf(mg), mg.GetName(), v, err)
		}
	}
	for _, s := range stuck {
		t.Errorf("stuck: %s", s)
	}
	leakedSecrets := secretsIn(t, kube, ns, p.logs, secrets)
	checkMetrics(t, p.metrics)
	calls, outcomes := em.Calls(), em.Outcomes()

	// Everything goes: nothing may be left in AWS afterwards.
	for _, mg := range all {
		if err := kube.Delete(ctx, mg); err != nil && !kerrors.IsNotFound(err) {
			t.Error(err)
		}
	}
	cleanupDeadline := time.Now().Add(2 * time.Minute)
	var left emulator.Inventory
	for {
		left = em.Inventory()
		if total(left) == 0 || time.Now().After(cleanupDeadline) {
			break
		}
		time.Sleep(time.Second)
	}
	if n := total(left); n != 0 {
		t.Errorf("after every object was deleted, %d AWS resources are left: %+v", n, left)
	}
	_ = kube.Delete(ctx, pc)

	report(t, st, kills, afterCreate, p.runs, stormTime, convergeTime, len(all), len(stuck), leaked, len(updated), lost, duplicated, leakedSecrets, calls, outcomes)
	if leakedSecrets > 0 {
		t.Errorf("%d secret values reached logs, events or objects", leakedSecrets)
	}
}

// freeAddress returns a loopback address nothing listens on.
func freeAddress(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// checkMetrics scrapes the running provider's /metrics, as Prometheus
// would, and checks that the metrics an operator relies on are recorded.
func checkMetrics(t *testing.T, addr string) {
	t.Helper()
	want := []string{
		`provider_aws_services_aws_calls_total{operation="DescribeDeliveryStream",outcome="success",service="Firehose"}`,
		`provider_aws_services_aws_calls_total{operation="GetSubscriptionAttributes",outcome="success",service="SNS"}`,
		`provider_aws_services_poll_interval_seconds_count{kind="Endpoint"}`,
		`crossplane_managed_resource_exists{gvk="streaming.services.k8s.aws/v1alpha1, Kind=DeliveryStream"}`,
		`crossplane_managed_resource_ready{gvk="agentcorecontrol.services.k8s.aws/v1alpha1, Kind=APIKeyCredentialProvider"}`,
		`crossplane_managed_resource_synced{gvk="notification.services.k8s.aws/v1alpha1, Kind=Subscription"}`,
	}
	var text string
	var missing []string
	// The poll interval needs two looks at a resource: up to two polls.
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get("http://" + addr + "/metrics")
		if err == nil {
			b, _ := io.ReadAll(resp.Body)
			_ = resp.Body.Close()
			text = string(b)
		}
		missing = missing[:0]
		for _, w := range want {
			if !strings.Contains(text, w) {
				missing = append(missing, w)
			}
		}
		if len(missing) == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Second)
	}
	for _, m := range missing {
		t.Errorf("/metrics has no %s", m)
	}
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "provider_aws_services_aws_calls_total") && strings.Contains(line, "Firehose") {
			fmt.Println("sample of /metrics:", line)
		}
	}
}

// bump moves an object's updatable field to the version after, retrying on
// conflicts with the provider's own writes.
func bump(t *testing.T, kube client.Client, mg resource.Managed) {
	t.Helper()
	for range 50 {
		if err := kube.Get(context.Background(), client.ObjectKeyFromObject(mg), mg); err != nil {
			t.Fatal(err)
		}
		switch o := mg.(type) {
		case *streamingv1alpha1.DeliveryStream:
			o.Spec.ForProvider.Tags = []common.Tag{{Key: aws.String("version"), Value: aws.String(after)}}
		case *notificationv1alpha1.Subscription:
			o.Spec.ForProvider.FilterPolicy = aws.String(workload.FilterPolicy(after))
		case *eventbusv1alpha1.Endpoint:
			o.Spec.ForProvider.Description = aws.String(after)
		case *mlplatformv1alpha1.EndpointConfig:
			o.Spec.ForProvider.Tags = []common.Tag{{Key: aws.String("version"), Value: aws.String(after)}}
		case *agentcorev1alpha1.APIKeyCredentialProvider:
			o.Spec.ForProvider.Tags = map[string]string{"version": after}
		}
		err := kube.Update(context.Background(), mg)
		if err == nil {
			return
		}
		if !kerrors.IsConflict(err) {
			t.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("cannot update %s", mg.GetName())
}

// notSettled says why an object is not where it should end: gone when it
// was deleted, Ready and Synced otherwise.
func notSettled(ctx context.Context, kube client.Client, mg resource.Managed, deleted bool) string {
	o := mg.DeepCopyObject().(resource.Managed) //nolint:forcetypeassert // a copy of its own type
	err := kube.Get(ctx, client.ObjectKeyFromObject(mg), o)
	if deleted {
		if kerrors.IsNotFound(err) {
			return ""
		}
		return "deleted, still there: " + conditionsOf(o)
	}
	if err != nil {
		return err.Error()
	}
	r, s := o.GetCondition(xpv2.TypeReady), o.GetCondition(xpv2.TypeSynced)
	if r.Status != corev1.ConditionTrue || s.Status != corev1.ConditionTrue {
		return conditionsOf(o)
	}
	// Synced must speak of the last spec, not of one before the last update.
	if s.ObservedGeneration != o.GetGeneration() {
		return fmt.Sprintf("Synced for generation %d, the spec is at %d", s.ObservedGeneration, o.GetGeneration())
	}
	return ""
}

func conditionsOf(mg resource.Managed) string {
	r, s := mg.GetCondition(xpv2.TypeReady), mg.GetCondition(xpv2.TypeSynced)
	return fmt.Sprintf("Ready=%s %s %q, Synced=%s %s %q", r.Status, r.Reason, r.Message, s.Status, s.Reason, s.Message)
}

func kindOf(mg resource.Managed) string {
	return strings.TrimPrefix(fmt.Sprintf("%T", mg), "*v1alpha1.")
}

func total(inv emulator.Inventory) int {
	return len(inv.DeliveryStreams) + len(inv.EndpointConfigs) + len(inv.Endpoints) + len(inv.APIKeyCredentialProviders) + len(inv.Subscriptions)
}

// secretsIn counts the secret values found in the provider's logs, the
// namespace's events and the objects themselves.
func secretsIn(t *testing.T, kube client.Client, ns string, logs []string, secrets map[string]string) int {
	t.Helper()
	var texts []string
	for _, l := range logs {
		b, err := os.ReadFile(l)
		if err != nil {
			t.Error(err)
		}
		texts = append(texts, string(b))
	}
	events := &corev1.EventList{}
	if err := kube.List(context.Background(), events, client.InNamespace(ns)); err != nil {
		t.Error(err)
	}
	for _, e := range events.Items {
		texts = append(texts, e.Message)
	}
	for _, l := range []client.ObjectList{&streamingv1alpha1.DeliveryStreamList{}, &agentcorev1alpha1.APIKeyCredentialProviderList{}} {
		if err := kube.List(context.Background(), l, client.InNamespace(ns)); err != nil {
			t.Error(err)
		}
		texts = append(texts, fmt.Sprintf("%+v", l))
	}
	n := 0
	for _, text := range texts {
		for _, v := range secrets {
			n += strings.Count(text, v)
		}
	}
	return n
}

func report(t *testing.T, st storm, kills, afterCreate, runs int, stormTime, convergeTime time.Duration, resources, stuck, leaked, updates, lost, duplicated, secrets int,
	calls map[string]int, outcomes map[string]map[string]int) {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "\n| figure | result |\n|---|---|\n")
	fmt.Fprintf(&b, "| resources (per kind) | %d (%d) |\n", resources, st.perKind)
	fmt.Fprintf(&b, "| faults | %.0f%% throttled, %.0f%% HTTP 500 |\n", st.throttleRate*100, st.errorRat*100)
	fmt.Fprintf(&b, "| SIGKILLs (right after a create call) | %d (%d), %d provider starts |\n", kills, afterCreate, runs)
	fmt.Fprintf(&b, "| storm / converge after healing | %s / %s |\n", stormTime.Round(time.Second), convergeTime.Round(time.Second))
	fmt.Fprintf(&b, "| resources stuck for good | %d of %d |\n", stuck, resources)
	fmt.Fprintf(&b, "| deleted resources left on AWS | %d |\n", leaked)
	fmt.Fprintf(&b, "| updates never applied | %d of %d |\n", lost, updates)
	fmt.Fprintf(&b, "| duplicates | %d |\n", duplicated)
	fmt.Fprintf(&b, "| secret values in logs, events, objects | %d |\n", secrets)
	sum := map[string]int{}
	for _, o := range outcomes {
		for k, v := range o {
			sum[k] += v
		}
	}
	all := 0
	for _, v := range calls {
		all += v
	}
	fmt.Fprintf(&b, "| AWS calls | %d: %d ok, %d throttled, %d HTTP 500, %d refused by AWS |\n", all, sum[emulator.OutcomeOK], sum[emulator.OutcomeThrottled], sum[emulator.OutcomeError], sum[emulator.OutcomeRefused])
	ops := make([]string, 0, len(calls))
	for op := range calls {
		ops = append(ops, op)
	}
	slices.Sort(ops)
	fmt.Fprintf(&b, "\nAWS calls per operation (ok/throttled/500/refused):\n")
	for _, op := range ops {
		o := outcomes[op]
		fmt.Fprintf(&b, "  %-52s %5d  (%d/%d/%d/%d)\n", op, calls[op], o[emulator.OutcomeOK], o[emulator.OutcomeThrottled], o[emulator.OutcomeError], o[emulator.OutcomeRefused])
	}
	fmt.Println(b.String())
}
