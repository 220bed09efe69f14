# Sourced by the perf scripts: starts Idiom on a fresh data directory and a free port unless $url
# is set, sets $url, and stops the server when the script exits. Extra serve flags: $serve_flags; an existing data directory: $bench_data.
server_pid=""
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null || true; }
trap cleanup EXIT
if [ -z "$url" ]; then
  data="${bench_data:-$(mktemp -d)}"
  port=$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])' 2>/dev/null || echo 18181)
  ./idiom serve --port "$port" --data "$data" ${serve_flags:-} > "$data/serve.log" 2>&1 &
  server_pid=$!
  url="http://127.0.0.1:$port"
  for _ in $(seq 1 120); do
    curl -fs -o /dev/null "$url/api/ping" && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$data/serve.log" >&2; exit 1; }
    sleep 0.5
  done
  echo "perf: server up at $url (log: $data/serve.log)" >&2
  # a fresh data directory: the first start wrote its admin key there; the probes present it
  [ -f "$data/admin.key" ] && IDIOM_KEY="$(cat "$data/admin.key")" && export IDIOM_KEY
  # file accounts are confined to the server's files-dir (SECURITY.md): probes that write files put them there
  export IDIOM_BENCH_FILES="$data/files"
fi
[ -n "${IDIOM_KEY:-}${IDIOM_ADMIN_TOKEN:-}" ] || echo "perf: warning: no IDIOM_KEY set; a server with keys will answer 401" >&2
export IDIOM_KEY="${IDIOM_KEY:-${IDIOM_ADMIN_TOKEN:-}}"

