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
// right after a create call reached AWS. Among them, for each kind, two
// objects in two namespaces ask for the same AWS resource (pairs_test.go).
// Then it heals AWS and checks, from the emulator's state and its history of
// creates and writes, that nothing is stuck, leaked, lost or duplicated, that
// of each colliding pair the first owns the resource and the second is
// refused, and that no secret reached a log. The storm fails, too, when none
// of its kills caught a create whose result the provider had not recorded
// yet: such a storm did not test what crash safety is about.
//
// The package's test runs small in `make test`; `make chaos` runs it at 100
// resources and 10 kills (CHAOS_PER_KIND, CHAOS_KILLS, CHAOS_THROTTLE_RATE,
// CHAOS_ERROR_RATE, CHAOS_SEED set it).
package chaos

import (
	"cmp"
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
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	agentcorev1alpha1 "github.com/cloudkinds/provider-aws-services/apis/agentcorecontrol/v1alpha1"
	common "github.com/cloudkinds/provider-aws-services/apis/common/v1alpha1"
	eventbusv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/eventbus/v1alpha1"
	mlplatformv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/mlplatform/v1alpha1"
	notificationv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/notification/v1alpha1"
	streamingv1alpha1 "github.com/cloudkinds/provider-aws-services/apis/streaming/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/internal/aws/diff"
	snsclient "github.com/cloudkinds/provider-aws-services/internal/aws/sns"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/awsconfig"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/ownership"
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
	// name prefixes its log files ("provider" when empty); health is the
	// address of its health probes (none when empty); args and environ
	// are its further flags and environment.
	name, health  string
	args, environ []string

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
	log := filepath.Join(p.logDir, fmt.Sprintf("%s-%02d.log", cmp.Or(p.name, "provider"), p.runs))
	f, err := os.Create(log)
	if err != nil {
		p.t.Error(err)
		return
	}
	args := append([]string{"--debug", "--poll=20s", "--metrics-bind-address=" + p.metrics, "--health-probe-bind-address=" + cmp.Or(p.health, "0"), "--poll-state-metric=1s", "--tenant-endpoint-network=127.0.0.0/8"}, p.args...)
	cmd := exec.Command(env.Binary, args...)
	cmd.Env = append(append(os.Environ(), "KUBECONFIG="+p.kubeconfig), p.environ...)
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
func (p *process) kill() bool { return p.stop(syscall.SIGKILL) }

// stop sends the provider sig and returns once it is gone.
func (p *process) stop(sig syscall.Signal) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil {
		return false
	}
	_ = p.cmd.Process.Signal(sig)
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
	cfg := aws.Config{Region: region, BaseEndpoint: aws.String(url), Credentials: credentials.NewStaticCredentialsProvider(checkKey, "s", "")}
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

// The keys the provider signs with: the storm's objects use the
// ClusterProviderConfig, whose credentials source None signs with a fixed
// key; each team of the colliding pairs has a ProviderConfig of its own
// key (pairs_test.go), so that the emulator's history tells whose behalf a
// call was made on. checkKey signs the test's own reads.
const (
	stormKey = awsconfig.NoneAccessKeyID
	checkKey = "AKIDCHECK"
	region   = "us-east-1"
)

// identityOf is the identity (emulator.Creation.Identity) of the AWS
// resource an object asks for.
func identityOf(mg resource.Managed) string {
	switch o := mg.(type) {
	case *streamingv1alpha1.DeliveryStream:
		return emulator.Identity("DeliveryStream", region, o.Spec.ForProvider.DeliveryStreamName)
	case *notificationv1alpha1.Subscription:
		p := o.Spec.ForProvider
		return emulator.Identity("Subscription", region, aws.ToString(p.TopicARN)+" "+snsclient.Protocol(p.Protocol)+" "+aws.ToString(p.Endpoint))
	case *eventbusv1alpha1.Endpoint:
		return emulator.Identity("Endpoint", region, o.Spec.ForProvider.Name)
	case *mlplatformv1alpha1.EndpointConfig:
		return emulator.Identity("EndpointConfig", region, o.Spec.ForProvider.EndpointConfigName)
	case *agentcorev1alpha1.APIKeyCredentialProvider:
		return emulator.Identity("APIKeyCredentialProvider", region, o.Spec.ForProvider.Name)
	}
	return ""
}

// keyOf is the access key the provider signs an object's calls with.
func keyOf(mg resource.Managed) string {
	if k, ok := teamKeys[mg.GetNamespace()]; ok {
		return k
	}
	return stormKey
}

func objectName(mg resource.Managed) string {
	return kindOf(mg) + "/" + mg.GetNamespace() + "/" + mg.GetName()
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
	topicARN := em.CreateTopic(region, "chaos")
	em.CreateModel(region, model)

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
	createSecrets(t, kube, ns, secrets)
	pc := &v1alpha1.ClusterProviderConfig{ObjectMeta: metav1.ObjectMeta{Name: "default"}, Spec: v1alpha1.ClusterProviderConfigSpec{ProviderConfigSpec: v1alpha1.ProviderConfigSpec{
		Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceNone},
		Region:      aws.String(region),
		Endpoint:    &v1alpha1.EndpointOverride{URL: srv.URL},
	}}}
	if err := kube.Create(ctx, pc); err != nil {
		t.Fatal(err)
	}
	teamConfigs := createTeams(t, kube, secrets, srv.URL)

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
	// One colliding pair per kind (pairs_test.go): A counts as any object
	// that lives through the storm, B is expected to be refused.
	pairs := newPairs(topicARN)
	owners := slices.Clone(all)
	for _, pr := range pairs {
		owners = append(owners, pr.a)
	}
	byCreator := map[string]resource.Managed{} // identity and key -> the object the provider creates for
	for _, mg := range owners {
		byCreator[identityOf(mg)+" "+keyOf(mg)] = mg
	}
	for _, pr := range pairs {
		byCreator[identityOf(pr.b)+" "+keyOf(pr.b)] = pr.b
	}
	rivals := watchReady(t, pairs)
	defer rivals.stop()

	// Objects arrive over the first half of the storm, so that kills land
	// among creates; each pair's B a moment after its A. (Drawn before the
	// kills start: from then on the killing goroutine has the random source
	// to itself.)
	plan := arrivals(rng, st, all, pairs)

	// The storm: faults on every call, the provider killed at random
	// moments, every other kill right after a create call reached AWS.
	em.SetFaults(map[string]emulator.Fault{"*": {ThrottleRate: st.throttleRate, ErrorRate: st.errorRat}})
	watching, stopWatching := context.WithCancel(ctx)
	defer stopWatching()
	claims := watchClaims(watching, t, env.ControlPlane.Config, "default")
	p.start()
	stormStart := time.Now()
	killsDone := make(chan killRecord)
	go func() {
		killsDone <- killStorm(st, rng, stormStart, p, em, claims, func(at time.Time) killLook { return lookAtKill(ctx, t, kube, em, byCreator, at) })
	}()

	// Objects arrive as planned; updates come at half time, deletions at two
	// thirds.
	for _, a := range plan {
		time.Sleep(time.Until(stormStart.Add(a.at)))
		if err := kube.Create(ctx, a.mg); err != nil {
			t.Fatal(err)
		}
	}
	for _, mg := range updated {
		bump(t, kube, mg)
	}
	time.Sleep(time.Until(stormStart.Add(st.length * 2 / 3)))
	deleteAsked := map[resource.Managed]time.Time{}
	for _, mg := range deleted {
		deleteAsked[mg] = time.Now()
		if err := kube.Delete(ctx, mg); err != nil {
			t.Fatal(err)
		}
	}
	kr := <-killsDone
	stormTime := time.Since(stormStart)

	// Healed: no faults, the provider running, time to converge: every
	// object where it should end, every B of a pair refused.
	em.SetCreationHook(nil)
	em.ClearFaults()
	p.start()
	healed := time.Now()
	var stuck, unrefused []string
	deadline := healed.Add(st.converge)
	for {
		stuck, unrefused = stuck[:0], unrefused[:0]
		for _, mg := range owners {
			if why := notSettled(ctx, kube, mg, slices.Contains(deleted, mg)); why != "" {
				stuck = append(stuck, fmt.Sprintf("%s: %s", objectName(mg), why))
			}
		}
		for _, pr := range pairs {
			if why := notRefused(ctx, kube, pr.b); why != "" {
				unrefused = append(unrefused, fmt.Sprintf("%s: %s", objectName(pr.b), why))
			}
		}
		if len(stuck)+len(unrefused) == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Second)
	}
	convergeTime := time.Since(healed)

	// What AWS holds, and what it was asked to do.
	inv := em.Inventory()
	creations, writes := em.Creations(), em.Writes()
	leaked, duplicated, lost := 0, 0, 0
	for _, mg := range deleted {
		if n := awsCount(inv, kindOf(mg), mg.GetName()); n > 0 {
			leaked += n
			t.Errorf("%s was deleted, and %d AWS resources are left", objectName(mg), n)
		}
	}
	for _, mg := range owners {
		if n := duplicates(creations, writes, identityOf(mg), []string{keyOf(mg)}, deleteAsked[mg]); n > 0 {
			duplicated += n
			t.Errorf("%s: its AWS resource was created again while the first stood (%d duplicates): %s", objectName(mg), n, creationsOf(creations, identityOf(mg)))
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
			t.Errorf("the last update of %s did not reach AWS: %q (%v)", objectName(mg), v, err)
		}
	}
	for _, s := range stuck {
		t.Errorf("stuck: %s", s)
	}
	for _, s := range unrefused {
		t.Errorf("colliding pair, B not refused: %s", s)
	}

	// The teeth of the storm: it must have killed the provider while a
	// create's result was in flight, the case a lost create comes from.
	afterCreate := killsAfterCreate(kr.looks, afterCreateWindow)
	t.Logf("%d of %d SIGKILLs landed within %s after a create reached AWS, before the provider recorded it (%d aimed at a create)", afterCreate, kr.kills, afterCreateWindow, kr.aimed)
	t.Logf("%d SIGKILLs landed right after an ownership claim was recorded, %d of them before any further create reached AWS", kr.atClaim, kr.beforeCreate)
	for _, k := range kr.looks {
		for _, c := range k.creates {
			t.Logf("  kill at %s: create of %s by %s %s before, recorded: %t", k.at.Format("15:04:05.000"), c.creation.Identity(), c.object, k.at.Sub(c.creation.Time).Round(time.Millisecond), c.recorded)
		}
	}
	if afterCreate == 0 {
		t.Errorf("no SIGKILL landed right after a create (within %s of it reaching AWS, before the provider recorded it): the storm did not test a lost create", afterCreateWindow)
	}

	// The colliding pairs: B goes, A and its AWS resource stay untouched.
	pairsOK := checkPairs(ctx, t, kube, em, pairs, rivals)

	leakedSecrets := secretsIn(t, kube, []string{ns, teamA, teamB}, p.logs, secrets)
	warnedOnce(t, p.logs)
	checkMetrics(t, p.metrics)
	calls, outcomes := em.Calls(), em.Outcomes()

	// Everything goes: nothing may be left in AWS afterwards.
	for _, mg := range owners {
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
	for _, tc := range teamConfigs {
		_ = kube.Delete(ctx, tc)
	}

	report(t, st, kr, afterCreate, p.runs, stormTime, convergeTime, len(all), len(stuck), leaked, len(updated), lost, duplicated, pairsOK, len(pairs), leakedSecrets, calls, outcomes)
	if leakedSecrets > 0 {
		t.Errorf("%d secret values reached logs, events or objects", leakedSecrets)
	}
}

