#!/usr/bin/env bash
# The local stack: a Kubernetes control plane with the provider's CRDs, the
# AWS emulator, and the provider between them, with every example applied.
#   hack/dev.sh up     start it (what `make dev` runs)
#   hack/dev.sh down   stop everything it started (`make dev-down`)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
state=${DEV_STATE:-"$root/.cache/dev"}
bin="$root/_output/bin"
kubeconfig="$state/kubeconfig"
kubectl="$root/.cache/controlplane/kubectl"
tools=${PACKAGE_TOOLS:-"$root/.cache/package-tools"}
emulator_addr=${EMULATOR_ADDRESS:-127.0.0.1:4566}
ready_timeout=${READY_TIMEOUT:-120}

say() { printf '\033[1m==>\033[0m %s\n' "$*"; }
fail() { printf '\033[31merror:\033[0m %s\n' "$*" >&2; exit 1; }
k() { "$kubectl" --kubeconfig "$kubeconfig" "$@"; }

running() { [ -f "$state/$1.pid" ] && kill -0 "$(cat "$state/$1.pid")" 2>/dev/null; }

start() { # name command...
  local name=$1; shift
  nohup "$@" >"$state/$name.log" 2>&1 &
  echo $! >"$state/$name.pid"
}

stop() { # name
  local pidfile="$state/$1.pid"
  [ -f "$pidfile" ] || return 0
  local pid; pid=$(cat "$pidfile")
  if kill "$pid" 2>/dev/null; then
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -9 "$pid" 2>/dev/null || true
    say "stopped $1"
  fi
  rm -f "$pidfile"
}

build() {
  say "building the provider, the emulator and the control plane launcher"
  (cd "$root" && go build -o "$bin/aws-emulator" ./test/emulator/cmd/aws-emulator \
    && go build -o "$bin/devcluster" ./test/controlplane/cmd/devcluster)
  say "building Crossplane core and the packaging tools (once), and the Crossplane launcher"
  "$root/hack/package/build.sh" "$tools" >/dev/null
  (cd "$root/hack/package" && go build -o "$bin/devcrossplane" ./crossplane/cmd/devcrossplane)
}

