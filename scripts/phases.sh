#!/usr/bin/env bash
# Times the phases of `make test` and prints them as a table at the end, also when a phase fails.
#   scripts/phases.sh reset            start a new record (.data/test-phases.tsv)
#   scripts/phases.sh run NAME CMD...  run CMD as phase NAME; on failure print the table and exit with its status
#   scripts/phases.sh time NAME CMD... run CMD as phase NAME and exit with its status (the table is the caller's)
#   scripts/phases.sh table           print the table: phase, seconds, and the total since reset
set -uo pipefail
record="${PHASES_FILE:-.data/test-phases.tsv}"

now() { date +%s.%N; }

# CPU seconds (user + system) of the processes this shell has waited for, into $cpu. `times` must run in this shell,
# not in a subshell (a command substitution), whose waited-for children would be its own.
children_cpu() {
  local out
  out=$(mktemp)
  times >"$out"
  cpu=$(awk 'NR == 2 { for (i = 1; i <= NF; i++) { split($i, ms, /[ms]/); t += ms[1] * 60 + ms[2] } printf "%.1f", t }' "$out")
  rm -f "$out"
}

table() {
  [ -f "$record" ] || return 0
  awk -F'\t' '
    NR == 1 { start = $2; next }
    { printf "  %-16s %8.1f %8.1f  %s\n", $1, $2, $5, $3; last = $4; cpu += $5 }
    BEGIN { print "\nmake test, time per phase (seconds; cpu: user + system of the phase and its processes)"; printf "  %-16s %8s %8s\n", "phase", "wall", "cpu" }
    END { if (last) printf "  %-16s %8.1f %8.1f\n", "total", last - start, cpu }
  ' "$record"
}

case "${1:-}" in
  reset)
    mkdir -p "$(dirname "$record")"
    printf 'started\t%s\n' "${2:-$(now)}" >"$record"
    ;;
  run | time)
    mode="$1"
    name="$2"
    shift 2
    begin=$(now)
    "$@"
    status=$?
    end=$(now)
    children_cpu
    outcome=passed
    [ "$status" -eq 0 ] || outcome="FAILED (exit $status)"
    printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$(awk -v a="$begin" -v b="$end" 'BEGIN { printf "%.1f", b - a }')" "$outcome" "$end" "$cpu" >>"$record"
    [ "$mode" = run ] && [ "$status" -ne 0 ] && table
    exit "$status"
    ;;
  table) table ;;
  *)
    echo "usage: scripts/phases.sh reset [START] | run NAME CMD... | time NAME CMD... | table" >&2
    exit 2
    ;;
esac
