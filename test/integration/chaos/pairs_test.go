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
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cloudkinds/provider-aws-services/apis/v1alpha1"
	"github.com/cloudkinds/provider-aws-services/test/emulator"
	"github.com/cloudkinds/provider-aws-services/test/workload"
)

// Colliding pairs: two teams, each in its namespace with a ProviderConfig
// of its own credentials in one AWS account, ask for the same AWS resource.
// For each kind, object A in teamA asks first, object B in teamB the same
// resource (the same name; for a Subscription the same topic, protocol and
// endpoint) pairGap later, both during the storm. One AWS resource has one
// owner: A owns it, created exactly once; B is refused (Synced False, saying
// that this object does not manage it), is never Ready, and nothing is
// written to AWS on its behalf; deleting B removes B only, and A and its
// resource stay as they were.
//
// Each team signs with its own key, so that the emulator's history says on
// whose behalf each call was made: a write signed with teamB's key is a
// write on B's behalf, since B's are the only objects of teamB, and each asks
// for a resource that A owns.
const (
	teamA = "team-a-chaos"
	teamB = "team-b-chaos"
	// refusal is what B's Synced condition says.
	refusal = "this object does not manage it"
	// teamConfig names each team's ProviderConfig.
	teamConfig = "team"
)

var teamKeys = map[string]string{teamA: "AKIDCHAOSTEAMA", teamB: "AKIDCHAOSTEAMB"}

// kindServices are the services of the kinds, as the emulator names them.
var kindServices = map[string]string{
	"DeliveryStream": "firehose", "Subscription": "sns", "Endpoint": "events", "EndpointConfig": "sagemaker", "APIKeyCredentialProvider": "bedrock-agentcore",
}

// A pair is two objects of one kind in two namespaces that ask for the same
// AWS resource.
type pair struct {
	kind string
	a, b resource.Managed
}

// newPairs returns a pair of each kind. B has a name of its own, so that
// what collides is the AWS resource the spec asks for, not the object's
// name.
func newPairs(topicARN string) []pair {
	set := workload.Set{TopicARN: topicARN, Model: model}
	ref := &xpv2.ProviderConfigReference{Kind: v1alpha1.ProviderConfigKind, Name: teamConfig}
	out := make([]pair, 0, len(kinds))
	for _, kind := range kinds {
		name := "chaos-pair-" + strings.ToLower(kind)
		a, b := set.Object(kind, teamA, name, before), set.Object(kind, teamB, name, before)
		b.SetName("chaos-rival-" + strings.ToLower(kind))
		for _, mg := range []resource.Managed{a, b} {
			mg.(resource.TypedProviderConfigReferencer).SetProviderConfigReference(ref) //nolint:forcetypeassert // every kind has a typed reference
		}
		out = append(out, pair{kind: kind, a: a, b: b})
	}
	return out
}

// createTeams creates the teams' namespaces, with the Secrets their objects
// read and a ProviderConfig that signs with the team's key, and returns the
// ProviderConfigs.
func createTeams(t *testing.T, kube client.Client, secrets map[string]string, url string) []client.Object {
	t.Helper()
	ctx := context.Background()
	out := make([]client.Object, 0, len(teamKeys))
	for _, ns := range []string{teamA, teamB} {
		if err := kube.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil && !kerrors.IsAlreadyExists(err) {
			t.Fatal(err)
		}
		createSecrets(t, kube, ns, secrets)
		out = append(out, createConfig(t, kube, ns, teamConfig, teamKeys[ns], url))
	}
	return out
}

// createConfig creates in namespace ns a ProviderConfig named name that
// signs with key, from a credentials file in the Secret "aws" (created
// too), and calls AWS at url.
func createConfig(t *testing.T, kube client.Client, ns, name, key, url string) client.Object {
	t.Helper()
	ctx := context.Background()
	ini := fmt.Sprintf("[default]\naws_access_key_id = %s\naws_secret_access_key = s\n", key)
	if err := kube.Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "aws"}, StringData: map[string]string{"credentials": ini}}); err != nil {
		t.Fatal(err)
	}
	pc := &v1alpha1.ProviderConfig{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Spec: v1alpha1.ProviderConfigSpec{
		Credentials: v1alpha1.ProviderCredentials{Source: v1alpha1.CredentialsSourceSecret,
			SecretRef: &xpv2.SecretKeySelector{SecretReference: xpv2.SecretReference{Name: "aws", Namespace: ns}, Key: "credentials"}},
		Region:   aws.String(region),
		Endpoint: &v1alpha1.EndpointOverride{URL: url},
	}}
	if err := kube.Create(ctx, pc); err != nil {
		t.Fatal(err)
	}
	return pc
}

