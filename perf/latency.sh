#!/usr/bin/env bash
# Single-client latency of empty / moreInfo (cache, db) / updateDE over REST and SOAP.
# Starts its own Idiom (embedded MariaDB, fresh data dir) unless --url is given.
#   perf/latency.sh [--calls 2000] [--warmup 1000] [--url http://host:port]
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/run-against-server.sh" latency dev.idiom.perf.LatencyProbe "$@"
