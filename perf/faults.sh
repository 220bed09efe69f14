#!/usr/bin/env bash
# The fault suite's long run: seeded schedules of faults at a fifth of the calls to two Zotero libraries
# (429 + Retry-After, Backoff, 500/502/503, resets, answers lost after Zotero applied the write or slower than the call timeout, bodies cut
# off), two deaths of the node each, edits in Idiom and in both libraries, scheduled pulls, with and without
# curator syncs beside the engine; after settling, the history checker (FaultSchedule.check). Prints one
# line per schedule and the totals.
#   perf/faults.sh [--seconds S] [--seeds N | --seed N] [--items N]     (defaults: 60 s, seeds 1-20, 1000 items)
#   perf/faults.sh --kill [...]   the same, with the server its own process over MariaDB, killed -9 twice per seed
#                                 (KilledNodeFaultSuiteTest; curator syncs in odd seeds; the first start builds everything)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds=60; seeds=$(seq -s, 1 20); items=1000; kill=false
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --seeds) seeds=$(seq -s, 1 "$2"); shift 2 ;;
    --seed) seeds="$2"; shift 2 ;;
    --items) items="$2"; shift 2 ;;
    --kill) kill=true; shift ;;
    *) echo "usage: perf/faults.sh [--kill] [--seconds S] [--seeds N | --seed N] [--items N]" >&2; exit 2 ;;
  esac
done
cd "$root"
log=$(mktemp)
set +e
if [ "$kill" = true ]; then
  echo "faults: seeds $seeds, $items items, $seconds s of faults each, a server process killed -9 twice per seed (building first)…" >&2
  ./mvnw -B -ntp verify -pl services -am -Dtest=KilledNodeFaultSuiteTest -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=NONE \
    -Dfailsafe.failIfNoSpecifiedTests=false -Dfaults.kill.seeds="$seeds" -Dfaults.kill.seconds="$seconds" -Dfaults.items="$items" >"$log" 2>&1
  status=$?
  where=services/target/killed-node-schedule-*.txt
else
  echo "faults: seeds $seeds, $items items, $seconds s of faults each, with and without curator syncs (building first)…" >&2
  ./mvnw -B -ntp verify -pl consistency -am -Dtest=FaultSuiteTest -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=NONE \
    -Dfailsafe.failIfNoSpecifiedTests=false -Dfaults.seeds="$seeds" -Dfaults.seconds="$seconds" -Dfaults.items="$items" \
    -Dfaults.curatorSyncs=both >"$log" 2>&1
  status=$?
  where=consistency/target/fault-schedule-*.txt
fi
set -e
grep -o 'FAULTS .*' "$log" | sed 's/^FAULTS //'
runs=$(grep -c 'FAULTS ' "$log" || true)
bad=$(grep -o 'findings: [0-9]*' "$log" | awk '{s += ($2 > 0)} END {print s + 0}')
echo "faults: $runs schedules, $bad with findings (each schedule's findings in $where); maven exit $status"
[ "$status" -eq 0 ] || tail -40 "$log" >&2
rm -f "$log"
exit "$status"