// notRefused says why B of a pair does not show the refusal: Synced False
// saying that this object does not manage the resource, and not Ready.
func notRefused(ctx context.Context, kube client.Client, b resource.Managed) string {
	o := b.DeepCopyObject().(resource.Managed) //nolint:forcetypeassert // a copy of its own type
	if err := kube.Get(ctx, client.ObjectKeyFromObject(b), o); err != nil {
		return err.Error()
	}
	r, s := o.GetCondition(xpv2.TypeReady), o.GetCondition(xpv2.TypeSynced)
	if s.Status != corev1.ConditionFalse || !strings.Contains(s.Message, refusal) || r.Status == corev1.ConditionTrue {
		return conditionsOf(o)
	}
	return ""
}

// A readyWatch watches the B objects of the pairs, from before they exist
// until it is stopped, and remembers each one it saw Ready. A watch sees
// every state the API server stored, where polling could miss a short one.
type readyWatch struct {
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu    sync.Mutex
	ready map[string]string // object -> its conditions when first seen Ready
}

func watchReady(t *testing.T, pairs []pair) *readyWatch {
	t.Helper()
	wc, err := client.NewWithWatch(env.ControlPlane.Config, client.Options{Scheme: env.ControlPlane.Scheme})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	w := &readyWatch{cancel: cancel, ready: map[string]string{}}
	for _, pr := range pairs {
		w.wg.Add(1)
		go func() {
			defer w.wg.Done()
			w.run(ctx, t, wc, pr.kind)
		}()
	}
	return w
}

func (w *readyWatch) run(ctx context.Context, t *testing.T, wc client.WithWatch, kind string) {
	for ctx.Err() == nil {
		// A watch the API server ends is started again; one started anew
		// begins with every object's present state.
		wi, err := wc.Watch(ctx, workload.List(kind), client.InNamespace(teamB))
		if err != nil {
			if ctx.Err() == nil {
				t.Logf("cannot watch %s in %s: %v", kind, teamB, err)
				time.Sleep(100 * time.Millisecond)
			}
			continue
		}
		func() {
			defer wi.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case ev, ok := <-wi.ResultChan():
					if !ok {
						return
					}
					mg, isMR := ev.Object.(resource.Managed)
					if !isMR || mg.GetCondition(xpv2.TypeReady).Status != corev1.ConditionTrue {
						continue
					}
					w.mu.Lock()
					if _, seen := w.ready[objectName(mg)]; !seen {
						w.ready[objectName(mg)] = conditionsOf(mg)
					}
					w.mu.Unlock()
				}
			}
		}()
	}
}

// seenReady returns the conditions of an object when it was first seen
// Ready, or "" if it never was.
func (w *readyWatch) seenReady(mg resource.Managed) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.ready[objectName(mg)]
}

func (w *readyWatch) stop() {
	w.cancel()
	w.wg.Wait()
}

// deleteGrace is how long the pairs' check waits, after every B is gone,
// before it looks at A's resources: several times the emulator's 1 s
// deletion, so that a delete asked for on B's behalf would have removed
// the resource from the inventory, and a create after it would show.
const deleteGrace = 3 * time.Second

