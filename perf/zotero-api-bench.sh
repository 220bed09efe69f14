#!/usr/bin/env bash
# The served Zotero API's speed (issue 62): N items (default 10,000) written in 50-item batches through the
# Zotero API beside the same records through Idiom's own REST, everything(items()) of the library, and a
# no-change incremental sync's p50. Starts its own Idiom with a test root (the suite's set-up routes).
#   perf/zotero-api-bench.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
root_password="$(head -c 18 /dev/urandom | base64 | tr -d '/+=')"
export IDIOM_ZOTERO_TEST_ROOT="root:$root_password"
url=""
. perf/serve-for-bench.sh
python3 perf/src/python/zotero_api_bench.py "$url" "root:$root_password" "$IDIOM_KEY" "${1:-10000}"
