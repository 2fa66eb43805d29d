#!/usr/bin/env bash
# What TLS costs the server, side by side with plain WebSocket in one run (docs/deploy.md):
# scripts/load.sh without and with TLS=1, alternating, RUNS times each; prints the medians of
# the server's CPU per command, its CPU per connection opened (the TLS handshake and hello),
# the connections opened per second, and memory per idle connection, with the ratios.
# Usage: scripts/tls-figures.sh [RUNS] [TABLES] [IDLE]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
tables=${2:-50}
idle=${3:-1000}
results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT
for run in $(seq "$runs"); do
  for tls in 0 1; do
    TLS=$tls bash scripts/load.sh "$tables" 4 --seconds 10 --idle "$idle" >"$results/$tls-$run.json"
  done
done
/usr/bin/python3 - "$results" "$runs" <<'PY'
import json, pathlib, statistics, sys
folder, runs = pathlib.Path(sys.argv[1]), int(sys.argv[2])
def median(tls, pick):
    return statistics.median(pick(json.loads((folder / f"{tls}-{run}.json").read_text())) for run in range(1, runs + 1))
rows = [
    ("server CPU per command (µs)", lambda r: r["server"]["cpu_us_per_command"]),
    ("server CPU per connection opened, hello included (µs)", lambda r: r["server"]["cpu_us_per_idle_connection_opened"]),
    ("connections opened per second (client on the same cores)", lambda r: r["idle_connections_opened_per_second"]),
    ("server memory per idle connection (KB)", lambda r: r["server"]["kb_per_idle_connection"]),
    ("commands per second", lambda r: r["commands_per_second"]),
]
print(f"| medians of {runs} runs | ws:// | wss:// | wss / ws |")
print("|---|---|---|---|")
for name, pick in rows:
    plain, secure = median(0, pick), median(1, pick)
    print(f"| {name} | {plain:.1f} | {secure:.1f} | {secure / plain:.2f} |")
PY
