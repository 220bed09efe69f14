#!/usr/bin/env bash
# The curator's workspace pages on a seeded store (issue 46: each page ≤ 150 ms p95 on 20,000 DEs):
# seeds perf/target/growth-N-1 once (./idiom seed; later runs reuse it), serves it, logs a curator in
# through the workspace's form, warms every page up in turn (rounds until no page's rate moves more
# than 10 %), then measures each page with wrk (a C generator, far from saturating 2 cores) at
# --connections concurrent browsers: requests/s, p50, p95, p99, and any answer that was not a 200.
#   perf/curator-pages.sh [--entities 20000] [--connections 4] [--seconds 10] [--warmup 5] [--warmup-rounds 6]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
entities=20000; events=1; connections=4; seconds=10; warmup=5; rounds=6
while [ $# -gt 0 ]; do
  case "$1" in
    --entities) entities="$2"; shift 2 ;;
    --connections) connections="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --warmup) warmup="$2"; shift 2 ;;
    --warmup-rounds) rounds="$2"; shift 2 ;;
    -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "curator-pages: unknown option $1; options: --entities --connections --seconds --warmup --warmup-rounds" >&2; exit 2 ;;
  esac
done
command -v wrk >/dev/null || { echo "curator-pages: needs wrk (Debian: apt-get install wrk)" >&2; exit 1; }
. "$root/.mvn/find-jdk.sh"
idiom_find_jdk || exit 1
if [ ! -f services/target/idiom-classes.jar ] || [ -n "$(find services/src -newer services/target/idiom-classes.jar -print -quit)" ]; then
  echo "curator-pages: building…" >&2
  ./mvnw -q -B -ntp -DskipTests package -pl services -am
fi
url=""
. "$root/perf/serve-seeded.sh"

admin=(-H "Authorization: Bearer $IDIOM_KEY")
name="perf-curator-$$-$RANDOM"
key=$(curl -fs "${admin[@]}" -H 'Content-Type: application/json' -d "{\"name\":\"$name\",\"role\":\"curator\"}" "$url/api/keys" \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["key"])')
cookie=$(curl -fs -o /dev/null -D - --data-urlencode "key=$key" "$url/curator/login" | tr -d '\r' | sed -n 's/^Set-Cookie: \([^;]*\);.*/\1/Ip' | head -1)
[ -n "$cookie" ] || { echo "curator-pages: the workspace's login gave no session cookie" >&2; exit 1; }
id=$(curl -fs "${admin[@]}" "$url/api/entities?limit=1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["entities"][0]["id"])')
word=$(curl -fs "${admin[@]}" "$url/api/entities/$id" | python3 -c 'import json,sys; print(json.load(sys.stdin)["metadata"]["title"].split()[0])')
total=$(curl -fs "${admin[@]}" "$url/api/entities?limit=1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])')
echo "curator-pages: $total DEs at $url; $connections connections, ${seconds}s a page; a record: $id; a word: $word" >&2

pages=("/curator" "/curator/library" "/curator/library?q=$word" "/curator/records/$id" "/curator/records/$id/edit" "/curator/trash" "/curator/accounts/new")
lua="$(mktemp)"
trap 'rm -f "$lua"; cleanup' EXIT
cat > "$lua" <<'LUA'
done = function(summary, latency, requests)
  io.write(string.format("RESULT %.1f %.1f %.1f %.1f %d %d\n", summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(95) / 1000, latency:percentile(99) / 1000, summary.errors.status, summary.requests))
end
LUA
run() { # page seconds: "rate p50 p95 p99 non-2xx requests"
  wrk -t1 -c"$connections" -d"$2"s -s "$lua" -H "Cookie: $cookie" -H "Accept: text/html" "$url$1" | sed -n 's/^RESULT //p'
}
declare -A last
for round in $(seq 1 "$rounds"); do
  steady=1
  for p in "${pages[@]}"; do
    rate=$(run "$p" "$warmup" | cut -d' ' -f1)
    prev="${last[$p]:-}"
    if [ -z "$prev" ] || python3 -c "import sys; sys.exit(0 if abs($rate-$prev) > 0.1*$prev else 1)"; then steady=0; fi
    last[$p]="$rate"
  done
  echo "curator-pages: warm-up round $round: $(for p in "${pages[@]}"; do printf '%s ' "${last[$p]}"; done)req/s" >&2
  [ "$round" -ge 2 ] && [ "$steady" = 1 ] && break
done
printf '| page | req/s | p50 ms | p95 ms | p99 ms | not 200 |\n|---|---|---|---|---|---|\n'
for p in "${pages[@]}"; do
  read -r rate p50 p95 p99 bad n < <(run "$p" "$seconds")
  shown="${p//$id/{id\}}"
  printf '| `%s` | %s | %s | %s | %s | %s of %s |\n' "$shown" "$rate" "$p50" "$p95" "$p99" "$bad" "$n"
done
