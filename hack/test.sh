#!/usr/bin/env bash
# `make test`: every stage of the tests, in lanes side by side.
#
#   three API lanes, at normal priority, with the tests that run control
#   planes of their own and mostly wait on them: the integration suite's main
#   package, the longest stage, split in two runs (integration.1 and .2), one
#   per lane; make dev end to end, the crash storm with the scale package's
#   tests (chaos), the package installed and composed by Crossplane, and the
#   main package's tests that fit beside them (integration.3: every modeled
#   AWS error answered, the import and a kind activated later) in the
#   third; and a fourth API lane, the runtime image run by runc as it ships
#   (container), which starts once the package stage has built the image;
#   two CPU lanes, niced so that the API lanes' time budgets keep their CPU,
#   with the stages that need no API server: the package build in one, lint
#   and unit tests in the other (one's downloads and links leave the CPU to
#   the other's compiles).
#
# Each stage is a make target; its output goes to _output/test-logs/STAGE.log
# and is printed whole when the stage fails (go test's result lines always).
# At the end a table gives each stage's time and result; the exit status is
# non-zero when any stage failed. TEST_LANES=1 runs the stages one after the
# other instead.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
make=${MAKE:-make}
logs="$root/_output/test-logs"
rm -rf "$logs"
mkdir -p "$logs"
started=$SECONDS

say() { printf '\033[1m==>\033[0m %s\n' "$*"; }

# stage NAME TARGET...: runs make TARGET... into NAME's log and records the
# result in NAME.status ("ok SECONDS" or "failed SECONDS"). A stage whose
# needs (NEEDS: stage names) did not pass is recorded "skipped".
stage() { # name [needs...] -- target...
  local name=$1; shift
  local needs=() t0 status
  while [ "$1" != -- ]; do needs+=("$1"); shift; done
  shift
  for n in "${needs[@]}"; do
    await "$n"
    if [ "$(cut -d' ' -f1 "$logs/$n.status")" != ok ]; then
      echo "skipped 0 ($n did not pass)" >"$logs/$name.status"
      report "$name"
      return
    fi
  done
  t0=$SECONDS
  if "$make" --no-print-directory "$@" >"$logs/$name.log" 2>&1 </dev/null; then status=ok; else status=failed; fi
  echo "$status $((SECONDS - t0))" >"$logs/$name.status.tmp"
  mv "$logs/$name.status.tmp" "$logs/$name.status"
  report "$name"
}

# await NAME: until NAME has a result.
await() { while [ ! -f "$logs/$1.status" ]; do sleep 1; done; }

# report NAME: one line of the stage's result, the result lines of go test,
# and the whole log when the stage failed; under a lock, so that the lanes'
# reports do not mix.
report() {
  (
    flock 9
    local status secs rest
    read -r status secs rest <"$logs/$1.status"
    if [ "$status" = failed ]; then
      say "$1 failed after ${secs}s; its output ($logs/$1.log):"
      cat "$logs/$1.log"
      say "end of $1's output"
    else
      say "$1 $status after ${secs}s ${rest:-}"
      [ -f "$logs/$1.log" ] && grep -E '^(ok|FAIL|---|panic:)[[:space:]]' "$logs/$1.log"
    fi
  ) 9>"$logs/.report.lock"
  return 0
}

# The integration suite's main package runs in two processes, each with a
# control plane, an emulator and a provider of its own: its tests alternate
# between them by name, and the second runs every test the first does not
# (go test -skip), so that none is left out.
first=$(grep -ho '^func Test[A-Za-z0-9_]*(t \*testing\.T)' test/integration/*_test.go |
  sed 's/^func \(Test[A-Za-z0-9_]*\).*/\1/' | sort | awk 'NR % 2 == 1' | paste -sd'|' -)
first="^(${first:-TestNone})\b"
# Some tests of the main package run in a stage of their own, in the lane of
# the shorter API stages, rather than lengthen either half: every modeled AWS
# error answered, the import of 250 resources, and a kind activated later
# (each with resources or a control plane of its own).
third='^(TestEveryModeledErrorAnswered|TestImportPrintsWhatNoObjectManages|TestImportedManifestsBecomeReadyWithoutWrites|TestAKindActivatedLaterStartsWithoutARestart)$'

# The stages, in their lanes.
integration1_lane() {
  stage controlplane -- controlplane
  stage integration.build -- test.integration.build
  stage integration.1 controlplane integration.build -- test.integration INTEGRATION_PACKAGES=./test/integration/ "INTEGRATION_RUN=$first" "INTEGRATION_SKIP=$third"
}
integration2_lane() {
  stage integration.2 controlplane integration.build -- test.integration INTEGRATION_PACKAGES=./test/integration/ "INTEGRATION_SKIP=$first|$third"
}
api_lane() {
  await controlplane
  stage e2e controlplane -- test.e2e
  stage chaos controlplane -- test.integration "INTEGRATION_PACKAGES=./test/integration/chaos/ ./test/integration/scale/"
  stage package controlplane xpkg -- test.package.run
  stage integration.3 controlplane integration.build -- test.integration INTEGRATION_PACKAGES=./test/integration/ "INTEGRATION_RUN=$third"
}
xpkg_lane() {
  stage xpkg -- xpkg
}
# The image the xpkg stage built (make xpkg builds make image first), run by
# runc; at normal priority, beside the API lanes, since its provider and
# control plane wait on each other as theirs do.
container_lane() {
  stage container controlplane xpkg -- test.container.run
}
lint_lane() {
  stage lint -- lint
  stage unit -- test.unit
  stage scaffold -- test.scaffold
}

lanes=()
cleanup() {
  for pid in "${lanes[@]}"; do kill -TERM -- "-$pid" 2>/dev/null; done
}
trap 'cleanup; exit 130' INT TERM

if [ "${TEST_LANES:-2}" = 1 ]; then
  say "running the stages one after the other (logs in $logs)"
  xpkg_lane
  lint_lane
  integration1_lane
  integration2_lane
  api_lane
  container_lane
else
  say "running the stages in six lanes side by side (logs in $logs)"
  set -m # each lane in a process group of its own, for cleanup
  integration1_lane &
  lanes+=($!)
  integration2_lane &
  lanes+=($!)
  api_lane &
  lanes+=($!)
  container_lane &
  lanes+=($!)
  (renice -n 19 -p "$BASHPID" >/dev/null && xpkg_lane) &
  lanes+=($!)
  (renice -n 19 -p "$BASHPID" >/dev/null && lint_lane) &
  lanes+=($!)
  set +m
  wait
fi

# The table.
failed=0 passed=0
printf '\n%-18s %8s  %s\n' stage seconds result
for name in controlplane xpkg lint unit scaffold integration.build integration.1 integration.2 e2e chaos package integration.3 container; do
  read -r status secs rest <"$logs/$name.status" 2>/dev/null || { status=missing; secs=-; rest=; }
  printf '%-18s %8s  %s\n' "$name" "$secs" "$status${rest:+ $rest}"
  if [ "$status" = ok ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
printf '%-18s %8s\n' total $((SECONDS - started))
grep -h '^make kind:' "$logs/scaffold.log" 2>/dev/null || true
echo "stages: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
