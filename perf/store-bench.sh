#!/usr/bin/env bash
# Event-store append/load latency, JDBC adapter vs Hibernate adapter, on a throwaway embedded MariaDB.
#   perf/store-bench.sh [--calls 3000] [--warmup 2000]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
. "$root/.mvn/find-jdk.sh"
idiom_find_jdk || exit 1
echo "store-bench: building…" >&2
./mvnw -q -B -ntp -DskipTests package -pl perf -am
"$JAVA_HOME/bin/java" -Djava.util.logging.config.file="$root/.mvn/test-logging.properties" \
  -cp "perf/target/idiom-perf-0.1.0-SNAPSHOT.jar:perf/target/lib/*" dev.idiom.perf.StoreBench "$@"
