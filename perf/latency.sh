#!/usr/bin/env bash
# Single-client latency of empty / moreInfo (cache, db) / updateDE over REST and SOAP.
# Starts its own Idiom (embedded MariaDB, fresh data dir) unless --url is given.
#   perf/latency.sh [--calls 2000] [--warmup 1000] [--url http://host:port]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
. "$root/.mvn/find-jdk.sh"
idiom_find_jdk || exit 1

url=""
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --url) url="$2"; shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done

if [ ! -f perf/target/idiom-perf-0.1.0-SNAPSHOT.jar ] || [ ! -f services/target/idiom-classes.jar ]; then
  echo "latency: building…" >&2
  ./mvnw -q -B -ntp -DskipTests package -pl perf,services -am
fi

server_pid=""
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null || true; }
trap cleanup EXIT
if [ -z "$url" ]; then
  data="$(mktemp -d)"
  port=$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])' 2>/dev/null || echo 18181)
  ./idiom serve --port "$port" --data "$data" > "$data/serve.log" 2>&1 &
  server_pid=$!
  url="http://127.0.0.1:$port"
  for _ in $(seq 1 120); do
    curl -fs -o /dev/null "$url/api/ping" && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$data/serve.log" >&2; exit 1; }
    sleep 0.5
  done
  echo "latency: server up at $url (log: $data/serve.log)" >&2
fi

"$JAVA_HOME/bin/java" -cp "perf/target/idiom-perf-0.1.0-SNAPSHOT.jar:perf/target/lib/*" dev.idiom.perf.LatencyProbe --url "$url" "${args[@]}"