// createSecrets creates the Secrets the objects of a namespace read.
func createSecrets(t *testing.T, kube client.Client, ns string, secrets map[string]string) {
	t.Helper()
	for name, value := range secrets {
		key := map[string]string{workload.AccessKeySecret: workload.AccessKeyKey, workload.APIKeySecret: workload.APIKeyKey}[name]
		if err := kube.Create(context.Background(), &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, StringData: map[string]string{key: value}}); err != nil {
			t.Fatal(err)
		}
	}
}

// An arrival is when, into the storm, an object is created.
type arrival struct {
	at time.Duration
	mg resource.Managed
}

// pairGap is how long after A of a colliding pair its B arrives: more than
// the one-second granularity of creation timestamps, so that the API server
// records A as the older object, and long enough that a provider that
// reconciles new objects at once asks for A's resource first; short enough
// that A's create is still exposed to the storm's throttling, errors and
// kills when B comes, and may not have reached AWS yet: the order in
// Kubernetes, not the luck of the first create to get through, is what must
// decide the owner.
const pairGap = 2 * time.Second

// arrivals spreads the storm's objects evenly over the first half of the
// storm, in random order, and each pair at a random moment of it, B pairGap
// after A.
func arrivals(rng *rand.Rand, st storm, all []resource.Managed, pairs []pair) []arrival {
	half := st.length / 2
	step := half / time.Duration(len(all))
	out := make([]arrival, 0, len(all)+2*len(pairs))
	for j, i := range rng.Perm(len(all)) {
		out = append(out, arrival{at: time.Duration(j) * step, mg: all[i]})
	}
	span := max(half-pairGap, time.Millisecond)
	for _, pr := range pairs {
		at := time.Duration(rng.Int64N(int64(span)))
		out = append(out, arrival{at: at, mg: pr.a}, arrival{at: at + pairGap, mg: pr.b})
	}
	slices.SortStableFunc(out, func(a, b arrival) int { return cmp.Compare(a.at, b.at) })
	return out
}

