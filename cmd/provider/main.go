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

// Command provider runs the provider-aws-services controller manager.
package main

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	runtimedebug "runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/alecthomas/kingpin/v2"
	"github.com/crossplane/crossplane-runtime/v2/pkg/controller"
	"github.com/crossplane/crossplane-runtime/v2/pkg/feature"
	"github.com/crossplane/crossplane-runtime/v2/pkg/gate"
	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	"github.com/crossplane/crossplane-runtime/v2/pkg/ratelimiter"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/statemetrics"
	"go.uber.org/zap/zapcore"
	extv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/uuid"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	ctrlmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/cloudkinds/provider-aws-services/apis"
	"github.com/cloudkinds/provider-aws-services/internal/kube/kubeclient"
	"github.com/cloudkinds/provider-aws-services/internal/kube/secretkey"
	"github.com/cloudkinds/provider-aws-services/internal/kube/sweep"
	"github.com/cloudkinds/provider-aws-services/internal/metrics"
	awscontroller "github.com/cloudkinds/provider-aws-services/internal/provider"
	"github.com/cloudkinds/provider-aws-services/internal/provider/changelogs"
	"github.com/cloudkinds/provider-aws-services/internal/provider/memlimit"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler"
	"github.com/cloudkinds/provider-aws-services/internal/reconciler/managedoptions"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/awsconfig"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/budget"
	"github.com/cloudkinds/provider-aws-services/internal/tenancy/shard"
)

