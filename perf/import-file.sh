#!/usr/bin/env bash
# ./idiom import of a generated BibTeX file (10 % planted duplicates, a third with DOIs, a third with
# URLs) into a fresh data directory, timed from outside; the process's fixed cost (JVM, MariaDB,
# migrations, shutdown) is measured by importing a one-entry file the same way and subtracted.
# Prints records/s beyond the start, and the peak memory (RSS) of the import's JVM and of its MariaDB. JVM options: IDIOM_JAVA_OPTS.
#   perf/import-file.sh [--entries 20000] [--times 1] [--launcher ./idiom]   (--launcher: another tree's ./idiom, for before/after)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
entries=20000; times=1; launcher=./idiom
while [ $# -gt 0 ]; do
  case "$1" in
    --entries) entries="$2"; shift 2 ;;
    --times) times="$2"; shift 2 ;;
    --launcher) launcher="$2"; shift 2 ;;
    *) echo "import-file: unknown option $1; options: --entries N --times N --launcher PATH" >&2; exit 2 ;;
  esac
done
. "$root/.mvn/find-jdk.sh"
idiom_find_jdk || exit 1
if [ ! -f perf/target/idiom-perf-0.1.0-SNAPSHOT.jar ] || [ ! -f services/target/idiom-classes.jar ] \
   || [ -n "$(find perf/src events/src services/src consistency/src wrappers/src -newer perf/target/idiom-perf-0.1.0-SNAPSHOT.jar -print -quit)" ]; then
  echo "import-file: building…" >&2
  ./mvnw -q -B -ntp -DskipTests package -pl perf,services -am
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
gen() { "$JAVA_HOME/bin/java" -cp "perf/target/idiom-perf-0.1.0-SNAPSHOT.jar:perf/target/lib/*" dev.idiom.perf.ImportRate --write "$1" --entries "$2" --prefix "$3"; }
# one import in a fresh data directory: prints "seconds jvm-peak-KiB mariadb-peak-KiB", the import's own line to stderr.
# Each process's own high-water mark (VmHWM), polled: GNU time's %M is the largest single descendant, which
# for a large import is MariaDB's buffer pool, not the import's JVM.
run() {
  local data="$work/data-$RANDOM$RANDOM" start jvm=0 db=0 pid dbpid="" h
  start=$(date +%s.%N)
  "$launcher" import --tool bibtex --file "$1" --data "$data" > "$work/out" 2> "$work/err" &
  pid=$! # the launcher execs the JVM: this is the JVM's pid
  while kill -0 "$pid" 2>/dev/null; do
    h=$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true); [ -n "$h" ] && jvm=$h
    [ -z "$dbpid" ] && dbpid=$(pgrep -P "$pid" mariadbd || true)
    if [ -n "$dbpid" ]; then h=$(awk '/^VmHWM/ { print $2 }' "/proc/$dbpid/status" 2>/dev/null || true); [ -n "$h" ] && db=$h; fi
    sleep 0.2
  done
  wait "$pid" || { cat "$work/out" "$work/err" >&2; exit 1; }
  grep 'import finished' "$work/out" >&2 || true
  rm -rf "$data"
  awk -v s="$start" -v e="$(date +%s.%N)" -v j="$jvm" -v d="$db" 'BEGIN { printf "%.2f %d %d\n", e - s, j, d }'
}
gen "$work/one.bib" 1 one
gen "$work/big.bib" "$entries" big
"$launcher" import --tool bibtex --file "$work/one.bib" --data "$work/warm" > /dev/null 2>&1 # builds if needed, extracts MariaDB's binaries once
rm -rf "$work/warm"
echo "./idiom import of $entries BibTeX entries ($((entries / 10)) duplicates planted), fresh data directory each time"
for t in $(seq 1 "$times"); do
  read -r fixed _ < <(run "$work/one.bib")
  read -r total jvm db < <(run "$work/big.bib")
  awk -v n="$entries" -v f="$fixed" -v t="$total" -v m="$jvm" -v d="$db" \
    'BEGIN { printf "run: %.1f s in all, %.1f s for a one-entry file: %.0f records/s beyond the start; peak RSS of the JVM %.0f MiB (MariaDB %.0f MiB)\n", t, f, n / (t - f), m / 1024, d / 1024 }'
done
