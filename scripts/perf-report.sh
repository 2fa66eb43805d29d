#!/usr/bin/env bash
# The performance targets of docs/performance.md in one Markdown table, measured side by
# side: each of RUNS rounds runs every measurement once, one after another, so that a slow
# hour falls on all of them alike, and the table gives each figure's median over the rounds
# and the ratios that the targets are about (absolute figures move 2-3x between machines).
# Usage: scripts/perf-report.sh [RUNS] [SECONDS per measurement]
# Each round: the saturated server (50 tables open loop) and the bare relay with its frame
# sizes, open loop and paced at 1,000 commands/s; the server paced at 1,000 commands/s (200 tables) and at half its saturated rate;
# one process on PostgreSQL (a server of the script's own, scripts/postgres.sh), open loop;
# 2,000 idle connections after hello. About 2 minutes a round at the default 15 s.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
seconds=${2:-15}
cmake --preset release >/dev/null
cmake --build --preset release --target elgrande-server elgrande-load elgrande-relay elgrande-bot >/dev/null

results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT
figure() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2], {}, {"d": d}))' "$@"; }
load=(--seconds "$seconds" --warmup 3)

# The bare relay (clients/load/relay.cpp) with the frame sizes of this round's server run.
relay() {
  local json=$1 out="$results/relay.out"
  shift
  ./build/release/clients/elgrande-relay >"$out" &
  local pid=$!
  for _ in $(seq 100); do grep -qs "listening on" "$out" && break; sleep 0.1; done
  ./build/release/clients/elgrande-load --relay --url "ws://$(sed -n 's/^listening on //p' "$out")/ws" \
    --players 4 "${load[@]}" "$@" --command-bytes "$command" --ack-bytes "$ack" \
    --update-bytes "$update" --server-pid "$pid" >"$json"
  kill "$pid"; wait "$pid" 2>/dev/null || true
}

for run in $(seq "$runs"); do
  echo "round $run of $runs" >&2
  bash scripts/load.sh 50 4 "${load[@]}" >"$results/saturated-$run.json"
  read -r command ack update < <(figure "$results/saturated-$run.json" \
    '"{command_bytes} {ack_bytes} {update_bytes}".format(**d["frames"])')
  relay "$results/relay-$run.json" --tables 50
  relay "$results/relay-everyday-$run.json" --tables 200 --rate 1000
  half=$(figure "$results/saturated-$run.json" 'int(d["commands_per_second"] / 2)')
  bash scripts/load.sh 200 4 "${load[@]}" --rate 1000 >"$results/everyday-$run.json"
  bash scripts/load.sh 100 4 "${load[@]}" --rate "$half" >"$results/half-$run.json"
  bash scripts/cluster-load.sh 1 50 4 "${load[@]}" 2>/dev/null >"$results/postgresql-$run.json"
  bash scripts/load.sh 10 4 --seconds 5 --warmup 1 --idle 2000 >"$results/idle-$run.json"
done

python3 - "$results" "$runs" <<'PY'
import json, statistics, sys
folder, runs = sys.argv[1], int(sys.argv[2])
def each(name, pick):
    return [pick(json.load(open(f"{folder}/{name}-{run}.json"))) for run in range(1, runs + 1)]
def median(values):
    return statistics.median(values)
cpu = lambda d: d["server"]["cpu_us_per_command"]
rate = lambda d: d["commands_per_second"]
p99 = lambda d: d["latency_us"]["p99"] / 1000
saturated, relay = each("saturated", cpu), each("relay", cpu)
everyday, relay_everyday = each("everyday", cpu), each("relay-everyday", cpu)
sqlite, postgresql = each("saturated", rate), each("postgresql", rate)
rows = [
    ("saturated: server CPU per command against the bare relay's",
     f"{median(saturated):.1f} µs against {median(relay):.1f} µs", median([s / r for s, r in zip(saturated, relay)]), "≤ 1.3", "le", 1.3),
    ("everyday: CPU per command at a paced 1,000/s against the saturated figure",
     f"{median(everyday):.1f} µs against {median(saturated):.1f} µs", median([e / s for e, s in zip(everyday, saturated)]), "≤ 1.25", "le", 1.25),
    ("everyday, for comparison: the bare relay paced alike against its own saturated figure",
     f"{median(relay_everyday):.1f} µs against {median(relay):.1f} µs", median([e / s for e, s in zip(relay_everyday, relay)]), "—", "none", 0),
    ("everyday, for comparison: the server paced at 1,000/s against the bare relay paced alike",
     f"{median(everyday):.1f} µs against {median(relay_everyday):.1f} µs", median([e / r for e, r in zip(everyday, relay_everyday)]), "—", "none", 0),
    ("everyday: p99 command → every seat at 1,000/s (ms)",
     f"p50 {median(each('everyday', lambda d: d['latency_us']['p50'] / 1000)):.2f} ms", median(each("everyday", p99)), "≤ 5", "le", 5),
    ("latency: p99 at half the saturated rate (ms)",
     f"{median(each('half', rate)):.0f} commands/s", median(each("half", p99)), "≤ 10", "le", 10),
    ("PostgreSQL: committed commands/s of one process against SQLite's",
     f"{median(postgresql):.0f} against {median(sqlite):.0f}", median([p / s for p, s in zip(postgresql, sqlite)]), "≥ 0.8", "ge", 0.8),
    ("memory: server RSS per idle connection after hello (KB)",
     "2,000 connections", median(each("idle", lambda d: d["server"]["kb_per_idle_connection"])), "≤ 4", "le", 4),
]
print(f"{runs} rounds of {json.load(open(f'{folder}/saturated-1.json'))['seconds']:.0f} s each; medians over the rounds.\n")
print("| target | figures | measured | wanted | met |")
print("|---|---|---|---|---|")
for name, figures, value, wanted, way, bound in rows:
    met = "" if way == "none" else "yes" if (value <= bound if way == "le" else value >= bound) else "no"
    print(f"| {name} | {figures} | **{value:.2f}** | {wanted} | {met} |")
PY
