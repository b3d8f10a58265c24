#!/usr/bin/env bash
# What `make test` runs once the tools are installed, ordered to keep both cores busy:
#   - the build, at normal priority (jest and the contract run need dist/); beside it, at the lowest priority, the
#     checks that read only sources (generated files, layers, formatting, the OpenAPI documents) and the chart's
#     checks, whose helm and kubeconform are built from the Go module proxy first (minutes of CPU on a machine without
#     Go's build cache, which would hold up everything after the installs if built among them);
#   - then jest and the contract run side by side, each of which keeps about one core busy for minutes; once jest has
#     ended, beside the contract run, the image is built from that build and run (make test-image-of-build) where its
#     tools are or can be installed (root with apt-get); and at the
#     lowest priority the typecheck and lint (one process on one TypeScript program), which read the SDK packages' built
#     types: they take only the CPU the two leave idle (jest's workers waiting on servers, the contract run's last
#     suite alone on one core), so they add little to the wall time and never slow a test that waits on a wall-clock
#     bound.
# Each step's time goes to the phase table (scripts/phases.sh). The outputs of the checks and of the contract run are
# kept in .data/ and printed whole after jest's; the exit status is the first failure's.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p .data
make_=${MAKE:-make}
sync_make() { "$make_" --no-print-directory -j2 --output-sync=target "$@"; }
# The lowest priority: the step gets only CPU time that nothing else of the run wants.
idle_make() { nice -n 19 "$make_" --no-print-directory -j2 --output-sync=target "$@"; }

early_log=.data/checks-sources.log
idle_make check-generated architecture format-check openapi-lint chart-check >"$early_log" 2>&1 &
early=$!
late=
contract=
# A signal to this script stops what it started (the contract run stops its platform and Schemathesis itself).
trap 'kill -TERM $early $late $contract 2>/dev/null; wait; exit 130' INT TERM

if ! sync_make build; then
  wait "$early"
  cat "$early_log"
  exit 1
fi

late_log=.data/checks-types.log
idle_make typecheck-and-lint >"$late_log" 2>&1 &
late=$!
contract_log=.data/contract.log
scripts/phases.sh time contract node test/contract/run.mjs >"$contract_log" 2>&1 &
contract=$!
jest_log=.data/jest.log
scripts/phases.sh time jest npm test --silent 2>&1 | tee "$jest_log"
jest_status=${PIPESTATUS[0]}
image_log=.data/image-test.log
image_status=0
if { command -v mmdebstrap && command -v buildah && command -v unshare; } >/dev/null 2>&1 ||
  { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; }; then
  echo "jest finished; the image is built and run (test/deploy/image.deploy.ts), its output follows when it ends"
  scripts/phases.sh time image "$make_" --no-print-directory test-image-of-build >"$image_log" 2>&1
  image_status=$?
else
  echo "image test skipped: mmdebstrap and buildah are not installed and cannot be (not root with apt-get)" >"$image_log"
fi
echo "jest finished; waiting for the checks and the contract run (their output follows when they end)"
wait "$early"
early_status=$?
wait "$late"
late_status=$?
wait "$contract"
contract_status=$?
cat "$image_log" "$early_log" "$late_log" "$contract_log"
# The closing lines ("jest: N passed, N failed" of both jest runs, "contract: N passed, N failed") added up in one.
awk '/^(jest|contract): [0-9]+ passed, [0-9]+ failed/ { p += $2; f += $4 } END { printf "tests: %d passed, %d failed\n", p, f }' \
  "$jest_log" "$image_log" "$contract_log"
for status in "$early_status" "$late_status" "$jest_status" "$image_status" "$contract_status"; do
  [ "$status" -ne 0 ] && exit "$status"
done
exit 0