func main() {
	var (
		app = kingpin.New(filepath.Base(os.Args[0]), "Crossplane provider for "+kindsTold()+".").DefaultEnvars()

		debug            = app.Flag("debug", "Run with debug logging.").Short('d').Bool()
		syncInterval     = app.Flag("sync", "How often all resources are resynced from the cache.").Short('s').Default("1h").Duration()
		pollInterval     = app.Flag("poll", "How often each managed resource is checked for drift from AWS.").Default("1m").Duration()
		minPollInterval  = app.Flag("min-poll-interval", "The shortest poll interval a resource may ask for with its crossplane.io/poll-interval annotation.").Default(managedoptions.DefaultPolling.MinInterval.String()).Duration()
		pollJitter       = app.Flag("poll-jitter", "Spread each poll by up to this fraction of it, either way, so that resources created together do not poll in lockstep.").Default(strconv.FormatFloat(managedoptions.DefaultPolling.Jitter, 'f', -1, 64)).Float64()
		pollStateMetric  = app.Flag("poll-state-metric", "How often the state metrics of managed resources are recorded.").Default("5s").Duration()
		awsQuotas        = app.Flag("aws-quota", "AWS's rate quota of an operation in this provider's accounts, in calls per second, when it differs from the published one (docs/quotas.md): Service:Operation=N, or Service:*=N for a service's other operations. Repeatable.").Strings()
		awsQuotaShare    = app.Flag("aws-quota-share", "The share of each AWS rate quota this provider uses, leaving the rest to the account's other clients.").Default(strconv.FormatFloat(budget.DefaultShare, 'f', -1, 64)).Float64()
		maxReconcileRate = app.Flag("max-reconcile-rate", "A ceiling on the reconciles per second of all kinds together. 0, the default, sets none: AWS's quotas (--aws-quota, --aws-quota-share) set the pace, each operation's budget apart.").Default("0").Int()
		leaderElection   = app.Flag("leader-election", "Elect one leader among the provider's replicas, with a Lease in its namespace: only the leader reconciles; the others stand by, their caches synced, to take over.").Short('l').Default("false").Envar("LEADER_ELECTION").Bool()
		leaseDuration    = app.Flag("leader-election-lease-duration", "How long a standby waits, after it last saw the leader renew its lease, before it takes over: a leader's crash stops reconciling for about this long.").Default(awscontroller.DefaultLease.Duration.String()).Duration()
		renewDeadline    = app.Flag("leader-election-renew-deadline", "How long the leader keeps trying to renew its lease before it gives up leading and exits: an API server that answers no renewal for this long makes the leader step down.").Default(awscontroller.DefaultLease.RenewDeadline.String()).Duration()
		retryPeriod      = app.Flag("leader-election-retry-period", "How often the leader renews its lease and a standby looks at it.").Default(awscontroller.DefaultLease.RetryPeriod.String()).Duration()
		shardCount       = app.Flag("shards", "Share the work between the provider's replicas: each AWS account's work is in one of this many shards, each held by one replica at a time through a Lease in the provider's namespace, timed as --leader-election's; a replica that stops hands its shards to the others (docs/operations.md, \"By replicas\"). Run more replicas than one with it, and without --leader-election. 0, the default, shares nothing: this replica does all the work.").Default("0").Int()
		healthAddr       = app.Flag("health-probe-bind-address", "Address of the health and readiness probes.").Default(":8081").String()
		metricsAddr      = app.Flag("metrics-bind-address", "Address of the Prometheus metrics endpoint.").Default(":8080").String()
		pprofAddr        = app.Flag("pprof-bind-address", "Address of Go's pprof endpoints (/debug/pprof), for profiling memory and CPU; empty, the default, serves none.").Default("").String()
		tenantNetworks   = app.Flag("tenant-endpoint-network", "A network (CIDR, or one address) that the spec.endpoint.url of a namespaced ProviderConfig may reach. By default such an endpoint may name only AWS's endpoint domains (amazonaws.com, api.aws and the other partitions'), or an IP address, and never reach a loopback, link-local, private or unspecified address, in any form (IPv4-mapped, NAT64, 6to4, Teredo...). An allowed network lets it reach such addresses, and names outside AWS's domains whose every address lies in an allowed network: a local emulator, an in-cluster LocalStack. ClusterProviderConfigs are not limited. Repeatable.").Strings()
		namespace        = app.Flag("namespace", "The provider's namespace, where it keeps the key of its secret fingerprints (default: the pod's namespace; out of a cluster, default).").Envar("POD_NAMESPACE").String()

		enableManagementPolicies = app.Flag("enable-management-policies", "Honour spec.managementPolicies, including observe-only.").Default("true").Envar("ENABLE_MANAGEMENT_POLICIES").Bool()
		enableSafeStart          = app.Flag("enable-safe-start", "Start each kind's controller only once its CRD is established (the package's safe-start capability).").Default("true").Envar("ENABLE_SAFE_START").Bool()
		// --enable-changelogs (ENABLE_CHANGE_LOGS, or ENABLE_CHANGELOGS) and
		// --changelogs-socket-path (CHANGELOGS_SOCKET_PATH).
		enableChangeLogs, changelogsSocketPath = changelogs.Flags(app)
	)
	// The provider runs when no command is named, as its package's
	// deployment starts it; import is the one other command for users.
	app.Command("run", "Run the provider's controllers (the default).").Default()
	importCmd := newImportCommand(app, awsQuotas, awsQuotaShare)
	kindsCmd := app.Command("kinds", "Print each kind and its example manifest, a line each, for make dev.").Hidden()
	switch kingpin.MustParse(app.Parse(os.Args[1:])) {
	case importCmd.FullCommand():
		os.Exit(importCmd.run())
	case kindsCmd.FullCommand():
		for _, k := range awscontroller.Kinds() {
			fmt.Printf("%s\t%s\n", k.GroupVersionKind.Kind, k.Example)
		}
		return
	}

	if os.Getenv("GOGC") == "" {
		// Half of Go's default: the heap grows to 1.5× what is live, not
		// 2×. The provider's live heap is small and its CPU mostly idle, so
		// the extra collections cost little and the peak RSS drops (see
		// docs/operations.md). GOGC in the environment wins.
		runtimedebug.SetGCPercent(50)
	}

	zl := zap.New(zap.UseDevMode(*debug), zap.Level(levelFor(*debug)))
	log := logging.NewLogrLogger(zl.WithName("provider-aws-services"))
	ctrl.SetLogger(zl)

	if os.Getenv("GOMEMLIMIT") == "" {
		// Within a container's memory limit, the collector, not the
		// kernel's OOM killer, holds the heap down (docs/operations.md).
		// GOMEMLIMIT in the environment wins.
		root := os.DirFS("/")
		if limit, ok := memlimit.OfCgroup(root); ok {
			file, _ := memlimit.FileResident(root)
			soft := memlimit.Soft(limit, file)
			runtimedebug.SetMemoryLimit(soft)
			log.Info("Go's memory limit set under the container's", "containerLimitBytes", limit, "binaryResidentBytes", file, "goLimitBytes", soft)
		}
	}

	// The flags are checked before anything connects.
	overrides, err := budget.ParseOverrides(*awsQuotas)
	kingpin.FatalIfError(err, "Cannot read the AWS quotas")
	if !budget.ValidRate(*awsQuotaShare) || *awsQuotaShare > 1 {
		kingpin.Fatalf("--aws-quota-share %v: want a fraction above 0 and at most 1", *awsQuotaShare)
	}
	if *maxReconcileRate < 0 {
		kingpin.Fatalf("--max-reconcile-rate %d: want 0 (no ceiling) or more", *maxReconcileRate)
	}
	budgets := budget.New(budget.Quotas{Of: overrides, Share: *awsQuotaShare})

	cfg, err := ctrl.GetConfig()
	kingpin.FatalIfError(err, "Cannot get the API server configuration")
	// The API server is asked as fast as the creates the budgets allow
	// write; settled resources are read from the cache.
	// The client's rate grows with the accounts and regions served.
	cfg.QPS, cfg.Burst = awscontroller.KubeRate(budgets)
	cfg.RateLimiter = awscontroller.KubeRateLimiter(budgets)
	// The API server's warnings are logged once each: controller-runtime
	// logs every one, and Kubernetes 1.35 warns at each managed resource's
	// first write that crossplane-runtime's finalizer name has no path
	// (20,000 identical lines for 20,000 creates).
	cfg.WarningHandlerWithContext = ctrllog.NewKubeAPIWarningLogger(ctrllog.KubeAPIWarningLoggerOptions{Deduplicate: true})

	scheme := kruntime.NewScheme()
	kingpin.FatalIfError(clientgoscheme.AddToScheme(scheme), "Cannot add Kubernetes APIs to the scheme")
	kingpin.FatalIfError(apis.AddToScheme(scheme), "Cannot add the provider's APIs to the scheme")
	kingpin.FatalIfError(extv1.AddToScheme(scheme), "Cannot add CustomResourceDefinitions to the scheme")

	lease := awscontroller.Lease{Duration: *leaseDuration, RenewDeadline: *renewDeadline, RetryPeriod: *retryPeriod}
	kingpin.FatalIfError(lease.Validate(), "Cannot elect a leader")
	switch {
	case *shardCount < 0:
		kingpin.Fatalf("--shards %d: want 0 (no sharing) or more", *shardCount)
	case *shardCount > 0 && *leaderElection:
		kingpin.Fatalf("--shards and --leader-election: with shards every replica works, none stands by; set one of them")
	}

	cacheOptions := awscontroller.CacheOptions(*syncInterval, providerNamespace(*namespace))
	var shards *shard.Set
	if *shardCount > 0 {
		// The Leases' client waits behind no other request of this
		// replica: a flood of creates must not make it miss a renewal.
		leases, err := client.New(leaseConfig(cfg), client.Options{Scheme: scheme})
		kingpin.FatalIfError(err, "Cannot create the shard leases' API server client")
		shards = shard.New(leases, providerNamespace(*namespace), replicaIdentity(), *shardCount,
			shard.Timing{Duration: lease.Duration, RenewDeadline: lease.RenewDeadline, RetryPeriod: lease.RetryPeriod}, log, clock.RealClock{})
		// Each replica caches only the managed resources of its shards.
		cacheOptions, err = awscontroller.ShardedCache(cacheOptions, scheme, shards)
		kingpin.FatalIfError(err, "Cannot divide the cache between replicas")
	}
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:           scheme,
		Cache:            cacheOptions,
		Client:           awscontroller.ClientOptions(),
		LeaderElection:   *leaderElection,
		LeaderElectionID: "crossplane-leader-election-provider-aws-services",
		// The provider's own namespace, so that leader election also works
		// out of a cluster (make run), where controller-runtime cannot read
		// the pod's.
		LeaderElectionNamespace:    providerNamespace(*namespace),
		LeaderElectionResourceLock: resourcelock.LeasesResourceLock,
		LeaseDuration:              &lease.Duration,
		RenewDeadline:              &lease.RenewDeadline,
		RetryPeriod:                &lease.RetryPeriod,
		// A leader that stops cleanly (a rolling update, a drain) gives
		// the lease up, so that a standby takes over at its next look
		// rather than after the lease duration. Safe: the process exits
		// once the manager has stopped its controllers.
		LeaderElectionReleaseOnCancel: true,
		HealthProbeBindAddress:        *healthAddr,
		Metrics:                       metricsserver.Options{BindAddress: *metricsAddr},
		PprofBindAddress:              *pprofAddr,
	})
	kingpin.FatalIfError(err, "Cannot create the controller manager")
	kingpin.FatalIfError(mgr.AddHealthzCheck("healthz", healthz.Ping), "Cannot add the health check")
	// The readiness check is awscontroller.Setup's: ready once this
	// replica's controllers are up (package readiness).

	mrMetrics := managed.NewMRMetricRecorder()
	stateMetrics := statemetrics.NewMRStateMetrics()
	ctrlmetrics.Registry.MustRegister(mrMetrics, stateMetrics)

	o := controller.Options{
		Logger: log,
		// A reconcile that waits for AWS's budgets is requeued for its
		// turn and holds no worker: the workers are busy only while
		// calls are made and objects written.
		MaxConcurrentReconciles: max(*maxReconcileRate, awscontroller.DefaultWorkers),
		PollInterval:            *pollInterval,
		Features:                &feature.Flags{},
		MetricOptions: &controller.MetricOptions{
			PollStateMetricInterval: *pollStateMetric,
			MRMetrics:               mrMetrics,
			MRStateMetrics:          stateMetrics,
		},
	}
	if *maxReconcileRate > 0 {
		o.GlobalRateLimiter = ratelimiter.NewGlobal(*maxReconcileRate)
	}
	if *enableSafeStart {
		o.Gate = new(gate.Gate[schema.GroupVersionKind])
		log.Info("Safe start enabled: controllers start once their CRDs are established")
	}
	if *enableManagementPolicies {
		o.Features.Enable(feature.EnableBetaManagementPolicies)
		log.Info("Beta feature enabled", "flag", feature.EnableBetaManagementPolicies)
	}
	if *enableChangeLogs {
		o.Features.Enable(feature.EnableAlphaChangeLogs)
		o.ChangeLogOptions, err = changelogs.Options(*changelogsSocketPath, version)
		kingpin.FatalIfError(err, "Cannot set up change logs")
		log.Info("Alpha feature enabled", "flag", feature.EnableAlphaChangeLogs, "socket", *changelogsSocketPath)
	}

	// The fingerprint key is read (or made) before any controller starts,
	// with a client of its own: the manager's client caches no Secret and
	// reads nothing before the manager starts.
	direct, err := client.New(cfg, client.Options{Scheme: scheme})
	kingpin.FatalIfError(err, "Cannot create an API server client")
	keyCtx, cancel := context.WithTimeout(context.Background(), time.Minute)
	key, err := secretkey.LoadKey(keyCtx, direct, providerNamespace(*namespace))
	cancel()
	kingpin.FatalIfError(err, "Cannot load the key of the secret fingerprints")
	tenantAllowed, err := awsconfig.ParseNetworks(*tenantNetworks)
	kingpin.FatalIfError(err, "Cannot read --tenant-endpoint-network")
	polling := managedoptions.Polling{MinInterval: *minPollInterval, Jitter: *pollJitter}
	shared := reconciler.Shared{
		Sessions:     awsconfig.NewCache(kubeclient.New(mgr), awsconfig.WithBudgets(budgets), awsconfig.WithTenantEndpointNetworks(tenantAllowed)),
		Fingerprints: key, Polling: &polling, Budgets: budgets,
		Namespace: providerNamespace(*namespace),
		Sweeps:    reconciler.NewSweeps(mgr, log, providerNamespace(*namespace), sweep.DefaultEvery),
	}
	if shards != nil {
		shared.Shards = shards
		kingpin.FatalIfError(mgr.Add(shards), "Cannot share the work between replicas")
		log.Info("Sharing the work between replicas", "shards", *shardCount)
	}
	kingpin.FatalIfError(awscontroller.Setup(mgr, o, shared), "Cannot set up the controllers")
	if *maxReconcileRate > 0 {
		kingpin.FatalIfError(mgr.Add(&metrics.CapacityWarner{Poll: *pollInterval, Rate: *maxReconcileRate, Log: log, Every: time.Minute}), "Cannot add the poll capacity check")
	}
	log.Info("Starting the provider", "version", version, "poll", *pollInterval, "sync", *syncInterval)
	kingpin.FatalIfError(mgr.Start(ctrl.SetupSignalHandler()), "Cannot start the controller manager")
}

