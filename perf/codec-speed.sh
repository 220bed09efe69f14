#!/usr/bin/env bash
# The event codec's cost per DE (read, write, view, MoreInfo's read+view), one thread, warm.
#   perf/codec-speed.sh [--rounds 5] [--calls 200000] [--events-jar JAR]   (--events-jar: another tree's, for before/after)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
events_jar=""; args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --events-jar) events_jar="$2"; shift 2 ;;
    --rounds|--calls) args+=("$1" "$2"); shift 2 ;;
    *) echo "codec-speed: unknown option $1; options: --rounds N --calls N --events-jar JAR" >&2; exit 2 ;;
  esac
done
. "$root/.mvn/find-jdk.sh"
idiom_find_jdk || exit 1
if [ ! -f perf/target/idiom-perf-0.1.0-SNAPSHOT.jar ] || [ -n "$(find perf/src events/src -newer perf/target/idiom-perf-0.1.0-SNAPSHOT.jar -print -quit)" ]; then
  echo "codec-speed: building…" >&2
  ./mvnw -q -B -ntp -DskipTests package -pl perf -am
fi
# the events jar named first wins over the one in perf/target/lib
exec "$JAVA_HOME/bin/java" -cp "${events_jar:+$events_jar:}perf/target/idiom-perf-0.1.0-SNAPSHOT.jar:perf/target/lib/*" dev.idiom.perf.CodecSpeed "${args[@]}"