// A killRecord is what the kills of a storm did.
type killRecord struct {
	kills, aimed int
	// atClaim counts the kills aimed right after the provider recorded an
	// ownership claim; beforeCreate those of them that landed before any
	// further create reached AWS: between a claim and its create.
	atClaim, beforeCreate int
	looks                 []killLook
}

// killStorm kills the provider st.kills times over the storm, at random
// moments, and starts it again after each. Every other kill is aimed: it
// waits up to 5 s for a create to reach AWS and kills the provider in the
// emulator's creation hook, after the create happened and before its answer
// left; until one aimed kill landed, every kill is aimed, so that a storm
// whose first aimed kill found no create (the provider still starting, or
// every create throttled) tries again. look is called right after each kill,
// while the provider is dead. The creation hook stays set until the storm
// heals.
//
// Every third kill is aimed at an ownership claim instead: it waits up to 5 s
// for the provider to record a claim (claims delivers them) and kills it at
// once, before the create the claim was taken for, if it is quick enough.
func killStorm(st storm, rng *rand.Rand, stormStart time.Time, p *process, em *emulator.Server, claims <-chan struct{}, look func(time.Time) killLook) killRecord {
	var (
		hookMu sync.Mutex
		armed  chan time.Time
	)
	em.SetCreationHook(func(emulator.Creation) {
		hookMu.Lock()
		a := armed
		armed = nil
		hookMu.Unlock()
		if a != nil && p.kill() {
			a <- time.Now()
		}
	})
	var r killRecord
	for i := range st.kills {
		// Kill i falls around (i+½)/kills of the storm.
		at := time.Duration(float64(st.length) * (float64(i) + 0.25 + 0.5*rng.Float64()) / float64(st.kills))
		time.Sleep(time.Until(stormStart.Add(at)))
		var killed time.Time
		switch {
		case i%3 == 1 && r.aimed > 0:
			killed = killAtClaim(p, em, claims, &r)
		case i%2 == 0 || r.aimed == 0:
			a := make(chan time.Time, 1)
			hookMu.Lock()
			armed = a
			hookMu.Unlock()
			select {
			case killed = <-a:
				r.aimed++
			case <-time.After(5 * time.Second):
				hookMu.Lock()
				taken := armed == nil
				armed = nil
				hookMu.Unlock()
				if taken {
					// The hook took the arm as the time ran out.
					select {
					case killed = <-a:
						r.aimed++
					case <-time.After(time.Second):
					}
				}
				if killed.IsZero() && p.kill() {
					killed = time.Now()
				}
			}
		case p.kill():
			killed = time.Now()
		}
		if !killed.IsZero() {
			r.kills++
			r.looks = append(r.looks, look(killed))
		}
		time.Sleep(time.Duration(200+rng.IntN(800)) * time.Millisecond)
		p.start()
	}
	return r
}

