#!/usr/bin/env bash
# Builds the packaging tools from the Go module proxy into a cache folder,
# only when missing: crank (the Crossplane CLI), the runtime image builder,
# function-patch-and-transform and Crossplane core.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=${1:-"$here/../../.cache/package-tools"}
mkdir -p "$out"
out=$(cd "$out" && pwd)

build() { # name package [ldflags]
  if [ -x "$out/$1" ]; then return; fi
  echo "building $1 ($2) into $out" >&2
  (cd "$here" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w ${3:-}" -o "$out/$1.tmp" "$2")
  mv "$out/$1.tmp" "$out/$1"
}

# Crossplane core, for the package and Composition tests; its version is the
# module's, which package constraints are checked against.
crossplane_version=$(cd "$here" && go list -m -f '{{.Version}}' github.com/crossplane/crossplane/v2)

build crank github.com/crossplane/crossplane/v2/cmd/crank
build function-patch-and-transform github.com/crossplane-contrib/function-patch-and-transform
build image ./image
build "crossplane-$crossplane_version" github.com/crossplane/crossplane/v2/cmd/crossplane \
  "-X github.com/crossplane/crossplane/v2/internal/version.version=$crossplane_version"
echo "$out"
