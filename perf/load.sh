#!/usr/bin/env bash
# Closed-loop load: N clients without think time, every operation in one run beside the empty SOAP
# baseline; achieved msg/s, latency percentiles and ratios to empty. Starts its own Idiom (embedded
# MariaDB, fresh data dir) unless --url is given.
#   perf/load.sh [--clients 16] [--seconds 10] [--warmup 3] [--ops soap-empty,soap-update,rest-update,…] [--url http://host:port]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
. "$root/.mvn/find-jdk.sh"
idiom_find_jdk || exit 1

url=""
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --url) url="$2"; shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done

if [ ! -f perf/target/idiom-perf-0.1.0-SNAPSHOT.jar ] || [ ! -f services/target/idiom-classes.jar ] \
   || [ -n "$(find perf/src -newer perf/target/idiom-perf-0.1.0-SNAPSHOT.jar -print -quit)" ]; then
  echo "load: building…" >&2
  ./mvnw -q -B -ntp -DskipTests package -pl perf,services -am
fi

. "$root/perf/serve-for-bench.sh"

"$JAVA_HOME/bin/java" -cp "perf/target/idiom-perf-0.1.0-SNAPSHOT.jar:perf/target/lib/*" dev.idiom.perf.ClosedLoad --url "$url" "${args[@]}"
