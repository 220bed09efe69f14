#!/usr/bin/env bash
# pyzotero (PyPI) against a library Idiom serves (issue 62): everything(items()), create_items of 120
# in three batches, update_item, delete_item, create_collections, addto_collection, add_tags,
# items(since=V), deleted(since=V); then the federation: an item made with pyzotero reaches a mirrored
# .bib file and a browsers' XBEL, and an edit made in the .bib reaches pyzotero's next items(since=V).
#   perf/pyzotero.sh            # a fresh server; prints each step and fails on the first that does not hold
set -euo pipefail
cd "$(dirname "$0")/.."
venv="$PWD/target/pyzotero-venv"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check "pyzotero==1.16.0"
url=""
serve_flags="--sync-interval-ms 200 --pull-interval-ms 500"
. perf/serve-for-bench.sh
api() { curl -fsS -H "Authorization: Bearer $IDIOM_KEY" -H "Content-Type: application/json" "$@"; }
api -X PUT "$url/api/tools/desktop" -d '{"kind":"zotero-api","mirror":"all"}' > "$data/desktop.json"
: > "$IDIOM_BENCH_FILES/library.bib" 2>/dev/null || { mkdir -p "$IDIOM_BENCH_FILES"; : > "$IDIOM_BENCH_FILES/library.bib"; }
api -X PUT "$url/api/tools/library" -d '{"kind":"bibtex","baseUrl":"library.bib","mirror":"all"}' > /dev/null
api -X PUT "$url/api/tools/browsers" -d '{"kind":"xbel-dav","mirror":"all"}' > /dev/null
if ! "$venv/bin/python" perf/src/python/pyzotero_check.py "$data/desktop.json" "$IDIOM_BENCH_FILES/library.bib" "$IDIOM_BENCH_FILES/.dav/browsers"; then
  # what the engine was doing when a step did not hold: the accounts' sync state and the server's threads
  for t in desktop library browsers; do api "$url/api/tools/$t" >&2 || true; echo >&2; done
  # every thread, virtual ones too (the engine pushes on virtual threads, which jstack leaves out), by the server's own JDK
  pid="$(pgrep -f -- "java.*--data $data" | head -1 || true)"
  jcmd_bin="$( [ -n "$pid" ] && dirname "$(readlink -f "/proc/$pid/exe")")/jcmd"
  [ -n "$pid" ] && [ -x "$jcmd_bin" ] && "$jcmd_bin" "$pid" Thread.dump_to_file -overwrite "$data/threads.txt" > /dev/null 2>&1 \
    && echo "threads: $data/threads.txt" >&2
  exit 1
fi
