#!/usr/bin/env bash
# The figures of docs/scaling.md: PROCESSES release servers on one PostgreSQL server of
# their own (scripts/postgres.sh), the first leading, and elgrande-load spreading TABLES
# games' seats over all of them. Prints elgrande-load's JSON (the servers' CPU and memory
# summed over the processes, and PostgreSQL's CPU as "database"). With FAILOVER=N, instead kills the leader N times while
# bots play TABLES tables, and prints the milliseconds from each kill until another process
# leads and answers on its port, and each leader's restore: [tables, commands replayed, ms]. SERVER names another server binary (a copy of the build before a
# change) and SERVER_FLAGS adds server options, as for load.sh.
# Usage: scripts/cluster-load.sh [PROCESSES] [TABLES] [PLAYERS] [elgrande-load flags]
set -euo pipefail
cd "$(dirname "$0")/.."
processes=${1:-2}
tables=${2:-50}
players=${3:-4}
shift $(( $# > 3 ? 3 : $# ))
cmake --preset release >/dev/null
cmake --build --preset release --target elgrande-server elgrande-load elgrande-bot >/dev/null

state=$(mktemp -d)
pids=()
stop_all() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  bash scripts/postgres.sh stop "$state" >/dev/null
  rm -rf "$state"
}
trap stop_all EXIT
bash scripts/postgres.sh start "$state" >&2
url=$(cat "$state/url")

# Process i on port base+i, so that a restarted one comes back where it was.
base=$((20000 + RANDOM % 20000))
start() {
  local i=$1
  "${SERVER:-./build/release/server/elgrande-server}" --config config/server.json --database "$url" --port $((base + i)) \
    --data-dir "$state/data$i" --log-level "$([[ -n "${FAILOVER:-}" ]] && echo info || echo warn)" --bot-delay-ms 0 --messages-per-second 100000 \
    --message-burst 100000 --new-identities-per-address-per-hour 0 --open-tables-per-player 0 \
    ${SERVER_FLAGS:-} >"$state/out$i" 2>>"$state/log$i" &
  pids[$i]=$!
  for _ in $(seq 200); do grep -qs "listening on" "$state/out$i" && return; sleep 0.05; done
  echo "process $i did not start" >&2
  exit 1
}
leader_port() { psql "$url" -tAc "SELECT address FROM leader" 2>/dev/null | sed 's/.*://'; }

urls=()
for i in $(seq 0 $((processes - 1))); do
  start "$i"
  [[ $i -eq 0 ]] && until [[ -n "$(leader_port)" ]]; do sleep 0.05; done
  urls+=(--url "ws://127.0.0.1:$((base + i))/ws")
done

if [[ -z "${FAILOVER:-}" ]]; then
  server_pids=()
  for pid in "${pids[@]}"; do server_pids+=(--server-pid "$pid"); done
  # PostgreSQL's own CPU apart ("database"): the postmaster and its processes, the servers'
  # connections among them.
  postmaster=$(head -1 "$(cat "$state/data")/postmaster.pid")
  for pid in "$postmaster" $(pgrep -P "$postmaster"); do server_pids+=(--database-pid "$pid"); done
  ./build/release/clients/elgrande-load "${urls[@]}" --tables "$tables" --players "$players" "${server_pids[@]}" "$@"
  exit 0
fi

# Failover: bots keep playing through every process while the leader is killed.
./build/release/clients/elgrande-bot "${urls[@]}" --reconnect --tables "$tables" --players "$players" --think-ms 20 --time-limit 600 \
  >/dev/null 2>&1 &
bots=$!
sleep 2
times=()
for _ in $(seq "$FAILOVER"); do
  old=$(leader_port)
  i=$((old - base))
  started=$(date +%s%N)
  kill -9 "${pids[$i]}"
  wait "${pids[$i]}" 2>/dev/null || true
  # Until another process has taken over, restored, listens and answers.
  until new=$(leader_port) && [[ -n "$new" && "$new" != "$old" ]] && curl -fsS "http://127.0.0.1:$new/healthz" >/dev/null 2>&1; do
    sleep 0.005
  done
  times+=($(( ($(date +%s%N) - started) / 1000000 )))
  start "$i"  # back, forwarding
  sleep 1
done
kill "$bots" 2>/dev/null || true
# Each new leader's restore: "<tables> <milliseconds>", for the handover time per table.
restores=$(grep -ho "and [0-9]* tables ([0-9]* commands replayed) in [0-9]* ms" "$state"/log* |
           sed -E 's/and ([0-9]+) tables \(([0-9]+) commands replayed\) in ([0-9]+) ms/[\1, \2, \3]/' | paste -sd, -)
printf '{"processes": %d, "tables": %d, "kills": %d, "takeover_ms": [%s], "restores": [%s]}\n' "$processes" "$tables" \
  "$FAILOVER" "$(IFS=,; echo "${times[*]}")" "$restores"
