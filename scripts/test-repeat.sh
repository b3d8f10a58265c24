#!/usr/bin/env bash
# `make test-repeat`: runs the integration test files REPEAT times (default 3) while one busy-loop process per core
# competes for the CPU, and prints every file that failed at least once. A test that fails here waits on time rather
# than on the condition it needs, or its bound is too tight for a loaded machine: fix that, never retry it.
#   REPEAT=5 make test-repeat
#   REPEAT_PATHS="test/integration/realtime src/chat/threads" make test-repeat
set -uo pipefail
cd "$(dirname "$0")/.."
repeat="${REPEAT:-3}"
read -r -a paths <<<"${REPEAT_PATHS:-test/integration}"
out=.data/test-repeat
rm -rf "$out"
mkdir -p "$out"

load=()
stop_load() { [ "${#load[@]}" -eq 0 ] || kill "${load[@]}" 2>/dev/null; }
trap stop_load EXIT
trap 'exit 130' INT TERM
for _ in $(seq "$(nproc)"); do
  node -e 'for (;;) {}' &
  load+=("$!")
done
echo "test-repeat: ${#load[@]} busy-loop processes; ${repeat} runs of ${paths[*]}"

for run in $(seq "$repeat"); do
  started=$(date +%s)
  npm test --silent -- "${paths[@]}" --json --outputFile="$out/run-$run.json" >"$out/run-$run.log" 2>&1
  echo "test-repeat: run $run of $repeat ended with status $? after $(($(date +%s) - started)) s (log: $out/run-$run.log)"
done
stop_load
load=()
node scripts/test-repeat-report.mjs "$out"/run-*.json
