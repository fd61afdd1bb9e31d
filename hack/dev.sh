#!/usr/bin/env bash
# The local stack: a control plane with the provider's CRDs, and the provider
# running against it. `hack/dev.sh up` starts it, `hack/dev.sh down` stops it.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
state="$root/.cache/dev"
kubeconfig="$state/kubeconfig"
kubectl="$root/.cache/controlplane/kubectl"

say() { printf '==> %s\n' "$*"; }

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

up() {
  mkdir -p "$state"
  if [ -f "$state/controlplane.pid" ] && kill -0 "$(cat "$state/controlplane.pid")" 2>/dev/null; then
    say "the control plane is already running; 'make dev-down' stops it"
  else
    rm -f "$kubeconfig"
    say "starting kube-apiserver and etcd"
    (cd "$root" && go build -o "$state/devcluster" ./test/controlplane/cmd/devcluster)
    start controlplane "$state/devcluster" --write-kubeconfig "$kubeconfig"
    for _ in $(seq 120); do [ -s "$kubeconfig" ] && break; sleep 0.5; done
    [ -s "$kubeconfig" ] || { echo "the control plane did not start; see $state/controlplane.log" >&2; exit 1; }
  fi
  stop provider
  say "starting the provider (log: $state/provider.log)"
  KUBECONFIG="$kubeconfig" start provider "$root/_output/bin/provider" --debug --metrics-bind-address=127.0.0.1:0 --health-probe-bind-address=127.0.0.1:0
  say "applying the provider configuration"
  "$kubectl" --kubeconfig "$kubeconfig" apply -f "$root/examples/providerconfig/clusterproviderconfig.yaml"
  cat <<MSG

The local stack is up.
  export KUBECONFIG=$kubeconfig
  $kubectl get managed
  $kubectl get clusterproviderconfigs
Stop it with: make dev-down
MSG
}

down() {
  stop provider
  stop controlplane
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  *) echo "usage: $0 up|down" >&2; exit 2 ;;
esac
