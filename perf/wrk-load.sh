#!/usr/bin/env bash
# Closed-loop load driven by wrk (a C generator that stays far from saturating 2 cores where
# JMeter and a JVM client do not): every operation warmed up until it is steady, then each measured
# in turn, the empty SOAP call first and again last, all in one run against one server. Update
# clients each own a DE (one connection per wrk thread) and follow its version, so no update is stale.
# Warm-up goes in rounds of every operation (--warmup seconds each) until no operation's rate moved
# more than 10 % from the round before (at least 2 rounds, at most --warmup-rounds): on 2 cores the
# one C2 compiler thread was still compiling the request path 60 s in, and an operation measured
# after 5 s of warm-up ran at half its steady rate (perf/RESULTS.md, 2026-11-25).
# Starts its own Idiom (embedded MariaDB, fresh data directory) unless --url is given.
#   perf/wrk-load.sh [--connections 16] [--seconds 10] [--warmup 10] [--warmup-rounds 6] [--ops soap-update,rest-update,…] [--url http://host:port]
# Operations: soap-empty (always, first and last), rest-update, soap-update, rest-moreinfo-db, soap-moreinfo-db,
#             rest-moreinfo-cache, soap-moreinfo-cache, rest-empty.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
connections=16; seconds=10; warmup=10; rounds=6; ops="rest-update,soap-update,rest-moreinfo-db,soap-moreinfo-db"; url=""
while [ $# -gt 0 ]; do
  case "$1" in
    --connections) connections="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --warmup) warmup="$2"; shift 2 ;;
    --warmup-rounds) rounds="$2"; shift 2 ;;
    --ops) ops="$2"; shift 2 ;;
    --url) url="$2"; shift 2 ;;
    *) echo "wrk-load: unknown option $1; options: --connections --seconds --warmup --warmup-rounds --ops --url" >&2; exit 2 ;;
  esac
done
command -v wrk >/dev/null || { echo "wrk-load: needs wrk (Debian: apt-get install wrk)" >&2; exit 1; }
. "$root/.mvn/find-jdk.sh"
idiom_find_jdk || exit 1
[ -f services/target/idiom-classes.jar ] || ./mvnw -q -B -ntp -DskipTests package -pl services -am
. "$root/perf/serve-for-bench.sh"

work="$(mktemp -d)"
auth="Authorization: Bearer ${IDIOM_KEY}"
soap_url="$url/services/DigitalEntityService"

# One DE per connection for the operations that name one; its id and version, one per line.
make_des() {
  local file="$work/$1.des"; : > "$file"
  for i in $(seq 1 "$connections"); do
    curl -fs -H "$auth" -H 'Content-Type: application/json' -d "{\"metadata\":{\"type\":\"article\",\"title\":\"wrk $1 $i $RANDOM$RANDOM\",\"year\":2005,\"venue\":\"ACM Computing Surveys\",\"authors\":[{\"family\":\"Saito\",\"given\":\"Yasushi\"}],\"tags\":[\"replication\",\"survey\"]}}" \
      "$url/api/entities" | sed -E 's/.*"id":"([0-9a-f-]{36})".*"version":([0-9]+).*/\1 \2\n/' >> "$file"
  done
  echo "$file"
}

# The Lua script of one operation: each wrk thread (one connection each) takes the DE of its number.
script() {
  local op="$1" des="${2:-}" phase="$3"
  cat > "$work/$phase-$op.lua" <<LUA
local key = "${IDIOM_KEY}"
local op = "$op"
local n = 0
local des = {}
for line in io.lines("$des" ~= "" and "$des" or "/dev/null") do
  local id, v = line:match("(%S+) (%d+)")
  des[#des + 1] = {id = id, v = tonumber(v)}
end
function setup(thread) n = n + 1; thread:set("me", n) end
local de
function init(args) de = des[((me or 1) - 1) % math.max(#des, 1) + 1] end
local function soap(body)
  return wrk.format("POST", "/services/DigitalEntityService", {["Content-Type"] = "text/xml; charset=UTF-8", ["SOAPAction"] = '""',
    ["Authorization"] = "Bearer " .. key},
    '<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:de="http://idiom.dev/de/1"><soapenv:Body>' .. body .. '</soapenv:Body></soapenv:Envelope>')
end
function request()
  if op == "soap-empty" then return soap("<de:empty/>") end
  if op == "rest-empty" then return wrk.format("GET", "/api/ping", {["Authorization"] = "Bearer " .. key}) end
  if op == "rest-update" then
    return wrk.format("PATCH", "/api/entities/" .. de.id, {["Content-Type"] = "application/merge-patch+json", ["If-Match"] = '"' .. de.v .. '"',
      ["Authorization"] = "Bearer " .. key}, '{"metadata":{"notes":"n' .. de.v .. '"}}')
  end
  if op == "soap-update" then
    return soap("<de:updateDE><de:id>" .. de.id .. "</de:id><de:field>notes</de:field><de:value>s" .. de.v
      .. "</de:value><de:expectedVersion>" .. de.v .. "</de:expectedVersion></de:updateDE>")
  end
  local source = op:match("cache$") and "cache" or "db"
  if op:match("^rest%-moreinfo") then
    return wrk.format("GET", "/api/entities/" .. de.id .. "?source=" .. source, {["Authorization"] = "Bearer " .. key})
  end
  return soap("<de:moreInfo><de:id>" .. de.id .. "</de:id><de:source>" .. source .. "</de:source></de:moreInfo>")
end
function response(status, headers, body)
  if status ~= 200 and status ~= 204 then
    if not reported then io.stderr:write(op .. ": HTTP " .. status .. " " .. (body or ""):sub(1, 200) .. "\n"); reported = true end
    return
  end
  if op == "rest-update" then de.v = tonumber((headers["ETag"] or headers["etag"] or ""):match("(%d+)")) or de.v end
  if op == "soap-update" then de.v = tonumber(body:match("<%w*:?version>(%d+)</")) or de.v end
end
function done(summary, latency, requests)
  local errors = summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout
  io.write(string.format("RESULT %s %.0f %.3f %.3f %.3f %d\n", op, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000, errors))
end
LUA
  echo "$work/$phase-$op.lua"
}

# update and MoreInfo clients need one connection per thread (their own DE); the others share two threads.
# The warm-up and the measured run each have their own DEs: a run starts from the versions its file holds.
run() {
  local op="$1" secs="$2" phase="$3" threads=$(( connections < 2 ? connections : 2 ))
  case "$op" in *update*|*moreinfo*) threads="$connections" ;; esac
  wrk -t "$threads" -c "$connections" -d "${secs}s" --latency -s "${luas[$phase-$op]}" "$url" 2>"$work/$op.err" | grep '^RESULT' || { cat "$work/$op.err" >&2; return 1; }
  head -3 "$work/$op.err" >&2 # the first refusals, if any
}

IFS=, read -r -a wanted <<<"$ops"
for op in "${wanted[@]}"; do
  case "$op" in
    soap-empty|rest-empty|rest-update|soap-update|rest-moreinfo-db|soap-moreinfo-db|rest-moreinfo-cache|soap-moreinfo-cache) ;;
    *) echo "wrk-load: unknown operation $op" >&2; exit 2 ;;
  esac
