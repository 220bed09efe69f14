#!/usr/bin/env bash
# ./idiom import of a generated BibTeX file (10 % planted duplicates, a third with DOIs, a third with
# URLs) into a fresh data directory, timed from outside; the process's fixed cost (JVM, MariaDB,
# migrations, shutdown) is measured by importing a one-entry file the same way and subtracted.
# Prints records/s beyond the start, and the import process's peak memory (RSS of the JVM).
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
# one import in a fresh data directory: prints "seconds maxRSS-KiB", the import's own line to stderr
run() {
  local data="$work/data-$RANDOM$RANDOM"
  /usr/bin/time -f '%e %M' -o "$work/time" "$launcher" import --tool bibtex --file "$1" --data "$data" > "$work/out" 2> "$work/err" \
    || { cat "$work/out" "$work/err" >&2; exit 1; }
  grep 'import finished' "$work/out" >&2 || true
  rm -rf "$data"
  cat "$work/time"
}
gen "$work/one.bib" 1 one
gen "$work/big.bib" "$entries" big
"$launcher" import --tool bibtex --file "$work/one.bib" --data "$work/warm" > /dev/null 2>&1 # builds if needed, extracts MariaDB's binaries once
rm -rf "$work/warm"
echo "./idiom import of $entries BibTeX entries ($((entries / 10)) duplicates planted), fresh data directory each time"
for t in $(seq 1 "$times"); do
  read -r fixed _ < <(run "$work/one.bib")
  read -r total rss < <(run "$work/big.bib")
  awk -v n="$entries" -v f="$fixed" -v t="$total" -v m="$rss" \
    'BEGIN { printf "run: %.1f s in all, %.1f s for a one-entry file: %.0f records/s beyond the start; peak RSS %.0f MiB\n", t, f, n / (t - f), m / 1024 }'
done
