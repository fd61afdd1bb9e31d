# provider-aws-services
#
#   make dev    run the provider on a local control plane (see README)
#   make test   run every test: lint, unit, integration on a real control plane,
#               make dev end to end, the package installed by Crossplane

GO            ?= go
PROJECT_ROOT  := $(CURDIR)
CACHE_DIR     ?= $(PROJECT_ROOT)/.cache
# The tools built from the Go module proxy (control plane, packaging tools,
# golangci-lint) are kept once per user, keyed by their pinned versions, so
# that another clone does not build them again (hack/lib/toolcache.sh);
# .cache/controlplane and .cache/package-tools link there.
TOOLS_CACHE   ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/provider-aws-services
CONTROLPLANE  ?= $(CACHE_DIR)/controlplane
PACKAGE_TOOLS ?= $(CACHE_DIR)/package-tools
export TOOLS_CACHE
IMAGE_DIR     := $(PROJECT_ROOT)/_output/image
XPKG_DIR      := $(PROJECT_ROOT)/_output/xpkg
PLATFORMS     ?= amd64 arm64
BIN_DIR       := $(PROJECT_ROOT)/_output/bin
VERSION       ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
# Two cores: one test binary at a time keeps the control plane responsive.
TEST_FLAGS    ?= -count=1 -p 1

export KUBEBUILDER_ASSETS := $(CONTROLPLANE)


.PHONY: all generate generate.api kind test.scaffold build controlplane controlplane-run test test.unit test.integration test.integration.build test.e2e test.package test.package.run test.container test.container.run bench bench.replicas bench.fair bench.classic chaos package-tools image xpkg lint reviewable run dev dev-down clean

all: build

# BOTOCORE_VERSION pins the AWS models make generate reads the modeled errors from.
BOTOCORE_VERSION := 1.43.11

## generate: deepcopy, managed-resource method sets and CRDs (package/crds), and
## the errors AWS's models list for the operations the provider calls, read from
## botocore's data (python3 with boto3 installed).
generate: generate.api
	$(GO) run ./hack/awsmodels --botocore-version $(BOTOCORE_VERSION) --out internal/aws/awserrors/zz_generated.modeled.go

## generate.api: what generate writes but the modeled errors: the Go API's methods, the CRDs and the docs' tables.
generate.api:
	cd apis && $(GO) generate -tags generate ./generate.go
	$(GO) run ./hack/apidocs --crds package/crds --out docs/api

## kind: scaffold a new kind of a service the provider calls, then generate
## (GROUP=mlplatform KIND=NotebookInstanceLifecycleConfig SERVICE=sagemaker;
## MODELS= leaves the modeled errors as they are). docs/development.md says
## what to edit next.
MODELS ?= yes
kind:
	$(GO) run ./hack/kind -group "$(GROUP)" -kind "$(KIND)" -service "$(SERVICE)"
	$(MAKE) --no-print-directory $(if $(MODELS),generate,generate.api)

## build: the provider binary.
build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "-s -w -X main.version=$(VERSION)" -o $(BIN_DIR)/provider ./cmd/provider

## package-tools: crank, Crossplane core and function-patch-and-transform, built from the Go module proxy when missing.
package-tools:
	hack/package/build.sh $(PACKAGE_TOOLS)

## image: the runtime image per platform, as image tarballs in _output/image, without Docker.
image: package-tools
	@mkdir -p $(IMAGE_DIR)
	cd hack/package && CGO_ENABLED=0 $(GO) build -o $(BIN_DIR)/image-builder ./image
	@for arch in $(PLATFORMS); do \
		CGO_ENABLED=0 GOOS=linux GOARCH=$$arch $(GO) build -trimpath -ldflags "-s -w -X main.version=$(VERSION)" -o $(BIN_DIR)/linux_$$arch/provider ./cmd/provider || exit 1; \
		$(BIN_DIR)/image-builder --binary $(BIN_DIR)/linux_$$arch/provider --arch $$arch --version $(VERSION) \
			--tag provider-aws-services:$(VERSION) --out $(IMAGE_DIR)/provider-$$arch.tar || exit 1; \
	done

