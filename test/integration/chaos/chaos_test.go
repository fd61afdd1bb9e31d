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
	"context"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
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
