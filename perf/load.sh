#!/usr/bin/env bash
# Closed-loop load: N clients without think time, every operation in one run beside the empty SOAP
# baseline; achieved msg/s, latency percentiles and ratios to empty. Starts its own Idiom (embedded
# MariaDB, fresh data dir) unless --url is given.
#   perf/load.sh [--clients 16] [--seconds 10] [--warmup 3] [--ops soap-empty,soap-update,rest-update,…] [--url http://host:port]
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/run-against-server.sh" load dev.idiom.perf.ClosedLoad "$@"
