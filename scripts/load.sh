#!/usr/bin/env bash
# The load figures of docs/bot-client.md: a release server on a free loopback port with
# bots answering at once and the rate limit opened up, and elgrande-bot playing TABLES
# games at the same time with every seat a remote client. Prints the bot's JSON report
# with the server's own CPU time per accepted command added, a figure that does not
# depend on how much of the machine the bot client takes.
# Usage: scripts/load.sh [TABLES] [PLAYERS] [extra elgrande-bot flags...]
# SERVER_FLAGS adds server options, e.g. SERVER_FLAGS="--durability normal".
set -euo pipefail
cd "$(dirname "$0")/.."
tables=${1:-50}
players=${2:-4}
shift $(( $# > 2 ? 2 : $# ))
cmake --preset release >/dev/null
cmake --build --preset release --target elgrande-server elgrande-bot >/dev/null
server_flags=(${SERVER_FLAGS:-})

data=$(mktemp -d)
out="$data/stdout"
./build/release/server/elgrande-server --config config/server.json --port 0 --data-dir "$data" \
  --log-level warn --bot-delay-ms 0 --messages-per-second 100000 --message-burst 100000 \
  --new-identities-per-address-per-hour 0 \
  "${server_flags[@]}" >"$out" &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$data"' EXIT
for _ in $(seq 100); do grep -q "listening on" "$out" && break; sleep 0.1; done
where=$(sed -n 's/^listening on //p' "$out")

# utime + stime of the server, in clock ticks (fields 14 and 15 of /proc/PID/stat).
cpu_ticks() { awk '{print $14 + $15}' "/proc/$server/stat"; }
before=$(cpu_ticks)
status=0
report=$(./build/release/clients/elgrande-bot --url "ws://$where/ws" --tables "$tables" \
  --players "$players" "$@") || status=$?
after=$(cpu_ticks)
commands=$(sed -n 's/^  "commands": \([0-9]*\),$/\1/p' <<<"$report")
server_us=$(awk -v t=$((after - before)) -v hz="$(getconf CLK_TCK)" -v n="${commands:-0}" \
  'BEGIN { if (n > 0) printf "%.1f", t / hz * 1e6 / n; else print "null" }')
# The report is one JSON object; the server's figure goes in as its last member.
sed '$d' <<<"$report"
printf '  ,"server_cpu_us_per_command": %s\n}\n' "$server_us"
exit "$status"
