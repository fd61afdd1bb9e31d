#!/usr/bin/env bash
# Builds the packaging tools from the Go module proxy, only when missing, into
# the per-user tool cache (hack/lib/toolcache.sh), and links LINK (default
# .cache/package-tools) to them: crank (the Crossplane CLI),
# function-patch-and-transform and Crossplane core. Prints their folder.
#   hack/package/build.sh [LINK]
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
link=${1:-"$here/../../.cache/package-tools"}
mkdir -p "$(dirname "$link")"
link="$(cd "$(dirname "$link")" && pwd)/$(basename "$link")"
. "$here/../lib/toolcache.sh"

# Crossplane core, for the package and Composition tests; its version is the
# module's, which package constraints are checked against.
crossplane_version=$(cd "$here" && go list -m -f '{{.Version}}' github.com/crossplane/crossplane/v2)
key="$crossplane_version-$(cd "$here" && toolcache_key build.sh go.mod go.sum)"
out="$tools_cache/package-tools/$key"

build() { # name package [ldflags]
  if [ -x "$out/$1" ]; then return; fi
  echo "building $1 ($2) into $out" >&2
  (cd "$here" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w ${3:-}" -o "$out/$1.tmp" "$2")
  mv "$out/$1.tmp" "$out/$1"
}

if [ ! -x "$out/crossplane-$crossplane_version" ]; then
  toolcache_lock "$out"
  build crank github.com/crossplane/crossplane/v2/cmd/crank
  build function-patch-and-transform github.com/crossplane-contrib/function-patch-and-transform
  build "crossplane-$crossplane_version" github.com/crossplane/crossplane/v2/cmd/crossplane \
    "-X github.com/crossplane/crossplane/v2/internal/version.version=$crossplane_version"
fi
toolcache_link "$out" "$link"
echo "$out"