## xpkg: the Crossplane package, with the CRDs, the examples and the amd64 runtime image embedded.
xpkg: image
	@mkdir -p $(XPKG_DIR)
	$(PACKAGE_TOOLS)/crank xpkg build --package-root package --examples-root examples \
		--embed-runtime-image-tarball $(IMAGE_DIR)/provider-amd64.tar --package-file $(XPKG_DIR)/provider-aws-services.xpkg
	@ls -l $(XPKG_DIR)/provider-aws-services.xpkg

## controlplane-run: only the control plane with the CRDs, in the foreground, printing its kubeconfig.
controlplane-run: controlplane
	@mkdir -p $(CACHE_DIR)/dev
	$(GO) run ./test/controlplane/cmd/devcluster --write-kubeconfig $(CACHE_DIR)/dev/kubeconfig

## controlplane: kube-apiserver, etcd, kubectl and kube-controllers (the namespace controller and
## garbage collector of kube-controller-manager), built from the Go module proxy when missing.
controlplane:
	hack/controlplane/build.sh $(CONTROLPLANE)

## test: the linters, unit tests, integration tests against a real kube-apiserver and etcd,
## the local stack end to end, the package installed and composed by Crossplane, and the runtime
## image run by runc as it ships. hack/test.sh runs these stages in lanes side by side (TEST_LANES=1: one after the
## other), each into _output/test-logs/STAGE.log, printed when it fails, and ends with
## a table of each stage's time and result; it fails if any stage failed.
test:
	MAKE="$(MAKE)" hack/test.sh

test.unit:
	$(GO) test $(TEST_FLAGS) ./...

## test.scaffold: make kind in a scratch copy of the committed tree: the new
## kind builds, passes the conformance suite and the registry test, and
## leaves at most 12 files to edit by hand (hack/scaffold-check.sh).
test.scaffold:
	hack/scaffold-check.sh

# The kinds' subtests of a table wait on the provider, not on the CPU: they run
# side by side, more of them than the two cores. INTEGRATION_PACKAGES,
# INTEGRATION_RUN and INTEGRATION_SKIP (go test's -run and -skip) narrow the
# run: make test splits the suite into runs side by side (hack/test.sh).
INTEGRATION_PACKAGES ?= ./test/integration/...
test.integration: controlplane
	$(GO) test $(TEST_FLAGS) -parallel 5 -timeout 30m -tags integration \
		$(if $(INTEGRATION_RUN),-run '$(INTEGRATION_RUN)') $(if $(INTEGRATION_SKIP),-skip '$(INTEGRATION_SKIP)') $(INTEGRATION_PACKAGES)

# Compiles the integration suite's main package without running it: make test
# compiles it once before its runs side by side.
test.integration.build:
	$(GO) test -c -tags integration -o /dev/null ./test/integration/

test.e2e: controlplane
	$(GO) test $(TEST_FLAGS) -timeout 15m -tags e2e ./test/e2e/...

test.package: xpkg
	$(MAKE) --no-print-directory test.package.run

# The package tests, on the package xpkg built.
test.package.run: controlplane
	cd hack/package && $(GO) test $(TEST_FLAGS) ./...

## test.container: the amd64 image as it ships, run by runc (from Debian's packages, installed when
## missing by hack/container/runc.sh; root only): unpacked into an OCI bundle, as the image's non-root
## user on a read-only root filesystem with no capabilities, with a ServiceAccount's token mounted as
## a kubelet mounts it, against a real API server; ready, serving its metrics, an example Ready against
## the emulator over TLS with a CA mounted through SSL_CERT_DIR, Amazon's roots in the CA bundle it ships.
test.container: image
	$(MAKE) --no-print-directory test.container.run

# The container test, on the image make image built (make test's xpkg stage builds it).
test.container.run: controlplane
	runc=$$(hack/container/runc.sh) && RUNC=$$runc $(GO) test $(TEST_FLAGS) -v -timeout 10m -tags e2e ./test/container/

