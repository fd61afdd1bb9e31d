#!/usr/bin/env bash
# Builds kube-apiserver, etcd, kubectl and kube-controllers (kube-controller-
# manager's namespace controller and garbage collector alone, ./controllers)
# from the Go module proxy, only when a binary is missing, into the per-user
# tool cache (hack/lib/toolcache.sh), and links LINK (default
# .cache/controlplane) to them. The versions are those pinned in
# hack/controlplane/go.mod; the apiserver is stamped with its release so that
# clients see a real version. Prints the folder of the binaries.
#   hack/controlplane/build.sh [LINK]
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
link=${1:-"$here/../../.cache/controlplane"}
mkdir -p "$(dirname "$link")"
link="$(cd "$(dirname "$link")" && pwd)/$(basename "$link")"
. "$here/../lib/toolcache.sh"

k8s_version=$(cd "$here" && go list -m -f '{{.Version}}' k8s.io/kubernetes)
key="$k8s_version-$(cd "$here" && toolcache_key build.sh go.mod go.sum tools.go etcd/*.go controllers/*.go)"
out="$tools_cache/controlplane/$key"
minor=$(echo "$k8s_version" | cut -d. -f2)
stamp="-s -w"
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  stamp+=" -X $pkg.gitVersion=$k8s_version -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor"
  stamp+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=1970-01-01T00:00:00Z"
done

build() { # name package
  if [ -x "$out/$1" ]; then return; fi
  echo "building $1 ($2) into $out" >&2
  (cd "$here" && CGO_ENABLED=0 go build -trimpath -ldflags "$stamp" -o "$out/$1.tmp" "$2")
  mv "$out/$1.tmp" "$out/$1"
}

binaries="etcd kube-apiserver kubectl kube-controllers"
missing() { local b; for b in $binaries; do [ -x "$out/$b" ] || return 0; done; return 1; }
if missing; then
  toolcache_lock "$out"
  build etcd ./etcd
  build kube-apiserver k8s.io/kubernetes/cmd/kube-apiserver
  build kubectl k8s.io/kubernetes/cmd/kubectl
  build kube-controllers ./controllers
fi
toolcache_link "$out" "$link"
echo "$out"
