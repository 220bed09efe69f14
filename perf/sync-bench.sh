#!/usr/bin/env bash
# The consistency engine against the local stubs (Zotero, BibSonomy), on a fresh embedded MariaDB:
# propagation lag (a DE's commit to the tool's acknowledgement) at a steady update rate with the
# background engine on, then a large Zotero library synced with no change (time, requests, memory)
# and one anti-entropy check of it.
#   perf/sync-bench.sh [--entities 200] [--rate 20] [--seconds 60] [--interval-ms 2000] [--items 50000]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
. "$root/.mvn/find-jdk.sh"
idiom_find_jdk || exit 1
echo "sync-bench: building…" >&2
./mvnw -q -B -ntp -DskipTests install -pl services -am
cp="$(./mvnw -q -B -ntp -pl services dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=/dev/stdout)"
"$JAVA_HOME/bin/java" -Xmx2g -Djava.util.logging.config.file="$root/.mvn/test-logging.properties" \
  -cp "services/target/test-classes:services/target/classes:$cp" "dev.idiom.services.${IDIOM_BENCH:-SyncBench}" "$@"
