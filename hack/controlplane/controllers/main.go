// Command kube-controllers runs two of kube-controller-manager's controllers
// against the API server a kubeconfig names: the namespace controller (a
// deleted Namespace's objects are deleted, then the Namespace goes) and the
// garbage collector (objects whose ownerReferences name owners that are gone
// are deleted). The test and development control plane runs it beside
// kube-apiserver and etcd. The whole kube-controller-manager would bring its
// kubelet, volume and container runtime code for nothing: two dozen more
// modules, and on two cores 75 s more of build after the API server's, where
// this command takes 7 s.
// It is wired as kube-controller-manager wires the two
// (cmd/kube-controller-manager/app), with its defaults, no leader election,
// no serving and no client rate limit. It stops on SIGTERM or SIGINT, and
// when the process that started it is gone (a test binary killed by its
// timeout leaves no controllers behind).
//
//	kube-controllers --kubeconfig FILE [klog flags]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/metadata/metadatainformer"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/controller-manager/pkg/informerfactory"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/controller/garbagecollector"
	namespacecontroller "k8s.io/kubernetes/pkg/controller/namespace"
)

// kube-controller-manager's defaults (its --min-resync-period,
// --concurrent-namespace-syncs, --namespace-sync-period, --concurrent-gc-syncs
// and the period of its garbage collector's discovery), but for the discovery
// period: shorter, so that the kinds of a CRD a test installs are collected
// within seconds.
const (
	informerResync     = 12 * time.Hour
	namespaceWorkers   = 10
	namespaceResync    = 5 * time.Minute
	gcWorkers          = 20
	gcDiscoveryPeriod  = 5 * time.Second
	restMapperPeriod   = 30 * time.Second
	apiServerWaitLimit = 30 * time.Second
)

func main() {
	kubeconfig := flag.String("kubeconfig", "", "the kubeconfig file of the API server (required)")
	klog.InitFlags(nil)
	flag.Parse()
	if *kubeconfig == "" {
		fmt.Fprintln(os.Stderr, "kube-controllers: --kubeconfig is required")
		os.Exit(2)
	}
	if err := run(*kubeconfig); err != nil {
		klog.ErrorS(err, "kube-controllers")
		klog.Flush()
		os.Exit(1)
	}
	klog.Flush()
}

func run(kubeconfig string) error {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	ctx = untilOrphaned(ctx)
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return err
	}
	cfg.UserAgent = "kube-controllers"
	// The namespace controller lists every kind, deprecated ones too: their
	// warnings would be most of the log.
	cfg.WarningHandler = rest.NoWarnings{}
	// A test control plane serves nobody else: no client-side rate limit,
	// where kube-controller-manager raises its namespace controller's to
	// 400/s for the same reason.
	cfg.QPS = -1
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	meta, err := metadata.NewForConfig(cfg)
	if err != nil {
		return err
	}
	// The garbage collector's discovery is its own, as
	// garbagecollector.Sync asks: resetting the mapper must not reset it.
	gcDiscovery, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return err
	}
	if err := waitForAPIServer(ctx, client); err != nil {
		return err
	}

	typed := informers.NewSharedInformerFactory(client, informerResync)
	metaOnly := metadatainformer.NewSharedInformerFactory(meta, informerResync)
	mapper := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(client.Discovery()))
	started := make(chan struct{})
	graph := garbagecollector.NewDependencyGraphBuilder(ctx, meta, mapper, garbagecollector.DefaultIgnoredResources(),
		informerfactory.NewInformerFactory(typed, metaOnly), started)
	gc, err := garbagecollector.NewComposedGarbageCollector(ctx, client, meta, mapper, graph)
	if err != nil {
		return err
	}
	namespaces := namespacecontroller.NewNamespaceController(ctx, client, meta,
		client.Discovery().ServerPreferredNamespacedResources, typed.Core().V1().Namespaces(),
		namespaceResync, corev1.FinalizerKubernetes)

	typed.Start(ctx.Done())
	metaOnly.Start(ctx.Done())
	close(started)
	go wait.Until(mapper.Reset, restMapperPeriod, ctx.Done())
	go gc.Run(ctx, gcWorkers, gcDiscoveryPeriod)
	go gc.Sync(ctx, gcDiscovery, gcDiscoveryPeriod)
	klog.InfoS("running the namespace controller and the garbage collector", "host", cfg.Host)
	namespaces.Run(ctx, namespaceWorkers)
	return nil
}

// waitForAPIServer waits until the API server answers /healthz, as
// kube-controller-manager does before it starts its controllers.
func waitForAPIServer(ctx context.Context, client kubernetes.Interface) error {
	var last error
	err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, apiServerWaitLimit, true, func(ctx context.Context) (bool, error) {
		body, err := client.Discovery().RESTClient().Get().AbsPath("/healthz").Do(ctx).Raw()
		last = err
		if err == nil {
			last = fmt.Errorf("/healthz: %s", body)
		}
		return err == nil && string(body) == "ok", nil
	})
	if err != nil {
		return errors.Join(errors.New("the API server is not healthy"), last)
	}
	return nil
}

// untilOrphaned is ctx, cancelled too when this process's parent is gone
// (it is then re-parented, and its parent's ID changes).
func untilOrphaned(ctx context.Context) context.Context {
	ctx, cancel := context.WithCancel(ctx)
	parent := os.Getppid()
	go wait.Until(func() {
		if os.Getppid() != parent {
			klog.InfoS("the process that started kube-controllers is gone: stopping")
			cancel()
		}
	}, time.Second, ctx.Done())
	return ctx
}