// killAtClaim kills the provider as soon as it records an ownership claim,
// within 5 s, else at once.
func killAtClaim(p *process, em *emulator.Server, claims <-chan struct{}, r *killRecord) time.Time {
	for {
		select {
		case <-claims: // claims recorded before this kill was aimed
			continue
		default:
		}
		break
	}
	select {
	case <-claims:
		created := len(em.Creations())
		if !p.kill() {
			return time.Time{}
		}
		r.atClaim++
		if len(em.Creations()) == created {
			r.beforeCreate++
		}
		return time.Now()
	case <-time.After(5 * time.Second):
		if p.kill() {
			return time.Now()
		}
		return time.Time{}
	}
}

// watchClaims delivers an event each time the provider records an ownership
// claim (a Lease of the claims namespace), until ctx ends.
func watchClaims(ctx context.Context, t *testing.T, cfg *rest.Config, namespace string) <-chan struct{} {
	t.Helper()
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	w, err := cs.CoordinationV1().Leases(namespace).Watch(ctx, metav1.ListOptions{LabelSelector: ownership.LabelClaim + "=true"})
	if err != nil {
		t.Fatal(err)
	}
	out := make(chan struct{}, 1)
	go func() {
		defer w.Stop()
		for ev := range w.ResultChan() {
			if ev.Type != watch.Added {
				continue
			}
			select {
			case out <- struct{}{}:
			default:
			}
		}
	}()
	return out
}

