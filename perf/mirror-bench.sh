#!/usr/bin/env bash
# Replication rules against the local Zotero stub, on a fresh embedded MariaDB (MirrorBench): a
# first mirror of a Zotero library into a BibTeX file; a no-change round over two mirrored accounts
# of a large library (time, requests, allocation); propagation lag to Zotero at a steady update rate
# while a first mirror runs into a file, with the background engine on.
#   perf/mirror-bench.sh [--first 5000] [--large 50000] [--entities 200] [--rate 20] [--seconds 30]
IDIOM_BENCH=MirrorBench exec "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/sync-bench.sh" "$@"
