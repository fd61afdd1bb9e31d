# Sourced by the build scripts of the tools built from the Go module proxy
# (hack/controlplane/build.sh, hack/package/build.sh).
#
# The tools are kept once per user, not per clone, in
#   ${TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/provider-aws-services}/NAME/KEY
# where KEY names the pinned version and a hash of what the build reads (go.mod,
# go.sum, the build script, local sources), so that a second clone finds them
# built and a change of version builds anew. The clone's .cache/NAME is a link
# to that folder, which is where the Makefile, hack/dev.sh and the tests look.

tools_cache=${TOOLS_CACHE:-"${XDG_CACHE_HOME:-$HOME/.cache}/provider-aws-services"}

# toolcache_key FILE...: a short hash of the files' names and contents.
toolcache_key() {
  local f
  for f in "$@"; do printf '%s\n' "$f"; cat "$f"; done | sha256sum | cut -c1-12
}

# toolcache_lock DIR: holds an exclusive lock on DIR's builds until the
# script exits, so that two builds of the same tools (two lanes of make test,
# two clones) do not race; the second finds what the first built.
toolcache_lock() {
  mkdir -p "$1"
  exec 8>"$1/.lock"
  flock 8
}

# toolcache_link DIR LINK: makes LINK a symbolic link to DIR. A LINK that is a
# folder (a clone's .cache from before the tools were kept per user) is
# replaced.
toolcache_link() {
  local dir=$1 link=$2
  mkdir -p "$(dirname "$link")"
  if [ -L "$link" ] && [ "$(readlink "$link")" = "$dir" ]; then return; fi
  ln -sfn "$dir" "$link.tmp.$$"
  if [ -d "$link" ] && [ ! -L "$link" ]; then
    mv "$link" "$link.old.$$"
    mv -T "$link.tmp.$$" "$link"
    rm -rf "$link.old.$$"
  else
    mv -T "$link.tmp.$$" "$link"
  fi
}
