# Sourced by growth.sh and rebuild-rate.sh: seeds perf/target/growth-$entities-$events once (./idiom seed; later
# runs reuse it), then serves it (serve-for-bench.sh): sets $data and $url, and stops the server when the script exits.
data="$root/perf/target/growth-$entities-$events"
if [ ! -f "$data/seeded" ]; then
  rm -rf "$data"
  ./idiom seed --entities "$entities" --events-per-entity "$events" --data "$data"
  touch "$data/seeded"
fi
url=""
bench_data="$data"
. "$root/perf/serve-for-bench.sh"
