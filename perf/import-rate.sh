#!/usr/bin/env bash
# Import rate: a 2,000-entry BibTeX file with 200 planted duplicates, imported over REST in several rounds;
# the server reports records/s. Starts its own Idiom (embedded MariaDB, fresh data dir) unless --url is given.
#   perf/import-rate.sh [--rounds 4] [--entries 2000] [--url http://host:port]
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
  echo "import-rate: building…" >&2
  ./mvnw -q -B -ntp -DskipTests package -pl perf,services -am
fi

. "$root/perf/serve-for-bench.sh"

"$JAVA_HOME/bin/java" -cp "perf/target/idiom-perf-0.1.0-SNAPSHOT.jar:perf/target/lib/*" dev.idiom.perf.ImportRate --url "$url" "${args[@]}"
