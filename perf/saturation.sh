#!/usr/bin/env bash
# ./idiom perf: builds what is missing (the service, the perf module, JMeter from Maven Central), then runs
# dev.idiom.perf.saturation.SaturationRun, which seeds and starts Idiom (or loads --target), runs
# perf/plans/saturation.jmx per operation and writes perf/reports/<time>/ (./idiom perf --help).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
. "$root/.mvn/find-jdk.sh"
idiom_find_jdk || exit 1
for a in "$@"; do # the help needs nothing built: its own file, run from source
  case "$a" in -h|--help|help) exec "$JAVA_HOME/bin/java" "$root/perf/src/main/java/dev/idiom/perf/saturation/PerfHelp.java" ;; esac
done
perf_jar=perf/target/idiom-perf-0.1.0-SNAPSHOT.jar
if [ ! -f "$perf_jar" ] || [ ! -f services/target/idiom-classes.jar ] \
   || [ -n "$(find . -path ./data -prune -o -path '*/target' -prune -o \( -name '*.java' -o -name pom.xml -o -path '*/src/main/*' \) \
              -newer "$perf_jar" -print -quit)" ]; then
  echo "perf: building the service and the perf module (./mvnw package, tests skipped)…" >&2
  ./mvnw -q -B -ntp -DskipTests package -pl services,perf -am 2>&1 | grep -v '^WARNING: ' || true
  [ -f "$perf_jar" ] || { echo "perf: the build failed; run ./mvnw -DskipTests package -pl services,perf -am to see why" >&2; exit 1; }
fi
if [ ! -f perf/target/config.json ]; then
  echo "perf: fetching JMeter 5.6.3 from Maven Central (jmeter-maven-plugin; the first time takes a minute)…" >&2
  ./mvnw -q -B -ntp -pl perf com.lazerycode.jmeter:jmeter-maven-plugin:3.8.0:configure 2>&1 | grep -v '^WARNING: ' || true
  [ -f perf/target/config.json ] || { echo "perf: JMeter could not be set up" >&2; exit 1; }
fi
exec "$JAVA_HOME/bin/java" -cp "$perf_jar:perf/target/lib/*" dev.idiom.perf.saturation.SaturationRun "$@"
