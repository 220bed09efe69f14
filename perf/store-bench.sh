#!/usr/bin/env bash
# The event store on a throwaway embedded MariaDB (durable commits).
#   perf/store-bench.sh [--calls 3000] [--warmup 2000]          single-thread append/load latency, JDBC vs Hibernate adapter
#   perf/store-bench.sh --threads 1,4,16,64 [--seconds 10] [--events-per-append 1] [--no-baseline]
#                                                              closed-loop writers, group commit vs one commit per append,
#                                                              then change-feed catch-up and rebuild rates
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
. "$root/.mvn/find-jdk.sh"
idiom_find_jdk || exit 1
echo "store-bench: building…" >&2
./mvnw -q -B -ntp -DskipTests install -pl perf -am
main=dev.idiom.perf.StoreBench
for a in "$@"; do [ "$a" = "--threads" ] && main=dev.idiom.perf.StoreThroughput; done
"$JAVA_HOME/bin/java" -Djava.util.logging.config.file="$root/.mvn/test-logging.properties" \
  -cp "perf/target/idiom-perf-0.1.0-SNAPSHOT.jar:perf/target/lib/*" "$main" "$@"
