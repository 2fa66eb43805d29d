#!/usr/bin/env bash
# The server's CPU per command against the floor under it (docs/performance.md): for each
# of RUNS rounds, scripts/load.sh plays TABLES tables on the real server, then elgrande-load
# --relay plays as many against elgrande-relay (a bare Boost.Beast WebSocket relay: no
# game, no database) with the frame sizes the server run measured. Side by side, so the
# machine's noise falls on both alike. Prints one line per round and the medians.
# Usage: scripts/relay-floor.sh [TABLES] [RUNS] [elgrande-load flags, e.g. --rate 5000]
set -euo pipefail
cd "$(dirname "$0")/.."
tables=${1:-50}
runs=${2:-5}
shift $(( $# > 2 ? 2 : $# ))
cmake --preset release >/dev/null
cmake --build --preset release --target elgrande-server elgrande-load elgrande-relay >/dev/null

results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT
for run in $(seq "$runs"); do
  bash scripts/load.sh "$tables" 4 --seconds 15 "$@" >"$results/server-$run.json"
  read -r command ack update < <(python3 -c 'import json,sys; f=json.load(open(sys.argv[1]))["frames"]; print(f["command_bytes"], f["ack_bytes"], f["update_bytes"])' "$results/server-$run.json")
  out="$results/relay-$run.out"
  ./build/release/clients/elgrande-relay >"$out" &
  relay=$!
  for _ in $(seq 100); do grep -qs "listening on" "$out" && break; sleep 0.1; done
  where=$(sed -n 's/^listening on //p' "$out")
  ./build/release/clients/elgrande-load --relay --url "ws://$where/ws" --tables "$tables" --players 4 --seconds 15 \
    --command-bytes "$command" --ack-bytes "$ack" --update-bytes "$update" --server-pid "$relay" "$@" >"$results/relay-$run.json"
  kill "$relay"; wait "$relay" 2>/dev/null || true
done
python3 - "$results" "$runs" <<'PY'
import json, statistics, sys
folder, runs = sys.argv[1], int(sys.argv[2])
rows = []
for run in range(1, runs + 1):
    server = json.load(open(f"{folder}/server-{run}.json"))
    relay = json.load(open(f"{folder}/relay-{run}.json"))
    s, r = server["server"]["cpu_us_per_command"], relay["server"]["cpu_us_per_command"]
    rows.append((s, r, s / r))
    print(f"run {run}: server {s:.1f} us/command ({server['commands_per_second']:.0f}/s, "
          f"{server['frames']['frames_per_command']:.2f} frames of ~{server['frames']['update_bytes']} bytes), "
          f"relay {r:.1f} us/command ({relay['commands_per_second']:.0f}/s, {relay['frames']['frames_per_command']:.2f} frames), "
          f"ratio {s / r:.2f}; the generator's own {server['generator']['cpu_us_per_command']:.0f} and "
          f"{relay['generator']['cpu_us_per_command']:.0f} us/command")
print(json.dumps({"server_us_per_command": statistics.median(x[0] for x in rows),
                  "relay_us_per_command": statistics.median(x[1] for x in rows),
                  "ratio": statistics.median(x[2] for x in rows)}))
PY
