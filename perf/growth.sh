#!/usr/bin/env bash
# Growth: single-client MoreInfo / UpdateDE / as-of latency over DEs sampled across a seeded store,
# or (--probe search) search latency, paging, concurrency, index rebuild rate and index lag.
#   perf/growth.sh --entities N [--events-per-entity K] [--probe entities|search] [--calls 3000] [--sample 500]
# seeds a fresh data directory with ./idiom seed (kept under perf/target/growth-N-K for reruns),
# serves it, and probes it.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
. "$root/.mvn/find-jdk.sh"
idiom_find_jdk || exit 1
entities=""; events=1; probe=GrowthProbe; args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --entities) entities="$2"; shift 2 ;;
    --events-per-entity) events="$2"; shift 2 ;;
    --probe) case "$2" in entities) probe=GrowthProbe ;; search) probe=SearchProbe ;; *) echo "growth: --probe is entities or search" >&2; exit 2 ;; esac; shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
[ -n "$entities" ] || { echo "growth: say how many DEs: --entities N" >&2; exit 2; }
if [ ! -f perf/target/idiom-perf-0.1.0-SNAPSHOT.jar ] || [ -n "$(find perf/src -newer perf/target/idiom-perf-0.1.0-SNAPSHOT.jar -print -quit)" ]; then
  echo "growth: building…" >&2
  ./mvnw -q -B -ntp -DskipTests package -pl perf,services -am
fi
. "$root/perf/serve-seeded.sh"
"$JAVA_HOME/bin/java" -cp "perf/target/idiom-perf-0.1.0-SNAPSHOT.jar:perf/target/lib/*" dev.idiom.perf.$probe --url "$url" "${args[@]}"
