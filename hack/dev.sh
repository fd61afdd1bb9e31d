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
}

up() {
  mkdir -p "$state"
  build

  if running controlplane; then
    say "the control plane is already running"
  else
    rm -f "$kubeconfig"
    say "starting kube-apiserver and etcd (log: $state/controlplane.log)"
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
  KUBECONFIG="$kubeconfig" start provider "$bin/provider" --debug --poll=10s \
    --metrics-bind-address=127.0.0.1:0 --health-probe-bind-address=127.0.0.1:0

  say "applying the ClusterProviderConfig that points at the emulator, and the examples"
  sed "s|http://127.0.0.1:4566|http://$emulator_addr|" "$root/examples/providerconfig/clusterproviderconfig.yaml" | k apply -f - >/dev/null
  for f in "$root"/examples/{streaming,notification,eventbus,mlplatform,agentcorecontrol}/*.yaml; do
    k apply -f "$f" >/dev/null || fail "cannot apply $f"
    echo "    applied ${f#"$root"/}"
  done

  say "waiting up to ${ready_timeout}s for every resource to be Ready"
  local deadline=$((SECONDS + ready_timeout)) pending
  while :; do
    pending=$(k get managed -A -o jsonpath='{range .items[*]}{.kind}/{.metadata.name}={.status.conditions[?(@.type=="Ready")].status}{"\n"}{end}' | grep -v '=True$' || true)
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

  echo
  k get managed -A
  cat <<MSG

The local stack is up: every example is Ready against the AWS emulator.
  export KUBECONFIG=$kubeconfig
  $kubectl get managed -A                      # READY and SYNCED of every resource
  $kubectl describe deliverystream clickstream # conditions, status and events
  curl http://$emulator_addr/_emulator/calls   # AWS calls the provider made, per operation
Logs are in $state. Stop everything with: make dev-down
MSG
}

down() {
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
