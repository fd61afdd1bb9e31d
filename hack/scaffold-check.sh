#!/usr/bin/env bash
# make test.scaffold: proves that a new kind is one value and a dozen files.
# In a scratch copy of the committed tree, make kind scaffolds a kind of an
# existing group and service (a SageMaker notebook instance lifecycle
# configuration), then: everything builds; the kind passes the conformance
# suite against the emulator; the registry test finds it registered
# everywhere; the API tests pass. (Against the emulator's generic store,
# which keeps what a create sends, the suite proves the scaffold's wiring:
# its calls, names, connection details and declared Observe calls, not a
# service's own rules, which the kind's own emulation brings.) Last, it counts the files make kind wrote
# or changed that are not generated: the files a person then edits by hand
# to give the kind its real fields and calls. It fails above the limit.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
limit=${SCAFFOLD_FILE_LIMIT:-12}
group=mlplatform kind=NotebookInstanceLifecycleConfig service=sagemaker
pkg=./internal/kinds/$group/$(echo "$kind" | tr '[:upper:]' '[:lower:]')/

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
git -C "$root" archive HEAD | tar -x -C "$scratch"
cd "$scratch"
git init -q && git add -A && git -c user.name=scaffold -c user.email=scaffold@localhost commit -qm base

# make kind, with the modeled errors regenerated only where botocore's
# pinned models are installed (the Makefile's BOTOCORE_VERSION).
models=$(sed -n 's/^BOTOCORE_VERSION := //p' Makefile)
if [ "$(python3 -c 'import botocore; print(botocore.__version__)' 2>/dev/null)" = "$models" ]; then
  make --no-print-directory kind GROUP=$group KIND=$kind SERVICE=$service
  awserrors=./internal/aws/awserrors/
else
  echo "botocore $models is not installed: the modeled errors are not regenerated, nor tested"
  make --no-print-directory kind GROUP=$group KIND=$kind SERVICE=$service MODELS=
  awserrors=
fi

go build ./...
go vet "$pkg" ./test/emulator/ ./test/workload/
go test -count=1 "$pkg" ./internal/provider/ ./apis/ $awserrors

# The files a person edits: every change but the generated ones. The
# README's tables of kinds are generated between their marks: its change
# counts only if a line outside them changed.
generated='(^package/crds/|^docs/api/|zz_generated)'
mapfile -t changed < <(git status --porcelain --untracked-files=all | cut -c4- | grep -Ev "$generated" || true)
edited=()
for f in "${changed[@]}"; do
  if [ "$f" = README.md ] && ! git diff -U0 README.md | grep -E '^[+-][^+-]' | grep -Ev '^[+-]\|' >/dev/null; then
    continue
  fi
  edited+=("$f")
done
printf '  %s\n' "${edited[@]}"
echo "make kind: ${#edited[@]} files to edit by hand (limit $limit)"
[ "${#edited[@]}" -le "$limit" ]
