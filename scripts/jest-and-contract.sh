#!/usr/bin/env bash
# The two long phases of `make test` side by side: jest and the contract run each keep about one core busy on their
# own for minutes (the contract run's Schemathesis processes generate cases in Python, jest's workers wait on servers
# between files), so together they finish well before one after the other would. The contract run's output is kept
# in .data/contract.log and printed whole after jest's; the exit status is the first failure's.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p .data
contract_log=.data/contract.log
scripts/phases.sh time contract node test/contract/run.mjs >"$contract_log" 2>&1 &
contract=$!
# A signal to this script stops the contract run too (it stops its platform and Schemathesis itself).
trap 'kill -TERM "$contract" 2>/dev/null; wait "$contract"; exit 130' INT TERM
jest_log=.data/jest.log
# Both at the same priority: jest's files wait on wall-clock bounds (a lease, a platform's start, a condition awaited
# for 15 s) that a process starved behind the contract run's lanes could overrun.
scripts/phases.sh time jest npm test --silent 2>&1 | tee "$jest_log"
jest_status=${PIPESTATUS[0]}
echo "jest finished; waiting for the contract run (its output follows when it ends)"
wait "$contract"
contract_status=$?
cat "$contract_log"
# Both closing lines ("jest: N passed, N failed", "contract: N passed, N failed") added up in one.
awk '/^(jest|contract): [0-9]+ passed, [0-9]+ failed/ { p += $2; f += $4 } END { printf "tests: %d passed, %d failed\n", p, f }' \
  "$jest_log" "$contract_log"
[ "$jest_status" -ne 0 ] && exit "$jest_status"
exit "$contract_status"
