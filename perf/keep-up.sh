#!/usr/bin/env bash
# Keep-up of the admin console's live view: ideal / actual delivery time of a sequence of updates at
# rising rates (1.0 keeps up). Starts its own Idiom (embedded MariaDB, fresh data dir) unless --url is given.
#   perf/keep-up.sh [--rates 200,800,2000] [--seconds 10] [--url http://host:port]
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/run-against-server.sh" keep-up dev.idiom.perf.KeepUp "$@"