## chaos: the crash storm at full size: 100 resources, 10 SIGKILLs, 20% throttling, 5% server errors.
## `make test` runs a small storm of the same test.
CHAOS_PER_KIND ?= 20
CHAOS_KILLS    ?= 10
chaos: controlplane
	CHAOS_PER_KIND=$(CHAOS_PER_KIND) CHAOS_KILLS=$(CHAOS_KILLS) $(GO) test -count=1 -tags integration -timeout 40m -v -run TestCrashStorm ./test/integration/chaos/

## bench: the scale benchmark: the provider's binary, with its own defaults, against a real API server
## and the AWS emulator (30ms+40ms latency per call, AWS's published per-operation rate quotas enforced):
## idle RSS, then 2000 DeliveryStreams, 1000 Subscriptions and 667 of each other kind (5001): peak RSS,
## heap per resource, time to Ready against the AWS bound (the time the budgets, 80 % of AWS's published
## quotas, need for the least calls each new resource makes) and against the --max-reconcile-rate bound,
## AWS calls, throttled answers and reconciles per resource, then four polls of steady state: calls,
## writes, Secret GETs, CPU per 1000 looks, the poll each kind achieves against what its budgets allow.
## The issue's other loads: 1000 DeliveryStreams alone,
##   make bench BENCH_KINDS=DeliveryStream BENCH_COUNTS=DeliveryStream=1000
## and 1000 resources, 200 per kind,
##   make bench BENCH_PER_KIND=200 BENCH_COUNTS=
## BENCH_CROWD=1 crowds the cluster first (300 CRDs of 200 KiB, 2000 Secrets of 32 KiB) and measures
## idle RSS there. BENCH_MAX_RECONCILE_RATE passes --max-reconcile-rate (unset: the provider's default).
## Set BENCH_PER_KIND, BENCH_COUNTS (some kinds' own counts, as DeliveryStream=2000,Subscription=1000), BENCH_QUOTAS, BENCH_CROWD (0 = no crowd), BENCH_CRDS, BENCH_CRD_KIB, BENCH_SECRETS,
## BENCH_SECRET_KIB, BENCH_LATENCY, BENCH_IDLE, BENCH_STEADY_POLLS, BENCH_KINDS (a subset, as Subscription,DeliveryStream), BENCH_MAX_RECONCILE_RATE,
## BENCH_PROFILES (a folder: a CPU profile a minute into the load and the heap profile at all Ready, for go tool pprof),
## BENCH_ACCOUNTS (the resources spread over that many AWS accounts at one endpoint, a ClusterProviderConfig and quotas each):
##   make bench BENCH_ACCOUNTS=10 BENCH_PER_KIND=200 BENCH_COUNTS=   (1000 over ten accounts; 1000 and 4000 per kind for 5000 and 20,000)
## BENCH_MEMORY_LIMIT (MiB) runs the provider in a memory cgroup of that limit, as a container's (needs root):
##   make bench BENCH_MEMORY_LIMIT=150
## BENCH_RESET (a fraction) puts a proxy between the provider and the emulator that resets that share of connections after the emulator answered: make bench BENCH_PER_KIND=1000 BENCH_COUNTS= BENCH_RESET=0.01 (creates per resource and stranded objects per kind)
BENCH_PER_KIND     ?= 667
BENCH_COUNTS       ?= DeliveryStream=2000,Subscription=1000
BENCH_CROWD        ?= 0
BENCH_CRDS         ?= 300
BENCH_CRD_KIB      ?= 200
BENCH_SECRETS      ?= 2000
BENCH_SECRET_KIB   ?= 32
BENCH_LATENCY      ?= 30ms+40ms
BENCH_IDLE         ?= 10s
BENCH_STEADY_POLLS ?= 4
BENCH_QUOTAS       ?= 1
BENCH_MAX_RECONCILE_RATE ?=
BENCH_ACCOUNTS     ?= 1
BENCH_MEMORY_LIMIT ?=
BENCH_RESET        ?= 0
bench: controlplane
	BENCH_PER_KIND=$(BENCH_PER_KIND) BENCH_CROWD=$(BENCH_CROWD) BENCH_CRDS=$(BENCH_CRDS) BENCH_CRD_KIB=$(BENCH_CRD_KIB) \
	BENCH_SECRETS=$(BENCH_SECRETS) BENCH_SECRET_KIB=$(BENCH_SECRET_KIB) BENCH_LATENCY=$(BENCH_LATENCY) \
	BENCH_IDLE=$(BENCH_IDLE) BENCH_STEADY_POLLS=$(BENCH_STEADY_POLLS) BENCH_KINDS=$(BENCH_KINDS) \
	BENCH_COUNTS=$(BENCH_COUNTS) BENCH_QUOTAS=$(BENCH_QUOTAS) BENCH_MAX_RECONCILE_RATE=$(BENCH_MAX_RECONCILE_RATE) BENCH_ACCOUNTS=$(BENCH_ACCOUNTS) \
	BENCH_MEMORY_LIMIT=$(BENCH_MEMORY_LIMIT) BENCH_RESET=$(BENCH_RESET) \
		$(GO) test -count=1 -tags integration -run '^$$' -bench BenchmarkScale -benchtime 1x -timeout 120m ./test/integration/scale/