// version is set at build time.
var version = "dev"

func levelFor(debug bool) zapcore.Level {
	if debug {
		return zapcore.DebugLevel
	}
	return zapcore.InfoLevel
}

// leaseConfig is cfg with a rate limiter of its own, for the shard Leases:
// a few requests a second, never behind the managed resources' writes.
func leaseConfig(cfg *rest.Config) *rest.Config {
	c := rest.CopyConfig(cfg)
	c.RateLimiter, c.QPS, c.Burst = nil, 20, 40
	return c
}

// replicaIdentity names this replica in the shard Leases: its pod's name
// (POD_NAME, as the downward API sets it, else the hostname, which is the
// pod's name too), and a random part, so that a replica restarted under the
// same name is not taken for the one before it.
func replicaIdentity() string {
	name := os.Getenv("POD_NAME")
	if name == "" {
		name, _ = os.Hostname()
	}
	return cmp.Or(name, "provider") + "-" + string(uuid.NewUUID())[:8]
}

// serviceAccountNamespace is where a pod finds its own namespace.
const serviceAccountNamespace = "/var/run/secrets/kubernetes.io/serviceaccount/namespace"

// providerNamespace is the namespace given, else the pod's own, else (out of
// a cluster, as in make dev) "default".
func providerNamespace(given string) string {
	if given != "" {
		return given
	}
	if b, err := os.ReadFile(serviceAccountNamespace); err == nil && len(bytes.TrimSpace(b)) > 0 {
		return string(bytes.TrimSpace(b))
	}
	return "default"
}

// kindsTold names the provider's kinds for its help: "Firehose delivery
// streams, SNS subscriptions and …".
func kindsTold() string {
	ks := awscontroller.Kinds()
	told := make([]string, 0, len(ks))
	for _, k := range ks {
		told = append(told, k.Create.Service+" "+k.Noun+"s")
	}
	if len(told) < 2 {
		return strings.Join(told, "")
	}
	return strings.Join(told[:len(told)-1], ", ") + " and " + told[len(told)-1]
}
