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

package chaos

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
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
	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
	awscontroller "github.com/cloudkinds/provider-aws-services/internal/provider"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/shard"
	"github.com/cloudkinds/provider-aws-services/test/emulator"
	"github.com/cloudkinds/provider-aws-services/test/workload"
)

const (
	shNamespace = "sharding"
	shHome      = "provider-sharding"
	shShards    = 12
	shAccounts  = 6
	// handOverBudget is how long a change may take to reach AWS after the
	// replica that held its account stopped cleanly.
	handOverBudget = 8 * time.Second
)

// TestShardedReplicas runs three replicas of the provider with --shards on
// one API server, the work of six AWS accounts: each replica holds a third
// of the shards, and only the replicas that hold an account's shard call
// AWS. One replica is killed with SIGKILL and every object of its accounts
// changed at once: each change reaches AWS within 20 s of the kill (the
// others take its shards once its Leases expire), every object stays Ready
// and Synced, and no AWS resource is created twice. Then another replica is
// stopped cleanly (SIGTERM): it hands its shards over at once.
func TestShardedReplicas(t *testing.T) {
	if env.BuildErr != nil {
		t.Fatal(env.BuildErr)
	}
	ctx := context.Background()
	kube := env.ControlPlane.Client

	accounts := emulator.NewAccounts(shAccounts, emulator.Options{})
	srv := httptest.NewServer(accounts)
	defer srv.Close()
	dir := t.TempDir()
	kubeconfig := filepath.Join(dir, "kubeconfig")
	if err := os.WriteFile(kubeconfig, env.ControlPlane.KubeConfig, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, ns := range []string{shNamespace, shHome} {
		if err := kube.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil && !kerrors.IsAlreadyExists(err) {
			t.Fatal(err)
		}
	}
	createSecrets(t, kube, shNamespace, map[string]string{workload.AccessKeySecret: "sh-access-key", workload.APIKeySecret: "sk-sh"})

	// Each account: its config, its topic and model, one object of each
	// kind, and a client of its own to read what AWS holds.
	objects := map[int][]resource.Managed{}
	readers := map[int]awsClients{}
	for i, key := range accounts.Keys {
		name := fmt.Sprintf("sharding-%02d", i+1)
		secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: shNamespace, Name: name}, StringData: map[string]string{
			"credentials": fmt.Sprintf("[default]\naws_access_key_id = %s\naws_secret_access_key = s\n", key)}}
		if err := kube.Create(ctx, secret); err != nil {
			t.Fatal(err)
		}
		pc := &v1alpha1.ClusterProviderConfig{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: v1alpha1.ClusterProviderConfigSpec{ProviderConfigSpec: v1alpha1.ProviderConfigSpec{
			Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceSecret,
				SecretRef: &xpv2.SecretKeySelector{SecretReference: xpv2.SecretReference{Name: name, Namespace: shNamespace}, Key: "credentials"}},
			Region:   aws.String(region),
			Endpoint: &v1alpha1.EndpointOverride{URL: srv.URL},
		}}}
		if err := kube.Create(ctx, pc); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = kube.Delete(ctx, pc) })
		em := accounts.Account(i)
		em.CreateModel(region, model)
		topicARN := em.CreateTopic(region, "sharding")
		for _, kind := range kinds {
			mg := workload.Set{TopicARN: topicARN, Model: model}.Object(kind, shNamespace, fmt.Sprintf("sh-%s-%02d", strings.ToLower(kind), i+1), before)
			mg.(resource.ModernManaged).SetProviderConfigReference(&xpv2.ProviderConfigReference{Kind: v1alpha1.ClusterProviderConfigKind, Name: name}) //nolint:forcetypeassert // every kind is one
			objects[i] = append(objects[i], mg)
		}
		cfg := aws.Config{Region: region, BaseEndpoint: aws.String(srv.URL), Credentials: credentials.NewStaticCredentialsProvider(key, "s", "")}
		readers[i] = awsClients{firehose.NewFromConfig(cfg), sns.NewFromConfig(cfg), eventbridge.NewFromConfig(cfg), sagemaker.NewFromConfig(cfg), bedrockagentcorecontrol.NewFromConfig(cfg)}
	}

	replicas := make([]*replica, 3)
	for i := range replicas {
		name := fmt.Sprintf("shard-replica-%c", 'a'+i)
		health := freeAddress(t)
		replicas[i] = &replica{health: health, process: &process{
			t: t, kubeconfig: kubeconfig, logDir: dir, metrics: freeAddress(t), name: name, health: health,
			args:    []string{fmt.Sprintf("--shards=%d", shShards), "--namespace=" + shHome},
			environ: []string{"POD_NAME=" + name},
		}}
		t.Cleanup(func() { replicas[i].kill() })
	}
	defer logsIfFailed(t, replicas...)
	for _, r := range replicas {
		r.waitReady(t)
	}
	// The shards divided before any work comes, so that each account's
	// work is one replica's from the start.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		per := map[string]int{}
		for _, h := range shardHolders(ctx, t, kube) {
			per[replicaName(h)]++
		}
		if len(per) == len(replicas) && per[replicas[0].name] == per[replicas[1].name] && per[replicas[1].name] == per[replicas[2].name] {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the shards not divided 30 s after the replicas were ready: %v", per)
		}
	}
	for _, mgs := range objects {
		for _, mg := range mgs {
			if err := kube.Create(ctx, mg); err != nil {
				t.Fatal(err)
			}
		}
	}
	all := slices.Concat(mapValues(objects)...)
	if stuck := settle(ctx, kube, all, time.Minute); len(stuck) > 0 {
		t.Fatalf("not settled after a minute: %s", stuck)
	}

	// Who holds what: each replica a third of the shards, each account's
	// shard one replica's.
	held := shardHolders(ctx, t, kube)
	per := map[string]int{}
	for _, h := range held {
		per[h]++
	}
	t.Logf("shards held: %v", per)
	for _, r := range replicas {
		if n := per[holderOf(per, r.name)]; n != shShards/len(replicas) {
			t.Errorf("%s holds %d shards, want %d", r.name, n, shShards/len(replicas))
		}
	}
	of := shard.New(nil, shHome, "", shShards, shard.Timing(awscontroller.DefaultLease), logging.NewNopLogger(), clock.RealClock{})
	accountsOf := map[string][]int{}
	for i, id := range accounts.IDs {
		h := held[of.Of(id+" at "+srv.URL)]
		accountsOf[replicaName(h)] = append(accountsOf[replicaName(h)], i)
	}
	t.Logf("accounts by replica: %v", accountsOf)
	// Each object is labelled with its account's shard, and each replica
	// caches only the objects of its accounts (a replica that let shards
	// go drops them from its cache shrinkAfter, 30 s, later).
	for i, mgs := range objects {
		want := of.Label(accounts.IDs[i] + " at " + srv.URL)
		for _, mg := range mgs {
			got := mg.DeepCopyObject().(client.Object) //nolint:forcetypeassert // a managed resource is one
			if err := kube.Get(ctx, client.ObjectKeyFromObject(mg), got); err != nil {
				t.Fatal(err)
			}
			if l := got.GetLabels()[shard.LabelShard]; l != want {
				t.Errorf("%s: label %s=%q, want its account's shard %q", objectName(mg), shard.LabelShard, l, want)
			}
		}
	}
	// (Objects not labelled yet, as other tests' may be, are cached by
	// every replica: they are counted apart, as shard "none".)
	own, others := map[string]float64{}, map[string]float64{}
	for deadline := time.Now().Add(45 * time.Second); ; time.Sleep(time.Second) {
		divided := true
		for _, r := range replicas {
			own[r.name], others[r.name] = 0, 0
			for label, count := range cachedByShard(t, r.metrics) {
				if n, err := strconv.Atoi(label); err == nil && replicaName(held[n]) == r.name {
					own[r.name] += count
				} else if label != "none" {
					others[r.name] += count
				}
			}
			divided = divided && others[r.name] == 0 && own[r.name] == float64(len(kinds)*len(accountsOf[r.name]))
		}
		if divided || time.Now().After(deadline) {
			break
		}
	}
	for _, r := range replicas {
		if want := len(kinds) * len(accountsOf[r.name]); own[r.name] != float64(want) || others[r.name] != 0 {
			t.Errorf("%s caches %.0f managed resources of its shards and %.0f of other replicas', want the %d of its accounts %v and none", r.name, own[r.name], others[r.name], want, accountsOf[r.name])
		}
	}
	t.Logf("managed resources cached by replica, of its shards: %v; of others': %v", own, others)

	// A tenant labels an object with a shard another replica holds: only
	// that replica sees it then, and it labels it back, so that the
	// replica of its account serves it again.
	forged := objects[0][0]
	right := of.Label(accounts.IDs[0] + " at " + srv.URL)
	wrong := ""
	for n, h := range held {
		if h != held[of.Of(accounts.IDs[0]+" at "+srv.URL)] {
			wrong = strconv.Itoa(n)
			break
		}
	}
	patch := client.RawPatch(types.MergePatchType, fmt.Appendf(nil, `{"metadata":{"labels":{%q:%q}}}`, shard.LabelShard, wrong))
	if err := kube.Patch(ctx, forged.DeepCopyObject().(client.Object), patch); err != nil { //nolint:forcetypeassert // a managed resource is one
		t.Fatal(err)
	}
	forgedAt := time.Now()
	var label string
	for deadline := forgedAt.Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		got := forged.DeepCopyObject().(client.Object) //nolint:forcetypeassert // a managed resource is one
		if err := kube.Get(ctx, client.ObjectKeyFromObject(forged), got); err != nil {
			t.Fatal(err)
		}
		if label = got.GetLabels()[shard.LabelShard]; label == right {
			break
		}
	}
	if label != right {
		t.Errorf("%s labelled with shard %s by a tenant: label %q 15 s later, want it back to its account's %q", objectName(forged), wrong, label, right)
	} else {
		t.Logf("%s labelled with another replica's shard: labelled back %s later", objectName(forged), time.Since(forgedAt).Round(100*time.Millisecond))
	}
	// Every replica learns each account's ID (one STS call per account and
	// replica); only an account's replica calls its services.
	for _, r := range replicas {
		calls := awsCallsOf(t, r.metrics)
		if (calls > 0) != (len(accountsOf[r.name]) > 0) {
			t.Errorf("%s made %.0f calls to the accounts' services and holds the shards of accounts %v: want calls only from the replica of an account", r.name, calls, accountsOf[r.name])
		}
	}

	// The replica of the most accounts is killed; its accounts' objects
	// change at once.
	victim := replicas[0]
	for _, r := range replicas {
		if len(accountsOf[r.name]) > len(accountsOf[victim.name]) {
			victim = r
		}
	}
	victim.kill()
	killed := time.Now()
	var changed []resource.Managed
	for _, i := range accountsOf[victim.name] {
		for _, mg := range objects[i] {
			setVersion(t, kube, mg, after)
			changed = append(changed, mg)
		}
	}
	longest, pending := onAWS(ctx, changed, func(mg resource.Managed) awsClients { return readers[accountOf(objects, mg)] }, killed, failoverBudget+10*time.Second)
	t.Logf("%s killed, holding %d shards and %d accounts; the %d changes of its accounts on AWS %s after the kill",
		victim.name, per[holderOf(per, victim.name)], len(accountsOf[victim.name]), len(changed), longest.Round(100*time.Millisecond))
	for _, mg := range pending {
		t.Errorf("%s: the change did not reach AWS within %s of the kill", objectName(mg), time.Since(killed).Round(time.Second))
	}
	if longest > failoverBudget {
		t.Errorf("the changes reached AWS %s after the kill, want within %s", longest.Round(100*time.Millisecond), failoverBudget)
	}
	if stuck := settle(ctx, kube, all, 30*time.Second); len(stuck) > 0 {
		t.Errorf("not settled after the failover: %s", stuck)
	}
	// Its shards without an account may be taken a round after those
	// with one: each must be held by another within the failover budget.
	var stillHeld []int
	for deadline := killed.Add(failoverBudget); ; time.Sleep(200 * time.Millisecond) {
		stillHeld = stillHeld[:0]
		for n, h := range shardHolders(ctx, t, kube) {
			if replicaName(h) == victim.name {
				stillHeld = append(stillHeld, n)
			}
		}
		if len(stillHeld) == 0 || time.Now().After(deadline) {
			break
		}
	}
	for _, n := range stillHeld {
		t.Errorf("shard %d is still held by the killed %s %s after the kill", n, victim.name, time.Since(killed).Round(time.Second))
	}

	// A replica that stops cleanly (a rolling update, a drain) hands its
	// shards over at once: the changes of its accounts reach AWS within a
	// few seconds, not a lease's duration.
	var leaving *replica
	for _, r := range replicas {
		if r != victim && len(accountsOf[r.name]) > 0 && (leaving == nil || len(accountsOf[r.name]) > len(accountsOf[leaving.name])) {
			leaving = r
		}
	}
	if leaving != nil {
		leaving.stop(syscall.SIGTERM)
		stopped := time.Now()
		var back []resource.Managed
		for _, i := range accountsOf[leaving.name] {
			for _, mg := range objects[i] {
				setVersion(t, kube, mg, after)
				back = append(back, mg)
			}
		}
		slowest, back := onAWS(ctx, back, func(mg resource.Managed) awsClients { return readers[accountOf(objects, mg)] }, stopped, 30*time.Second)
		t.Logf("%s stopped (SIGTERM) holding %d accounts; their changes on AWS %s after the signal", leaving.name, len(accountsOf[leaving.name]), slowest.Round(100*time.Millisecond))
		for _, mg := range back {
			t.Errorf("%s: the change did not reach AWS within %s of the SIGTERM", objectName(mg), time.Since(stopped).Round(time.Second))
		}
		if slowest > handOverBudget {
			t.Errorf("after a SIGTERM the changes reached AWS %s later, want within %s", slowest.Round(100*time.Millisecond), handOverBudget)
		}
	}

	for i := range accounts.IDs {
		creations := accounts.Account(i).Creations()
		for _, c := range creations {
			if n := countCreations(creations, c.Identity()); n != 1 {
				t.Errorf("account %s: %s created %d times", accounts.IDs[i], c.Identity(), n)
			}
		}
		if len(creations) != len(kinds) {
			t.Errorf("account %s: %d creations, want one of each of the %d kinds", accounts.IDs[i], len(creations), len(kinds))
		}
	}
}