## bench.replicas: BENCH_REPLICAS (3) replicas of the provider's binary with --shards share the load of make bench
## spread over BENCH_ACCOUNTS accounts; one is SIGKILLed half way to all Ready. Per replica: peak RSS, CPU
## seconds, AWS calls; time to all Ready against the AWS bound, how long the killed replica's shards went
## unheld, throttled answers, resources created twice. At 20,000 over ten accounts:
##   make bench.replicas BENCH_ACCOUNTS=10 BENCH_PER_KIND=4000 BENCH_COUNTS=
## BENCH_LOGS (a folder) keeps the replicas' logs.
BENCH_REPLICAS ?= 3
BENCH_LOGS     ?=
bench.replicas: controlplane
	BENCH_PER_KIND=$(BENCH_PER_KIND) BENCH_LATENCY=$(BENCH_LATENCY) BENCH_KINDS=$(BENCH_KINDS) BENCH_COUNTS=$(BENCH_COUNTS) \
	BENCH_QUOTAS=$(BENCH_QUOTAS) BENCH_ACCOUNTS=$(BENCH_ACCOUNTS) BENCH_REPLICAS=$(BENCH_REPLICAS) BENCH_LOGS=$(BENCH_LOGS) \
		$(GO) test -count=1 -tags integration -run '^$$' -bench BenchmarkReplicas -benchtime 1x -timeout 120m ./test/integration/scale/

## bench.fair: how the provider shares one AWS account's quota between namespaces ("teams"): its binary,
## with its own defaults, against the emulator of make bench (AWS's published quotas enforced), every
## DeliveryStream on one ClusterProviderConfig. Namespace quiet's create, tag change and delete, timed
## alone, then 15 s into a flood of BENCH_FAIR_FLOOD creates in namespace noisy and into a change of all
## of them (quiet within 10 s of alone; noisy's flood within 1.15 x the AWS bound; no throttled answer),
## and (its change) beside BENCH_FAIR_STUCK deletions held by an invalid deletion policy; then ten
## namespaces apply BENCH_FAIR_TEN streams each at once ((max - min) / mean of their times to Ready at
## most 0.2). Prints the tables and each scenario's wall time (about 20 minutes). A small run:
##   make bench.fair BENCH_FAIR_FLOOD=100 BENCH_FAIR_STUCK=50 BENCH_FAIR_TEN=20
## BENCH_FAIR_LOGS keeps the provider's log in a folder, BENCH_FAIR_DEBUG=1 makes it log at debug level;
## BENCH_LATENCY, BENCH_QUOTAS and BENCH_MAX_RECONCILE_RATE as for make bench.
BENCH_FAIR_FLOOD ?= 1000
BENCH_FAIR_STUCK ?= 500
BENCH_FAIR_TEN   ?= 100
BENCH_FAIR_LOGS  ?=
BENCH_FAIR_DEBUG ?=
bench.fair: controlplane
	BENCH_FAIR_FLOOD=$(BENCH_FAIR_FLOOD) BENCH_FAIR_STUCK=$(BENCH_FAIR_STUCK) BENCH_FAIR_TEN=$(BENCH_FAIR_TEN) \
	BENCH_FAIR_LOGS=$(BENCH_FAIR_LOGS) BENCH_FAIR_DEBUG=$(BENCH_FAIR_DEBUG) BENCH_LATENCY=$(BENCH_LATENCY) BENCH_QUOTAS=$(BENCH_QUOTAS) \
	BENCH_MAX_RECONCILE_RATE=$(BENCH_MAX_RECONCILE_RATE) \
		$(GO) test -count=1 -tags integration -run '^$$' -bench BenchmarkFairShare -benchtime 1x -timeout 90m ./test/integration/scale/

