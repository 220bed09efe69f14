#!/usr/bin/env bash
# A victim's MoreInfo p50/p99 alone and under 8 readers formatting bibliographies (issue 48, finding 3).
# Starts its own Idiom (embedded MariaDB, fresh data dir) unless --url is given.
#   perf/formatting-victim.sh [--seconds 20] [--entities 400] [--url http://host:port]
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/run-against-server.sh" formatting-victim dev.idiom.perf.FormattingVictim "$@"