// lookAtKill reads, right after a kill and while the provider is dead, the
// objects of the creates AWS accepted in the afterCreateWindow before it,
// and whether each recorded its create's result: for crossplane-runtime's
// managed reconciler, the external-create-succeeded annotation it writes
// after every create that succeeded (seconds, hence the truncation); for a
// subscription also the ARN as external name.
func lookAtKill(ctx context.Context, t *testing.T, kube client.Client, em *emulator.Server, byCreator map[string]resource.Managed, at time.Time) killLook {
	look := killLook{at: at}
	for _, c := range em.Creations() {
		if c.Time.After(at) || at.Sub(c.Time) > afterCreateWindow || c.AccessKey == checkKey {
			continue
		}
		mg, ok := byCreator[c.Identity()+" "+c.AccessKey]
		if !ok {
			t.Errorf("AWS accepted a create the storm asked no object for: %+v", c)
			continue
		}
		o := mg.DeepCopyObject().(resource.Managed) //nolint:forcetypeassert // a copy of its own type
		err := kube.Get(ctx, client.ObjectKeyFromObject(mg), o)
		if err != nil && !kerrors.IsNotFound(err) {
			t.Logf("cannot read %s after a kill: %v", objectName(mg), err)
			continue
		}
		// An object gone is one that cannot have recorded it.
		succeeded := meta.GetExternalCreateSucceeded(o)
		recorded := err == nil && (!succeeded.IsZero() && !succeeded.Before(c.Time.Truncate(time.Second)) ||
			c.Kind == "Subscription" && meta.GetExternalName(o) == c.ARN)
		look.creates = append(look.creates, createAtKill{creation: c, object: objectName(mg), recorded: recorded})
	}
	return look
}

// creationsOf lists the creations of one identity, for a message.
func creationsOf(creations []emulator.Creation, identity string) string {
	var b strings.Builder
	for _, c := range creations {
		if c.Identity() == identity {
			fmt.Fprintf(&b, "[#%d %s by %s at %s] ", c.Seq, c.ARN, c.AccessKey, c.Time.Format("15:04:05.000"))
		}
	}
	return b.String()
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
	setVersion(t, kube, mg, after)
}

