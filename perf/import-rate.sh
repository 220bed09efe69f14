#!/usr/bin/env bash
# Import rate: a 2,000-entry BibTeX file with 200 planted duplicates, imported over REST in several
# rounds; the server reports records/s. Starts its own Idiom (embedded MariaDB, fresh data dir)
# unless --url is given.
#   perf/import-rate.sh [--rounds 4] [--entries 2000] [--url http://host:port --files-dir DIR]   (DIR: that server's files-dir)
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/run-against-server.sh" import-rate dev.idiom.perf.ImportRate "$@"
