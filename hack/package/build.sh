#!/usr/bin/env bash
# Builds the packaging tools from the Go module proxy into a cache folder,
# only when missing: crank (the Crossplane CLI) and the runtime image builder.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=${1:-"$here/../../.cache/package-tools"}
mkdir -p "$out"
out=$(cd "$out" && pwd)

build() { # name package
  if [ -x "$out/$1" ]; then return; fi
  echo "building $1 ($2) into $out" >&2
  (cd "$here" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$out/$1.tmp" "$2")
  mv "$out/$1.tmp" "$out/$1"
}

build crank github.com/crossplane/crossplane/v2/cmd/crank
build function-patch-and-transform github.com/crossplane-contrib/function-patch-and-transform
build image ./image
echo "$out"