# wait_managed_ready waits until every managed resource is Ready, and, with
# a kind and a namespace, until at least one of that kind is there: a
# Composition composes some resources only once others have told their ARN.
wait_managed_ready() { # [kind namespace]
  say "waiting up to ${ready_timeout}s for every resource to be Ready"
  local deadline=$((SECONDS + ready_timeout)) pending
  while :; do
    pending=$(k get managed -A -o jsonpath='{range .items[*]}{.kind}/{.metadata.name}={.status.conditions[?(@.type=="Ready")].status}{"\n"}{end}' | grep -v '=True$' || true)
    if [ $# -eq 2 ] && [ -z "$(k -n "$2" get "$1" -o name)" ]; then
      pending="$pending $1/(not composed yet)=False"
    fi
    [ -z "$pending" ] && break
    if [ $SECONDS -ge $deadline ]; then
      echo
      k get managed -A
      echo
      printf 'Not Ready after %ss:\n' "$ready_timeout" >&2
      k get managed -A -o jsonpath='{range .items[*]}{.kind}/{.metadata.name}: {range .status.conditions[*]}{.type}={.status} {.reason} {.message}; {end}{"\n"}{end}' >&2
      fail "some resources are not Ready; see $state/provider.log"
    fi
    printf '    waiting for: %s\n' "$(echo "$pending" | cut -d= -f1 | tr '\n' ' ')"
    sleep 3
  done
}

# crossplane_up starts Crossplane with the provider's package and the
# function the Compositions use, applies the Compositions and one composite
# of each, and prints their trees.
crossplane_up() {
  stop crossplane
  local crds fnroot
  crds="$(cd "$root/hack/package" && go list -m -f '{{.Dir}}' github.com/crossplane/crossplane/v2)/cluster/crds"
  fnroot="$(cd "$root/hack/package" && go list -m -f '{{.Dir}}' github.com/crossplane-contrib/function-patch-and-transform)/package"
  say "starting Crossplane: package manager (External runtime) and composition engine (log: $state/crossplane.log)"
  start crossplane "$bin/devcrossplane" --kubeconfig "$kubeconfig" --state "$state" --tools "$tools" --kubectl "$kubectl" \
    --crds "$crds" --package-root "$root/package" --function-package-root "$fnroot" --emulator "http://$emulator_addr"
  for _ in $(seq 240); do [ -f "$state/crossplane.ready" ] && break; running crossplane || break; sleep 0.5; done
  [ -f "$state/crossplane.ready" ] || fail "Crossplane did not install the packages; see $state/crossplane.log and $state/crossplane/crossplane-core.log"

  say "applying the Compositions and one composite of each (namespace team-a)"
  k apply -f "$root/test/testdata/crds/reference-targets.yaml" >/dev/null # stand-ins of provider-upjet-aws's Topic and Role
  k create namespace team-a --dry-run=client -o yaml | k apply -f - >/dev/null
  k -n team-a create secret generic collector-access-key --from-literal=accessKey=dev-collector-key --dry-run=client -o yaml | k apply -f - >/dev/null
  k -n team-a create secret generic search-api-key --from-literal=apiKey=dev-search-key --dry-run=client -o yaml | k apply -f - >/dev/null
  for c in eventdelivery:eventdeliveries agentcredential:agentcredentials; do
    local dir=${c%%:*} plural=${c##*:}
    k apply -f "$root/examples/compositions/$dir/definition.yaml" >/dev/null
    k wait --for=condition=Established --timeout=60s "xrd/$plural.platform.example.org" >/dev/null
    k apply -f "$root/examples/compositions/$dir/composition.yaml" >/dev/null
    k apply -f "$root/examples/compositions/$dir/xr.yaml" >/dev/null
  done
  # The subscription is composed only once the stream has its ARN: a
  # composite can be Ready for a moment before it is, so the wait is for
  # every resource first.
  wait_managed_ready subscriptions.notification.services.k8s.aws team-a
  k -n team-a wait --for=condition=Ready --timeout="${ready_timeout}s" eventdeliveries.platform.example.org/orders agentcredentials.platform.example.org/search >/dev/null \
    || fail "the composites are not Ready; see $state/crossplane/crossplane-core.log and $state/provider.log"
  echo
  for xr in eventdeliveries.platform.example.org/orders agentcredentials.platform.example.org/search; do
    KUBECONFIG="$kubeconfig" "$tools/crank" beta trace -n team-a "$xr"
    echo
  done
}

up() {
  mkdir -p "$state"
  build

  if running controlplane; then
    say "the control plane is already running"
  else
    rm -f "$kubeconfig"
    say "starting kube-apiserver, etcd and the namespace and garbage-collector controllers (log: $state/controlplane.log)"
    start controlplane "$bin/devcluster" --write-kubeconfig "$kubeconfig"
    for _ in $(seq 240); do [ -s "$kubeconfig" ] && break; running controlplane || break; sleep 0.5; done
    [ -s "$kubeconfig" ] || fail "the control plane did not start; see $state/controlplane.log"
  fi

  stop emulator
  say "starting the AWS emulator on http://$emulator_addr (log: $state/emulator.log)"
  start emulator "$bin/aws-emulator" --address "$emulator_addr" --topic orders --model churn-model
  for _ in $(seq 50); do curl -fsS "http://$emulator_addr/_emulator/health" >/dev/null 2>&1 && break; sleep 0.2; done
  curl -fsS "http://$emulator_addr/_emulator/health" >/dev/null 2>&1 || fail "the emulator did not start; see $state/emulator.log (is $emulator_addr taken? set EMULATOR_ADDRESS)"

  stop provider
  say "starting the provider (log: $state/provider.log)"
  # The provider keeps its ownership claims and its fingerprint key in a
  # namespace of its own, which no tenant writes.
  k create namespace crossplane-system --dry-run=client -o yaml | k apply -f - >/dev/null
  KUBECONFIG="$kubeconfig" start provider "$bin/provider" --debug --poll=10s --namespace=crossplane-system \
    --metrics-bind-address=127.0.0.1:0 --health-probe-bind-address=127.0.0.1:0 --tenant-endpoint-network=127.0.0.0/8

  say "applying the ClusterProviderConfig that points at the emulator (for namespaces default and team-a only), and the examples"
  sed "s|http://127.0.0.1:4566|http://$emulator_addr|" "$root/examples/providerconfig/clusterproviderconfig.yaml" | k apply -f - >/dev/null
  # Each kind's example, as the provider lists its kinds.
  while IFS=$'\t' read -r kind example; do
    k apply -f "$root/$example" >/dev/null || fail "cannot apply $example ($kind)"
    echo "    applied $example"
  done < <("$bin/provider" kinds)

  wait_managed_ready
  echo
  k get managed -A
  echo
  crossplane_up
  cat <<MSG

The local stack is up: every example is Ready against the AWS emulator, and
Crossplane composes the EventDelivery and AgentCredential examples.
  export KUBECONFIG=$kubeconfig
  $kubectl get managed -A                      # READY and SYNCED of every resource
  $kubectl describe deliverystream clickstream # conditions, status and events
  $tools/crank beta trace -n team-a eventdeliveries.platform.example.org/orders
  curl http://$emulator_addr/_emulator/calls   # AWS calls the provider made, per operation
The ClusterProviderConfig "default" admits the namespaces default and team-a
(spec.namespaces); a resource of another namespace is refused until you add it.
Logs are in $state. Stop everything with: make dev-down
MSG
}

down() {
  stop crossplane
  stop provider
  stop emulator
  stop controlplane
  rm -f "$kubeconfig"
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  *) echo "usage: $0 up|down" >&2; exit 2 ;;
esac