done
[ "$rounds" -ge 2 ] 2>/dev/null || { echo "wrk-load: --warmup-rounds must be 2 or more" >&2; exit 2; }
all=(soap-empty); for op in "${wanted[@]}"; do [ "$op" = soap-empty ] || all+=("$op"); done
declare -A luas
# Each phase (a warm-up round, the measured run) has its own DEs: a run starts from the versions its file holds.
prepare() {
  local phase="$1" op
  for op in "${all[@]}"; do
    case "$op" in
      soap-empty|rest-empty) luas[$phase-$op]="$(script "$op" "" "$phase")" ;;
      *) luas[$phase-$op]="$(script "$op" "$(make_des "$phase-$op")" "$phase")" ;;
    esac
  done
}

echo "wrk-load: $connections connections; warm-up rounds of ${warmup}s per operation until steady (at most $rounds), then ${seconds}s each (server $url)" >&2
declare -A before
steady=no
for round in $(seq 1 "$rounds"); do
  prepare "warm$round"
  line="wrk-load: warm-up round $round:"; moved=no
  for op in "${all[@]}"; do
    rate=$(run "$op" "$warmup" "warm$round" | awk '{printf "%.0f", $3}')
    line="$line $op $rate"
    prev="${before[$op]:-}"
    if [ -z "$prev" ] || [ "$prev" -eq 0 ] || [ $(( (rate > prev ? rate - prev : prev - rate) * 10 )) -gt "$prev" ]; then moved=yes; fi
    before[$op]="$rate"
  done
  echo "$line" >&2
  [ "$round" -ge 2 ] && [ "$moved" = no ] && { steady=yes; break; }
done
[ "$steady" = yes ] || echo "wrk-load: warning: still not steady after $rounds warm-up rounds (a rate moved > 10 %); figures below are from a JVM still warming" >&2
prepare measure
results="$work/results"
run soap-empty "$seconds" measure | sed 's/RESULT soap-empty/RESULT soap-empty(first)/' > "$results"
for op in "${wanted[@]}"; do [ "$op" = soap-empty ] || run "$op" "$seconds" measure >> "$results"; done
run soap-empty "$seconds" measure | sed 's/RESULT soap-empty/RESULT soap-empty(last)/' >> "$results"

awk '
  { op[NR] = $2; rate[NR] = $3; p50[NR] = $4; p99[NR] = $5; mx[NR] = $6; err[NR] = $7 }
  $2 == "soap-empty(first)" { e1 = $3 } $2 == "soap-empty(last)" { e2 = $3 }
  END {
    base = (e1 + e2) / 2
    printf "%-22s %9s %8s %8s %8s %7s %16s\n", "operation", "msg/s", "p50 ms", "p99 ms", "max ms", "errors", "ratio to empty"
    for (i = 1; i <= NR; i++)
      printf "%-22s %9.0f %8.2f %8.2f %8.1f %7d %16.2f\n", op[i], rate[i], p50[i], p99[i], mx[i], err[i], rate[i] / base
    printf "(ratio: to the mean of the two empty SOAP runs, %.0f msg/s; the first and the last differ by %.0f%%)\n", base, (e1 > e2 ? e1 - e2 : e2 - e1) * 100 / base
  }' "$results"
