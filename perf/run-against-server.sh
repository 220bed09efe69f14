# Sourced by the HTTP benchmarks (latency, load, import-rate): finds the JDK, builds what is
# missing or stale, starts Idiom on a fresh data directory unless --url is given (see
# serve-for-bench.sh), then runs the named probe class with the remaining arguments.
#   . perf/run-against-server.sh NAME CLASS "$@"
bench_name="$1"; bench_class="$2"; shift 2
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
  echo "$bench_name: building…" >&2
  ./mvnw -q -B -ntp -DskipTests package -pl perf,services -am
fi

. "$root/perf/serve-for-bench.sh"

"$JAVA_HOME/bin/java" -cp "perf/target/idiom-perf-0.1.0-SNAPSHOT.jar:perf/target/lib/*" "$bench_class" --url "$url" "${args[@]}"