// setVersion sets an object's updatable field to version v, retrying on
// conflicts with the provider's own writes.
func setVersion(t *testing.T, kube client.Client, mg resource.Managed, v string) {
	t.Helper()
	for range 50 {
		if err := kube.Get(context.Background(), client.ObjectKeyFromObject(mg), mg); err != nil {
			t.Fatal(err)
		}
		switch o := mg.(type) {
		case *streamingv1alpha1.DeliveryStream:
			o.Spec.ForProvider.Tags = []common.Tag{{Key: aws.String("version"), Value: aws.String(v)}}
		case *notificationv1alpha1.Subscription:
			o.Spec.ForProvider.FilterPolicy = aws.String(workload.FilterPolicy(v))
		case *eventbusv1alpha1.Endpoint:
			o.Spec.ForProvider.Description = aws.String(v)
		case *mlplatformv1alpha1.EndpointConfig:
			o.Spec.ForProvider.Tags = []common.Tag{{Key: aws.String("version"), Value: aws.String(v)}}
		case *agentcorev1alpha1.APIKeyCredentialProvider:
			o.Spec.ForProvider.Tags = map[string]string{"version": v}
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
// namespaces' events and the objects themselves.
func secretsIn(t *testing.T, kube client.Client, namespaces, logs []string, secrets map[string]string) int {
	t.Helper()
	var texts []string
	for _, l := range logs {
		b, err := os.ReadFile(l)
		if err != nil {
			t.Error(err)
		}
		texts = append(texts, string(b))
	}
	for _, ns := range namespaces {
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
	}
	n := 0
	for _, text := range texts {
		for _, v := range secrets {
			n += strings.Count(text, v)
		}
	}
	return n
}

// warnedOnce checks that each run of the provider logged the API server's
// warning about crossplane-runtime's finalizer name at most once, however
// many objects it wrote the finalizer of.
func warnedOnce(t *testing.T, logs []string) {
	t.Helper()
	const warning, finalizer = "prefer a domain-qualified finalizer name", "finalizer.managedresource.crossplane.io"
	for _, l := range logs {
		b, err := os.ReadFile(l)
		if err != nil {
			t.Error(err)
			continue
		}
		n := 0
		for line := range strings.Lines(string(b)) {
			if strings.Contains(line, warning) && strings.Contains(line, finalizer) {
				n++
			}
		}
		if n > 1 {
			t.Errorf("%s: the API server's warning that %s should have a path logged %d times, want at most once", l, finalizer, n)
		}
	}
}

func report(t *testing.T, st storm, kr killRecord, afterCreate, runs int, stormTime, convergeTime time.Duration, resources, stuck, leaked, updates, lost, duplicated, pairsOK, pairs, secrets int,
	calls map[string]int, outcomes map[string]map[string]int) {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "\n| figure | result |\n|---|---|\n")
	fmt.Fprintf(&b, "| resources (per kind) | %d (%d), and %d colliding pairs |\n", resources, st.perKind, pairs)
	fmt.Fprintf(&b, "| faults | %.0f%% throttled, %.0f%% HTTP 500 |\n", st.throttleRate*100, st.errorRat*100)
	fmt.Fprintf(&b, "| SIGKILLs (aimed at a create; landed within %s of a create, unrecorded) | %d (%d; %d), %d provider starts |\n", afterCreateWindow, kr.kills, kr.aimed, afterCreate, runs)
	fmt.Fprintf(&b, "| SIGKILLs right after an ownership claim (before any further create) | %d (%d) |\n", kr.atClaim, kr.beforeCreate)
	fmt.Fprintf(&b, "| storm / converge after healing | %s / %s |\n", stormTime.Round(time.Second), convergeTime.Round(time.Second))
	fmt.Fprintf(&b, "| resources stuck for good | %d of %d |\n", stuck, resources+pairs)
	fmt.Fprintf(&b, "| deleted resources left on AWS | %d |\n", leaked)
	fmt.Fprintf(&b, "| updates never applied | %d of %d |\n", lost, updates)
	fmt.Fprintf(&b, "| duplicates (AWS resources created again while their object stood) | %d |\n", duplicated)
	fmt.Fprintf(&b, "| colliding pairs: A owns, B refused, B's deletion leaves A's resource | %d of %d |\n", pairsOK, pairs)
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
