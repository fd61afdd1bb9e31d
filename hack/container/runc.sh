#!/usr/bin/env bash
# Installs runc, the OCI runtime the container stage of `make test` runs the
# packaged image with (no Docker engine), from Debian's packages, only when it
# is missing, and prints its path and version.
#   hack/container/runc.sh
#
# Unlike the other tools (hack/lib/toolcache.sh), runc is not built from the
# Go module proxy: it is C-linked (libseccomp) and needs root to run, so the
# distribution's package is the one that fits this machine. RUNC names
# another binary to use instead. crun is not an alternative here: it refuses
# this machine's mixed cgroup v1/v2 layout (see test/container).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/toolcache.sh"

if [ -n "${RUNC:-}" ]; then
  runc=$RUNC
elif ! runc=$(command -v runc); then
  if [ "$(id -u)" != 0 ]; then
    echo "runc is missing and installing it needs root: run 'apt-get install -y runc' as root (the container stage runs runc as root too)" >&2
    exit 1
  fi
  # One install at a time (two clones, two runs of make test); the second
  # finds runc installed.
  toolcache_lock "$tools_cache/runc"
  if ! runc=$(command -v runc); then
    echo "installing runc from Debian's packages" >&2
    export DEBIAN_FRONTEND=noninteractive
    # A fresh machine may have no package lists yet, or stale ones.
    apt-get install -y -q --no-install-recommends runc >&2 ||
      { apt-get update -q >&2 && apt-get install -y -q --no-install-recommends runc >&2; }
    runc=$(command -v runc)
  fi
fi
"$runc" --version | head -1 >&2
echo "$runc"
