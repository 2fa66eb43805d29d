#!/usr/bin/env bash
# Two server binaries measured at once (docs/performance.md, "The tools"): each
# on its own loopback port with its own elgrande-load playing TABLES tables, both started
# together, so whatever else the machine does falls on both alike. Runs one after another
# on this VM vary by ±15%; B's cost per command over A's, measured at once, varies by about
# ±1%. Prints one line per run and the median ratio (below 1: B costs less).
# Usage: scripts/ab-servers.sh A_SERVER B_SERVER [RUNS] [TABLES] [elgrande-load flags]
#   e.g. cp build/release/server/elgrande-server /tmp/before; (change, rebuild);
#        scripts/ab-servers.sh /tmp/before build/release/server/elgrande-server 5
# SERVER_FLAGS adds options to both servers.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { sed -n '2,10p' "$0"; exit 2; }
a=$1
b=$2
runs=${3:-5}
tables=${4:-25}
shift $(( $# > 4 ? 4 : $# ))
cmake --preset release >/dev/null
cmake --build --preset release --target elgrande-load >/dev/null
server_flags=(${SERVER_FLAGS:-})

work=$(mktemp -d)
servers=()
trap 'kill "${servers[@]}" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
binaries=("$a" "$b")
sides=(a b)

for run in $(seq "$runs"); do
  servers=()
  for i in 0 1; do
    data="$work/${sides[$i]}$run"
    mkdir -p "$data"
    "${binaries[$i]}" --config config/server.json --port 0 --data-dir "$data" \
      --log-level warn --bot-delay-ms 0 --messages-per-second 100000 --message-burst 100000 \
      --new-identities-per-address-per-hour 0 --open-tables-per-player 0 \
      "${server_flags[@]}" >"$data/stdout" &
    servers+=($!)
  done
  loads=()
  for i in 0 1; do
    data="$work/${sides[$i]}$run"
    for _ in $(seq 100); do grep -qs "listening on" "$data/stdout" && break; sleep 0.1; done
    where=$(sed -n 's/^listening on //p' "$data/stdout")
    ./build/release/clients/elgrande-load --url "ws://$where/ws" --tables "$tables" --players 4 \
      --server-pid "${servers[$i]}" --seconds 12 "$@" >"$data.json" &
    loads+=($!)
  done
  wait "${loads[@]}"
  kill "${servers[@]}"
  wait "${servers[@]}" 2>/dev/null || true
done

python3 - "$work" "$runs" <<'PY'
import json, statistics, sys
folder, runs = sys.argv[1], int(sys.argv[2])
ratios = []
for run in range(1, runs + 1):
    a = json.load(open(f"{folder}/a{run}.json"))
    b = json.load(open(f"{folder}/b{run}.json"))
    ca, cb = a["server"]["cpu_us_per_command"], b["server"]["cpu_us_per_command"]
    ratios.append(cb / ca)
    print(f"run {run}: A {ca:.1f} us/command ({a['commands_per_second']:.0f}/s), "
          f"B {cb:.1f} us/command ({b['commands_per_second']:.0f}/s), B/A {cb / ca:.3f}")
print(json.dumps({"b_over_a": round(statistics.median(ratios), 3),
                  "runs": [round(r, 3) for r in ratios]}))
PY
