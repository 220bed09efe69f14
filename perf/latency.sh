#!/usr/bin/env bash
# Single-client latency of empty / moreInfo (cache, db) / updateDE over REST and SOAP.
# Starts its own Idiom (embedded MariaDB, fresh data dir) unless --url is given.
#   perf/latency.sh [--calls 2000] [--warmup 1000] [--url http://host:port]
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

if [ ! -f perf/target/idiom-perf-0.1.0-SNAPSHOT.jar ] || [ ! -f services/target/idiom-classes.jar ]; then
  echo "latency: building…" >&2
  ./mvnw -q -B -ntp -DskipTests package -pl perf,services -am
fi

. "$root/perf/serve-for-bench.sh"

"$JAVA_HOME/bin/java" -cp "perf/target/idiom-perf-0.1.0-SNAPSHOT.jar:perf/target/lib/*" dev.idiom.perf.LatencyProbe --url "$url" "${args[@]}"