## bench.classic: this provider beside the classic crossplane-contrib/provider-aws, each alone with its
## default flags on a crowded cluster of its own (300 CRDs of 200 KiB, 2000 Secrets of 32 KiB), on the
## same 50 DeliveryStreams and 50 Subscriptions against the emulator of make bench: time to all Ready,
## peak RSS and AWS calls of each (about 15 minutes). CLASSIC_PROVIDER (its binary) and CLASSIC_CRDS (its
## package's CRDs) say where the classic provider is: this project does not build it; build it by hand
## from its own repository (cmd/provider; package/crds), as docs/development.md tells.
bench.classic: controlplane
	CLASSIC_PROVIDER=$(CLASSIC_PROVIDER) CLASSIC_CRDS=$(CLASSIC_CRDS) \
		$(GO) test -count=1 -tags integration -run '^$$' -bench BenchmarkSideBySide -benchtime 1x -timeout 90m -v ./test/integration/sidebyside/

## lint: golangci-lint (.golangci.yml: vet, staticcheck, gosec, gocritic, revive and more, with the
## integration and e2e build tags; gofmt and goimports as formatters), then that every module is tidy.
## golangci-lint is built from the Go module proxy at the version hack/lint/go.mod pins, once per
## user and Go version (TOOLS_CACHE).
GOLANGCI_LINT_VERSION := $(shell sed -n 's|^[[:space:]]*github.com/golangci/golangci-lint/v2 \(v[^ ]*\).*|\1|p' hack/lint/go.mod)
GO_VERSION            := $(shell $(GO) env GOVERSION)
GOLANGCI_LINT         := $(TOOLS_CACHE)/golangci-lint/$(GOLANGCI_LINT_VERSION)-$(GO_VERSION)/golangci-lint
GO_MODULES            := . hack/tools hack/package hack/lint
lint: $(GOLANGCI_LINT)
	$(GOLANGCI_LINT) run --allow-serial-runners ./...
	@for m in $(GO_MODULES); do \
		(cd $$m && $(GO) mod tidy -diff >/dev/null) || { echo "go mod tidy changes $$m: run it and commit"; exit 1; }; \
	done

$(GOLANGCI_LINT):
	@mkdir -p $(dir $@)
	cd hack/lint && CGO_ENABLED=0 $(GO) build -trimpath -o $@.tmp.$$$$ github.com/golangci/golangci-lint/v2/cmd/golangci-lint && mv $@.tmp.$$$$ $@

## reviewable: regenerate, then lint; fails if generation changed anything.
reviewable: generate lint
	@git diff --exit-code -- apis package/crds docs/api internal/aws/awserrors/zz_generated.modeled.go || (echo "make generate changed files: commit them"; exit 1)

## run: the provider out of cluster, against the current kubeconfig.
run: build
	$(BIN_DIR)/provider --debug

## dev: a local control plane with the CRDs installed and the provider running.
dev: build controlplane
	hack/dev.sh up

## dev-down: stop everything `make dev` started.
dev-down:
	hack/dev.sh down

clean:
	rm -rf _output