// checkPairs deletes every B of the pairs after the storm and checks what
// the pairs must show (see the comment on teamA), returning how many pairs
// passed.
func checkPairs(ctx context.Context, t *testing.T, kube client.Client, em *emulator.Server, pairs []pair, rivals *readyWatch) int {
	t.Helper()
	ok := map[string]bool{}
	externalNames := map[string]string{}
	for _, pr := range pairs {
		ok[pr.kind] = true
		fail := func(format string, args ...any) {
			t.Helper()
			ok[pr.kind] = false
			t.Errorf("colliding %s pair: "+format, append([]any{pr.kind}, args...)...)
		}
		if why := notRefused(ctx, kube, pr.b); why != "" {
			fail("%s is not refused: %s", objectName(pr.b), why)
		}
		a := pr.a.DeepCopyObject().(resource.Managed) //nolint:forcetypeassert // a copy of its own type
		if err := kube.Get(ctx, client.ObjectKeyFromObject(pr.a), a); err != nil {
			fail("%v", err)
		}
		externalNames[pr.kind] = meta.GetExternalName(a)
		if err := kube.Delete(ctx, pr.b); err != nil && !kerrors.IsNotFound(err) {
			fail("cannot delete %s: %v", objectName(pr.b), err)
		}
	}

	// Deleting B removes B: its finalizer goes without a call to AWS.
	deadline := time.Now().Add(time.Minute)
	for _, pr := range pairs {
		for {
			err := kube.Get(ctx, client.ObjectKeyFromObject(pr.b), pr.b.DeepCopyObject().(client.Object)) //nolint:forcetypeassert // a copy of its own type
			if kerrors.IsNotFound(err) {
				break
			}
			if time.Now().After(deadline) {
				ok[pr.kind] = false
				t.Errorf("colliding %s pair: %s was deleted and is still there a minute later: %s", pr.kind, objectName(pr.b), notRefused(ctx, kube, pr.b))
				break
			}
			time.Sleep(250 * time.Millisecond)
		}
	}
	time.Sleep(deleteGrace)
	rivals.stop()

	inv, creations, writes := em.Inventory(), em.Creations(), em.Writes()
	for _, pr := range pairs {
		fail := func(format string, args ...any) {
			t.Helper()
			ok[pr.kind] = false
			t.Errorf("colliding %s pair: "+format, append([]any{pr.kind}, args...)...)
		}
		// B never Ready, through the storm, the convergence and its
		// deletion.
		if c := rivals.seenReady(pr.b); c != "" {
			fail("%s, which does not own its AWS resource, was Ready: %s", objectName(pr.b), c)
		}
		// No write on B's behalf: not a create, an update, a tag or a
		// delete, nor a Subscribe answered with A's subscription.
		for _, w := range writes {
			if w.AccessKey == teamKeys[teamB] && w.Service == kindServices[pr.kind] {
				fail("AWS accepted a write on behalf of %s: %s %s at %s", objectName(pr.b), w.Operation, w.Resource, w.Time.Format("15:04:05.000"))
			}
		}
		// A's resource: created exactly once, by A, never since, and there.
		id := identityOf(pr.a)
		var mine []emulator.Creation
		for _, c := range creations {
			if c.Identity() == id {
				mine = append(mine, c)
			}
		}
		switch {
		case len(mine) != 1:
			fail("%s was created %d times, want once: %s", id, len(mine), creationsOf(creations, id))
		case mine[0].AccessKey != teamKeys[teamA]:
			fail("%s was created on behalf of another than %s, signed with %s", id, objectName(pr.a), mine[0].AccessKey)
		}
		if n := awsCount(inv, pr.kind, pr.a.GetName()); n != 1 {
			fail("after %s was deleted, %d AWS resources of %s are left, want A's one", objectName(pr.b), n, id)
		}
		if pr.kind == "Subscription" && !slices.ContainsFunc(inv.Subscriptions, func(s emulator.InventorySubscription) bool { return s.ARN == externalNames[pr.kind] }) {
			fail("A's subscription %q is gone: %+v", externalNames[pr.kind], inv.Subscriptions)
		}
		// A as it was: Ready, Synced, the same external name.
		if why := notSettled(ctx, kube, pr.a, false); why != "" {
			fail("%s after %s was deleted: %s", objectName(pr.a), objectName(pr.b), why)
		}
		a := pr.a.DeepCopyObject().(resource.Managed) //nolint:forcetypeassert // a copy of its own type
		if err := kube.Get(ctx, client.ObjectKeyFromObject(pr.a), a); err == nil && meta.GetExternalName(a) != externalNames[pr.kind] {
			fail("%s's external name changed from %q to %q when %s was deleted", objectName(pr.a), externalNames[pr.kind], meta.GetExternalName(a), objectName(pr.b))
		}
	}
	n := 0
	for _, pr := range pairs {
		if ok[pr.kind] {
			n++
		}
	}
	return n
}
