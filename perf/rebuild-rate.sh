#!/usr/bin/env bash
# Search index rebuild rate: serves a seeded store (perf/target/growth-N-K, seeded once as growth.sh does),
# waits until its index is current, then rebuilds it from events --times times in a row (POST /api/search-index,
# each waiting for the one before), printing the server's "rebuilt from events" line of each. The first one
# runs on a cold JIT; the later ones show the steady rate.
#   perf/rebuild-rate.sh --entities N [--events-per-entity K] [--times 3]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
entities=""; events=1; times=3
while [ $# -gt 0 ]; do
  case "$1" in
    --entities) entities="$2"; shift 2 ;;
    --events-per-entity) events="$2"; shift 2 ;;
    --times) times="$2"; shift 2 ;;
    *) echo "rebuild-rate: unknown option $1 (--entities N [--events-per-entity K] [--times T])" >&2; exit 2 ;;
  esac
done
[ -n "$entities" ] || { echo "rebuild-rate: say how many DEs: --entities N" >&2; exit 2; }
. "$root/perf/serve-seeded.sh"
auth=(-H "Authorization: Bearer $IDIOM_KEY")
echo "rebuild-rate: waiting for the index to be current…" >&2
for _ in $(seq 1 1200); do
  curl -fs "${auth[@]}" "$url/admin/health" | grep -q '"searchFeed":{"healthy":true,"message":"up to date' && break
  sleep 1
done
for t in $(seq 1 "$times"); do
  before=$(grep -c 'rebuilt from events' "$data/serve.log" || true)
  curl -fs -X POST "${auth[@]}" "$url/api/search-index" > /dev/null
  for _ in $(seq 1 1800); do
    [ "$(grep -c 'rebuilt from events' "$data/serve.log" || true)" -gt "$before" ] && break
    sleep 0.5
  done
  echo "rebuild $t: $(grep 'rebuilt from events' "$data/serve.log" | tail -1 | sed 's/.*rebuilt from events: //')"
done
