#!/usr/bin/env bash
# How much of a record arrives between tools, on public test material (see FidelityMeasure's javadoc):
# Zotero -> BibTeX against Better BibTeX's expected output, Zotero -> Zotero, BibTeX -> Zotero, through
# the adapters Idiom runs and the strict Zotero stand-in; Zotero -> BibTeX -> Zotero (the file all that
# carries the record), BibTeX -> Zotero beside Zotero's own BibTeX import, and every .bib entry a
# listing skipped, named. FOLDER: any folder holding Better BibTeX's test/fixtures (export/*.json with
# their .bibtex/.biblatex, import/*.bib), other .bib files (JabRef's test files), Zotero's
# allTypesAndFields.js (zotero/zotero test/tests/data) with its CSL JSON export citeProcJSExport.json
# (zotero/utilities test/data) near it, and Zotero's translators (zotero/translators, *.js: every
# test case's items; the BibTeX translator's imports); nothing of it is kept.
#   perf/fidelity.sh FOLDER
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ $# -ne 1 ] || [ ! -d "$1" ]; then
  echo "usage: perf/fidelity.sh FOLDER   (Better BibTeX's test/fixtures, JabRef's .bib test files, Zotero's allTypesAndFields.js and citeProcJSExport.json, zotero/translators' *.js)" >&2
  exit 2
fi
folder="$(cd "$1" && pwd)"
cd "$root"
. "$root/.mvn/find-jdk.sh"
idiom_find_jdk || exit 1
if [ ! -f perf/target/idiom-perf-0.1.0-SNAPSHOT.jar ] || [ ! -d perf/target/lib ] \
   || [ -n "$(find perf/src events/src wrappers/src -newer perf/target/idiom-perf-0.1.0-SNAPSHOT.jar -print -quit)" ]; then
  echo "fidelity: building…" >&2
  ./mvnw -q -B -ntp -DskipTests package -pl perf -am
fi
exec "$JAVA_HOME/bin/java" -cp "perf/target/idiom-perf-0.1.0-SNAPSHOT.jar:perf/target/lib/*" dev.idiom.perf.FidelityMeasure "$folder"
